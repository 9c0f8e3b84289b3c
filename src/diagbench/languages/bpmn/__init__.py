"""BPMN 2.0 XML: business process models (STRUDEL's business domain, "business process
model"), read by the reference BPMN model, bpmn-moddle, and drawn by bpmn-js in the
project's Chromium (the `bpmn` engine), laid out first by bpmn-auto-layout when the
document carries no diagram interchange.

The model counts tasks, sub-processes, events (start, end, intermediate, boundary),
gateways, sequence and message flows, lanes, pools and data objects; a DOCTYPE or
entity declaration is refused, so no external entity is ever read. The similarity is a
graph F1 over labelled flow nodes and flows, invariant to ids; the facts ask which task
follows a gateway's branch, how many tasks and gateways there are, which lane holds a
task and what follows it. Its styles restyle bpmn-js's drawing with a style sheet
(`STYLES`): blue ink, shapes filled in colour by kind, bold lines.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.bpmn.styles import STYLES
from diagbench.languages.record import Drawn, Language, expect
from diagbench.languages.styled import DrawerStyles

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine

_DEFINITIONS = re.compile(r"<(?:\w+:)?definitions\b[^>]*[\"']http://www\.omg\.org/spec/BPMN/"
                          r"20100524/MODEL[\"']", re.S)


def recognises(text: str) -> bool:
    """A BPMN document's root is `definitions` in BPMN 2.0's model namespace."""
    return _DEFINITIONS.search(text[:20_000]) is not None


class Bpmn(DrawerStyles, Language):
    """BPMN 2.0 XML as a `Language`: its parts, each importing what it uses when first
    called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.bpmn.engine import BpmnEngine

        return BpmnEngine(jobs=jobs, timeout=timeout)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.bpmn.read import read_bpmn

        return read_bpmn(text)

    def release(self) -> None:
        """End bpmn-moddle's warm Node process."""
        from diagbench.languages.bpmn.moddle import shared

        shared().close()

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.bpmn.drawn import drawn_statistics

        return Drawn(drawn_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.bpmn.similarity import compare_processes

        return compare_processes(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.languages.bpmn.facts import process_facts
        from diagbench.languages.bpmn.model import BpmnModel

        return process_facts(expect(diagram, BpmnModel))

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.bpmn.synth import synth_bpmn

        return synth_bpmn(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        """A task renamed or a sequence flow rewired to another node (`rng`'s choice)."""
        from diagbench.languages.bpmn.rewrite import edit_bpmn

        return edit_bpmn(code, rng)

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """Every id renamed and each process's flow elements reordered."""
        from diagbench.languages.bpmn.rewrite import rewrite_bpmn

        return rewrite_bpmn(code, rng)


LANGUAGE = Bpmn(
    doc=__doc__ or "",
    name="bpmn",
    title="BPMN",
    suffixes=(".bpmn",),
    domain="business",
    categories=("business-process",),
    kinds=("process",),
    engine="bpmn",
    browser=True,
    examples=("invoice.bpmn",),
    node_limits=(1, 60),
    size="tasks",
)
