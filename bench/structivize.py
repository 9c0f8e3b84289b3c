"""diagbench against structivize, STRUDEL's own rendering toolkit, side by side in one run.

Renders the same seeded inputs in every category both draw — diagbench's generators
(`Language.generate`) and baseline:synth's writer (`benchmarks.structure.synth`) write
them — with diagbench's engines, warm (`Language.make_engine(jobs).render`, PNG, after one
render of two diagrams that is not timed), and with structivize the way STRUDEL's batch
script calls it (`Renderer.from_dict(...).render()` in a process pool of `--jobs` workers,
forked after structivize's import, which is timed apart), the two sides one after the
other for each category (the machine's load changes). Prints per category the
diagrams, each side's diagrams/s, the ratio (diagbench's rate over structivize's), how
many each drew without error on the same inputs, and the load average. Under a row:
valid drawings per second when a side drew fewer than all (with why: the first
errors, and for a crashed structivize worker the last line it wrote and its signal),
the CPU each side spent a diagram, all its processes counted (the drawing processes,
the programs they ran, the warm engines: what the ratio comes to when the cores are
the bound, whatever else runs on them), and for a renderer that is one call of an
in-process library or program (Qiskit, logomaker, Bio.Phylo, geopandas, RDKit,
Graphviz's dot: `FLOOR_CALLS`) that call's seconds per diagram alone, as
structivize makes it, in a fresh process importing only that library, beside each
side's seconds per diagram and process: the ratio a drawing costing just that call
would reach, and what the goal asks for.
Goal: ratio >= 10 in every shared category, with as many valid drawings or more.

structivize is not on PyPI: it is installed from its source (a checkout or sdist of
github.com/danielsteinigen/structivize, MIT; `--structivize-source PATH`) into an
environment of its own (`--env`, default ~/.cache/diagbench/structivize), with the
Python packages of its extras from PyPI (its domain modules import every renderer of
the domain) and its npm `dbml-renderer`. The programs it runs come from Debian
(inkscape, lilypond, java, yosys, graphviz, chromium: `apt-get install`); the PlantUML,
VARNA and netlistsvg it runs are diagbench's own (the same jar and skins for both
sides). A category whose program is missing is listed with the reason, not run.

Usage: python bench/structivize.py [--diagrams N] [--jobs J] [--seed S]
           [--categories LIST] [--structivize-source PATH] [--env DIR]
This file also runs inside structivize's environment (`--driver JOBS RESULTS`,
`--floor RENDERER CODES`): its top level imports the standard library only.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

REPO = Path(__file__).resolve().parents[1]
DEFAULT_ENV = Path.home() / ".cache" / "diagbench" / "structivize"
RATIO_GOAL = 10.0
COMPLEXITIES = ("low", "medium", "high")
#: Packages structivize's extras need beside their own requirements: its batch script's
#: progress bar, the browser driver its markmap renderer imports, and the IPython whose
#: `IPython.core.display.display` SBMLDiagrams (imported by its biology domain) still uses.
EXTRA_PACKAGES = ("tqdm", "playwright", "ipython<9")
DBML_RENDERER = "@softwaretechnik/dbml-renderer@1.0.30"
SOURCE_HINT = ("structivize is not on PyPI: get its source (git clone "
               "https://github.com/danielsteinigen/structivize) and pass "
               "--structivize-source PATH")


@dataclass(frozen=True, slots=True)
class Shared:
    """One category both draw: diagbench's category and language, the structivize
    renderer of that language (and the category it is told, for its statistics), the
    programs that renderer runs, why it cannot run here at all ("" when it can), and
    how the two drawings differ when they are not drawn by the same tool ("" when
    they are)."""

    category: str
    language: str
    renderer: str
    strudel_category: str = ""
    programs: tuple[str, ...] = ("inkscape",)
    unavailable: str = ""
    drawn_otherwise: str = ""


SHARED: tuple[Shared, ...] = (
    Shared("class", "plantuml", "model_plantuml", "class", ("java", "inkscape")),
    Shared("sequence", "plantuml", "model_plantuml", "sequence", ("java", "inkscape")),
    Shared("component", "plantuml", "model_plantuml", "component", ("java", "inkscape")),
    Shared("usecase", "plantuml", "model_plantuml", "usecase", ("java", "inkscape")),
    Shared("state", "plantuml", "model_plantuml", "state", ("java", "inkscape")),
    Shared("er", "dbml", "db_dbml", "er", ("node", "inkscape")),
    Shared("flowchart", "mermaid", "model_mermaid", "flowchart", ("node", "chromium")),
    Shared("gantt", "mermaid", "model_mermaid", "gantt", ("node", "chromium")),
    Shared("mind-map", "mermaid", "model_mermaid", "mind", ("node", "chromium")),
    Shared("molecule", "smiles", "chem_smiles"),
    Shared("reaction", "reaction-smiles", "chem_smarts_reaction", programs=()),
    Shared("phylogenetic-tree", "newick", "bio_newick", programs=()),
    Shared("dna-sequence", "fasta", "bio_fasta", programs=()),
    Shared("rna-structure", "dotbracket", "bio_vienna", programs=("java",)),
    Shared("map", "geojson", "charts_geojson", programs=()),
    Shared("chess-board", "fen", "chess_fen"),
    Shared("music", "abc", "music_abc", programs=("abc2ly", "lilypond", "inkscape")),
    Shared("electrical-circuit", "spice", "circuit_spice", programs=("node", "inkscape")),
    Shared("digital-hardware", "verilog", "hdl_verilog",
           programs=("yosys", "node", "inkscape")),
    Shared("quantum-circuit", "qasm", "quantum_qasm2", programs=()),
    Shared("propositional-logic", "logic", "logic"),
    Shared("business-process", "bpmn", "biz_bpmn", programs=("dot", "inkscape"),
           drawn_otherwise="structivize draws a Graphviz graph of the process's elements "
                           "(its own shapes, Graphviz's layout); diagbench draws the BPMN "
                           "diagram the file lays out, in BPMN's notation, with bpmn-js"),
    Shared("chart", "plotly", "charts_plotly", programs=("chromium", "inkscape")),
    Shared("table", "plotly", "charts_plotly", programs=("chromium", "inkscape")),
    Shared("knowledge-graph", "rdf", "kg_xml", programs=("dot", "inkscape")),
    Shared("deep-learning", "onnx", "nn_onnx", programs=(),
           unavailable="its renderer runs netron-export, published only on GitHub (not "
                       "PyPI), on a binary ONNX file"),
)


def shared_named(names: Sequence[str]) -> list[Shared]:
    """The rows of `names` (categories), in `SHARED`'s order; ValueError for an unknown one."""
    known = {s.category for s in SHARED}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"not a shared category: {', '.join(unknown)} "
                         f"(known: {', '.join(sorted(known))})")
    return [s for s in SHARED if s.category in names]


