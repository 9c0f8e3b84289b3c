"""Seeded BPMN processes without diagram interchange (the engine lays them out with
bpmn-auto-layout): a start event, a sequence of blocks, an end event. A block is a task,
a timer wait, or a split of two or three branches — an exclusive choice (a named
gateway whose branches are named "yes", "no" and "unsure") or a parallel split — whose
branches hold one to three tasks each, joined again. Task types (user, service, manual,
…) and names are the generator's choice, every name distinct; every process has an
exclusive choice (so a branch can be asked about).

bpmn-auto-layout puts a sequence in one row and the branches of a split one under the
other: a process is drawn about `COLUMN` × columns wide and `ROW` × rows high (splits
are not nested, and have three branches at most: bpmn-auto-layout draws nested splits,
and a fourth branch, beside the others rather than under them). Drawings
much wider than high are dropped by the benchmarks, so the generator draws shapes until
one is at most `MAX_RATIO` times wider than high (by that estimate).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

#: Tasks per complexity (at least, at most).
TASKS = {"low": (3, 5), "medium": (6, 8), "high": (9, 12)}
#: bpmn-auto-layout's grid (pixels), and the widest drawing (width / height) kept.
COLUMN, ROW, MAX_RATIO = 140, 123, 3.4
_TYPES = ("task", "userTask", "serviceTask", "manualTask", "sendTask", "receiveTask",
          "scriptTask", "businessRuleTask")
_VERBS = ("Check", "Approve", "Review", "Send", "Archive", "Prepare", "Record", "Verify",
          "Assign", "Notify", "Ship", "Invoice", "File", "Update", "Schedule", "Close")
_OBJECTS = ("order", "invoice", "claim", "contract", "payment", "request", "report",
            "shipment", "offer", "ticket", "account", "delivery")
_QUESTIONS = ("Approved?", "In stock?", "Complete?", "Valid?", "Urgent?", "Paid?",
              "Accepted?", "Signed?", "Insured?", "Known customer?")
_BRANCHES = ("yes", "no", "unsure")
HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
        '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" '
        'id="Definitions_1" targetNamespace="http://bpmn.io/schema/bpmn">\n'
        '  <bpmn:process id="Process_1" isExecutable="false">\n')


@dataclass
class Block:
    """A "task", a "timer" wait, or an "exclusive" or "parallel" split of `branches`."""

    kind: str
    branches: list[list[Block]] = field(default_factory=list)

    @property
    def width(self) -> int:
        """Columns of the drawing (a split: its gateways and its widest branch)."""
        return 2 + max(map(_width, self.branches)) if self.branches else 1

    @property
    def height(self) -> int:
        """Rows of the drawing (a split: its branches one under the other)."""
        return sum(map(_height, self.branches)) if self.branches else 1


def _width(blocks: list[Block]) -> int:
    return sum(b.width for b in blocks)


def _height(blocks: list[Block]) -> int:
    return max((b.height for b in blocks), default=1)


def _blocks(rng: random.Random, tasks: int, split: bool = True) -> list[Block]:
    """A sequence of blocks holding `tasks` tasks (`split`: splits among them)."""
    out: list[Block] = []
    while tasks > 0:
        if tasks >= 2 and split and rng.random() < 0.7:
            kind = rng.choice(("exclusive", "parallel"))
            ways = min(rng.choice((2, 3)), tasks)
            size = rng.randint(ways, min(tasks, 3 * ways))
            shares = [1] * ways
            while sum(shares) < size:  # one to three tasks a branch
                k = rng.choice([k for k, share in enumerate(shares) if share < 3])
                shares[k] += 1
            out.append(Block(kind, [_blocks(rng, share, False) for share in shares]))
            tasks -= size
        else:
            out.append(Block("task"))
            tasks -= 1
        if split and rng.random() < 0.1:
            out.append(Block("timer"))
    return out


def _askable(blocks: list[Block]) -> bool:
    """Whether it has an exclusive choice (whose branches start with a task)."""
    return any(b.kind == "exclusive" for b in blocks)


def _shape(rng: random.Random, tasks: int) -> list[Block]:
    """The first drawn shape that is askable and not too wide (see the module); after
    many tries, the narrowest askable one."""
    best: list[Block] | None = None
    for _ in range(200):
        blocks = _blocks(rng, tasks)
        if not _askable(blocks):
            continue
        if best is None or _ratio(blocks) < _ratio(best):
            best = blocks
        if _ratio(blocks) <= MAX_RATIO:
            break
    assert best is not None, "no askable shape"
    return best


def _ratio(blocks: list[Block]) -> float:
    return (_width(blocks) + 2) * COLUMN / (_height(blocks) * ROW)


class _Writer:
    """The process's elements and flows as they are written."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lines: list[str] = []
        self.ids = 0
        self.names: set[str] = set()
        self.questions = list(_QUESTIONS)
        rng.shuffle(self.questions)

    def ident(self, tag: str) -> str:
        self.ids += 1
        return f"{tag[0].upper()}{tag[1:]}_{self.ids}"

    def element(self, tag: str, name: str = "", attributes: str = "", body: str = "") -> str:
        ident = self.ident(tag)
        named = f" name={quoteattr(name)}" if name else ""
        self.lines.append(f'    <bpmn:{tag} id="{ident}"{named}{attributes}' +
                          (f">{body}</bpmn:{tag}>" if body else " />"))
        return ident

    def flow(self, source: str, target: str, name: str = "") -> None:
        self.element("sequenceFlow", name, f' sourceRef="{source}" targetRef="{target}"')

    def task(self) -> str:
        while True:
            name = f"{self.rng.choice(_VERBS)} {self.rng.choice(_OBJECTS)}"
            if name not in self.names:
                self.names.add(name)
                return self.element(self.rng.choice(_TYPES), name)

    def sequence(self, blocks: list[Block], last: str, label: str = "") -> str:
        """Write `blocks` after `last` (the first flow named `label`); their last node."""
        for block in blocks:
            if block.branches:
                first, step = self.split(block)
            elif block.kind == "timer":
                timer = f'<bpmn:timerEventDefinition id="{self.ident("timer")}" />'
                first = step = self.element("intermediateCatchEvent", "Wait a day", body=timer)
            else:
                first = step = self.task()
            self.flow(last, first, label)
            last, label = step, ""
        return last

    def split(self, block: Block) -> tuple[str, str]:
        """Write a split, its branches and its join; (split, join)."""
        exclusive = block.kind == "exclusive"
        gateway = "exclusiveGateway" if exclusive else "parallelGateway"
        split = self.element(gateway, self.questions.pop() if exclusive else "")
        join = self.element(gateway)
        for branch, label in zip(block.branches, _BRANCHES, strict=False):
            self.flow(self.sequence(branch, split, label if exclusive else ""), join)
        return split, join


def synth_bpmn(rng: random.Random, complexity: str) -> str:
    """A process of `complexity` "low", "medium" or "high" (see the module)."""
    low, high = TASKS[complexity]
    blocks = _shape(rng, rng.randint(low, high))
    out = _Writer(rng)
    last = out.sequence(blocks, out.element("startEvent", "Start"))
    out.flow(last, out.element("endEvent", "Done"))
    return HEAD + "\n".join(out.lines) + "\n  </bpmn:process>\n</bpmn:definitions>\n"
