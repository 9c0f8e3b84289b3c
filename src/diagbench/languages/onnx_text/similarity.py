"""Image-to-code similarity of ONNX graphs: graph F1 over the gold graph's nodes (op
type and attributes; graph inputs and outputs as nodes of their own) and its tensor
edges, with tensor and node names free.

Both codes are read by ONNX (the language's reader). A node's label is what its box
shows: the op type, its attributes and the shapes of the weights it reads (their
values are not drawn, so not scored); a graph input's or output's, its type and
shape. The nodes of the two graphs are paired by the assignment
(`scipy.optimize.linear_sum_assignment`) that maximises their agreement: the same op
type, the same distances from the inputs and to the outputs, the same label, and the
same neighbourhood after each of `ROUNDS` rounds of Weisfeiler–Lehman refinement (a
node's label with the labels of its producers and consumers, slot by slot). A node
counts as matched when its paired node has its label; an edge (producer, output slot,
consumer, input slot) when the paired ends are joined at the same slots. The score is
`scoring.metrics.image_to_code_score`: 𝟙[valid] · (node F1 + edge F1) / 2, so renamed
tensors and another topological order score 1, a changed op costs one node, and a
rewired edge one edge of each side.
"""

from __future__ import annotations

import hashlib
from collections import Counter

from diagbench.compare.graph import GraphComparison, Match, model_of
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.onnx_text.model import NeuralGraph

ROUNDS = 3


def node_labels(graph: NeuralGraph) -> dict[str, str]:
    """Each drawn node's label: an op's type, attributes and the shapes of the weights
    it reads at each slot; "input"/"output" with the tensor's type and shape."""
    weights = {t.name: t.shape for t in graph.initializers}
    labels = {f"in:{k}": f"input {t.dtype}{list(t.shape)}" for k, t in enumerate(graph.inputs)}
    labels |= {f"out:{k}": f"output {t.dtype}{list(t.shape)}"
               for k, t in enumerate(graph.outputs)}
    labels |= {str(n): op.op_type + "".join(f" {a}={v}" for a, v in op.attributes)
               + "".join(f" @{slot}{list(weights[name])}"
                         for slot, name in enumerate(op.inputs) if name in weights)
               for n, op in enumerate(graph.ops)}
    return labels


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def refinements(graph: NeuralGraph) -> dict[str, list[str]]:
    """Each node's label, then its Weisfeiler–Lehman labels after each round."""
    labels = node_labels(graph)
    edges = graph.edges()
    history = {node: [label] for node, label in labels.items()}
    current = dict(labels)
    for _ in range(ROUNDS):
        around: dict[str, list[str]] = {node: [] for node in labels}
        for e in edges:
            around[e.target].append(f"<{e.target_slot}:{e.source_slot}:{current[e.source]}")
            around[e.source].append(f">{e.source_slot}:{e.target_slot}:{current[e.target]}")
        current = {node: _digest(current[node] + "|" + "|".join(sorted(around[node])))
                   for node in labels}
        for node in labels:
            history[node].append(current[node])
    return history


def positions(graph: NeuralGraph) -> dict[str, tuple[int, int]]:
    """Each drawn node's longest distance from an input and to an output (in edges): its
    place along the graph, which a chain of like ops has nothing else to tell by."""
    edges = graph.edges()
    nodes = list(node_labels(graph))
    down = {n: 0 for n in nodes}
    up = {n: 0 for n in nodes}
    # the edges come by their consumer in the file's order, which the checker holds to
    # be topological: one pass forward, one backward
    for e in edges:
        down[e.target] = max(down[e.target], down[e.source] + 1)
    for e in reversed(edges):
        up[e.source] = max(up[e.source], up[e.target] + 1)
    return {n: (down[n], up[n]) for n in nodes}


def pairing(gold: NeuralGraph, pred: NeuralGraph) -> dict[str, str]:
    """The gold node → predicted node assignment that maximises agreement."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    g, p = refinements(gold), refinements(pred)
    g_nodes, p_nodes = sorted(g), sorted(p)
    if not g_nodes or not p_nodes:
        return {}
    # each node as a row of integer codes: its op type, its distances from the inputs
    # and to the outputs, then its label at each round
    codes: dict[str, int] = {}
    g_types, p_types = node_labels(gold), node_labels(pred)
    g_at, p_at = positions(gold), positions(pred)

    def row(labels: list[str], label: str, at: tuple[int, int]) -> list[int]:
        return [codes.setdefault(x, len(codes))
                for x in (label.split(" ")[0], f"from {at[0]}", f"to {at[1]}", *labels)]

    a = np.array([row(g[n], g_types[n], g_at[n]) for n in g_nodes])
    b = np.array([row(p[n], p_types[n], p_at[n]) for n in p_nodes])
    agree = (a[:, None, :] == b[None, :, :]).sum(axis=2)
    rows, cols = linear_sum_assignment(agree, maximize=True)
    return {g_nodes[i]: p_nodes[j] for i, j in zip(rows, cols, strict=True)}


def compare_networks(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                     valid: bool) -> GraphComparison:
    """Compare a predicted ONNX text with its gold one (both read by ONNX)."""
    gold, _, _ = model_of(gold_read)
    pred, _, warnings = model_of(pred_read)
    gold = gold if isinstance(gold, NeuralGraph) else NeuralGraph()
    pred = pred if isinstance(pred, NeuralGraph) and not warnings else NeuralGraph()
    pairs = pairing(gold, pred)
    g_labels, p_labels = node_labels(gold), node_labels(pred)
    matched = [n for n, m in pairs.items() if g_labels[n] == p_labels[m]]
    nodes = Match(len(g_labels), len(p_labels), len(matched),
                  tuple(sorted(g_labels[n] for n in g_labels if n not in matched)),
                  tuple(sorted(p_labels[m] for m in p_labels
                               if m not in {pairs[n] for n in matched})))
    g_edges = Counter((pairs.get(e.source, ""), e.source_slot, pairs.get(e.target, ""),
                       e.target_slot) for e in gold.edges())
    p_edges = Counter((e.source, e.source_slot, e.target, e.target_slot)
                      for e in pred.edges())
    common = sum((g_edges & p_edges).values())
    edges = Match(sum(g_edges.values()), sum(p_edges.values()), common)
    return GraphComparison("network", valid, nodes, edges, gold.counts(),
                           pred.counts() if pred.ops else {}, warnings)
