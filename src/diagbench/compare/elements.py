"""Counting rules shared by both methods: gold counts, and the errors of one
matched, deleted or inserted element.

Endpoints are compared as given by the caller: participant ids for the `diff`
method, ids mapped onto the ground truth's participants for `semantic`.
The diagram border (`[`, `]`, `?`) is one endpoint value, BORDER, and is not
a node.
"""

from __future__ import annotations

from operator import attrgetter

from diagbench.compare.counts import ERROR_KINDS, ComponentCounts, Error
from diagbench.compare.text import normalize_label, similarity
from diagbench.diagram.sequence import (
    BOUNDARIES,
    Box,
    Group,
    Message,
    Note,
    Participant,
    SequenceDiagram,
)
from diagbench.scoring.name_keys import participant_key

BORDER = "|"

Counts = dict[str, ComponentCounts]


def node_count(message: Message) -> int:
    """Endpoint occurrences that are lifelines: 2, or 1 for `[->`/`->]` messages."""
    return sum(p not in BOUNDARIES for p in (message.sender, message.receiver))


def gold_counts(diagram: SequenceDiagram, counts: Counts,
                labels: list[str] | None = None) -> None:
    """Add the ground truth's element counts to `counts` (`labels`: the messages'
    normalised labels, when the caller has them already)."""
    messages = diagram.messages
    if labels is None:
        labels = [normalize_label(m.label) for m in messages]
    counts["participant"].gold += len(diagram.participants)
    counts["node"].gold += sum((m.sender not in BOUNDARIES) + (m.receiver not in BOUNDARIES)
                               for m in messages)  # node_count of each
    counts["edge_direction"].gold += len(messages)
    counts["edge_type"].gold += len(messages)
    counts["message"].gold += sum(map(bool, labels))
    counts["note"].gold += len(diagram.notes)
    counts["group"].gold += len(diagram.groups)
    counts["box"].gold += len(diagram.boxes)


def message_removed(message: Message, counts: Counts, kind: str,
                    label: str | None = None) -> list[Error]:
    """Count a message present on one side only (`kind`: "deletion" or "insertion";
    `label`: its normalised label, when the caller has it already); return its errors
    in the order of `COMPONENTS`."""
    if label is None:
        label = normalize_label(message.label)
    errors = [(component, kind, n) for component, n in (
        ("node", node_count(message)), ("edge_direction", 1), ("message", int(bool(label))))
        if n]
    for component, _, n in errors:
        c = counts[component]
        setattr(c, kind, getattr(c, kind) + n)
    return errors


def message_alone(ends: tuple[str, str], label: str) -> int:
    """The errors counted for a message present on one side only (`message_removed`):
    its direction, its lifeline ends, its label if it has one."""
    return 1 + (ends[0] != BORDER) + (ends[1] != BORDER) + bool(label)


def orientation(gold: tuple[str, str], pred: tuple[str, str],
                bidirectional: bool = False) -> tuple[bool, int]:
    """(reversed, endpoint mismatches) of the reading of `pred` that counts the fewest
    errors against `gold`: read the other way round, it costs one direction error (none
    when both arrows are bidirectional); on a tie it is read as written."""
    same = (gold[0] != pred[0]) + (gold[1] != pred[1])
    flipped = (gold[0] != pred[1]) + (gold[1] != pred[0])
    if flipped + (not bidirectional) < same:
        return True, flipped
    return False, same


#: What `edge_type` compares of a message: line style and the shape of both ends (not
#: colour), as a tuple (an attrgetter: the semantic method calls it for every matched pair).
arrow_type = attrgetter("line_style", "head", "tail", "head_circle", "tail_circle")


