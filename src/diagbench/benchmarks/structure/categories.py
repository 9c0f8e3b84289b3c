"""The software-diagram categories of the structure benchmark and their FRLs (the
formal representation languages of paper 004 §3.1 that diagbench reads and renders).

| category | title (as the prompt names it) | FRLs (reader languages) |
|---|---|---|
| class | UML class diagram | plantuml, mermaid |
| sequence | UML sequence diagram | plantuml |
| component | UML component diagram | plantuml |
| usecase | UML use case diagram | plantuml |
| state | UML state machine diagram | plantuml, mermaid |
| er | entity relationship diagram | mermaid, dbml |
| flowchart | flowchart | mermaid, dot |

All categories are modelling categories (domain-agnostic), so each prompt also names
a domain (§3.1). `NODE_LIMITS` is the node-count filter of §3.3 per category.
"""

from __future__ import annotations

CATEGORIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "class": ("UML class diagram", ("plantuml", "mermaid")),
    "sequence": ("UML sequence diagram", ("plantuml",)),
    "component": ("UML component diagram", ("plantuml",)),
    "usecase": ("UML use case diagram", ("plantuml",)),
    "state": ("UML state machine diagram", ("plantuml", "mermaid")),
    "er": ("entity relationship diagram", ("mermaid", "dbml")),
    "flowchart": ("flowchart", ("mermaid", "dot")),
}
#: Reader language → the FRL's name in prompts.
FRL_NAMES = {"plantuml": "PlantUML", "mermaid": "Mermaid", "dot": "Graphviz DOT",
             "dbml": "DBML"}
LANGUAGE_BY_FRL = {v: k for k, v in FRL_NAMES.items()}
CATEGORY_BY_TITLE = {title: name for name, (title, _) in CATEGORIES.items()}
#: (min, max) drawn nodes (entities, or participants of a sequence diagram) kept.
NODE_LIMITS = dict.fromkeys(CATEGORIES, (2, 60))
COMPLEXITIES = ("low", "medium", "high")
#: Code fence info string per language (what a model is asked to write in).
FENCES = {"plantuml": "plantuml", "mermaid": "mermaid", "dot": "dot", "dbml": "dbml"}
