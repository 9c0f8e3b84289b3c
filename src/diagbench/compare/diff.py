"""The diff method, faithful to paper §2.2–2.3: compare the scripts line by line.

1. git's own unified diff of ground truth and prediction (`patch.git_diff`, as the
   paper's patch files, Fig. 4); each change block — removed lines, then added lines,
   between context lines — is one group (`patch.change_groups`). Only relevant lines
   are kept: messages, and participant, note, group and box lines (never `end …`).
2. In each group, removed and added lines are paired by `linear_sum_assignment` on
   their Levenshtein distances (Fig. 5).
3. Unpaired removed lines are deletions, unpaired added lines insertions, and pairs at
   distance > 0 are categorised per component by comparing the two lines' parsed
   statements (`elements`).
What was seen is kept (`LineDiff`): the patch, each pair with its distance and the
errors counted for it, and the unpaired lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import cdist
from scipy.optimize import linear_sum_assignment

from diagbench.compare import elements as el
from diagbench.compare.assignment import discordant_pairs
from diagbench.compare.counts import (
    COMPONENTS,
    ERROR_KINDS,
    Comparison,
    Error,
    LineDiff,
    PairedLines,
)
from diagbench.compare.patch import ChangeGroup, change_groups, git_diff
from diagbench.compare.text import normalize_label
from diagbench.diagram.sequence import (
    BOUNDARIES,
    BOUNDARY_LEFT,
    BOUNDARY_RIGHT,
    GROUP_KINDS,
    NOTE_SHAPES,
    PARTICIPANT_KINDS,
    Box,
    Group,
    Message,
    Note,
    Participant,
)
from diagbench.formats.plantuml import parse_one

_CLOSERS: dict[str, str] = {**dict.fromkeys(NOTE_SHAPES, "end note"), "box": "end box",
                             **dict.fromkeys((*GROUP_KINDS, "par2"), "end")}
_FIRST_WORD = re.compile(r"\s*([A-Za-z]+)")
_KEYWORDS = {*_CLOSERS, *PARTICIPANT_KINDS}
#: "Lines containing arrows" (§2.2.2): the paper spots them by pattern, parsed or not.
_ARROW = re.compile(r"[<>ox]?-+(?:\[[^\]]*\]-*)?[>\\/xo]|<<?-|[\\/]-")
_LOOSE_MESSAGE = re.compile(r"^\s*(?P<a>[\w.@]*)\s*"
                            r"(?P<arrow>[<>ox\\/]*-+(?:\[[^\]]*\]-*)?[<>ox\\/]*)"
                            r"\s*(?P<b>[\w.@]*)\s*(?::(?P<label>.*))?$")

#: A relevant line's component and its parsed element (the component tags the element's type).
Statement = (tuple[Literal["message"], Message] | tuple[Literal["participant"], Participant]
             | tuple[Literal["note"], Note] | tuple[Literal["group"], Group]
             | tuple[Literal["box"], Box])


@dataclass(slots=True, frozen=True)
class LinePair:
    """A removed line paired with an added line, and their Levenshtein distance."""

    removed: int
    added: int
    distance: int


@lru_cache(maxsize=4096)  # lines repeat within a pair; bounded across a corpus
def statement(line: str) -> Statement | None:
    """(component, parsed element) of a relevant line, or None for any other line.

    A line with an arrow that does not parse is still a message, read loosely
    (a missing endpoint is the diagram border).
    """
    match = _FIRST_WORD.match(line)
    word = match.group(1).lower() if match else ""
    has_arrow = line.lstrip()[:1] != "'" and _ARROW.search(line) is not None
    if not has_arrow and word not in _KEYWORDS:
        return None
    closer = _CLOSERS.get(word, "") if ":" not in line or word in GROUP_KINDS else ""
    diagram = parse_one(f"@startuml\n{line}\n{closer}\n@enduml\n")
    if diagram.messages:
        return "message", diagram.messages[0]
    if diagram.notes:
        return "note", diagram.notes[0]
    if diagram.groups:
        return "group", diagram.groups[0]
    if diagram.boxes:
        return "box", diagram.boxes[0]
    declared = [p for p in diagram.participants if p.declared]
    if declared:
        return "participant", declared[0]
    if has_arrow:
        loose = _LOOSE_MESSAGE.match(line)
        if loose is None:
            return "message", Message(BOUNDARY_LEFT, BOUNDARY_RIGHT, label=line.strip())
        return "message", Message(loose.group("a") or BOUNDARY_LEFT,
                                  loose.group("b") or BOUNDARY_RIGHT, loose.group("arrow"),
                                  label=(loose.group("label") or "").strip())
    return None


def relevant(group: ChangeGroup) -> ChangeGroup:
    """The group with only the lines the paper analyses (step 1)."""
    keep_r = [k for k, line in enumerate(group.removed) if statement(line)]
    keep_a = [k for k, line in enumerate(group.added) if statement(line)]
    return ChangeGroup([group.removed[k] for k in keep_r], [group.added[k] for k in keep_a],
                       [group.removed_at[k] for k in keep_r] if group.removed_at else [],
                       [group.added_at[k] for k in keep_a] if group.added_at else [])


def pair_lines(group: ChangeGroup) -> list[LinePair]:
    """Optimal pairs of removed and added lines, least total Levenshtein distance (step 2)."""
    if not group.removed or not group.added:
        return []
    distances = cdist(group.removed, group.added, scorer=Levenshtein.distance, workers=1)
    rows, cols = linear_sum_assignment(distances)
    return [LinePair(r, c, int(distances[r, c]))
            for r, c in zip(rows.tolist(), cols.tolist(), strict=True)]


def compare_lines(gold_text: str, pred_text: str, result: Comparison,
                  name: str = "script.puml") -> LineDiff:
    """Count the errors of `pred_text` against `gold_text` into `result` (gold counts
    apart); return what was seen (the patch names the file `name`)."""
    gold, pred = gold_text.splitlines(), pred_text.splitlines()
    seen = LineDiff(git_diff(gold, pred, name))
    groups = [ChangeGroup([gold[i] for i in g.removed_at], [pred[j] for j in g.added_at],
                          g.removed_at, g.added_at)
              for g in next(iter(change_groups(seen.patch).values()), [])]
    removed = {i for g in groups for i in g.removed_at}
    added = {j for g in groups for j in g.added_at}
    # the unchanged lines, in order on both sides
    same = zip((i for i in range(len(gold)) if i not in removed),
               (j for j in range(len(pred)) if j not in added), strict=True)
    same_messages = [(i, j, s[1]) for i, j in same
                     if (s := statement(gold[i])) is not None and s[0] == "message"]
    message_lines = [(i, j) for i, j, _ in same_messages]
    result.add_similarity(1.0, sum(1 for *_, message in same_messages
                                   if normalize_label(message.label)))
    for group in map(relevant, groups):
        pairs = pair_lines(group)
        for pair in pairs:
            removed_line, added_line = group.removed[pair.removed], group.added[pair.added]
            gold_statement = _kept_statement(removed_line)
            pred_statement = _kept_statement(added_line)
            if gold_statement[0] == pred_statement[0] == "message":
                message_lines.append((group.removed_at[pair.removed],
                                      group.added_at[pair.added]))
            errors: list[Error] = []
            if pair.distance:
                errors = _count_pair(gold_statement, pred_statement, result)
            elif gold_statement[0] == "message" and normalize_label(gold_statement[1].label):
                result.add_similarity(1.0)
            seen.pairs.append(PairedLines(removed_line, added_line, pair.distance,
                                          tuple(errors)))
        paired_r = {p.removed for p in pairs}
        paired_a = {p.added for p in pairs}
        for k, line in enumerate(group.removed):
            if k not in paired_r:
                _count_removed(_kept_statement(line), result, "deletion")
                seen.unpaired_removed.append(line)
        for k, line in enumerate(group.added):
            if k not in paired_a:
                _count_removed(_kept_statement(line), result, "insertion")
                seen.unpaired_added.append(line)
    message_lines.sort()
    result.ordering.pairs += len(message_lines) * (len(message_lines) - 1) // 2
    result.ordering.discordant_pairs += discordant_pairs([j for _, j in message_lines])
    return seen


def _kept_statement(line: str) -> Statement:
    """The statement of a line that `relevant` kept (it keeps only lines that have one)."""
    found = statement(line)
    assert found is not None, line
    return found


def _end(participant: str) -> str:
    return el.BORDER if participant in BOUNDARIES else participant


def _ends(message: Message) -> tuple[str, str]:
    return _end(message.sender), _end(message.receiver)


def _count_removed(item: Statement, result: Comparison,
                   kind: Literal["deletion", "insertion"]) -> list[Error]:
    """Count an element present on one side only; return its errors."""
    if item[0] == "message":
        errors = el.message_removed(item[1], result.components, kind)
    else:
        errors = [(item[0], kind, 1)]
        counts = result.components[item[0]]
        setattr(counts, kind, getattr(counts, kind) + 1)
    return errors


def _count_pair(gold: Statement, pred: Statement, result: Comparison) -> list[Error]:
    """Categorise a changed pair of lines (step 3); different statements are −1 and +1.
    Return the errors counted."""
    counts = result.components
    match gold, pred:
        case ("message", g), ("message", p):
            sim, errors = el.message_pair(g, p, _ends(g), _ends(p), counts)
            if sim is not None:
                result.add_similarity(sim)
            return errors
        case ("participant", g), ("participant", p):
            if g.id != p.id:
                counts["participant"].substitution += 1
                wrong = True
            else:
                wrong = el.participant_pair(g, p, counts, result.normalizations)
        case ("note", g), ("note", p):
            wrong = el.note_pair(g, p, frozenset(g.targets), frozenset(p.targets), counts)
        case ("group", g), ("group", p):
            wrong = el.group_pair(g, p, counts)
        case ("box", g), ("box", p):
            wrong = el.box_pair(g, p, frozenset(), frozenset(), counts)
        case _:
            errors = (_count_removed(gold, result, "deletion")
                      + _count_removed(pred, result, "insertion"))
            return sorted(errors, key=lambda e: (COMPONENTS.index(e[0]), ERROR_KINDS.index(e[1])))
    return [(gold[0], "substitution", 1)] if wrong else []