def message_pair(gold: Message, pred: Message, gold_ends: tuple[str, str],
                 pred_ends: tuple[str, str], counts: Counts,
                 labels: tuple[str, str] | None = None) -> tuple[float | None, list[Error]]:
    """Count the errors of a matched message; return its label similarity (None if
    unlabelled) and the errors, in the order of `COMPONENTS` and of `ERROR_KINDS`.

    A message is read the other way round only when that counts fewer errors
    (`orientation`): then it is one direction substitution, and its endpoints that still
    differ are node substitutions, or node insertions/deletions where one side is the
    diagram border. `labels`: both
    normalised labels, when the caller has them already.
    """
    bidirectional = gold.bidirectional and pred.bidirectional
    flipped, _ = orientation(gold_ends, pred_ends, bidirectional)
    if flipped:
        pred_ends = (pred_ends[1], pred_ends[0])
    errors: list[Error] = []
    node_kinds = [_NODE_KIND[g == BORDER, p == BORDER]
                  for g, p in zip(gold_ends, pred_ends, strict=True) if g != p]
    if node_kinds:
        errors += [("node", kind, n) for kind in ERROR_KINDS if (n := node_kinds.count(kind))]
    if flipped and not bidirectional:
        errors.append(("edge_direction", "substitution", 1))
    if arrow_type(gold) != arrow_type(pred):
        errors.append(("edge_type", "substitution", 1))
    gold_label, pred_label = labels or (normalize_label(gold.label), normalize_label(pred.label))
    if gold_label and not pred_label:
        errors.append(("message", "deletion", 1))
    elif pred_label and not gold_label:
        errors.append(("message", "insertion", 1))
    elif gold_label != pred_label:
        errors.append(("message", "substitution", 1))
    for component, kind, n in errors:
        c = counts[component]
        setattr(c, kind, getattr(c, kind) + n)
    return (similarity(gold_label, pred_label) if gold_label else None), errors


#: A differing endpoint, by (gold is the border, prediction is the border).
_NODE_KIND = {(True, False): "insertion", (False, True): "deletion",
              (False, False): "substitution"}


def participant_pair(gold: Participant, pred: Participant, counts: Counts,
                     normalizations: list[str], same_name: bool | None = None) -> bool:
    """A matched participant is wrong when its displayed name differs; whether it is (kind
    is not counted). `same_name`: whether the normalised names are equal, when the caller
    knows."""
    if same_name is None:
        same_name = participant_key(gold.name) == participant_key(pred.name)
    counts["participant"].substitution += not same_name
    if gold.kind != pred.kind:
        normalizations.append(f"participant {pred.id}: {pred.kind} in the prediction, "
                              f"{gold.kind} in the ground truth (kind not counted)")
    return not same_name


def note_pair(gold: Note, pred: Note, gold_targets: frozenset[str],
              pred_targets: frozenset[str], counts: Counts,
              texts: tuple[str, str] | None = None) -> bool:
    """A matched note is wrong when its text or the lifelines it covers differ; whether it
    is (`texts`: both normalised texts, when the caller has them already)."""
    gold_text, pred_text = texts or (normalize_label(gold.text), normalize_label(pred.text))
    wrong = gold_text != pred_text or gold_targets != pred_targets
    counts["note"].substitution += wrong
    return wrong


def group_label(group: Group) -> str:
    """The labels of all branches of a group (its `else` parts included)."""
    return " | ".join([normalize_label(b.label) for b in group.branches])


def group_pair(gold: Group, pred: Group, counts: Counts,
               labels: tuple[str, str] | None = None) -> bool:
    """A matched group is wrong when its kind or any branch label differs; whether it is
    (`labels`: both `group_label`s, when the caller has them already)."""
    gold_label, pred_label = labels or (group_label(gold), group_label(pred))
    wrong = gold.kind != pred.kind or gold_label != pred_label
    counts["group"].substitution += wrong
    return wrong


def box_pair(gold: Box, pred: Box, gold_members: frozenset[str],
             pred_members: frozenset[str], counts: Counts,
             titles: tuple[str, str] | None = None) -> bool:
    """A matched box is wrong when its title or its members differ; whether it is
    (`titles`: both normalised titles, when the caller has them already)."""
    gold_title, pred_title = titles or (normalize_label(gold.title), normalize_label(pred.title))
    wrong = gold_title != pred_title or gold_members != pred_members
    counts["box"].substitution += wrong
    return wrong
