"""The semantic method: compare the parsed diagrams, not the lines of text.

Participants are matched by alias and display name (normalised), then the
messages, notes, groups and boxes are each matched over the whole diagram, with
prediction endpoints translated to the ground truth's participants, by the
matching that counts the fewest errors in all (`assignment.fewest_errors`):
ties broken by label similarity, then by order. So a renamed alias, a reordered
declaration or a moved message is no error (a move shows in the `ordering`
score), and a message is read the other way round (one direction substitution)
only when that explains it with fewer errors than any other pairing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache
from itertools import chain
from operator import attrgetter, itemgetter
from typing import TypeVar

import numpy as np
from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import cdist

from diagbench.compare import elements as el
from diagbench.compare.assignment import (
    assign,
    discordant_pairs,
    fewest_errors,
    jaccard,
    tie_breaks,
)
from diagbench.compare.counts import Comparison
from diagbench.compare.text import normalize_label, normalize_labels, similarity
from diagbench.diagram.sequence import BOUNDARIES, Group, Message, SequenceDiagram
from diagbench.scoring.name_keys import participant_key

#: A pair of participants is matched only when its cost is below the limit (see `assign`).
PARTICIPANT_LIMIT = 0.5
_UNMATCHED = "\0pred:"
T = TypeVar("T")


def compare_diagrams(gold: SequenceDiagram, pred: SequenceDiagram,
                     result: Comparison | None = None) -> Comparison:
    """Count the errors of `pred` against `gold`, component by component, into `result`
    (a new Comparison by default; one with no counts yet: its similarity sum starts
    from 0.0, as a new one's does)."""
    if result is None:
        result = Comparison()
    raw = [m.label for m in gold.messages]
    gold_labels = normalize_labels(raw)  # once per message
    # and once per label: the prediction's are mostly the ground truth's
    known = dict(zip(raw, gold_labels, strict=True))
    pred_labels = [known[label] if label in known else normalize_label(label)
                   for label in (m.label for m in pred.messages)]
    el.gold_counts(gold, result.components, gold_labels)
    ends = _match_participants(gold, pred, result)
    matched = _match_messages(gold, pred, ends, result, gold_labels, pred_labels)
    _match_notes(gold, pred, ends, result)
    _match_groups(gold, pred, matched, result)
    _match_boxes(gold, pred, ends, result)
    return result


def _names(participants, seen: dict[str, str]) -> list[tuple[str, str]]:
    """The normalised alias and display name of each participant (`seen`: the names
    normalised so far, and their normal forms; an alias is often its name, and the
    prediction's names mostly the ground truth's)."""
    out = []
    for p in participants:
        pid, name = p.id, p.name
        if pid not in seen:
            seen[pid] = participant_key(pid)
        if name not in seen:
            seen[name] = participant_key(name)
        out.append((seen[pid], seen[name]))
    return out


def _name_keys(names: list[tuple[str, str]]) -> tuple[list[str], list[int], list[int]]:
    """The distinct non-empty names of each participant (from `_names`); the
    participants that have any, in order; and where each one's keys start."""
    keys: list[str] = []
    owners: list[int] = []
    starts: list[int] = []
    for k, both in enumerate(names):
        first = True
        for key in dict.fromkeys(both):
            if key:
                if first:
                    owners.append(k)
                    starts.append(len(keys))
                    first = False
                keys.append(key)
    return keys, owners, starts


def _participant_costs(gold: list[tuple[str, str]], pred: list[tuple[str, str]]) -> np.ndarray:
    """1 − the best similarity between any name of gold i and any name of prediction j
    (names as `_names` gives them)."""
    cost = np.ones((len(gold), len(pred)))
    gold_keys, gold_owners, gold_starts = _name_keys(gold)
    pred_keys, pred_owners, pred_starts = _name_keys(pred)
    if gold_keys and pred_keys:
        sims = cdist(gold_keys, pred_keys, scorer=Levenshtein.normalized_similarity,
                     dtype=np.float64, workers=1)
        # the best pair of names per pair of participants: one reduction per axis
        best = np.maximum.reduceat(np.maximum.reduceat(sims, gold_starts, axis=0),
                                   pred_starts, axis=1)
        cost[np.ix_(gold_owners, pred_owners)] = 1.0 - best
    return cost


def _match_participants(gold: SequenceDiagram, pred: SequenceDiagram,
                        result: Comparison) -> _Ends:
    """Map the prediction's participant ids to gold ids (the unmatched ones to ids of
    their own), and its border markers to BORDER."""
    pairs: list[tuple[int, int]] = []
    seen: dict[str, str] = {}
    gold_names, pred_names = _names(gold.participants, seen), _names(pred.participants, seen)
    if gold_names and pred_names:
        n, m = len(gold_names), len(pred_names)
        if gold_names == pred_names and all(a or b for a, b in gold_names):
            # the same names in the same order: each pair costs 0 and any other
            # assignment more (position gap), so the optimum is the identity
            pairs = [(k, k) for k in range(n)]
        else:
            pairs = assign(_participant_costs(gold_names, pred_names) + tie_breaks(n, m),
                           PARTICIPANT_LIMIT)
    ids = {p.id: _UNMATCHED + p.id for p in pred.participants}
    for i, j in pairs:
        g, p = gold.participants[i], pred.participants[j]
        ids[p.id] = g.id
        same_name = gold_names[i][1] == pred_names[j][1]
        if el.participant_pair(g, p, result.components, result.normalizations, same_name):
            result.list_errors(f"participant {g.name!r} read as {p.name!r}",
                               [("participant", "substitution", 1)])
    _unmatched(result, "participant", pairs, gold.participants, pred.participants, _NAME)
    return _Ends(ids)


#: What `_unmatched` lists a participant, or an element row, by.
_NAME, _TEXT = attrgetter("name"), itemgetter(1)


def _unmatched(result: Comparison, component: str, pairs: list[tuple[int, int]],
               gold: Sequence[T], pred: Sequence[T], text: Callable[[T], str]) -> None:
    """Count the elements of both sides that `pairs` leaves unmatched (deletions and
    insertions) and list them by their `text`."""
    deleted, inserted = len(gold) - len(pairs), len(pred) - len(pairs)
    if not deleted and not inserted:
        return
    counts = result.components[component]
    counts.deletion += deleted
    counts.insertion += inserted
    matched_gold, matched_pred = {i for i, _ in pairs}, {j for _, j in pairs}
    result.differences += [f"{component} missing: {text(e)}" for i, e in enumerate(gold)
                           if i not in matched_gold]
    result.differences += [f"{component} extra: {text(e)}" for j, e in enumerate(pred)
                           if j not in matched_pred]


class _Ends(dict[str, str]):
    """What a prediction endpoint is compared as: BORDER for the border markers, the
    gold id or own id (see `_match_participants`) for a participant, and an id of its own
    for any other."""

    def __init__(self, ids: dict[str, str]) -> None:
        super().__init__(ids)
        self.update(dict.fromkeys(BOUNDARIES, el.BORDER))

    def __missing__(self, endpoint: str) -> str:
        return _UNMATCHED + endpoint


class _Matched(dict[int, int]):
    """{prediction message index: gold index}; an unmatched message j maps to -1 - j."""

    def __missing__(self, j: int) -> int:
        return -1 - j


def _endpoint_errors(gs: np.ndarray, gr: np.ndarray, ps: np.ndarray, pr: np.ndarray,
                     reversal: int) -> np.ndarray:
    """The node and direction errors of each pair of messages (senders `gs`, `ps` and
    receivers `gr`, `pr` as integer codes, broadcast) in the reading that counts fewer
    (`el.orientation`): as written, or the other way round at `reversal` errors."""
    same = np.add(gs != ps, gr != pr, dtype=np.int64)
    flipped = np.add(gs != pr, gr != ps, dtype=np.int64)
    flipped += reversal
    return np.minimum(same, flipped)


#: Diagrams with fewer distinct endpoints than this look their endpoint errors up in a
#: table (one indexing instead of several operations over the whole matrix).
_TABLE_CODES = 12


@cache
def _endpoint_table(reversal: int) -> np.ndarray:
    """`_endpoint_errors` of every (sender, receiver) pair of codes below _TABLE_CODES with
    every other, indexed by sender × _TABLE_CODES + receiver."""
    senders, receivers = np.divmod(np.arange(_TABLE_CODES ** 2), _TABLE_CODES)
    return _endpoint_errors(senders[:, None], receivers[:, None], senders, receivers,
                            reversal)


def _message_endpoint_errors(gold: list[tuple[str, str]], pred: list[tuple[str, str]],
                             reversal: int) -> np.ndarray:
    """`_endpoint_errors` of messages given by their (sender, receiver) pairs."""
    code = {e: k for k, e in enumerate({*chain.from_iterable(gold), *chain.from_iterable(pred)})}
    width = _TABLE_CODES
    if len(code) <= width:
        g = np.array([code[s] * width + code[r] for s, r in gold])
        p = np.array([code[s] * width + code[r] for s, r in pred])
        return _endpoint_table(reversal)[g[:, None], p]
    g_ends = np.array([(code[s], code[r]) for s, r in gold])
    p_ends = np.array([(code[s], code[r]) for s, r in pred])
    return _endpoint_errors(g_ends[:, :1], g_ends[:, 1:], p_ends[:, 0], p_ends[:, 1],
                            reversal)


def _codes(*columns: list) -> list[np.ndarray]:
    """Each column's values as integer codes, equal values equal codes across columns."""
    code: dict = {}
    return [np.array([code.setdefault(v, len(code)) for v in column]) for column in columns]


def _message_errors(gm: Sequence[Message], pm: Sequence[Message], gold_pairs: list[tuple[str, str]],
                    pred_pairs: list[tuple[str, str]], gold_labels: list[str],
                    pred_labels: list[str]) -> np.ndarray:
    """The errors `el.message_pair` counts for each pair of messages: nodes and direction
    in the reading with fewer, arrow type, label."""
    errors = _message_endpoint_errors(gold_pairs, pred_pairs, 1)
    gold_both, pred_both = ([m.bidirectional for m in ms] for ms in (gm, pm))
    if any(gold_both) and any(pred_both):  # both bidirectional: read either way, no error
        both = np.outer(gold_both, pred_both)
        errors = np.where(both, _message_endpoint_errors(gold_pairs, pred_pairs, 0), errors)
    arrow_type = el.arrow_type
    g_type, p_type = _codes([arrow_type(m) for m in gm], [arrow_type(m) for m in pm])
    errors += g_type[:, None] != p_type
    g_label, p_label = _codes(gold_labels, pred_labels)
    errors += g_label[:, None] != p_label
    return errors


def _match_messages(gold: SequenceDiagram, pred: SequenceDiagram, pred_ends: _Ends,
                    result: Comparison, gold_labels: list[str],
                    pred_labels: list[str]) -> _Matched:
    """Match messages globally; count their errors; return {pred index: gold index}.
    `pred_ends`: the prediction's endpoints on the ground truth's participants;
    `gold_labels`, `pred_labels`: the messages' normalised labels."""
    gm, pm = gold.messages, pred.messages
    # (sender, receiver) of each message; the prediction's on the ground truth's participants
    border = el.BORDER
    gold_pairs = [(border if m.sender in BOUNDARIES else m.sender,
                   border if m.receiver in BOUNDARIES else m.receiver) for m in gm]
    pred_pairs = [(pred_ends[m.sender], pred_ends[m.receiver]) for m in pm]
    in_gold_order: list[int] = []  # the matched prediction messages, by gold message
    gold_rows: list[int] = []  # the matched gold messages, in order
    if gm and pm:
        # the fewest errors; ties broken by label similarity, then by order
        ties = cdist(gold_labels, pred_labels, scorer=Levenshtein.normalized_similarity,
                     dtype=np.float64, workers=1)
        np.subtract(1.0, ties, out=ties)
        ties += tie_breaks(len(gm), len(pm))
        alone = el.message_alone
        rows, cols = fewest_errors(
            _message_errors(gm, pm, gold_pairs, pred_pairs, gold_labels, pred_labels),
            np.array([alone(e, label) for e, label in zip(gold_pairs, gold_labels,
                                                          strict=True)]),
            np.array([alone(e, label) for e, label in zip(pred_pairs, pred_labels,
                                                          strict=True)]),
            ties)  # rows in increasing order
        in_gold_order = cols.tolist()
        gold_rows = rows.tolist()
    counts = result.components
    arrow_type = el.arrow_type
    total, count = result.similarity_sum, result.similarity_count
    for i, j in zip(gold_rows, in_gold_order, strict=True):
        gold_label = gold_labels[i]
        if (gold_pairs[i] == pred_pairs[j] and gold_label == pred_labels[j]
                and arrow_type(gm[i]) == arrow_type(pm[j])):
            if gold_label:  # read right: no error, and a label similarity of 1
                total += 1.0
                count += 1
            continue
        gold_message, pred_message, pred_label = gm[i], pm[j], pred_labels[j]
        sim, errors = el.message_pair(gold_message, pred_message, gold_pairs[i], pred_pairs[j],
                                      counts, (gold_label, pred_label))
        if sim is not None:
            total += sim
            count += 1
        if errors:
            result.list_errors(f"message {_shown(gold_message)!r} read as "
                               f"{_shown(pred_message)!r}", errors)
    result.similarity_sum, result.similarity_count = total, count
    matched = len(gold_rows)
    if matched < len(gm):
        matched_gold = set(gold_rows)
        for i, message in enumerate(gm):
            if i not in matched_gold:
                el.message_removed(message, counts, "deletion", gold_labels[i])
                result.differences.append(f"message missing: {_shown(message)}")
    if matched < len(pm):
        matched_pred = set(in_gold_order)
        for j, message in enumerate(pm):
            if j not in matched_pred:
                el.message_removed(message, counts, "insertion", pred_labels[j])
                result.differences.append(f"message extra: {_shown(message)}")
    result.ordering.pairs += matched * (matched - 1) // 2
    result.ordering.discordant_pairs += discordant_pairs(in_gold_order)
    return _Matched(zip(in_gold_order, gold_rows, strict=True))


def _shown(message: Message) -> str:
    """A message as a reader knows it: `A -> B : label` (participant ids as written)."""
    text = f"{message.sender} {message.arrow} {message.receiver}"
    return f"{text} : {message.label}" if message.label else text


#: Weights of text similarity, member overlap (Jaccard) and kind in the tie-break between
#: matchings of equally few errors.
_WEIGHTS = {"note": (0.7, 0.2, 0.0), "group": (0.4, 0.4, 0.2), "box": (0.5, 0.5, 0.0)}
#: Whether a matched pair of row keys (text, members, kind) counts its one substitution:
#: what `el.note_pair`, `el.group_pair` and `el.box_pair` compare.
_WRONG = {"note": lambda g, p: g[0] != p[0] or g[1] != p[1],
          "group": lambda g, p: g[0] != p[0] or g[2] != p[2],
          "box": lambda g, p: g[0] != p[0] or g[1] != p[1]}
#: Count the error of a matched pair of rows, if any (one substitution); whether there is one.
_PAIR_RULES = {
    "note": lambda g, p, counts: el.note_pair(g[0], p[0], g[2], p[2], counts, (g[1], p[1])),
    "group": lambda g, p, counts: el.group_pair(g[0], p[0], counts, (g[1], p[1])),
    "box": lambda g, p, counts: el.box_pair(g[0], p[0], g[2], p[2], counts, (g[1], p[1])),
}


def _row_key(row: tuple) -> tuple:
    """What the cost and the counting of an element row look at: text, members, kind."""
    return row[1], row[2], getattr(row[0], "kind", None)


def _match_elements(component: str, gold_rows: list[tuple], pred_rows: list[tuple],
                    result: Comparison) -> None:
    """Match (element, text, members) rows of notes, groups or boxes; count their errors."""
    text_w, members_w, kind_w = _WEIGHTS[component]
    pairs: list[tuple[int, int]] = []
    gold_keys, pred_keys = list(map(_row_key, gold_rows)), list(map(_row_key, pred_rows))
    if gold_keys == pred_keys:
        # the same texts, members and kinds in the same order: nothing to count (each
        # pair costs 0 and any other assignment more, by the position gap)
        return
    if gold_rows and pred_rows:
        # one substitution for a wrong pair, one deletion and one insertion for an
        # unmatched one; ties broken by text_w·(1 − similarity) + members_w·(1 − Jaccard)
        # + kind_w·(kinds differ), then by order (cell by cell: these matrices are small,
        # and numpy's and cdist's set-up cost more)
        wrong = _WRONG[component]
        errors = np.array([[wrong(g, p) for p in pred_keys] for g in gold_keys],
                          dtype=np.int64)
        ties = np.array([[text_w * (1.0 - similarity(g_text, p_text))
                          + members_w * (1.0 - jaccard(g_members, p_members))
                          + kind_w * (g_kind != p_kind)
                          for p_text, p_members, p_kind in pred_keys]
                         for g_text, g_members, g_kind in gold_keys], dtype=float)
        ties += tie_breaks(len(gold_rows), len(pred_rows))
        rows, cols = fewest_errors(errors, np.ones(len(gold_rows), dtype=np.int64),
                                   np.ones(len(pred_rows), dtype=np.int64), ties)
        pairs = list(zip(rows.tolist(), cols.tolist(), strict=True))
    rule = _PAIR_RULES[component]
    for i, j in pairs:
        gold_row, pred_row = gold_rows[i], pred_rows[j]
        if rule(gold_row, pred_row, result.components):
            result.list_errors(f"{component} {gold_row[1]!r} read as {pred_row[1]!r}",
                               [(component, "substitution", 1)])
    _unmatched(result, component, pairs, gold_rows, pred_rows, _TEXT)


def _match_notes(gold: SequenceDiagram, pred: SequenceDiagram, ends: _Ends,
                 result: Comparison) -> None:
    """Notes match on text and the lifelines they cover."""
    _match_elements(
        "note", [(n, normalize_label(n.text), frozenset(n.targets)) for n in gold.notes],
        [(n, normalize_label(n.text), frozenset(map(ends.__getitem__, n.targets)))
         for n in pred.notes], result)


def _match_groups(gold: SequenceDiagram, pred: SequenceDiagram, matched: _Matched,
                  result: Comparison) -> None:
    """Groups match on kind, labels and the messages they enclose."""
    _match_elements(
        "group", [(g, el.group_label(g), frozenset(_enclosed(g))) for g in gold.groups],
        [(g, el.group_label(g), frozenset(map(matched.__getitem__, _enclosed(g))))
         for g in pred.groups], result)


def _enclosed(group: Group) -> Iterator[int]:
    """`group.messages` without building its tuple (sets are made of them at once)."""
    return chain.from_iterable(b.messages for b in group.branches)


def _match_boxes(gold: SequenceDiagram, pred: SequenceDiagram, ends: _Ends,
                 result: Comparison) -> None:
    """Boxes match on title and members."""
    _match_elements(
        "box", [(b, normalize_label(b.title), frozenset(b.members)) for b in gold.boxes],
        [(b, normalize_label(b.title), frozenset(map(ends.__getitem__, b.members)))
         for b in pred.boxes], result)
