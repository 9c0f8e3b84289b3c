"""`diagbench extract`: the figures of Word documents with their captions (paper 000 §3.1),
EMF drawings through LibreOffice, and the sequence-diagram filter measured on a labelled
set of rendered diagrams. Documents are built with python-docx; the EMF is made by
LibreOffice from an SVG drawing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from diagbench.benchmarks.conversion.figure_kind import looks_like_sequence
from diagbench.formats.plantuml import parse_sequence
from diagbench.render.office import soffice
from diagbench.render.plantuml_pipe import PlantUMLEngine
from tests.graph_grammar import corpus as graph_corpus
from tests.sequence_grammar import corpus as sequence_corpus

pytestmark = pytest.mark.skipif(shutil.which("soffice") is None,
                                reason="needs LibreOffice (scripts/setup.sh installs it)")

SEQUENCE = ("@startuml\nparticipant UE\nparticipant AMF\nparticipant SMF\n"
            "UE -> AMF : 1. Registration Request\nAMF -> SMF : 2. Create Session\n"
            "SMF --> AMF : 3. Session Created\nAMF --> UE : 4. Registration Accept\n@enduml\n")
CLASSES = ("@startuml\nclass Order {\n  id : int\n}\nclass Customer\nclass Invoice\n"
           "Customer \"1\" -- \"*\" Order\nOrder --> Invoice\n@enduml\n")
#: A sequence drawing as a tool other than PlantUML draws it: heads, dashed lifelines,
#: arrows with heads — made an EMF by LibreOffice.
SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400">
<rect x="20" y="10" width="100" height="40" fill="white" stroke="black"/>
<rect x="250" y="10" width="100" height="40" fill="white" stroke="black"/>
<rect x="480" y="10" width="100" height="40" fill="white" stroke="black"/>
<line x1="70" y1="50" x2="70" y2="390" stroke="black" stroke-dasharray="6,4"/>
<line x1="300" y1="50" x2="300" y2="390" stroke="black" stroke-dasharray="6,4"/>
<line x1="530" y1="50" x2="530" y2="390" stroke="black" stroke-dasharray="6,4"/>
<line x1="70" y1="120" x2="300" y2="120" stroke="black" stroke-width="2"/>
<polygon points="300,120 288,114 288,126" fill="black"/>
<line x1="300" y1="200" x2="530" y2="200" stroke="black" stroke-width="2"/>
<polygon points="530,200 518,194 518,206" fill="black"/>
<line x1="530" y1="280" x2="70" y2="280" stroke="black" stroke-width="2"/>
<polygon points="70,280 82,274 82,286" fill="black"/>
</svg>
"""


def _diagbench(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diagbench", *map(str, args)],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "DIAGBENCH_CACHE": os.devnull})


@pytest.fixture(scope="module")
def pictures(tmp_path_factory) -> dict[str, Path]:
    """A rendered sequence diagram and class diagram (PNG), and an EMF drawing."""
    tmp = tmp_path_factory.mktemp("pictures")
    sequence, classes = PlantUMLEngine(jobs=1).render([SEQUENCE, CLASSES], tmp, "png")
    assert sequence.ok and classes.ok
    (tmp / "flow.svg").write_text(SVG)
    home = tmp / "home"
    done = subprocess.run([soffice(), "--headless", "--norestore",
                           f"-env:UserInstallation={(home / 'profile').as_uri()}",
                           "--convert-to", "emf", "--outdir", str(tmp), str(tmp / "flow.svg")],
                          capture_output=True, text=True, timeout=300,
                          env={"PATH": os.environ["PATH"], "HOME": str(home)})
    assert (tmp / "flow.emf").is_file(), done.stderr
    return {"sequence": sequence.image, "classes": classes.image, "emf": tmp / "flow.emf"}


def _add_emf(document, paragraph, emf: Path) -> None:
    """Put an EMF picture into `paragraph` through python-docx's own part and inline
    shape builders (python-docx's add_picture takes raster formats only)."""
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part
    from docx.oxml.shape import CT_Inline
    from docx.shared import Inches

    part = Part(PackURI("/word/media/flow.emf"), "image/x-emf", emf.read_bytes(),
                document.part.package)
    rid = document.part.relate_to(part, RELATIONSHIP_TYPE.IMAGE)
    inline = CT_Inline.new_pic_inline(101, rid, "flow.emf", Inches(4), Inches(2.7))
    paragraph.add_run()._r.add_drawing(inline)


@pytest.fixture(scope="module")
def spec(pictures, tmp_path_factory) -> Path:
    """A specification-like .docx: a PNG figure with its caption below, an EMF drawing in
    a table with its caption below, a class diagram with its caption above."""
    import docx
    from docx.shared import Inches

    document = docx.Document()
    document.add_heading("4.2 Registration", level=2)
    document.add_paragraph("The UE registers as shown below.")
    document.add_picture(str(pictures["sequence"]), width=Inches(5))
    document.add_paragraph("Figure 4.2.2.2.2-1: Registration procedure")
    document.add_paragraph("Step 1 is sent by the UE.")
    cell = document.add_table(rows=1, cols=1).cell(0, 0)
    _add_emf(document, cell.paragraphs[0], pictures["emf"])
    document.add_paragraph("Figure 4.3-1: Session set-up drawn in Visio")
    document.add_paragraph("Figure 5.1-1: Data model")
    document.add_picture(str(pictures["classes"]), width=Inches(3))
    path = tmp_path_factory.mktemp("doc") / "23502-i10.docx"
    document.save(str(path))
    return path


def test_figures_come_out_with_captions_formats_and_places(spec, tmp_path):
    done = _diagbench("extract", spec, "--out", tmp_path / "figs")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (tmp_path / "figs" / "figures.jsonl").read_text()
            .splitlines()]
    assert [(r["index"], r["caption"], r["source_format"], r["image"]) for r in rows] == [
        (1, "Figure 4.2.2.2.2-1: Registration procedure", "png", "23502-i10-fig001.png"),
        (2, "Figure 4.3-1: Session set-up drawn in Visio", "emf", "23502-i10-fig002.png"),
        (3, "Figure 5.1-1: Data model", "png", "23502-i10-fig003.png")]
    assert [r["paragraph"] for r in rows] == sorted(r["paragraph"] for r in rows)
    for row in rows:
        with Image.open(tmp_path / "figs" / row["image"]) as image:
            assert image.format == "PNG" and (image.width, image.height) == (row["width"],
                                                                              row["height"])
        caption = (tmp_path / "figs" / row["image"]).with_suffix(".txt").read_text()
        assert caption == row["caption"] + "\n"
    # the EMF drawn by LibreOffice, cropped from its page to the drawing (600 x 400 at
    # LibreOffice's scale): wider than tall, far smaller than the 2480 x 3508 page
    emf = rows[1]
    assert emf["width"] > emf["height"] and emf["width"] < 2000


