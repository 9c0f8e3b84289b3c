"""The conversion prompts: the paper's (000 §3.2.2, verbatim), a step-by-step variant
(its §5 proposes reasoning before answering), a minimal one, or a file of the user's.

A template has one field, `{caption}`: the caption of the image, or nothing
when there is none (the paper's `of "{caption}"` is then left out).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

PAPER = (
    'Generate puml script for given 3GPP standard call flow diagram{caption} according to puml '
    "documentation. Please consider following important points:\n"
    "1. Correctly identify participants/actors.\n"
    "2. Correctly identify the connection between the nodes using given arrows.\n"
    "3. Correctly identify the arrow direction, start and end of the arrow.\n"
    "4. Correctly identify text associated to the arrow.\n"
    "5. If any text is in rectangles consider them as notes and write them in appropriate "
    "place.\n"
    "6. Give numbering to each call sequentially.\n"
    "7. Correctly identify color if any."
)
COT = PAPER + (
    "\n\nFirst think step by step: list the participants from left to right, then every "
    "arrow from top to bottom with its sender, receiver, line style (solid or dotted), "
    "head and text, then the notes and groups (opt, alt, loop, par) with what they enclose. "
    "Then write the complete script in one ```plantuml code block, from @startuml to "
    "@enduml."
)
MINIMAL = ("Convert this sequence diagram{caption} to PlantUML. Answer with the script only, "
           "from @startuml to @enduml.")
PROMPTS = {"paper": PAPER, "cot": COT, "minimal": MINIMAL}


class PromptError(ValueError):
    """A prompt file that cannot be used."""


@dataclass(frozen=True, slots=True)
class Prompt:
    name: str
    template: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.template.encode("utf-8")).hexdigest()

    def text(self, caption: str | None) -> str:
        """The prompt for one image, its caption filled in."""
        shown = f' of "{caption.strip()}"' if caption and caption.strip() else ""
        return self.template.replace("{caption}", shown)


def load_prompt(name: str) -> Prompt:
    """A named prompt (paper, cot, minimal) or the template in the file `name`."""
    if name in PROMPTS:
        return Prompt(name, PROMPTS[name])
    path = Path(name)
    try:
        template = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PromptError(f"{name}: not one of {', '.join(PROMPTS)} and not a readable "
                          f"UTF-8 file ({exc})") from None
    if not template.strip():
        raise PromptError(f"{name}: the prompt file is empty")
    return Prompt(path.name, template)
