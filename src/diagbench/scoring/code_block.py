"""Take the PlantUML script out of a model's answer.

Answers wrap the script in code fences, chatter before and after it, give a
draft and then a corrected version, or stop before `@enduml` when the token
budget runs out. The rules, in order:

1. Code blocks (``` or ~~~ fences; one left open at the end of the answer is
   a block cut short). Those holding `@startuml` are candidates, else those
   tagged plantuml/puml/uml, else any block that reads like a sequence
   diagram (an arrow line). Of several candidates the last one is taken: it
   is the model's final word (a reasoning answer drafts before it concludes).
2. Without a usable block, the text from the last `@startuml` on.
3. Otherwise there is no script.

A script without `@startuml`/`@enduml` gets them; every such repair is listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<tag>[\w+-]*)[^\n]*$", re.MULTILINE)
_PLANTUML_TAGS = {"plantuml", "puml", "uml", "plant-uml", "plantuml-sequence"}
_ARROW_LINE = re.compile(r"^\s*[\w\"\[\]?].*?(?:-+>|<-+|->>|-\\\\|-//)", re.MULTILINE)
_START = re.compile(r"@startuml\b", re.IGNORECASE)
_END = re.compile(r"@enduml\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Extraction:
    """The script found in an answer (None when there is none) and how it was found."""

    script: str | None
    notes: tuple[str, ...] = field(default=())

    @property
    def reason(self) -> str | None:
        """Why there is no script, or None."""
        return None if self.script is not None else "; ".join(self.notes)


@dataclass(frozen=True, slots=True)
class _Block:
    tag: str
    body: str
    closed: bool


def _blocks(answer: str) -> list[_Block]:
    """The fenced code blocks of `answer`, in order; an unclosed last one is cut short."""
    blocks, pos = [], 0
    while (opening := _FENCE.search(answer, pos)) is not None:
        fence = opening.group("fence")
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$",
                             re.MULTILINE)
        start = opening.end() + 1
        end = closing.search(answer, start)
        body = answer[start:end.start() if end else len(answer)]
        blocks.append(_Block(opening.group("tag").lower(), body, end is not None))
        if end is None:
            break
        pos = end.end()
    return blocks


def _candidates(blocks: list[_Block]) -> tuple[list[_Block], str]:
    for test, why in ((lambda b: _START.search(b.body), "holding @startuml"),
                      (lambda b: b.tag in _PLANTUML_TAGS, "tagged as PlantUML"),
                      (lambda b: _ARROW_LINE.search(b.body), "with arrows")):
        chosen = [b for b in blocks if test(b)]
        if chosen:
            return chosen, why
    return [], ""


def extract_plantuml(answer: str | None) -> Extraction:
    """The PlantUML script in `answer`, with a note for every choice or repair made."""
    if not answer or not answer.strip():
        return Extraction(None, ("the answer is empty",))
    notes: list[str] = []
    blocks = _blocks(answer)
    chosen, why = _candidates(blocks)
    if chosen:
        block = chosen[-1]
        if len(chosen) > 1:
            notes.append(f"{len(chosen)} code blocks {why}: took the last")
        if not block.closed:
            notes.append("the code block is not closed: the answer was cut short")
        text = block.body
    elif (starts := list(_START.finditer(answer))):
        text = answer[starts[-1].start():]
        if len(starts) > 1:
            notes.append(f"{len(starts)} @startuml lines: took the last")
    else:
        what = "code blocks but none of PlantUML" if blocks else "no @startuml and no code block"
        return Extraction(None, (f"no PlantUML in the answer ({what})",))
    return Extraction(_frame(text, notes), tuple(notes))


def _frame(text: str, notes: list[str]) -> str:
    """`text` from its `@startuml` to its first `@enduml`, adding whichever is missing."""
    start = _START.search(text)
    if start is None:
        notes.append("@startuml missing: added")
        text = "@startuml\n" + text.strip("\n")
    else:
        text = text[start.start():]
    end = _END.search(text)
    if end is None:
        notes.append("@enduml missing: added")
        return text.rstrip() + "\n@enduml\n"
    return text[:end.end()].rstrip() + "\n"