def missing_programs(shared: Shared, which=shutil.which) -> list[str]:
    """The programs of `shared` not on PATH (`which`: how one is looked up)."""
    return [p for p in shared.programs if which(p) is None]


def for_structivize(shared: Shared, code: str) -> str:
    """`code` in the form structivize's renderer reads: a FASTA record's sequence on one
    line (its reader refuses a sequence over several lines); the rest as it is."""
    if shared.language != "fasta":
        return code
    lines: list[str] = []
    for line in (raw.strip() for raw in code.splitlines()):
        if not line:
            continue
        if line.startswith(">") or not lines or lines[-1].startswith(">"):
            lines.append(line)
        else:
            lines[-1] += line
    return "\n".join(lines) + "\n"


# --- the figures and the table ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Side:
    """One side's render of a category's inputs: seconds, how many drew without error,
    and the CPU seconds its processes spent (all of them: the drawing processes, the
    programs they ran, the warm engines; None when not measured)."""

    seconds: float
    valid: int
    cpu: float | None = None


@dataclass(frozen=True, slots=True)
class Row:
    """One category's figures: `diagrams` inputs drawn by both sides, or `skipped` why not."""

    category: str
    renderer: str
    diagrams: int = 0
    structivize: Side | None = None
    diagbench: Side | None = None
    skipped: str = ""
    jobs: int = 1
    floor: float | None = None  # seconds per diagram of the library call alone
    drawn_otherwise: str = ""  # how the two drawings differ (Shared.drawn_otherwise)

    @staticmethod
    def rate(n: int, side: Side | None) -> float | None:
        return n / side.seconds if side is not None and side.seconds > 0 else None

    @property
    def ratio(self) -> float | None:
        """diagbench's diagrams/s over structivize's (None when a side is missing)."""
        if self.structivize is None or self.diagbench is None or self.diagbench.seconds <= 0:
            return None
        return self.structivize.seconds / self.diagbench.seconds

    def per_process(self, side: Side | None) -> float | None:
        """A side's seconds per diagram and process (its seconds × jobs / diagrams)."""
        if side is None or not self.diagrams:
            return None
        return side.seconds * self.jobs / self.diagrams

    @property
    def ratio_bound(self) -> float | None:
        """structivize's seconds per diagram and process over the library call's alone
        (`floor`): the ratio a drawing costing just that call reaches."""
        theirs = self.per_process(self.structivize)
        return None if theirs is None or not self.floor else theirs / self.floor

    @property
    def meets_goal(self) -> bool:
        """Ratio >= RATIO_GOAL and at least as many valid drawings as structivize."""
        ratio = self.ratio
        return (ratio is not None and ratio >= RATIO_GOAL and self.structivize is not None
                and self.diagbench is not None and self.diagbench.valid >= self.structivize.valid)


