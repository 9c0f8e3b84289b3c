"""`diagbench build structure`: STRUDEL's pipeline (paper 004 §3) for software diagrams.

1. **plan** (seeded): for each category × FRL, `--per-category` samples cycling through
   the complexity levels, each with a persona of its category's domain
   (`diagbench.benchmarks.personas`: the bundled set or `--personas DIR`, without
   repetition while the domain's personas last, then in a new order) and a domain of
   application of it;
2. **synthesis** (§3.1, `diagbench.benchmarks.synthesis`): `--prompting all-in-one`
   (default) asks the Fig. 7 prompt, `sequential` asks for the problem statement, then
   for the functional description and code given it; through the runner (cached,
   resumable: DATA/generation/responses.jsonl), the answers split into problem
   statement, functional description and code;
3. **rendering and statistics** (§3.2): each code rendered by its real engine to PNG
   (what models see) and SVG; valid = the engine draws it. Statistics come from the
   parsed model (`diagbench.formats`), never from regular expressions, and are
   cross-checked against the counts read off the engine's SVG. Each engine is started
   once and kept warm while it draws its samples, then ended (memory); engines of
   different names draw at the same time, three at once;
   what each has drawn is kept in DATA/.rendered chunk by chunk, so that a killed build
   run again redraws only the chunks it had not finished (removed when the build ends);
4. **filters** (§3.3), each counted in build.json: call failed, no code, wrong diagram
   kind, the engine does not draw it, parsed counts ≠ drawn counts, node-count
   limits, aspect ratio outside [0.25, 4], near-blank image, duplicate code,
   perceptual-hash duplicate (an equal 64-bit pHash: §3.3 removes "equal code or
   equal images by calculating a perceptual image hash"); then, with `--judge MODEL`, the
   LLM-as-judge filter (Fig. 9, `judging`: below `--judge-threshold`, an unparsable
   verdict or a failed judge call removes the sample; without it build.json says the
   judge was not run);
5. **twins** (`--twins`, `twins`): counterfactual, style and capture twins of the
   kept samples, samples of their own, made and dropped counted in build.json;
6. **closed-ended questions and captions** (§3.4, Fig. 10, `questions`, `captions`):
   the generating model writes one question with its answer and one caption about
   each kept sample (not of its twins); malformed ones are dropped and counted;
7. **tasks** (§3.4, `tasks.derive`; a twin's, `twins.twin_tasks`).

DATA/samples.jsonl, DATA/tasks.jsonl, DATA/images/*.png, DATA/sources/*, DATA/build.json
(deterministic for a seed and deterministic models), DATA/generation/*.jsonl (the
runner's responses: generation, judge, questions, captions) and DATA/timings.json
(seconds per stage — synthesis, statistics, render, filters, judge, twins, questions,
captions, tasks — not deterministic; the samples going into each, those kept and the
twins made).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from diagbench.benchmarks.jsonl import write_jsonl
from diagbench.benchmarks.personas import APPLICATIONS, Personas, bundled
from diagbench.benchmarks.progress import Bars, no_bars
from diagbench.benchmarks.protocol import DataError
from diagbench.benchmarks.structure.captions import ask_captions
from diagbench.benchmarks.structure.counting import statistics
from diagbench.benchmarks.structure.judging import judge_info, judge_samples, rule_checks
from diagbench.benchmarks.structure.limits import limits_of, measures, outside
from diagbench.benchmarks.structure.planned import Planned
from diagbench.benchmarks.structure.questions import ask_questions
from diagbench.benchmarks.structure.records import (
    BuildInfo,
    JudgeInfo,
    Rejection,
    TwinFamily,
    TwinsInfo,
)
from diagbench.benchmarks.structure.tasks import derive, without_duplicates
from diagbench.benchmarks.structure.templates import asked_facts
from diagbench.benchmarks.structure.turns import in_turns
from diagbench.benchmarks.structure.twins import make_twins, twin_tasks
from diagbench.benchmarks.synthesis import COMPLEXITIES, Prompting, template_hash
from diagbench.executors.protocol import Executor
from diagbench.languages import category_named, languages_of, named
from diagbench.render.engines import Engine

if TYPE_CHECKING:
    from diagbench.formats.parsed import Diagram, Parsed

ASPECT = (0.25, 4.0)
#: The pHash distance under which two images are duplicates: 0, equal hashes (§3.3's
#: "equal images"; at a Hamming distance of 4, 484 of 600 Plotly tables and 467 of 600
#: ONNX graphs were removed as duplicates of a table or graph of other content).
PHASH_DISTANCE = 0
NODE_LIMITS = "node count outside the category's limits"
#: The filters of §3.3 after the engine check, in the order applied, by the name
#: build.json counts them under (`filter_counts`), with the reason a sample removed
#: by each is given; the judge's reasons are `judging.JUDGE_REASONS`.
FILTERS = {"node limits": NODE_LIMITS, "aspect ratio": "aspect ratio outside [0.25, 4]",
           "low variance": "near-blank image", "duplicate code": "duplicate code",
           "perceptual-hash duplicate": "perceptual-hash duplicate"}


def filter_counts(samples: list[Planned], judged: bool) -> dict[str, int]:
    """How many samples each filter of §3.3 removed, every filter named (0 where it
    removed none; the judge's only when it was run)."""
    from diagbench.benchmarks.structure.judging import JUDGE_REASONS

    reasons = Counter(s.reason for s in samples)
    out = {name: reasons[reason] for name, reason in FILTERS.items()}
    return out | ({"judge": sum(reasons[r] for r in JUDGE_REASONS)} if judged else {})


def plan(categories: list[str], languages: list[str], per_category: int,
         complexities: list[str], seed: int, personas: Personas | None = None,
         cells: Mapping[str, tuple[str, ...]] | None = None) -> list[Planned]:
    """The samples to generate, seeded, `per_category` of each category in each of its
    FRLs among `languages` (and, with `cells`, among the category's FRLs there): each
    with a persona of its category's domain (`personas`, the bundled set by default),
    drawn without repetition until that domain's personas are used up, then again in a
    new order (so that a persona does not meet the same complexity level every round),
    and a domain of application of that domain (`APPLICATIONS`) the persona has not met
    in its category, FRL and complexity while one is left: the same persona,
    application and complexity would ask a model the same prompt twice (1,930 of 13,200
    planned at 600 a cell with 60 personas a domain, answered alike by baseline:synth)."""
    rng = random.Random(seed)
    chosen = personas or bundled()
    orders: dict[str, random.Random] = {}
    pools: dict[str, list[str]] = {}
    out = []
    met: dict[tuple[str, str, str, str], set[str]] = {}  # cell and persona → applications
    for category in categories:
        domain = category_named(category).domain
        for language in (lang for lang in languages_of(category) if lang in languages
                         and (cells is None or lang in cells.get(category, ()))):
            for n in range(per_category):
                if not pools.get(domain):
                    order = orders.setdefault(domain, random.Random(f"{seed}/{domain}"))
                    pools[domain] = list(chosen.of(domain))
                    order.shuffle(pools[domain])
                complexity, persona = complexities[n % len(complexities)], pools[domain].pop()
                seen = met.setdefault((category, language, complexity, persona), set())
                application = rng.choice([a for a in APPLICATIONS[domain] if a not in seen]
                                         or APPLICATIONS[domain])
                seen.add(application)
                out.append(Planned(f"{category}-{language}-{n:03d}", category, language,
                                   complexity, persona, application))
    return out


def generate(samples: list[Planned], settings: Any, out: Path, max_connections: int,
             prompting: Prompting = "all-in-one", bars: Bars = no_bars) -> None:
    """Ask the model (through the runner, its progress shown by `bars`) and split every
    answer."""
    from diagbench.benchmarks.asking import ask_model
    from diagbench.benchmarks.synthesis import Signals, ask_all, assemble

    signals = [Signals(s.id, s.category, s.language, s.complexity, s.persona, s.domain,
                       prompting) for s in samples]
    answers = ask_all(signals, lambda asks: ask_model(asks, settings, out, max_connections,
                                                      bars, "writing diagrams"))
    for s, signal in zip(samples, signals, strict=True):
        made = assemble(signal, answers)
        s.problem, s.description, s.code, s.fenced = (made.problem, made.description,
                                                      made.code, made.fenced)
        s.reason, s.detail = made.failure, made.detail


def _drawn(sample: Planned, svg: str) -> dict[str, int]:
    """The counts the engine drew (`Language.drawn`) that the sample's model counts too."""
    drawn = named(sample.language).drawn(sample.kind, svg).counts
    return {k: v for k, v in drawn.items() if k in sample.counts}


#: Samples of one language whose slow facts are worked out side by side at a time.
FACTS_AHEAD = 32


def read_all(samples: list[Planned], progress: Callable[[], None] = lambda: None) -> None:
    """Parse every sample with code; fill its kind and statistics (or why not), then its
    facts, each language having worked out its samples' slow parts side by side first
    (`Language.facts_ahead`: FEN's Stockfish searches), each language's warm reading
    processes ended afterwards (`Language.release`); `progress()` once a sample is done
    with (read with its facts, or left out)."""
    read: dict[str, list[tuple[Planned, Parsed[Diagram]]]] = {}  # by language
    for s in samples:
        if (parsed := _parsed(s)) is None:
            progress()
        else:
            read.setdefault(s.language, []).append((s, parsed))
    for language, group in read.items():
        for at in range(0, len(group), FACTS_AHEAD):  # progress shown as each part is done
            part = group[at:at + FACTS_AHEAD]
            named(language).facts_ahead([p.diagram for _, p in part])
            for s, one in part:
                asked = asked_facts(named(language), one, s.statistics)
                s.facts, s.ambiguous = asked.facts, asked.ambiguous
                progress()
        named(language).release()


def _parsed(s: Planned) -> Parsed[Diagram] | None:
    """One sample's code read: its kind, statistics and counts filled and its parse
    returned, or None (with the reason, where it has none yet)."""
    if s.reason is not None or not s.code:
        return None
    parsed = named(s.language).read(s.code or "")
    if not parsed:
        s.reason = "nothing read from the code"
        return None
    s.kind = parsed[0].kind
    if s.kind not in category_named(s.category).kinds:
        s.reason, s.detail = "wrong diagram kind", f"read as {s.kind}"
        return None
    s.statistics, s.counts = statistics(parsed[0], named(s.language).domain == "software")
    return parsed[0]


#: Engines of different names drawing at once in `render_all` (while one engine's
#: processes draw, another's start or wait on their programs, and this process parses
#: the SVGs drawn).
ENGINES_AT_ONCE = 3
#: Of those, engines drawing in a browser at once (`Language.browser`: each browser
#: holds some 400-600 MB by the end of a 600-per-category build).
BROWSERS_AT_ONCE = 1
#: Most samples an engine draws in one call (each call's drawings are kept as they are
#: done: a killed build redraws at most one chunk per engine).
CHUNK = 1000


@dataclass(frozen=True)
class Rendered:
    """What `render_all` did: each engine's version, and per engine the seconds its
    samples took (from its start to its last drawn count) and how many it drew."""

    versions: dict[str, str]
    seconds: dict[str, float]
    samples: dict[str, int]


def started_engines(samples: list[Planned], jobs: int, executor: Executor | None = None
                    ) -> dict[str, Engine]:
    """The engine of every language `samples` are written in, by name, each asked its
    version (a check that it can run here) before any sample is written; DataError
    naming the engine, its languages and why, when one cannot run."""
    from diagbench.executors.local import LocalExecutor
    from diagbench.render.result import EngineMissing

    running = executor or LocalExecutor()
    wanted: dict[str, list[str]] = {}  # engine → the languages it draws here
    for language in dict.fromkeys(s.language for s in samples):
        wanted.setdefault(named(language).engine, []).append(language)
    engines: dict[str, Engine] = {}
    for name, languages in wanted.items():
        try:
            engines[name] = running.engine(name, jobs, 60.0)
            engines[name].version()
        except EngineMissing as exc:
            raise DataError(f"the engine {name} of --languages {','.join(languages)} "
                            f"cannot run here: {exc}") from None
    return engines


def render_all(samples: list[Planned], out: Path, jobs: int,
               executor: Executor | None = None,
               at_once: int = ENGINES_AT_ONCE,
               engines: dict[str, Engine] | None = None,
               progress: Callable[[int], None] = lambda n: None) -> Rendered:
    """Render every sample read (`read_all`) to PNG and SVG by `executor`'s engines (local
    by default), `at_once` engines at a time and `BROWSERS_AT_ONCE` of those drawing in a
    browser, the largest groups first; fill the drawn
    counts and image facts. `engines`: those started so far, by name (a later call, the
    twins', draws with them), to which this call adds its own; `progress(n)` as `n` more
    samples are drawn (from any of the engines' threads)."""
    from diagbench.executors.local import LocalExecutor

    by_engine: dict[str, list[Planned]] = {}
    for s in samples:
        if s.reason is None and s.code:
            by_engine.setdefault(named(s.language).engine, []).append(s)
    running = executor or LocalExecutor()
    started = {} if engines is None else engines
    for name in by_engine:
        if name not in started:
            started[name] = running.engine(name, jobs, 60.0)
    parsing = threading.Lock()  # drawn counts parsed one at a time (domain C libraries)
    largest_first = sorted(by_engine, key=lambda name: -len(by_engine[name]))
    in_browser = {name for name, group in by_engine.items() if named(group[0].language).browser}
    done = in_turns(largest_first, lambda name: _render_group(
        name, by_engine[name], out, started[name], parsing, progress),
        at_once, heavy=in_browser, heavy_at_once=BROWSERS_AT_ONCE)
    shutil.rmtree(out / ".staging", ignore_errors=True)
    return Rendered({name: done[name][0] for name in by_engine},
                    {name: done[name][1] for name in by_engine},
                    {name: len(group) for name, group in by_engine.items()})


def _render_group(name: str, group: list[Planned], out: Path, engine: Engine,
                  parsing: threading.Lock, progress: Callable[[int], None]
                  ) -> tuple[str, float]:
    """Render `group` by `engine` in chunks of up to `CHUNK` samples, each kept in
    DATA/.rendered once drawn (what a killed build resumes from), then end the engine's
    processes (so that no more than `ENGINES_AT_ONCE` engines hold memory at once; a
    later call starts them again); (the engine's version, the seconds it took)."""
    start = time.perf_counter()
    try:
        version = _render_chunks(name, group, out, engine, parsing, progress)
    finally:
        engine.close()
    return version, time.perf_counter() - start


def _render_chunks(name: str, group: list[Planned], out: Path, engine: Engine,
                   parsing: threading.Lock, progress: Callable[[int], None]) -> str:
    """`_render_group`'s drawing, chunk by chunk; the engine's version."""
    version = engine.version()
    for at in range(0, len(group), CHUNK):
        chunk = group[at:at + CHUNK]
        sources = [(_prepared(s, marked=False), _prepared(s, marked=True)) for s in chunk]
        key = hashlib.sha256(json.dumps([name, version, sources]).encode()).hexdigest()
        kept = out / ".rendered" / f"{key}.json"
        if kept.is_file():
            progress(len(chunk))
        else:
            _draw_chunk(chunk, sources, out, key, engine, parsing, lambda: progress(1))
        drawn = json.loads(kept.read_text(encoding="utf-8"))
        for s, record in zip(chunk, drawn, strict=True):
            if "reason" in record:
                s.reason, s.detail = record["reason"], record["detail"]
                continue
            target = out / "images" / f"{s.id}.png"
            target.unlink(missing_ok=True)
            try:
                os.link(out / ".rendered" / key / f"{s.id}.png", target)
            except OSError:  # a file system without hard links
                shutil.copyfile(out / ".rendered" / key / f"{s.id}.png", target)
            s.image = f"images/{s.id}.png"
            s.width, s.height, s.sha256, s.drawn = (record["width"], record["height"],
                                                    record["sha256"], record["drawn"])
    return version


def _draw_chunk(chunk: list[Planned], sources: list[tuple[str, str]], out: Path, key: str,
                engine: Engine, parsing: threading.Lock, progress: Callable[[], None]
                ) -> None:
    """Draw `chunk` (PNG, then SVG: `_prepared`'s marked sources) in a staging folder of
    its own; keep each PNG and what became of each sample in DATA/.rendered/KEY(.json);
    `progress()` as each PNG is drawn."""
    staging = out / ".staging" / key
    shutil.rmtree(staging, ignore_errors=True)
    (staging / "png").mkdir(parents=True)
    (staging / "svg").mkdir()
    images = out / ".rendered" / key
    images.mkdir(parents=True, exist_ok=True)
    try:
        pngs = engine.render([png for png, _ in sources], staging / "png", "png", progress)
        svgs = engine.render([svg for _, svg in sources], staging / "svg", "svg")
        records: list[dict[str, Any]] = []
        for s, png, svg in zip(chunk, pngs, svgs, strict=True):
            if not png.ok or png.image is None:
                records.append({"reason": "the engine does not draw it",
                                "detail": str(png.error or "")})
                continue
            shutil.move(str(png.image), images / f"{s.id}.png")
            drawn = None
            if svg.ok and svg.image is not None:
                text = Path(svg.image).read_text(encoding="utf-8", errors="replace")
                with parsing:
                    drawn = _drawn(s, text)
            records.append({"width": png.width or 0, "height": png.height or 0,
                            "sha256": png.sha256 or "", "drawn": drawn})
        written = images.with_suffix(".json.part")
        written.write_text(json.dumps(records), encoding="utf-8")
        written.replace(images.with_suffix(".json"))
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _prepared(sample: Planned, marked: bool) -> str:
    """The sample's code as its language gives it to the engine (`Language.prepare`), in
    its style."""
    return named(sample.language).prepare(sample.code or "", sample.kind, marked,
                                          style=sample.style)


def apply_filters(samples: list[Planned], out: Path) -> tuple[list[Planned], dict[str, int]]:
    """The kept samples and how many each filter removed (in the order applied)."""
    from diagbench.render import filters

    removed: Counter[str] = Counter()
    for s in samples:
        if s.reason is None and s.drawn is not None and not s.drawn_as_read():
            s.reason = "parsed counts differ from the engine's"
            s.detail = f"read {s.counts}, drawn {s.drawn}"
    for s in samples:
        if s.reason is None:
            why = outside(limits_of(s.category, s.language),
                          measures(s.counts, s.statistics, s.code or ""), s.language)
            if why is not None:
                s.reason, s.detail = NODE_LIMITS, why
    alive = [s for s in samples if s.reason is None]
    with ThreadPoolExecutor(max_workers=2) as pool:  # images decode outside the GIL
        looks = dict(zip((s.id for s in alive), pool.map(
            lambda s: filters.looks(out / s.image), alive), strict=True))
    steps: list[tuple[str, Callable[[list[Planned]], tuple[list[Planned], list]]]] = [
        (FILTERS["aspect ratio"],
         lambda xs: filters.aspect_ratio(xs, lambda s: (s.width, s.height), *ASPECT)),
        (FILTERS["low variance"], lambda xs: filters.near_blank(xs, lambda s: looks[s.id])),
        (FILTERS["duplicate code"],
         lambda xs: filters.code_duplicates(xs, lambda s: s.code or "")),
        (FILTERS["perceptual-hash duplicate"],
         lambda xs: filters.perceptual_duplicates(xs, lambda s: looks[s.id], PHASH_DISTANCE)),
    ]
    for reason, step in steps:
        alive, gone = step(alive)
        for s, detail in gone:
            s.reason, s.detail = reason, detail
    for s in samples:
        if s.reason is not None:
            removed[s.reason] += 1
    return alive, dict(removed)


def engine_jobs(jobs: int | None, executor: Executor | None) -> int:
    """`jobs` as given, or by default: this machine's cores shared by the
    `ENGINES_AT_ONCE` engines drawing at once (one process each on two cores: two each
    drew slower and held 300 MB more); on Ray, whose one pool of renderers serves every
    engine, one renderer per CPU of the cluster (the executor caps it there)."""
    if jobs is not None:
        return jobs
    if executor is not None and executor.name == "ray":
        return 64
    return max(1, len(os.sched_getaffinity(0)) // ENGINES_AT_ONCE)


def build_structure(out: Path, settings: Any, categories: list[str], languages: list[str],
                    per_category: int, complexities: list[str], seed: int,
                    jobs: int | None = None,
                    max_connections: int = 8, tasks_per_sample: int = 3,
                    prompting: Prompting = "all-in-one", judge: Any = None,
                    judge_threshold: float = 0.5, executor: Executor | None = None,
                    twins: tuple[TwinFamily, ...] = (),
                    bars: Bars = no_bars,
                    personas: Personas | None = None,
                    cells: Mapping[str, tuple[str, ...]] | None = None) -> BuildInfo:
    """Build the data set into `out` (`judge`: the judge's `ModelSettings`, or None not to
    run the LLM-as-judge filter; `twins`: the families of twins to make of each kept
    sample; `personas`: the persona set, the bundled one by default; `cells`: the FRLs
    of each category to draw it in, where not all of `languages`; `bars`: each stage's
    progress); return what build.json records."""
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    jobs = engine_jobs(jobs, executor)
    samples = plan(categories, languages, per_category, complexities, seed, personas, cells)
    engines = started_engines(samples, jobs, executor)  # one a name for the whole build
    entering: dict[str, int] = {}  # samples going into each stage

    def enter(stage: str, group: list[Planned]) -> float:
        entering[stage] = sum(s.reason is None for s in group)
        return time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    for sub in ("images", "sources"):
        shutil.rmtree(out / sub, ignore_errors=True)
        (out / sub).mkdir()
    timings["plan"] = time.perf_counter() - t0
    t = enter("synthesis", samples)
    generate(samples, settings, out / "generation" / "responses.jsonl", max_connections,
             prompting, bars)
    timings["synthesis"] = time.perf_counter() - t
    t = enter("statistics", samples)
    with bars(len(samples), "reading") as bar:
        read_all(samples, lambda: bar.update(1))
    timings["statistics"] = time.perf_counter() - t
    t = enter("render", samples)
    with bars(sum(s.reason is None and bool(s.code) for s in samples), "rendering") as bar:
        rendered = render_all(samples, out, jobs, executor, engines=engines,
                              progress=_locked(bar))
    versions = dict(rendered.versions)
    timings["render"] = time.perf_counter() - t
    t = enter("filters", samples)
    kept, removed = apply_filters(samples, out)
    timings["filters"] = time.perf_counter() - t
    judged: str | JudgeInfo = "not run: no --judge given (the LLM-as-judge filter of §3.3, Fig. 9)"
    if judge is not None:
        t = enter("judge", kept)
        verdicts = judge_samples(kept, judge, out, judge_threshold, max_connections, bars)
        checks = rule_checks(kept)
        for s in kept:
            s.judge = verdicts[s.id]
        kept = [s for s in kept if s.reason is None]
        removed = dict(Counter(s.reason for s in samples if s.reason is not None))
        judged = judge_info(judge.name, judge_threshold, verdicts, checks)
        timings["judge"] = time.perf_counter() - t
    for s in samples:
        if s.image and s.reason is not None:
            (out / s.image).unlink(missing_ok=True)
    made: list[Planned] = []
    twinned: dict[str, TwinsInfo] = {}
    if twins:
        t = enter("twins", kept)
        made, twinned, drew = make_twins(
            kept, twins, out, seed, read_all,
            lambda group: render_all(group, out, jobs, executor, engines=engines).versions)
        versions |= drew
        timings["twins"] = time.perf_counter() - t
    t = enter("questions", kept)
    questions, asked = ask_questions(kept, settings, out, seed, max_connections, bars)
    for s in kept:
        s.model_question = questions.get(s.id)
    timings["questions"] = time.perf_counter() - t
    t = enter("captions", kept)
    captions, captioned = ask_captions(kept, settings, out, max_connections, bars)
    for s in kept:
        s.caption = captions.get(s.id)
    timings["captions"] = time.perf_counter() - t
    t = enter("tasks", kept)
    records, twin_records = [s.sample() for s in kept], [s.sample() for s in made]
    for s, record in zip(kept + made, records + twin_records, strict=True):
        if record.code == f"sources/{s.id}.txt":  # not a twin drawn from its original's
            (out / "sources" / f"{s.id}.txt").write_text(s.code or "", encoding="utf-8")
    tasks, duplicates = without_duplicates(derive(records, seed, tasks_per_sample,
                                                  {s.id: s.facts for s in kept}))
    of_twins, twin_duplicates = without_duplicates(twin_tasks(
        twin_records, tasks, {s.id: s.facts for s in kept + made}, seed))
    records += twin_records
    tasks += of_twins
    duplicates += twin_duplicates
    timings["tasks"] = time.perf_counter() - t
    write_jsonl(out / "samples.jsonl", records)
    write_jsonl(out / "tasks.jsonl", tasks)
    stages = {"planned": len(samples),
              "generated": sum(s.reason not in ("the call failed",) for s in samples),
              "with code": sum(s.code is not None for s in samples),
              "valid (rendered)": sum(bool(s.image) for s in samples),
              "kept": len(kept)}
    info = BuildInfo(
        settings.name, seed, categories, languages, complexities, per_category, prompting,
        template_hash(prompting), stages, removed, judged, asked,
        {"checked": sum(s.drawn is not None for s in samples if s.image),
         "equal": sum(s.drawn_as_read() for s in samples if s.image)},
        _rates(samples), dict(sorted(Counter(t.task for t in tasks).items())),
        [Rejection(s.id, s.reason, s.detail) for s in samples if s.reason is not None],
        versions, (personas or bundled()).record([category_named(s.category).domain
                                                  for s in samples]),
        _kept_cells(samples, kept), duplicates,
        {f"{c}|{lang}": list(limits_of(c, lang)) for c, lang in dict.fromkeys(
            (s.category, s.language) for s in samples)},
        filter_counts(samples, judge is not None),
        dict(sorted(sum((s.ambiguous for s in kept), Counter()).items())), captioned,
        twinned, {c: list(cells[c]) for c in categories if c in cells} if cells else {})
    (out / "build.json").write_text(json.dumps(info.to_json(), indent=1, ensure_ascii=False)
                                    + "\n", encoding="utf-8")
    shutil.rmtree(out / ".rendered", ignore_errors=True)  # what a resumed build would reuse
    timings["total"] = time.perf_counter() - t0
    (out / "timings.json").write_text(json.dumps(
        {k: round(v, 3) for k, v in timings.items()} | {"samples": len(samples),
                                                        "kept": len(kept),
                                                        "twins_made": len(made),
                                                        "samples_in": entering,
                                                        "engines": {
            name: {"seconds": round(seconds, 3), "samples": rendered.samples[name]}
            for name, seconds in rendered.seconds.items()}}, indent=1)
        + "\n", encoding="utf-8")
    return info


def _locked(bar: Any) -> Callable[[int], None]:
    """`bar.update(n)`, one thread at a time (engines draw in threads of their own)."""
    lock = threading.Lock()

    def update(n: int) -> None:
        with lock:
            bar.update(n)
    return update


def _kept_cells(samples: list[Planned], kept: list[Planned]) -> dict[str, int]:
    """The samples kept per "category|language" planned (0 where none was)."""
    counts = Counter(f"{s.category}|{s.language}" for s in kept)
    return {cell: counts[cell] for cell in dict.fromkeys(f"{s.category}|{s.language}"
                                                         for s in samples)}


def _rates(samples: list[Planned]) -> dict[str, dict[str, int]]:
    """Validity (renders) per FRL × complexity, over the samples with code."""
    cells: dict[str, list[bool]] = {}
    for s in samples:
        if s.code is not None and s.reason not in ("wrong diagram kind",
                                                   "nothing read from the code"):
            cells.setdefault(f"{s.language}/{s.complexity}", []).append(bool(s.image))
    return {k: {"n": len(v), "valid": sum(v)} for k, v in sorted(cells.items())}


__all__ = ["COMPLEXITIES", "build_structure", "plan"]
