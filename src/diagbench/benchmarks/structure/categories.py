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

The table is shared with `codegen` (`diagbench.benchmarks.synthesis`). All categories
are modelling categories (domain-agnostic), so each prompt also names a domain (§3.1).
`NODE_LIMITS` is the node-count filter of §3.3 per category.
"""

from __future__ import annotations

from diagbench.benchmarks.synthesis import (
    CATEGORIES,
    CATEGORY_BY_TITLE,
    COMPLEXITIES,
    FRL_NAMES,
    LANGUAGE_BY_FRL,
)

#: (min, max) drawn nodes (entities, or participants of a sequence diagram) kept.
NODE_LIMITS = dict.fromkeys(CATEGORIES, (2, 60))

__all__ = ["CATEGORIES", "CATEGORY_BY_TITLE", "COMPLEXITIES", "FRL_NAMES", "LANGUAGE_BY_FRL",
           "NODE_LIMITS"]
