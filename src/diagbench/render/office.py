"""LibreOffice (Debian's `soffice`, a separate program) for what Word documents hold:
EMF/WMF drawings to PNG, and old `.doc` files to `.docx`.

Each call is one headless LibreOffice process over a whole batch, with a profile of its
own in a temporary folder, a minimal environment (no keys, no user files) and a
time-out. A drawing is placed on a page by LibreOffice and exported at 300 dpi; the page
is then cropped to what is drawn on it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageChops

#: A4 at 300 dpi: the page a drawing is exported on (then cropped).
_PAGE = (2480, 3508)
_PNG_FILTER = ('png:draw_png_Export:{{"PixelWidth":{{"type":"long","value":"{}"}},'
               '"PixelHeight":{{"type":"long","value":"{}"}}}}').format(*_PAGE)
MARGIN = 10  # px of white kept around a cropped drawing
METAFILE_SUFFIXES = (".emf", ".wmf")


class OfficeError(RuntimeError):
    """LibreOffice is missing, failed or timed out."""


def soffice() -> str:
    """The path of LibreOffice's `soffice`, or OfficeError naming the Debian packages."""
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if found is None:
        raise OfficeError("LibreOffice is not installed (Debian: libreoffice-draw-nogui "
                          "libreoffice-writer-nogui; scripts/setup.sh installs them)")
    return found


def version() -> str:
    """LibreOffice's version line, e.g. `LibreOffice 7.4.7.2 40(Build:2)`."""
    done = subprocess.run([soffice(), "--version"], capture_output=True, text=True,
                          timeout=60, env=_environment(Path(tempfile.gettempdir())))
    return done.stdout.strip() or "unknown"


def _environment(home: Path) -> dict[str, str]:
    env = {k: os.environ[k] for k in ("PATH", "LANG") if k in os.environ}
    return env | {"HOME": str(home), "SAL_USE_VCLPLUGIN": "svp"}


def _convert(sources: list[Path], target: str, out_dir: Path, timeout: float) -> None:
    """One LibreOffice run converting every file of `sources` into `out_dir`."""
    with tempfile.TemporaryDirectory(prefix="diagbench-office-") as home:
        argv = [soffice(), "--headless", "--norestore", "--nolockcheck",
                f"-env:UserInstallation={Path(home, 'profile').as_uri()}",
                "--convert-to", target, "--outdir", str(out_dir), *map(str, sources)]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                                  env=_environment(Path(home)), stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired as exc:
            raise OfficeError(f"LibreOffice took more than {timeout:.0f} s") from exc
    if done.returncode:
        raise OfficeError(f"LibreOffice failed: {(done.stderr or done.stdout).strip()[-300:]}")


def metafiles_to_png(sources: list[Path], out_dir: Path,
                     timeout: float = 300.0) -> dict[Path, Path | str]:
    """Each EMF/WMF file drawn as a PNG in `out_dir` (same stem), cropped to its drawing:
    {source: PNG path, or why it could not be converted}."""
    out_dir.mkdir(parents=True, exist_ok=True)
    if not sources:
        return {}
    _convert(sources, _PNG_FILTER, out_dir, timeout)
    results: dict[Path, Path | str] = {}
    for source in sources:
        png = out_dir / f"{source.stem}.png"
        if not png.is_file():
            results[source] = "LibreOffice could not read this drawing"
            continue
        results[source] = png if crop_to_drawing(png) else "the drawing is empty"
    return results


def crop_to_drawing(path: Path) -> bool:
    """Crop the PNG at `path` to what is drawn (non-white), with a margin; False when
    nothing is."""
    with Image.open(path) as opened:  # transparent parts are white paper
        rgba = opened.convert("RGBA")
    image = Image.alpha_composite(Image.new("RGBA", rgba.size, "white"), rgba).convert("RGB")
    box = ImageChops.difference(image, Image.new("RGB", image.size, "white")).getbbox()
    if box is None:
        return False
    left, top, right, bottom = box
    image.crop((max(0, left - MARGIN), max(0, top - MARGIN),
                min(image.width, right + MARGIN), min(image.height, bottom + MARGIN))
               ).save(path, "PNG")
    return True


def doc_to_docx(source: Path, out_dir: Path, timeout: float = 300.0) -> Path:
    """An old Word `.doc` saved as `.docx` in `out_dir`."""
    _convert([source], "docx", out_dir, timeout)
    converted = out_dir / f"{source.stem}.docx"
    if not converted.is_file():
        raise OfficeError(f"{source}: LibreOffice could not read it as a Word document")
    return converted
