"""Newick phylogenetic trees, read by Biopython's `Bio.Phylo` (its Newick parser), into
the graph model (`diagbench.diagram.phylogeny`): one entity per node ("leaf" or
"internal", pre-order, the root first, ids `n0`, `n1`, …), one "branch" relation per
parent → child link. A node's name is its label as Biopython reads it (quotes removed,
underscores kept); its branch length and support (Biopython reads a numeric internal
label as a support value) are the entity's "length" and "support" properties.

A file may hold several trees, one `Parsed` each (`first_line` where its statement
starts).

Biopython is given the text as its own parser joins it (`biopython_text`): each line
without its trailing spaces, a tree's lines joined (so a label broken across two lines
is one label, as Biopython reads it), and without comments: `[...]` outside quoted
labels — BEAST's, FigTree's and DendroPy's annotations (`[&R]` before a tree,
`1:[&rate=7.8E-4]3.82` between a colon and its length, NHX's `[&&NHX:…]`) — which the
drawing does not show and which Biopython's tokenizer cannot read between `:` and a
length.

Biopython's parser skips what its tokenizer does not match (a lone quote, `:` before
something not a number) and does not check the order of its tokens (`A(B,C)`,
`(A,B)C(D)`), so it reads such text as some other tree. Before Biopython builds the
tree, `grammar_error` walks Biopython's own tokens (`Bio.Phylo.NewickIO.tokenizer`)
through Newick's grammar and stops at the first character skipped or token out of
place, with its line and column in the source; Biopython's own errors (a parenthesis
mismatch, text after `;`) carry no position and are placed at the last token read."""

from __future__ import annotations

import io
import random
from typing import Any

from diagbench.diagram.graph import Entity, GraphDiagram, Relation
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed


