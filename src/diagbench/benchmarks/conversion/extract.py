"""The figures of Word documents (paper 000 §3.1: the images of 3GPP specifications, with
their captions), written as PNG files ready for `convert` / `eval conversion --images`.

A `.docx` is read with python-docx: every picture of the body (DrawingML `a:blip` and VML
`v:imagedata`, tables included), in document order; its caption is the first paragraph
among the three after it whose text starts with "Figure" or whose style is a caption
style (3GPP's `TF`, Word's `Caption`), else such a paragraph just before it, else none.
PNG, JPEG, GIF, BMP and TIFF pictures are converted with Pillow; EMF and WMF drawings
with LibreOffice (`render.office`); a `.doc` is first saved as `.docx` by LibreOffice.
"""

from __future__ import annotations

import io
import json
import re
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from diagbench.benchmarks.conversion.figure_kind import looks_like_sequence
from diagbench.render.office import (
    METAFILE_SUFFIXES,
    OfficeError,
    doc_to_docx,
    metafiles_to_png,
)

DOCUMENT_SUFFIXES = (".docx", ".doc")
_CAPTION = re.compile(r"^\s*(?:Figure|Fig\.)\s*[\w.\-:]", re.I)
_CAPTION_STYLES = {"tf", "caption"}
_NS = {"a": "http://schemas.openxmlformats.org/drawingml/2006/main",
       "v": "urn:schemas-microsoft-com:vml",
       "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
       "w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main"}
_EMBED = f"{{{_NS['r']}}}embed"
_RID = f"{{{_NS['r']}}}id"


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure written out (a line of `figures.jsonl`)."""

    file: str  # the document it came from
    index: int  # its place among the document's pictures, from 1
    paragraph: int  # the body paragraph holding it, from 1 (tables' paragraphs counted)
    caption: str
    source_format: str  # png, jpeg, emf, wmf, …
    image: str  # the PNG written, relative to the output folder
    width: int
    height: int
    sequence: bool | None  # looks like a sequence diagram (None: not asked)

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Skipped:
    """A document or picture that could not be extracted, and why."""

    file: str
    index: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class _Picture:
    index: int
    paragraph: int
    caption: str
    suffix: str
    data: bytes


def _captioned(paragraph) -> bool:
    style = (paragraph.style.name if paragraph.style is not None else "").lower()
    return style in _CAPTION_STYLES or bool(_CAPTION.match(paragraph.text))


def _caption(paragraphs: list, at: int) -> str:
    """The caption of the picture in paragraph `at` (see the module's docstring)."""
    after = [p for p in paragraphs[at + 1:at + 4] if p.text.strip()]
    for p in after[:3]:
        if _captioned(p):
            return " ".join(p.text.split())
    before = next((p for p in reversed(paragraphs[max(0, at - 2):at]) if p.text.strip()), None)
    if before is not None and _captioned(before):
        return " ".join(before.text.split())
    return ""


def _pictures(path: Path) -> Iterator[_Picture]:
    """The pictures of a .docx in document order, with their captions."""
    import docx  # python-docx, imported where it is used
    from docx.opc.exceptions import OpcError
    from docx.text.paragraph import Paragraph

    try:
        document = docx.Document(str(path))
    except (OpcError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{type(exc).__name__}: {exc}") from None
    body = document.element.body
    paragraphs = [Paragraph(p, document._body) for p in body.iter(f"{{{_NS['w']}}}p")]
    parts = document.part.related_parts
    index = 0
    for at, paragraph in enumerate(paragraphs):
        element = paragraph._p
        ids = [b.get(_EMBED) for b in element.iterfind(".//a:blip", _NS)]
        ids += [v.get(_RID) for v in element.iterfind(".//v:imagedata", _NS)]
        for rid in ids:
            part = parts.get(rid) if rid else None
            if part is None:
                continue
            index += 1
            yield _Picture(index, at + 1, _caption(paragraphs, at),
                           Path(str(part.partname)).suffix.lower(), part.blob)


def extract(documents: list[Path], out: Path, sequence_only: bool = False
            ) -> tuple[list[Figure], list[Skipped]]:
    """Write every figure of `documents` to `out` as NAME.png with its caption in NAME.txt,
    and `out/figures.jsonl`; with `sequence_only`, only those that look like sequence
    diagrams are kept. Returns the figures written and what was skipped, with why."""
    out.mkdir(parents=True, exist_ok=True)
    figures: list[Figure] = []
    skipped: list[Skipped] = []
    with tempfile.TemporaryDirectory(prefix="diagbench-extract-") as tmp:
        for document in documents:
            try:
                found, missed = _extract_one(document, out, Path(tmp), sequence_only)
            except (OfficeError, OSError, ValueError, KeyError) as exc:
                skipped.append(Skipped(str(document), None, f"not a readable Word document "
                                                            f"({exc})"))
                continue
            figures += found
            skipped += missed
    (out / "figures.jsonl").write_text(
        "".join(json.dumps(f.as_dict(), ensure_ascii=False) + "\n" for f in figures),
        encoding="utf-8")
    return figures, skipped


def _extract_one(document: Path, out: Path, tmp: Path, sequence_only: bool
                 ) -> tuple[list[Figure], list[Skipped]]:
    source = document
    if document.suffix.lower() == ".doc":
        source = doc_to_docx(document, tmp / "docx")
    stem = document.stem
    pictures = list(_pictures(source))
    drawings = tmp / "drawings" / stem
    drawings.mkdir(parents=True, exist_ok=True)
    metafiles = {}
    for picture in pictures:
        if picture.suffix in METAFILE_SUFFIXES:
            path = drawings / f"{stem}-fig{picture.index:03d}{picture.suffix}"
            path.write_bytes(picture.data)
            metafiles[picture.index] = path
    converted = metafiles_to_png(list(metafiles.values()), drawings / "png")
    figures, skipped = [], []
    for picture in pictures:
        name = f"{stem}-fig{picture.index:03d}"
        target = out / f"{name}.png"
        drawn = converted.get(metafiles[picture.index]) if picture.index in metafiles else None
        problem = _write_png(picture, drawn, target)
        if problem is not None:
            skipped.append(Skipped(str(document), picture.index, problem))
            continue
        sequence = looks_like_sequence(target) if sequence_only else None
        if sequence is False:
            target.unlink()
            continue
        if picture.caption:
            (out / f"{name}.txt").write_text(picture.caption + "\n", encoding="utf-8")
        with Image.open(target) as image:
            width, height = image.size
        figures.append(Figure(str(document), picture.index, picture.paragraph,
                              picture.caption, picture.suffix.lstrip("."), target.name,
                              width, height, sequence))
    return figures, skipped


def _write_png(picture: _Picture, drawn: Path | str | None, target: Path) -> str | None:
    """Write the picture to `target` as PNG; why not, or None."""
    if picture.suffix in METAFILE_SUFFIXES:
        if not isinstance(drawn, Path):
            return drawn or "LibreOffice did not convert this drawing"
        target.write_bytes(drawn.read_bytes())
        return None
    try:
        with Image.open(io.BytesIO(picture.data)) as image:
            (image.convert("RGB") if image.mode == "CMYK" else image).save(target, "PNG")
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        return f"not an image Pillow reads ({picture.suffix or 'no suffix'}: {exc})"
    return None
