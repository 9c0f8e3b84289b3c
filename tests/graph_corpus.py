"""The real-world non-sequence PlantUML diagrams of ../shared/data/realworld, and how
PlantUML draws them (the oracle of the graph readers).

Each diagram is one `@startuml … @enduml` block (Markdown files: their fenced
blocks); C4 includes are mapped to PlantUML's stdlib before rendering.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REALWORLD = REPO.parent / "shared" / "data" / "realworld"
_FIXTURES = REALWORLD / "plantuml-parser-fixtures" / "test" / "fixtures"
_BLOCK = re.compile(r"^[ \t]*@startuml\b.*?^[ \t]*@enduml\b[^\n]*", re.M | re.S | re.I)
#: plantuml-parser fixture folders read as graph diagrams (by name prefix).
FIXTURE_PREFIXES = ("class-", "component-", "use-case-", "object-", "state-", "stdlib_c4",
                    "extends-implements", "readme-example", "method-with-arguments",
                    "issue-#10")


@dataclass(frozen=True, slots=True)
class RealDiagram:
    folder: str  # the realworld folder it comes from
    path: Path
    index: int  # its block number in the file
    text: str

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(REALWORLD)}#{self.index}"


def _files() -> list[tuple[str, Path]]:
    if not REALWORLD.is_dir():
        raise RuntimeError(f"{REALWORLD} is missing: tests need ../shared beside the repo")
    found = [("C4-PlantUML", p) for p in sorted((REALWORLD / "C4-PlantUML").rglob("*.puml"))]
    found += [("plantuml-parser-fixtures", p) for p in sorted(_FIXTURES.rglob("*.plantuml"))
              if p.parent.name.startswith(FIXTURE_PREFIXES)]
    found += [("PlantUmlClassDiagramGenerator", p)
              for p in sorted((REALWORLD / "PlantUmlClassDiagramGenerator").rglob("*.puml"))]
    found += [("mattjhayes-PlantUML-Examples", p)
              for p in sorted((REALWORLD / "mattjhayes-PlantUML-Examples").rglob("*.md"))
              if not p.name.startswith("sequence")]
    return found


def real_diagrams() -> list[RealDiagram]:
    """Every diagram block of the graph corpus, in a fixed order."""
    out = []
    for folder, path in _files():
        text = path.read_text(encoding="utf-8", errors="replace").removeprefix("\ufeff")
        for index, m in enumerate(_BLOCK.finditer(text)):
            out.append(RealDiagram(folder, path, index, m.group(0) + "\n"))
    return out


def render_statistics(sources: list[str], jobs: int = 2) -> list[dict[str, object] | None]:
    """PlantUML's graph statistics for each source (None where it does not render, or
    crashes)."""
    from diagbench.render.graph_stats import graph_statistics, map_c4_includes, mark_graph
    from diagbench.render.plantuml_pipe import PlantUMLEngine

    with tempfile.TemporaryDirectory(prefix="diagbench-graph-") as work:
        results = PlantUMLEngine(jobs=jobs).render(
            [mark_graph(map_c4_includes(s)) for s in sources], Path(work), fmt="svg")
        out: list[dict[str, object] | None] = []
        for result in results:
            if not result.ok or result.image is None:
                out.append(None)
                continue
            stats = graph_statistics(result.image.read_text(encoding="utf-8"))
            # a crash is drawn as a page of text: no diagram type, nothing drawn
            out.append(stats if stats["diagram_type"] is not None else None)
        return out
