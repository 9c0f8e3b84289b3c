"""RNA secondary structures (dot-bracket) drawn by VARNA (Debian's `varna`, GPL-3, Java),
run as a separate program: VARNA's command line (`VARNAcmd`) in warm JVMs that draw
structure after structure (`varna`: one JVM per drawing thread, `jobs` at a time, kept
for the process, each in an empty jail folder, without a shell), with a time-out per
structure and at most `MAX_BASES` nucleotides. Without `javac` (the warm JVM's
launcher is compiled once per machine) each structure gets a JVM of its own. VARNA
writes PNG itself too (`-resolution`), but that would be a second run, so the PNG is
rasterised from the SVG.

Valid means the dot-bracket reader finds no error (VARNA itself draws a structure
shorter or longer than its sequence, and one with a `(` never closed, so the reader's
diagnostic, with its line, is the error) and VARNA draws it; VARNA's own message (its
exception's first lines) is the error otherwise. A source holds one structure
(`render.engines.diagrams` splits a file into its records).

The drawing: VARNA's NAView layout (`-algorithm naview`), base pairs as plain lines
(`-bpStyle simple`, pseudoknot pairs too) in one colour (`-bp`, `BP_COLOUR`), bases as
circled letters, every tenth position numbered. VARNA's SVG has no size (width and
height "100%", no viewBox): the engine gives it the drawing's bounding box, and the PNG
is that SVG rasterised by `rsvg-convert` (zoomed `ZOOM`×: VARNA sets a base's letter
at 7.5 px, so 15 px in the PNG; the longer side at most
`MAX_PNG_SIDE` pixels), so both images come from one VARNA run. A source in an
envelope (`languages.styled`) is drawn in its style: VARNA's options of
`VARNA_STYLES` after these (the radiate or circular layout, bases filled in colour;
pairs keep their colour).

What the SVG shows (`varna_statistics`), measured on VARNA 3-93's output: each base is a
`<text>` of its one letter (black), each position number a `<text>` of digits (grey);
each base pair one `<line>` stroked in the pair colour; the backbone `<line>`s (and
`<path>` arcs) are grey.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

from diagbench.languages.dotbracket.styles import STYLES, VARNA_STYLES
from diagbench.languages.dotbracket.varna import end_pools, warm_varna
from diagbench.languages.styled import opened
from diagbench.render.drawing import DrawingEngine
from diagbench.render.process import ProcessDied, ProcessTimeout
from diagbench.render.programs import program, rsvg_version, run_program, svg_to_png
from diagbench.render.result import EngineMissing

JAR = Path("/usr/share/java/varna.jar")
MAIN = "fr.orsay.lri.varna.applications.VARNAcmd"
#: Structures with more nucleotides are not drawn.
MAX_BASES = 5000
#: The PNG's zoom over the SVG's size, and the longest side it may reach.
ZOOM = 2.0
MAX_PNG_SIDE = 2400
BP_COLOUR = "#0000FF"
_BP_STROKE = "rgb(0%, 0%, 100%)"  # how VARNA writes BP_COLOUR in its SVG
_MARGIN = 12.0
_SVG = "{http://www.w3.org/2000/svg}"


@cache
def varna_version() -> str:
    """"VARNA <Debian jar version>" (the jar is named varna-3-93.jar), checked by running
    VARNAcmd once; EngineMissing without Java, VARNA or rsvg-convert."""
    rsvg_version()
    if not JAR.is_file():
        raise EngineMissing(f"{JAR} not found: install Debian's varna (scripts/setup.sh)")
    done = run_program([program("java"), "-Djava.awt.headless=true", "-cp", str(JAR), MAIN,
                        "-h"], timeout=60)
    output = (done.stdout + done.stderr).decode("utf-8", "replace")
    said = re.search(r"VARNA v(\S+)", output)
    if said is None:
        raise EngineMissing(f"VARNA did not start: {output.strip()[:200]}")
    jar = re.fullmatch(r"varna-(.+)\.jar", JAR.resolve().name)
    return f"VARNA {jar.group(1) if jar else said.group(1)}"


def draw_structure(source: str, timeout: float) -> dict[str, Any]:
    """{"svg": bytes, "png": bytes} of the one structure of `source`, or {"error":
    message, "line": line or None}."""
    from diagbench.languages.dotbracket.read import read_dotbracket

    style, source = opened(source, STYLES)
    parsed = read_dotbracket(source)
    problem = next((d for p in parsed for d in p.errors), None)
    if problem is not None:
        return {"error": problem.reason, "line": problem.line}
    if len(parsed) > 1:
        return {"error": f"{len(parsed)} structures in one source: VARNA draws one",
                "line": parsed[1].first_line}
    model = parsed[0].diagram
    if len(model.sequence) > MAX_BASES:
        return {"error": f"{len(model.sequence):,} nucleotides, over the "
                         f"{MAX_BASES:,}-nucleotide drawing limit", "line": None, "too_large": True}
    svg, message = run_varna(model.sequence, model.structure, timeout,
                             VARNA_STYLES[style] if style else ())
    if svg is None:
        return {"error": message, "line": parsed[0].first_line}
    svg, width, height = sized_svg(svg)
    zoom = min(ZOOM, MAX_PNG_SIDE / max(width, height, 1.0))
    return {"svg": svg, "png": svg_to_png(svg, timeout, zoom)}


class VarnaEngine(DrawingEngine):
    """Render dot-bracket structures with VARNA, `jobs` warm JVMs at a time (PNG and SVG
    from one run: rendering the other format again draws nothing)."""

    name = "varna"
    drawer = "diagbench.languages.dotbracket.engine:draw_structure"
    programs = True

    def __init__(self, jobs: int = 2, timeout: float = 60.0) -> None:
        super().__init__(jobs, timeout)

    def version(self) -> str:
        return varna_version()

    def close(self) -> None:
        """End the warm VARNA JVMs (the next structure starts one again)."""
        super().close()
        end_pools()


#: The options of every drawing (after the structure and the output file).
OPTIONS = ["-algorithm", "naview", "-bpStyle", "simple", "-bp", BP_COLOUR]


def run_varna(sequence: str, structure: str, timeout: float, options: tuple[str, ...] = ()
              ) -> tuple[bytes | None, str]:
    """(VARNA's SVG as it writes it, "") of a sequence and its dot-bracket structure
    (with VARNA's `options` after diagbench's), or (None, VARNA's message): drawn by a
    warm VARNA JVM (`varna.warm_varna`), or, when there is none or it ended while
    drawing, by one VARNAcmd of its own in a temporary directory, no shell."""
    pool = warm_varna(program("java"), JAR, [*OPTIONS, *options])
    if pool is not None:
        try:
            run = pool.draw(sequence, structure, timeout)
        except ProcessTimeout:
            return None, f"timed out after {timeout:g} s"
        except (ProcessDied, OSError, ValueError):
            pass  # drawn again in a JVM of its own, which says what went wrong
        else:
            if run.status or run.svg is None:
                return None, _message((run.stderr or run.stdout).decode("utf-8", "replace"),
                                      run.status)
            return run.svg, ""
    return _varna_once(sequence, structure, timeout, options)


def _varna_once(sequence: str, structure: str, timeout: float,
                options: tuple[str, ...] = ()) -> tuple[bytes | None, str]:
    """`run_varna` in a JVM of its own."""
    with tempfile.TemporaryDirectory(prefix="diagbench-varna-") as jail:
        out = Path(jail) / "drawing.svg"
        command = [program("java"), "-Djava.awt.headless=true", "-Xmx512m", "-cp", str(JAR),
                   MAIN, "-sequenceDBN", sequence, "-structureDBN", structure, "-o", str(out),
                   *OPTIONS, *options]
        try:
            done = run_program(command, timeout, jail=jail)
        except subprocess.TimeoutExpired:
            return None, f"timed out after {timeout:g} s"
        if done.returncode or not out.is_file():
            output = (done.stderr or done.stdout).decode("utf-8", "replace")
            return None, _message(output, done.returncode)
        return out.read_bytes(), ""


def _message(output: str, code: int) -> str:
    """VARNA's own message: the lines of its output that are no stack frames."""
    lines = [line.strip() for line in output.splitlines()
             if line.strip() and not line.lstrip().startswith("at ")]
    return "VARNA: " + " ".join(lines[:2])[:300] if lines else f"VARNA exited with {code}"


def _points(root: ET.Element) -> list[tuple[float, float]]:
    """Points that bound what the SVG draws (circles and letters widened by their size)."""
    out: list[tuple[float, float]] = []
    for e in root.iter():
        tag, a = e.tag.removeprefix(_SVG), e.attrib
        if tag == "line":
            out += [(float(a["x1"]), float(a["y1"])), (float(a["x2"]), float(a["y2"]))]
        elif tag == "circle":
            x, y, r = float(a["cx"]), float(a["cy"]), float(a.get("r", 0))
            out += [(x - r, y - r), (x + r, y + r)]
        elif tag == "text":
            x, y, size = float(a["x"]), float(a["y"]), float(a.get("font-size", 8))
            out += [(x - size, y - size), (x + size, y + size / 2)]
        elif tag == "path":
            numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", a.get("d", ""))]
            out += [(numbers[k], numbers[k + 1]) for k in (0, len(numbers) - 2)
                    if len(numbers) >= 2]
    return out


def sized_svg(svg: bytes) -> tuple[bytes, float, float]:
    """(SVG, width, height): VARNA's SVG with the drawing's bounding box (plus a margin)
    as its size and viewBox, in place of its width and height of "100%"."""
    points = _points(ET.fromstring(svg))
    if not points:
        return svg, 0.0, 0.0
    left = min(x for x, _ in points) - _MARGIN
    top = min(y for _, y in points) - _MARGIN
    width = max(x for x, _ in points) + _MARGIN - left
    height = max(y for _, y in points) + _MARGIN - top
    box = (f'width="{width:.1f}" height="{height:.1f}" '
           f'viewBox="{left:.1f} {top:.1f} {width:.1f} {height:.1f}"').encode()
    return svg.replace(b'width="100%" height="100%"', box, 1), width, height


def varna_statistics(svg: str) -> dict[str, int]:
    """What VARNA drew: `bases` (the one-letter texts), `pairs` (the lines stroked in the
    base-pair colour) and `numbers` (the position numbers); an SVG that does not parse:
    zeros."""
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        return {"bases": 0, "pairs": 0, "numbers": 0}
    texts = [(e.text or "").strip() for e in root.iter(f"{_SVG}text")]
    return {
        "bases": sum(1 for t in texts if len(t) == 1 and t.isalpha()),
        "pairs": sum(1 for e in root.iter(f"{_SVG}line") if e.get("stroke") == _BP_STROKE),
        "numbers": sum(1 for t in texts if t.isdigit()),
    }