def table(rows: Sequence[Row], load: tuple[float, float, float]) -> str:
    """The printed table: one line per category, then the load average and the goal."""
    head = (f"{'category':<20}{'structivize renderer':<22}{'n':>4}{'structivize/s':>14}"
            f"{'diagbench/s':>12}{'ratio':>9}{'valid s':>8}{'valid d':>8}  goal")
    lines = [head]
    for row in rows:
        start = f"{row.category:<20}{row.renderer:<22}"
        if row.skipped:
            lines.append(f"{start}not run: {row.skipped}")
            continue
        n = row.diagrams
        theirs, ours, ratio = Row.rate(n, row.structivize), Row.rate(n, row.diagbench), row.ratio
        lines.append(
            f"{start}{n:>4}{_num(theirs, 14, 2)}{_num(ours, 12, 1)}"
            f"{'—' if ratio is None else f'{ratio:.1f}x':>9}"
            f"{_count(row.structivize, n):>8}{_count(row.diagbench, n):>8}  "
            f"{'met' if row.meets_goal else 'NOT met'}")
        lines.extend(_notes(row))
    lines.append(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; goal: ratio >= "
                 f"{RATIO_GOAL:g}x (diagbench's diagrams/s over structivize's) with as many "
                 "valid drawings or more")
    return "\n".join(lines)


def _notes(row: Row) -> list[str]:
    """The lines under a row: valid drawings per second when a side drew fewer than
    all, the CPU each side spent a diagram, the library call's floor when it was
    measured, and how the drawings differ when two tools draw them."""
    notes = [f"    not the same drawing: {row.drawn_otherwise}"] if row.drawn_otherwise else []
    n, theirs, ours = row.diagrams, row.structivize, row.diagbench
    if theirs is not None and ours is not None and min(theirs.valid, ours.valid) < n:
        notes.append(f"    valid drawings/s: structivize {_valid_rate(theirs)}, "
                     f"diagbench {_valid_rate(ours)}")
    bound, theirs_each, ours_each = row.ratio_bound, row.per_process(theirs), row.per_process(ours)
    if theirs is not None and ours is not None and theirs.cpu and ours.cpu and n:
        notes.append(f"    CPU a diagram (every process of a side): structivize "
                     f"{1000 * theirs.cpu / n:.0f} ms, diagbench {1000 * ours.cpu / n:.0f} ms: "
                     f"{theirs.cpu / ours.cpu:.1f}x")
    if row.floor is not None and bound is not None and theirs_each and ours_each:
        notes.append(
            f"    floor: the library call alone (as structivize makes it, one process) "
            f"{1000 * row.floor:.0f} ms a diagram; per diagram and process structivize "
            f"{1000 * theirs_each:.0f} ms ({bound:.1f}x the call), diagbench "
            f"{1000 * ours_each:.0f} ms ({ours_each / row.floor:.2f}x); "
            f"{RATIO_GOAL:g}x asks for {1000 * theirs_each / RATIO_GOAL:.0f} ms")
    return notes


def _valid_rate(side: Side) -> str:
    return f"{side.valid / side.seconds:.2f}" if side.seconds > 0 else "—"


def _num(value: float | None, width: int, places: int) -> str:
    return f"{'—':>{width}}" if value is None else f"{value:>{width}.{places}f}"


def _count(side: Side | None, n: int) -> str:
    return "—" if side is None else f"{side.valid}/{n}"


# --- inputs and diagbench's side (diagbench's environment) ---------------------------------


def inputs(shared: Shared, n: int, seed: int) -> list[str]:
    """`n` seeded inputs of the category: the language's generator where it has one (a
    language of several categories drawn again, up to 20 times, until its reader gives
    one of the category's kinds), else baseline:synth's writer over its domains."""
    from diagbench.benchmarks.structure.synth import DOMAINS, synth_diagram
    from diagbench.languages import category_named, named

    language = named(shared.language)
    kinds = category_named(shared.category).kinds
    rng = random.Random(f"{seed}:{shared.category}")
    domains = sorted(DOMAINS)
    codes = []
    for k in range(n):
        complexity = COMPLEXITIES[k % len(COMPLEXITIES)]
        if not language.generates:
            codes.append(synth_diagram(shared.category, shared.language, complexity,
                                       domains[k % len(domains)], rng)[1])
            continue
        for _ in range(20):
            code = language.generate(rng, complexity)
            read = language.read(code)
            if len(language.categories) == 1 or (read and read[0].kind in kinds):
                break
        codes.append(code)
    return codes


