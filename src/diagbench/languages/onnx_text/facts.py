"""The facts STRUDEL's task types ask of a neural network's graph, read off the graph
ONNX read: which op follows the first convolution and which op produces each output
(identification; an output has one producer in a valid graph), how many ops of
each type and how many parameters it has (quantification), and which op consumes a
tensor (structural analysis). A question is asked only where it has one answer: the
first convolution is the one nearest the inputs (alone at its level), followed by one
op; a tensor is asked about when one op reads it."""

from __future__ import annotations

from diagbench.diagram.facts import Fact
from diagbench.languages.onnx_text.model import NeuralGraph

#: Op types asked about by count, at most this many (Conv and Relu first when present).
COUNTED = 4
TENSORS = 3


def levels(graph: NeuralGraph) -> list[int]:
    """Each op's level: 1 + the highest level among the ops it reads from."""
    made: dict[str, int] = {}
    out = []
    for op in graph.ops:
        level = 1 + max((made.get(name, 0) for name in op.inputs), default=0)
        made.update({name: level for name in op.outputs})
        out.append(level)
    return out


def network_facts(graph: NeuralGraph) -> list[Fact]:
    facts: list[Fact] = []
    level = levels(graph)
    convs = [n for n, op in enumerate(graph.ops) if op.op_type == "Conv"]
    first = [n for n in convs if level[n] == min((level[c] for c in convs), default=0)]
    if len(first) == 1:
        output = graph.ops[first[0]].outputs[0]
        readers = [op for op in graph.ops if output in op.inputs]
        if len(readers) == 1:
            facts.append(Fact("identification", "after-conv", "Which op follows the first "
                              "convolution (Conv)?", readers[0].op_type))
    producer = {name: op.op_type for op in graph.ops for name in op.outputs}
    facts += [Fact("identification", f"produces:{t.name}", "Which op produces the "
                   f"network's output {t.name}?", producer[t.name])
              for t in graph.outputs[:TENSORS] if t.name in producer]
    counts = graph.op_counts()
    asked: list[str] = [t for t in ("Conv", "Relu") if t in counts]
    asked += [t for t in counts if t not in asked]
    facts += [Fact("quantification", f"ops:{t}", f"How many {t} nodes does the network "
                   "have?", counts[t]) for t in asked[:COUNTED]]
    facts.append(Fact("quantification", "parameters", "How many parameters (values of the "
                      "initialisers, the weights) does the network have?",
                      graph.counts()["parameters"]))
    weights = {t.name for t in graph.initializers}
    readers_of: dict[str, list[str]] = {}
    for op in graph.ops:
        for name in dict.fromkeys(op.inputs):
            if name and name not in weights:
                readers_of.setdefault(name, []).append(op.op_type)
    single = [(name, types[0]) for name, types in readers_of.items() if len(types) == 1]
    facts += [Fact("structural", "consumer", f"Which op consumes the tensor {name}?", op)
              for name, op in single[:TENSORS]]
    return facts