def test_sequence_only_keeps_the_two_flows(spec, tmp_path):
    done = _diagbench("extract", spec, "--out", tmp_path / "figs", "--sequence-only")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (tmp_path / "figs" / "figures.jsonl").read_text()
            .splitlines()]
    assert [(r["index"], r["sequence"]) for r in rows] == [(1, True), (2, True)]
    assert not (tmp_path / "figs" / "23502-i10-fig003.png").exists()


def test_a_broken_document_is_reported_and_the_others_extracted(spec, tmp_path):
    broken = tmp_path / "notes.docx"
    broken.write_text("not a zip file")
    done = _diagbench("extract", broken, spec, "--out", tmp_path / "figs")
    assert done.returncode == 3
    assert "Traceback" not in done.stderr
    assert f"{broken}: not a readable Word document" in done.stderr
    assert len((tmp_path / "figs" / "figures.jsonl").read_text().splitlines()) == 3
    wrong = _diagbench("extract", tmp_path / "figs" / "23502-i10-fig001.png", "--out",
                       tmp_path / "x")
    assert wrong.returncode == 3 and "not a Word document" in wrong.stderr


def test_sequence_filter_precision_and_recall_on_rendered_diagrams(tmp_path):
    """A labelled set the filter was not tuned on: 40 generated PlantUML sequence diagrams
    (with at least two lifelines and two messages between them) against 40 generated
    class, component, deployment, use-case, state and C4 diagrams and 4 tables."""
    positives = []
    for generated in sequence_corpus(seed=21, count=120):
        [parsed] = parse_sequence(generated.text)[:1]
        diagram = parsed.diagram
        between = [m for m in diagram.messages
                   if m.sender != m.receiver and "[" not in m.sender + m.receiver
                   and "]" not in m.sender + m.receiver]
        if len(diagram.participants) >= 2 and len(between) >= 2 and not generated.teoz:
            positives.append(generated.text)
    positives = positives[:40]
    negatives = [text for _, text in graph_corpus(40, seed=21)]
    negatives += ["@startuml\nlegend\n|= Parameter |= Value |= Unit |\n| a | 1 | ms |\n"
                  f"| b | {k} | s |\n| c | 3 | dB |\nendlegend\n@enduml\n" for k in range(4)]
    results = PlantUMLEngine(jobs=2).render(positives + negatives, tmp_path, "png")
    labelled = [(r.image, k < len(positives)) for k, r in enumerate(results) if r.ok]
    assert len(labelled) >= 70
    said = [(looks_like_sequence(image), truth) for image, truth in labelled]
    true_pos = sum(s and t for s, t in said)
    precision = true_pos / max(1, sum(s for s, _ in said))
    recall = true_pos / sum(t for _, t in said)
    print(f"\nsequence filter: precision {precision:.2f}, recall {recall:.2f} "
          f"on {len(said)} diagrams")
    # measured: precision 0.91, recall 0.75 on 73 (README, `extract`); the misses are
    # messages that end in circles, crosses and half heads off their lifeline
    assert precision >= 0.85 and recall >= 0.7