def diagbench_side(shared: Shared, codes: list[str], jobs: int, folder: Path
                   ) -> tuple[Side, list[str]]:
    """diagbench's engine of the language, warm (two diagrams drawn first, not timed),
    drawing `codes` to PNG: (seconds and valid drawings, the first reasons of the invalid)."""
    from diagbench.languages import named

    language = named(shared.language)
    prepared = []
    for code in codes:
        read = language.read(code)
        prepared.append(language.prepare(code, read[0].kind if read else "", False))
    for sub in ("warm", "timed"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    engine = language.make_engine(jobs=jobs)
    try:
        engine.render(prepared[:2], folder / "warm", "png")
        cpu = tree_cpu()
        start = time.perf_counter()
        results = engine.render(prepared, folder / "timed", "png")
        seconds = time.perf_counter() - start
        cpu_spent = cpu_since(cpu, tree_cpu())
    finally:
        close = getattr(engine, "close", None)
        if callable(close):
            close()
    reasons = sorted({r.error or "" for r in results if not r.ok})[:3]
    return Side(seconds, sum(r.ok for r in results), cpu_spent), reasons


def tree_cpu() -> dict[int, float]:
    """CPU seconds of this process and each of its descendants by process id (Linux's
    /proc), each with what it spent itself and what its ended children spent."""
    from proc_tree import stat_fields, tree  # bench/, this script's folder

    tick, spent = os.sysconf("SC_CLK_TCK"), {}
    for pid in tree(os.getpid()):
        try:  # utime, stime, cutime, cstime
            spent[pid] = sum(int(f) for f in stat_fields(f"/proc/{pid}/stat")[11:15]) / tick
        except OSError:
            continue  # ended while read
    return spent


def cpu_since(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds a process tree spent between two `tree_cpu` readings: what each
    process alive at the end added, less what an ended one had spent before (its
    whole time is now its parent's)."""
    grown = sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())
    return grown - sum(cpu for pid, cpu in before.items() if pid not in after)


# --- structivize's environment -------------------------------------------------------------


def env_python(env: Path) -> Path:
    return env / "venv" / "bin" / "python"


def structivize_python(env: Path, source: Path | None) -> tuple[Path | None, str]:
    """The Python of structivize's environment, installing it from `source` when it is
    not there yet; (None, why) when it cannot be had."""
    python = env_python(env)
    if python.exists() and _imports(python):
        return python, ""
    if source is None:
        return None, SOURCE_HINT
    source = _unpacked(source, env)
    requirements = _requirements(source / "pyproject.toml")
    base = shutil.which("python3.11")
    if base is None:
        return None, "structivize needs Python 3.11 (python3.11 not on PATH)"
    uv = Path(sys.executable).with_name("uv")
    install = ([str(uv), "pip", "install", "--python", str(python)] if uv.exists()
               else [str(python), "-m", "pip", "install", "-q"])
    print(f"installing structivize and {len(requirements)} packages of its extras into "
          f"{env} (once) ...", flush=True)
    steps = [[base, "-m", "venv", str(env / "venv")],
             [*install, *requirements, *EXTRA_PACKAGES],
             [*install, "--no-deps", str(source)],
             ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(env / "npm"),
              DBML_RENDERER]]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode:
            return None, f"{' '.join(step[:4])} ...: " + (
                done.stderr.strip().splitlines() or ["failed"])[-1]
    return (python, "") if _imports(python) else (None, "structivize does not import")


def _imports(python: Path) -> bool:
    """Whether structivize is installed (found, not imported: its import takes minutes)."""
    found = "import importlib.util as u, sys; sys.exit(u.find_spec('structivize') is None)"
    return subprocess.run([str(python), "-c", found], capture_output=True).returncode == 0


def _unpacked(source: Path, env: Path) -> Path:
    """A source folder: `source` itself, or an sdist unpacked into `env`."""
    if source.is_dir():
        return source
    target = env / "source"
    shutil.rmtree(target, ignore_errors=True)
    shutil.unpack_archive(str(source), str(target))
    return next(p.parent for p in target.rglob("pyproject.toml"))


def _requirements(pyproject: Path) -> list[str]:
    """structivize's own requirements and those of all its extras, less the ones from a
    URL (netron-export: GitHub only; its ONNX renderer is not run here)."""
    import tomllib

    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    extras = project.get("optional-dependencies", {})
    wanted = list(project.get("dependencies", [])) + [r for reqs in extras.values()
                                                      for r in reqs]
    return sorted({r for r in wanted if " @ " not in r})


def tool_folder(env: Path) -> Path:
    """structivize's TOOL_PATH and PATH additions: diagbench's PlantUML jar, Debian's
    VARNA jar and diagbench's netlistsvg under the names structivize looks for, its npm
    dbml-renderer, and an `mmdc` that starts Debian's chromium (without Chromium's
    sandbox, which cannot start as root)."""
    from diagbench.render.plantuml import jar_path

    folder = env / "tools"
    bin_dir = folder / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    netlistsvg = REPO / "tools" / "netlistsvg" / "node_modules"
    links = {folder / "plantuml-mit-1.2025.2.jar": jar_path(),
             folder / "VARNAv3-93.jar": Path("/usr/share/java/varna.jar"),
             folder / "netlistsvg": netlistsvg / "netlistsvg",
             bin_dir / "netlistsvg": netlistsvg / ".bin" / "netlistsvg",
             bin_dir / "dbml-renderer": env / "npm" / "node_modules" / ".bin" / "dbml-renderer"}
    for link, target in links.items():
        link.unlink(missing_ok=True)
        link.symlink_to(target.resolve())
    config = folder / "puppeteer.json"
    config.write_text(json.dumps({"executablePath": "/usr/bin/chromium",
                                  "args": ["--no-sandbox"]}), encoding="utf-8")
    mmdc = bin_dir / "mmdc"
    real = (REPO / "tools" / "mermaid" / "node_modules" / ".bin" / "mmdc").resolve()
    mmdc.write_text(f'#!/bin/sh\nexec "{real}" -p "{config}" "$@"\n', encoding="utf-8")
    mmdc.chmod(0o755)
    return folder


class Structivize:
    """structivize drawing in its own environment (this file's `--driver`, started once:
    structivize's import takes minutes), one category's batch at a time: `draw` sends a
    batch as one JSON line and reads the `RESULT` line the driver answers."""

    def __init__(self, python: Path, tools: Path, jobs: int, out: Path) -> None:
        env = dict(os.environ, TOOL_PATH=str(tools), QT_QPA_PLATFORM="offscreen",
                   MPLBACKEND="Agg", TF_CPP_MIN_LOG_LEVEL="3",
                   BROWSER_PATH="/usr/bin/chromium", PATH=_path(tools))
        self.log = (tools.parent / "driver.log").open("w", encoding="utf-8")  # kept after
        self.process = subprocess.Popen(
            [str(python), __file__, "--driver", str(jobs), str(out)], env=env, text=True,
            cwd=out,  # skidl, imported by structivize, writes its logs into the working folder
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log)
        self.import_seconds = float(self._answer("READY"))

    def _answer(self, tag: str) -> str:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith(tag + " "):
                return line[len(tag) + 1:]
        self._ended()

    def _ended(self) -> NoReturn:
        """DriverEnded with the driver's exit (a signal named) and its last stderr line."""
        code = self.process.wait()
        self.log.flush()
        lines = [line for line in Path(self.log.name).read_text(
            encoding="utf-8", errors="replace").splitlines() if line.strip()]
        how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit {code}"
        raise DriverEnded(f"structivize's driver ended ({how}): "
                          f"{lines[-1].strip() if lines else 'nothing on stderr'}")

    def draw(self, shared: Shared, codes: list[str]) -> tuple[Side, list[str]]:
        """(seconds and valid drawings, the first reasons of the invalid) of `codes`;
        DriverEnded when the driver is gone."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps({
                "key": shared.category, "renderer": shared.renderer,
                "category": shared.strudel_category,
                "codes": [for_structivize(shared, c) for c in codes]}) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            self._ended()
        found = json.loads(self._answer("RESULT"))
        return Side(found["seconds"], found["valid"], found["cpu"]), found["errors"]

    def close(self) -> None:
        if self.process.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                self.process.stdin.close()
        self.process.wait()
        self.log.close()


class DriverEnded(RuntimeError):
    """structivize's driver process ended before answering (a crash of the process)."""


# --- the driver (structivize's environment) ------------------------------------------------


def _draw(job: tuple[str, str, str, str]) -> tuple[bool, str]:
    """One diagram drawn as STRUDEL's batch script draws it: (drawn, why not)."""
    from structivize.renderer import Renderer

    renderer, category, code, out = job
    try:
        result = Renderer.from_dict(renderer=renderer, code=code, output_base_path=out,
                                    category=category or None).render()
    except Exception as exc:  # as STRUDEL's batch script counts it
        return False, f"{type(exc).__name__}: {exc}"
    return result.success, result.debug_message


def _worker_start(folder: str) -> None:
    """A pool worker's stderr, where a native crash's message and faulthandler's report
    of it go, into a file of its own in `folder`."""
    import faulthandler

    err = open(Path(folder) / f"worker-{os.getpid()}.err", "w", encoding="utf-8")  # noqa: SIM115
    os.dup2(err.fileno(), 2)
    faulthandler.enable()


def crash_reason(texts: Sequence[str]) -> str:
    """Why a worker died, from the stderr `texts` of a pool's workers: the line before
    faulthandler's "Fatal Python error: <signal>" (the library's own last word, such as
    glibc's "free(): invalid next size (fast)") and that line; "" when none crashed."""
    for text in texts:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        for k, line in enumerate(lines):
            if line.startswith("Fatal Python error"):
                return f"{lines[k - 1]} / {line}" if k else line
    return ""


def _leave_bench_folder() -> None:
    """Take this file's folder off the import path: this file is not the package it is
    named like, nor are its neighbours modules of structivize's environment."""
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]


