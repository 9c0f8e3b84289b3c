"""diagbench's small Java launchers (`render/java/*.java`: PlantUML's channels, VARNA's
warm command line), each compiled on first use with `javac` into a jar in the JVM cache
folder (`plantuml.cache_folder`), keyed by its source, `javac`, `java` and the jar it is
compiled against — or into a scratch folder of this process's when there is none."""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path


def compiled(launcher: str, against: Path, stem: str, env: Mapping[str, str],
             works: Callable[[Path], bool] = lambda _: True) -> Path | None:
    """The jar of the launcher class `launcher` (compiled against the jar `against`, kept
    as STEM-KEY.jar), or None without `javac` or `java`, when it does not build, or when
    `works` (a check of the freshly packed jar) says it does not run."""
    from diagbench.render.plantuml import cache_folder

    javac, java = shutil.which("javac"), shutil.which("java")
    if javac is None or java is None:
        return None
    source = (resources.files("diagbench.render") / "java" / f"{launcher}.java").read_bytes()
    facts = [source, *(str(Path(p).resolve()).encode() for p in (javac, java, against))]
    key = hashlib.sha256(b"\n".join(facts)).hexdigest()[:16]
    folder = cache_folder() or _scratch()
    target = folder / f"{stem}-{key}.jar"
    if target.is_file():
        return target
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder, prefix=f".{stem}-") as work:
            code = Path(work) / f"{launcher}.java"
            code.write_bytes(source)
            done = subprocess.run([javac, "--release", "11", "-cp", str(against), "-d", work,
                                   str(code)], capture_output=True, timeout=120, check=False,
                                  env=dict(env))
            if done.returncode:
                return None
            packed = Path(work) / "launcher.jar"
            with zipfile.ZipFile(packed, "w") as jar:
                for made in sorted(Path(work).glob("*.class")):
                    jar.write(made, made.name)
            if not works(packed):
                return None
            os.replace(packed, target)
    except (OSError, subprocess.TimeoutExpired):
        return target if target.is_file() else None
    return target


@cache
def _scratch() -> Path:
    """A folder for this process's launchers when there is no JVM cache folder."""
    folder = tempfile.mkdtemp(prefix="diagbench-launcher-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return Path(folder)
