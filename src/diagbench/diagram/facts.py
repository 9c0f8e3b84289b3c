"""`Fact`: one question STRUDEL's task types ask about a diagram, with its exact answer.

A language's `facts` (`diagbench.languages.record.Language.facts`) reads them off the
model its reader returned, so the answer comes from the field's own parser, never from
a model's prose (paper 004 §3.4: identification, quantification, structural analysis).
"""

from __future__ import annotations

from dataclasses import dataclass

#: STRUDEL's task types that ask about the drawing's structure.
TASK_TYPES = ("identification", "quantification", "structural")

Answer = str | int | float | bool | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Fact:
    """`question` (in English, naming what the image shows), its `answer`, the
    `task` type (one of `TASK_TYPES`) and `subject`, a short key of what is asked
    ("atoms:C", "leaves", "check") that reports group by."""

    task: str
    subject: str
    question: str
    answer: Answer

    def __post_init__(self) -> None:
        if self.task not in TASK_TYPES:
            raise ValueError(f"unknown task type {self.task!r}")