def batch_lines() -> Iterator[str]:
    """The lines of this process's stdin, read from a descriptor of their own; stdin
    itself becomes /dev/null, which the programs structivize starts inherit. A program
    that left the bench's pipe non-blocking would make the next read find it empty and
    end the loop as if the bench had closed it: the quiet exit (0, nothing on stderr)
    the driver made in some full runs, in the category after a Mermaid one."""
    batches = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    with open(batches, encoding="utf-8") as stream:
        yield from stream


def driver(jobs: int, out: Path) -> None:
    """Import structivize (every domain, as STRUDEL's batch script does), say `READY
    <seconds it took>`, then draw each batch read from stdin (one JSON line,
    `batch_lines`) in a pool forked after that import and answer `RESULT <JSON>`: its
    seconds, valid count and first reasons."""
    import faulthandler

    faulthandler.enable()  # a crash of the driver itself: its stack on stderr (driver.log)
    _leave_bench_folder()
    start = time.perf_counter()
    # RDKit's wheel and skia-python's (which structivize's biology domain imports, through
    # SBMLDiagrams, before its chemistry domain) ship a FreeType and a fontconfig under the
    # same file names: the first loaded serves both, and RDKit's cairo drawing on
    # skia-python's corrupts the heap (glibc aborts, "free(): invalid next size (fast)",
    # on every reaction). RDKit's drawing loaded first, each draws on its own wheel's.
    import rdkit.Chem.Draw.rdMolDraw2D  # noqa: F401

    import structivize  # noqa: F401 - every domain's renderers, as STRUDEL's batch imports them

    print(f"READY {time.perf_counter() - start}", flush=True)
    for line in batch_lines():
        batch = json.loads(line)
        (out / batch["key"]).mkdir(parents=True)  # as STRUDEL's batch script makes them first
        work = [(batch["renderer"], batch["category"], code,
                 str(out / batch["key"] / f"d{k:04d}"))
                for k, code in enumerate(batch["codes"])]
        before = os.times()
        seconds, drawn = _pooled(work, jobs, out / batch["key"])
        after = os.times()  # the pool's workers ended: their CPU and their programs' counted
        cpu = sum(getattr(after, f) - getattr(before, f)
                  for f in ("user", "system", "children_user", "children_system"))
        print("RESULT " + json.dumps({
            "seconds": seconds, "valid": sum(ok for ok, _ in drawn), "cpu": cpu,
            "errors": sorted({why.strip()[:300] for ok, why in drawn if not ok})[:3]}),
            flush=True)


