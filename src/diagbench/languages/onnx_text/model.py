"""The model of one ONNX graph as diagbench reads it: its operator nodes (with their
attributes and tensors), its inputs, outputs and initialisers (the weights), and the
tensor edges between them."""

from __future__ import annotations

from dataclasses import dataclass
from math import prod


@dataclass(frozen=True, slots=True)
class Tensor:
    """A named tensor of the graph: its element type ("float") and shape (a dimension is
    a number or a symbolic name)."""

    name: str
    dtype: str = ""
    shape: tuple[int | str, ...] = ()

    @property
    def size(self) -> int:
        """How many values it holds (0 for a symbolic shape)."""
        return prod(d for d in self.shape if isinstance(d, int)) if all(
            isinstance(d, int) for d in self.shape) else 0


@dataclass(frozen=True, slots=True)
class Op:
    """One operator node: its type, domain, attributes (name, value as text, sorted by
    name) and the tensors it reads and writes (an omitted optional input is "")."""

    op_type: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    attributes: tuple[tuple[str, str], ...] = ()
    domain: str = ""
    name: str = ""


@dataclass(frozen=True, slots=True)
class Edge:
    """A tensor edge as drawn: from a producer (an op's index, or "in:<k>" for the k-th
    graph input) to a consumer (an op's index, or "out:<k>" for the k-th graph
    output), at the producer's output slot and the consumer's input slot."""

    source: str
    source_slot: int
    target: str
    target_slot: int
    tensor: str


@dataclass(frozen=True, slots=True)
class NeuralGraph:
    """An ONNX graph: ops in the file's order, graph inputs (initialisers left out),
    outputs, initialisers, and the shapes shape inference gave the tensors."""

    name: str = ""
    ops: tuple[Op, ...] = ()
    inputs: tuple[Tensor, ...] = ()
    outputs: tuple[Tensor, ...] = ()
    initializers: tuple[Tensor, ...] = ()
    shapes: tuple[Tensor, ...] = ()

    kind = "network"

    def edges(self) -> list[Edge]:
        """Every tensor edge: graph input or op output → op input or graph output
        (initialisers are drawn inside the op that reads them, not as edges)."""
        producer: dict[str, tuple[str, int]] = {t.name: (f"in:{k}", 0)
                                                for k, t in enumerate(self.inputs)}
        for n, op in enumerate(self.ops):
            producer.update({name: (str(n), slot) for slot, name in enumerate(op.outputs)
                             if name})
        out = [Edge(*producer[name], str(n), slot, name) for n, op in enumerate(self.ops)
               for slot, name in enumerate(op.inputs) if name in producer]
        out += [Edge(*producer[t.name], f"out:{k}", 0, t.name)
                for k, t in enumerate(self.outputs) if t.name in producer]
        return out

    def depth(self) -> int:
        """The most ops on one path from the inputs to an output."""
        level: dict[str, int] = {}
        deepest = 0
        for op in self.ops:  # the file's order is topological (the checker says so)
            d = 1 + max((level.get(name, 0) for name in op.inputs), default=0)
            level.update({name: d for name in op.outputs})
            deepest = max(deepest, d)
        return deepest

    def op_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for op in self.ops:
            counts[op.op_type] = counts.get(op.op_type, 0) + 1
        return dict(sorted(counts.items()))

    def counts(self) -> dict[str, int]:
        return {"ops": len(self.ops), "inputs": len(self.inputs),
                "outputs": len(self.outputs), "initializers": len(self.initializers),
                "parameters": sum(t.size for t in self.initializers),
                "depth": self.depth(), "edges": len(self.edges()),
                **{f"ops:{k}": v for k, v in self.op_counts().items()}}