def read_newick(text: str) -> list[Parsed[GraphDiagram]]:
    """Every tree of a Newick source; never raises."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return [_empty(Diagnostic(1, "", "empty source: no tree"))]
    lines = text.split("\n")
    trees, error = parse_trees(text)
    if error is not None:
        line, column, reason = error
        return [_empty(Diagnostic(line, lines[line - 1] if line <= len(lines) else "",
                                  f"column {column}: {reason}"))]
    starts = [line for line, _ in tree_texts(text)]
    return [Parsed(k, starts[k] if k < len(starts) else 1, "newick", "tree", _diagram(tree))
            for k, tree in enumerate(trees)] or [_empty(Diagnostic(1, "", "no tree"))]


def parse_trees(text: str) -> tuple[list[Any], tuple[int, int, str] | None]:
    """(Biopython's trees, None) of a Newick source, or ([], (line, column, reason)) of
    its first error (`grammar_error`, then Biopython's own)."""
    from Bio import Phylo
    from Bio.Phylo.NewickIO import NewickError

    error = grammar_error(text)
    if error is not None:
        return [], error
    try:
        return list(Phylo.parse(io.StringIO(biopython_text(text)[0]), "newick")), None
    except (NewickError, ValueError, IndexError, RecursionError) as exc:
        return [], (*_position(text, len(text.rstrip())), f"Biopython: {exc}")


def biopython_text(text: str) -> tuple[str, list[int]]:
    """The text Biopython's parser reads (see the module's docstring): comments left
    out, each line's trailing spaces removed and a tree's lines joined, one tree a line;
    with the offset in `text` of each of its characters. An unclosed `[` is kept (the
    grammar check names it)."""
    out: list[str] = []
    origin: list[int] = []
    quote, depth, opened, offset = False, 0, 0, 0
    for line in text.split("\n"):
        kept: list[tuple[str, int]] = []
        for k, char in enumerate(line, offset):
            if depth:
                depth += {"[": 1, "]": -1}.get(char, 0)
                continue
            if char == "[" and not quote:
                depth, opened = 1, k
                continue
            quote = quote != (char == "'")
            kept.append((char, k))
        while kept and kept[-1][0].isspace():
            kept.pop()
        out += [c for c, _ in kept]
        origin += [k for _, k in kept]
        if out and out[-1] == ";":
            out.append("\n")
            origin.append(origin[-1] + 1)
        offset += len(line) + 1
    if depth:  # an unclosed comment: kept as written
        out += list(text[opened:])
        origin += range(opened, len(text))
    return "".join(out), origin


def _empty(diagnostic: Diagnostic) -> Parsed[GraphDiagram]:
    return Parsed(0, 1, "newick", "tree", GraphDiagram("newick", "tree"), (diagnostic,))


def _diagram(tree: Any) -> GraphDiagram:
    """The graph of a Biopython tree, nodes in pre-order (iterative: deep trees read)."""
    entities: list[Entity] = []
    relations: list[Relation] = []
    stack: list[tuple[Any, str | None]] = [(tree.root, None)]
    while stack:
        clade, parent = stack.pop()
        node = f"n{len(entities)}"
        properties = [(key, f"{value:g}" if isinstance(value, float) else str(value))
                      for key, value in (("length", clade.branch_length),
                                         ("support", clade.confidence)) if value is not None]
        entities.append(Entity(node, clade.name or "",
                               "internal" if clade.clades else "leaf",
                               properties=tuple(properties)))
        if parent is not None:
            relations.append(Relation(parent, node, "branch"))
        stack += [(child, node) for child in reversed(clade.clades)]
    return GraphDiagram("newick", "tree", tuple(entities), tuple(relations))


#: Which token may follow which (Newick's grammar as Biopython tokenizes it): a label or
#: length ends a node, `,` and `)` follow a node (an empty leaf is a node), `;` ends a
#: tree at depth 0.
_FOLLOWS = {
    "(": {"start", "(", ","},
    "label": {"start", "(", ",", ")"},
    "length": {"start", "(", ",", ")", "label"},
    ",": {"(", ",", ")", "label", "length"},
    ")": {"(", ",", ")", "label", "length"},
    ";": {")", "label", "length"},
}


def grammar_error(text: str) -> tuple[int, int, str] | None:
    """(line, column, reason) of the first place where `text`, as Biopython reads it
    (`biopython_text`), leaves Newick's grammar, read with Biopython's tokenizer (see the
    module's docstring); None when it keeps to it."""
    joined, origin = biopython_text(text)
    found = _grammar_error(joined)
    if found is None:
        return None
    offset, reason = found
    return (*_position(text, origin[offset] if offset < len(origin)
                       else len(text.rstrip())), reason)


def _grammar_error(text: str) -> tuple[int, str] | None:
    """(offset, reason) of the first place where `text` leaves Newick's grammar."""
    from Bio.Phylo.NewickIO import tokenizer

    previous, depth, end = "start", 0, 0
    for match in tokenizer.finditer(text):
        skipped = text[end:match.start()]
        if skipped.strip():
            offset = end + len(skipped) - len(skipped.lstrip())
            return offset, f"unexpected {text[offset]!r}"
        token, end = match.group(), match.end()
        kind = ("(" if token == "(" else ")" if token == ")" else "," if token == ","
                else ";" if token == ";" else "length" if token.startswith(":")
                else "skip" if token == "\n" else "label")
        if kind == "skip":
            continue
        quoted_pair = (kind == "label" == previous and token.startswith("'")
                       and text[match.start() - 1] == "'")  # 'it''s': an escaped quote
        if kind == previous == "label" and token[0] == "'" and not quoted_pair:
            return match.start(), "unexpected \"'\" in a label"
        if previous not in _FOLLOWS[kind] and not quoted_pair:
            return match.start(), (f"{token[:20]!r} cannot follow "
                                   + ("the start of a tree" if previous == "start"
                                      else repr(previous)))
        depth += {"(": 1, ")": -1}.get(kind, 0)
        reason = ("')' closes no '('" if depth < 0
                  else "',' outside parentheses" if kind == "," and depth == 0
                  else f"';' with {depth} '(' not closed" if kind == ";" and depth
                  else None)
        if reason is not None:
            return match.start(), reason
        previous = "start" if kind == ";" else kind
    rest = text[end:]
    if rest.strip():
        return end + len(rest) - len(rest.lstrip()), f"unexpected {rest.lstrip()[0]!r}"
    if previous != "start":
        return len(text.rstrip()), "the tree does not end with ';'"
    return None


def _position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based (line, column) of a character offset."""
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def tree_texts(text: str) -> list[tuple[int, str]]:
    """(1-based line where it starts, text) of each tree statement (ended by `;` outside
    quotes and comments; what follows the last `;`, if not blank, is one more)."""
    out: list[tuple[int, str]] = []
    line, quote, comment, start, first = 1, "", 0, -1, 1
    for k, char in enumerate(text):
        if start < 0 and not char.isspace():
            start, first = k, line
        if char == "\n":
            line += 1
        elif quote:
            quote = "" if char == quote else quote
        elif comment:
            comment += {"[": 1, "]": -1}.get(char, 0)
        elif char in "'\"":
            quote = char
        elif char == "[":
            comment = 1
        elif char == ";" and start >= 0:
            out.append((first, text[start:k + 1] + "\n"))
            start = -1
    if start >= 0:
        out.append((first, text[start:]))
    return out


def reordered(text: str, rng: random.Random) -> str | None:
    """The trees of `text`, one a line, with every node's children shuffled (None when
    `text` does not read): names quoted where Newick needs it, a numeric support as an
    internal node's label, lengths as read, comments left out."""
    trees, error = parse_trees(text.removeprefix("\ufeff"))
    if error is not None or not trees:
        return None
    lines = []
    for tree in trees:
        written: dict[int, str] = {}
        order, stack = [], [tree.root]
        while stack:  # pre-order without recursion: deep trees are written too
            clade = stack.pop()
            rng.shuffle(clade.clades)
            order.append(clade)
            stack += clade.clades
        for clade in reversed(order):  # every child before its parent
            inner = ("(" + ",".join(written[id(c)] for c in clade.clades) + ")"
                     if clade.clades else "")
            label = (_quoted(clade.name) if clade.name
                     else f"{clade.confidence:g}" if clade.confidence is not None else "")
            length = f":{clade.branch_length!r}" if clade.branch_length is not None else ""
            written[id(clade)] = inner + label + length
        lines.append(written[id(tree.root)] + ";\n")
    return "".join(lines)


def _quoted(name: str) -> str:
    """A label as Newick writes it: quoted (inner quotes doubled) when it holds a blank or
    one of Newick's punctuation characters."""
    if any(c.isspace() or c in "()[]':;," for c in name):
        return "'" + name.replace("'", "''") + "'"
    return name


# --- the seeded generator (`baseline:synth`) ------------------------------------------------

#: Leaves per complexity level (low, medium, high).
LEAVES = {"low": (4, 6), "medium": (7, 12), "high": (13, 24)}
_SYLLABLES = ("ba", "co", "di", "fe", "gu", "ka", "lo", "mi", "nu", "pe", "ra", "si", "to",
              "vu", "xe", "zo")


def synth_newick(rng: random.Random, complexity: str) -> str:
    """A random rooted tree in Newick: leaves named like genera (`Bacodi`), joined two at
    a time at random (a coalescent-like topology). "low": 4–6 leaves, topology only;
    "medium": 7–12 leaves with branch lengths; "high": 13–24 leaves with branch
    lengths, support values on internal branches and now and then a polytomy. With
    lengths, one leaf's branch is clearly the longest (1.2–1.6, the others ≤ 1)."""
    low, high = LEAVES[complexity]
    count, names = rng.randint(low, high), set[str]()
    while len(names) < count:
        names.add("".join(rng.choice(_SYLLABLES) for _ in range(3)).capitalize())
    nodes = sorted(names)
    rng.shuffle(nodes)
    lengths = complexity != "low"
    longest = rng.choice(nodes)  # its branch clearly the longest (a question asks which)
    while len(nodes) > 1:
        take = 3 if complexity == "high" and len(nodes) > 3 and rng.random() < 0.15 else 2
        picked = [nodes.pop(rng.randrange(len(nodes))) for _ in range(take)]
        inner = "(" + ",".join(_with_length(rng, p, lengths, p == longest)
                               for p in picked) + ")"
        if complexity == "high":
            inner += str(rng.randint(50, 100))
        nodes.append(inner)
    return nodes[0] + ";\n"


def _with_length(rng: random.Random, node: str, lengths: bool, longest: bool) -> str:
    """`node` with its branch length (when `lengths`): 0.01–1, or 1.2–1.6 for the leaf
    whose branch is the longest (so that the eye tells it from the second)."""
    if not lengths:
        return node
    return f"{node}:{rng.uniform(1.2, 1.6) if longest else rng.uniform(0.01, 1.0):.3f}"