def _pooled(work: list[tuple[str, str, str, str]], jobs: int, folder: Path
            ) -> tuple[float, list[tuple[bool, str]]]:
    """(seconds, what `_draw` gave for each) of `work` in a pool of `jobs` workers. When
    a worker dies (a crash in a drawing library), the diagrams it took down with its pool
    are drawn again in a fresh one, once; a diagram lost twice is not drawn, with what
    the crashed worker last wrote (`crash_reason`; the workers' stderr is kept in
    `folder`). (STRUDEL's batch script stops at the first crash; this gives structivize
    every chance.)"""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    crashed = "its worker process crashed, twice"
    drawn = {k: (False, crashed) for k in range(len(work))}
    todo, seconds = list(range(len(work))), 0.0
    for attempt in range(2):
        errors = folder / f"workers-{attempt}"
        errors.mkdir(parents=True, exist_ok=True)
        with ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start,
                                 initargs=(str(errors),)) as pool:
            try:  # every worker forked before the clock
                list(pool.map(time.sleep, [0.2] * jobs))
            except BrokenProcessPool:
                continue
            start = time.perf_counter()
            futures = {k: pool.submit(_draw, work[k]) for k in todo}
            lost = []
            for k, future in futures.items():
                try:
                    drawn[k] = future.result()
                except BrokenProcessPool:
                    lost.append(k)
            seconds += time.perf_counter() - start
        todo = lost
        if not todo:
            break
        why = crash_reason([f.read_text(encoding="utf-8", errors="replace")
                            for f in sorted(errors.glob("*.err"))])
        if why:
            drawn |= {k: (False, f"{crashed}: {why}") for k in todo}
    return seconds, [drawn[k] for k in range(len(work))]


# --- the library call alone (structivize's environment) ------------------------------------


def _qiskit_png(code: str) -> None:
    """structivize's quantum_qasm2 call: Qiskit's matplotlib drawer saving one PNG."""
    import io

    import matplotlib.pyplot as plt
    import qiskit.qasm2

    qiskit.qasm2.loads(code).draw(output="mpl", style="iqp", justify="left",
                                  initial_state=True, filename=io.BytesIO())
    plt.close("all")


def _logo_png(code: str) -> None:
    """structivize's bio_fasta call: logomaker's logo of the records, one PNG."""
    import io

    import logomaker
    import matplotlib.pyplot as plt

    sequences = [line.strip() for line in code.splitlines()
                 if line.strip() and not line.startswith(">")]
    logomaker.Logo(logomaker.alignment_to_matrix(sequences), color_scheme="classic",
                   show_spines=True, stack_order="big_on_top")
    plt.savefig(io.BytesIO(), format="png")
    plt.close("all")


def _phylo_png(code: str) -> None:
    """structivize's bio_newick call: Bio.Phylo's drawing of the tree, one PNG."""
    import io

    import matplotlib.pyplot as plt
    from Bio import Phylo

    Phylo.draw(Phylo.read(io.StringIO(code), "newick"), do_show=False)
    plt.savefig(io.BytesIO(), format="png")
    plt.close("all")


def _geopandas_png(code: str) -> None:
    """structivize's charts_geojson call: geopandas reading and plotting the GeoJSON,
    one PNG at 300 dpi."""
    import io

    import geopandas
    import matplotlib.pyplot as plt

    geopandas.read_file(io.BytesIO(code.encode("utf-8"))).plot().set_axis_off()
    plt.savefig(io.BytesIO(), format="png", dpi=300, bbox_inches="tight")
    plt.close("all")


def _structivize_module(name: str):
    """A module of structivize imported without its packages' own imports (structivize's
    package imports every domain's renderers, which takes minutes)."""
    import importlib
    import importlib.util
    import types

    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec("structivize")
    assert spec is not None and spec.submodule_search_locations is not None
    root = Path(next(iter(spec.submodule_search_locations)))
    parts = name.split(".")
    for k in range(1, len(parts)):
        package = ".".join(parts[:k])
        if package not in sys.modules:
            module = types.ModuleType(package)
            module.__path__ = [str(root.joinpath(*parts[1:k]))]
            sys.modules[package] = module
    return importlib.import_module(name)


def _kg_dot_png(code: str) -> None:
    """structivize's kg_xml call: RDFLib reading the RDF/XML and Graphviz's dot drawing
    structivize's own graph of it (its renderer's code) to one PNG, in memory (no
    resizing, no image checks, no statistics)."""
    from unittest import mock

    import graphviz

    kg = _structivize_module("structivize.renderers.datastructure.renderer_graph_kg")
    renderer = kg.RendererKgXml(code=code, output_base_path=str(Path.cwd() / "floor-kg"))
    renderer._current_tool = "graphviz"
    with mock.patch.object(graphviz.Digraph, "render",
                           lambda self, *args, **kwargs: self.pipe(format="png")), \
            mock.patch.object(renderer, "_png_save", lambda path: None):
        renderer._create_graph_graphviz(renderer._parse_kg("xml"))


def _rdkit_reaction_png(code: str) -> None:
    """structivize's chem_smarts_reaction call: RDKit drawing the reaction, one PNG."""
    from rdkit.Chem import AllChem, Draw

    drawing = Draw.MolDraw2DCairo(800, 300)
    drawing.DrawReaction(AllChem.ReactionFromSmarts(code.strip(), useSmiles=True))
    drawing.GetDrawingText()


#: structivize's renderers that draw by one call of an in-process library (or one run
#: of a program both sides run: Graphviz's dot), and that call without the rest (files,
#: checks, resizing): the floor that any drawing with the same library stays above
#: (`--floor`, in a process importing only that library).
FLOOR_CALLS = {"quantum_qasm2": _qiskit_png, "bio_fasta": _logo_png,
               "bio_newick": _phylo_png, "charts_geojson": _geopandas_png,
               "chem_smarts_reaction": _rdkit_reaction_png, "kg_xml": _kg_dot_png}


def floor_run(renderer: str, codes: Path) -> None:
    """Make `renderer`'s library call (`FLOOR_CALLS`) on each code of the JSON list in
    `codes`, the first two once before the clock, and say `FLOOR <seconds a diagram>
    <how many drew without error>`."""
    _leave_bench_folder()
    call = FLOOR_CALLS[renderer]
    texts = json.loads(codes.read_text(encoding="utf-8"))
    for text in texts[:2]:
        _drew(call, text)
    start = time.perf_counter()
    drew = sum(_drew(call, text) for text in texts)
    print(f"FLOOR {(time.perf_counter() - start) / max(1, len(texts))} {drew}", flush=True)


def _drew(call, text: str) -> bool:
    try:
        call(text)
    except Exception:  # a code the library refuses: timed all the same
        return False
    return True


def floor_seconds(python: Path, shared: Shared, codes: list[str], folder: Path
                  ) -> tuple[float | None, str]:
    """(seconds a diagram of the library call alone, why not measured) for `codes` in
    a fresh process of structivize's environment; (None, "") for a renderer that is
    not one library call."""
    if shared.renderer not in FLOOR_CALLS:
        return None, ""
    listed = folder / f"floor-{shared.category}.json"
    listed.write_text(json.dumps([for_structivize(shared, c) for c in codes]),
                      encoding="utf-8")
    done = subprocess.run([str(python), __file__, "--floor", shared.renderer, str(listed)],
                          capture_output=True, text=True, cwd=folder,
                          env=dict(os.environ, MPLBACKEND="Agg", QT_QPA_PLATFORM="offscreen"))
    said = [line.split() for line in done.stdout.splitlines() if line.startswith("FLOOR ")]
    if done.returncode or not said:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return None, f"the library call alone failed (exit {done.returncode}): {last}"
    return float(said[0][1]), ""


# --- main ----------------------------------------------------------------------------------


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--driver":
        driver(int(sys.argv[2]), Path(sys.argv[3]))
        return
    if len(sys.argv) == 4 and sys.argv[1] == "--floor":
        floor_run(sys.argv[2], Path(sys.argv[3]))
        return
    sys.path.insert(0, str(REPO / "src"))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--diagrams", type=int, default=12, help="Inputs per category.")
    ap.add_argument("--jobs", type=int, default=2, help="Processes on each side.")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--categories", default="", help="Comma-separated; default: all shared.")
    ap.add_argument("--structivize-source", type=Path, default=None,
                    help="A checkout or sdist of structivize (needed once, to install it).")
    ap.add_argument("--env", type=Path, default=DEFAULT_ENV,
                    help="structivize's own environment.")
    args = ap.parse_args()
    try:
        chosen = shared_named(args.categories.split(",")) if args.categories else list(SHARED)
    except ValueError as exc:
        ap.error(str(exc))
    python, why = structivize_python(args.env, args.structivize_source)
    if python is None:
        sys.exit(f"structivize unavailable: {why}")
    tools = tool_folder(args.env)
    rows: dict[str, Row] = {}
    batches: dict[str, tuple[Shared, list[str]]] = {}
    for shared in chosen:
        missing = missing_programs(shared, lambda p: shutil.which(p, path=_path(tools)))
        skipped = shared.unavailable or (
            f"missing {', '.join(missing)} (apt-get install them)" if missing else "")
        rows[shared.category] = Row(shared.category, shared.renderer, skipped=skipped)
        if not skipped:
            batches[shared.category] = (shared, inputs(shared, args.diagrams, args.seed))
    print(f"{len(batches)} shared categories, {args.diagrams} diagrams each, {args.jobs} jobs "
          f"a side; load average at start {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
          flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-structivize-") as tmp:
        theirs = Structivize(python, tools, args.jobs, Path(tmp))
        print(f"structivize's import (every domain, once, not timed below): "
              f"{theirs.import_seconds:.1f} s", flush=True)
        try:
            for key, (shared, codes) in batches.items():
                try:
                    side, their_why = theirs.draw(shared, codes)
                except DriverEnded as exc:  # the next category in a fresh driver
                    rows[key] = Row(key, shared.renderer, skipped=str(exc)[:300])
                    print(table([rows[key]], os.getloadavg()).splitlines()[1], flush=True)
                    theirs.close()
                    theirs = Structivize(python, tools, args.jobs, Path(tmp))
                    continue
                ours, our_why = diagbench_side(shared, codes, args.jobs,
                                               Path(tmp) / "diagbench" / key)
                floor, floor_why = floor_seconds(python, shared, codes, Path(tmp))
                rows[key] = Row(key, shared.renderer, len(codes), side, ours, jobs=args.jobs,
                                floor=floor, drawn_otherwise=shared.drawn_otherwise)
                print("\n".join(table([rows[key]], os.getloadavg()).splitlines()[1:-1]),
                      flush=True)
                for who, reasons in (("structivize", their_why), ("diagbench", our_why),
                                     ("floor", [floor_why] if floor_why else [])):
                    for reason in reasons:
                        print(f"    {who}: {' '.join(reason.split())[:240]}", flush=True)
        finally:
            theirs.close()
    print(table(list(rows.values()), os.getloadavg()))


def _path(tools: Path) -> str:
    return f"{tools / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"


if __name__ == "__main__":
    main()
