"""The facts asked about a Verilog design (STRUDEL's task types), each with one exact
answer read off Yosys's netlist, about what the schematic shows.

netlistsvg's default skin draws several Yosys types with one symbol (`$and` and
`$logic_and` as the same AND gate), and any type it has no symbol for as a box labelled
with the type (`SYMBOLS`). So a question names a cell type only where the drawing
tells it apart: a cell drawn with a symbol is asked about by that symbol ("an AND
gate"), a cell drawn as a box by its type; and "how many cells of type $and" is asked
only when no other type of the design shares its symbol.

- identification: which cell drives output port y (every bit of y driven by one
  cell): its symbol's name, or its type when drawn as a box;
- quantification: how many cells of a type the design has; how many input ports the
  top module has;
- structural analysis: which input ports reach output port y (a path through wires
  and cells, from a cell's inputs to its outputs, flip-flops included: a clock
  reaches what its flip-flops drive); how many bits wide a port is (drawn in its
  label, `a[3:0]`).

The questions are about the top module (`Design.top`) and name it.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from diagbench.diagram.facts import Fact
from diagbench.languages.verilog.model import Bit, Design, Module

#: The symbols of netlistsvg 1.0.2's default skin: each Yosys type it draws with one,
#: and the symbol's name as questions and answers give it.
SYMBOLS = {
    "$mux": "multiplexer", "$pmux": "multiplexer", "$_MUX_": "multiplexer",
    "$and": "AND gate", "$logic_and": "AND gate", "$_AND_": "AND gate",
    "$nand": "NAND gate", "$logic_nand": "NAND gate", "$_NAND_": "NAND gate",
    "$_ANDNOT_": "NAND gate",
    "$or": "OR gate", "$logic_or": "OR gate", "$_OR_": "OR gate",
    "$nor": "NOR gate", "$reduce_nor": "NOR gate", "$_NOR_": "NOR gate", "$_ORNOT_": "NOR gate",
    "$xor": "XOR gate", "$reduce_xor": "XOR gate", "$_XOR_": "XOR gate",
    "$xnor": "XNOR gate", "$reduce_xnor": "XNOR gate", "$_XNOR_": "XNOR gate",
    "$not": "NOT gate", "$logic_not": "NOT gate", "$_NOT_": "NOT gate",
    "$add": "adder", "$sub": "subtractor", "$eq": "equality comparator",
    "$lt": "less-than comparator", "$le": "less-or-equal comparator",
    "$ge": "greater-or-equal comparator", "$gt": "greater-than comparator",
    "$dff": "D flip-flop", "$_DFF_": "D flip-flop", "$_DFF_P_": "D flip-flop",
    "$_DFF_N_": "negative-edge D flip-flop",
}


def drawn_as(cell_type: str) -> str:
    """What a cell of `cell_type` is drawn as: its symbol's name, else the type."""
    return SYMBOLS.get(cell_type, cell_type)


def reaching(module: Module, port: str) -> tuple[str, ...]:
    """The input (and inout) ports with a path to `port`'s bits (see the module's
    docstring), sorted."""
    feeds: dict[Bit, set[Bit]] = defaultdict(set)  # a bit → the bits it is computed from
    for cell in module.cells:
        inputs = [b for b in cell.bits("input") if isinstance(b, int)]
        for out in cell.bits("output"):
            feeds[out].update(inputs)
    sources: dict[Bit, set[str]] = defaultdict(set)
    for p in module.ports:
        if p.direction != "output":
            for b in p.bits:
                sources[b].add(p.name)
    target = module.port(port)
    todo: list[Bit] = [b for b in target.bits if isinstance(b, int)] if target else []
    seen: set[Bit] = set(todo)
    found: set[str] = set()
    while todo:
        bit = todo.pop()
        found |= sources.get(bit, set())
        for before in feeds.get(bit, ()):
            if before not in seen:
                seen.add(before)
                todo.append(before)
    return tuple(sorted(found - {port}))


def design_facts(design: Design) -> list[Fact]:
    """The facts of a design (see the module's docstring); none for an empty one."""
    top = design.top
    if top is None:
        return []
    facts: list[Fact] = []
    name = top.name
    drivers = top.drivers()
    for port in top.ports:
        if port.direction != "output":
            continue
        cells = {id(drivers[b]): drivers[b] for b in port.bits if b in drivers}
        driven = all(b in drivers for b in port.bits)
        if driven and len(cells) == 1:
            [cell] = cells.values()
            facts.append(Fact("identification", f"driver:{port.name}",
                              f"In module {name}, what drives output port {port.name}? Answer "
                              "with the symbol's name (e.g. AND gate, multiplexer, D flip-flop) "
                              "or, for a box, the type written in it.", drawn_as(cell.type)))
            break
    types = design.cell_types()
    symbols = Counter(drawn_as(t) for t in types)
    for cell_type, count in sorted(types.items()):
        if cell_type.startswith("$") and symbols[drawn_as(cell_type)] == 1:
            drawn = drawn_as(cell_type)
            shown = f"boxes labelled {cell_type}" if drawn == cell_type else f"{drawn}s"
            facts.append(Fact("quantification", f"cells:{cell_type}",
                              f"How many cells of type {cell_type} (drawn as {shown}) does "
                              "the design have?", count))
            break
    inputs = sum(p.direction == "input" for p in top.ports)
    facts.append(Fact("quantification", "top_inputs",
                      f"How many input ports does module {name} have?", inputs))
    outputs = [p for p in top.ports if p.direction == "output"]
    if outputs:
        target = max(outputs, key=lambda p: (len(reaching(top, p.name)), -top.ports.index(p)))
        reached = reaching(top, target.name)
        if reached:
            facts.append(Fact("structural", f"reach:{target.name}",
                              f"In module {name}, which input ports have a path (through wires "
                              f"and cells) to output port {target.name}? List their names.",
                              reached))
    if top.ports:
        widest = max(top.ports, key=lambda p: (p.width, -top.ports.index(p)))
        facts.append(Fact("structural", f"width:{widest.name}",
                          f"In module {name}, how many bits wide is port {widest.name}?",
                          widest.width))
    return facts
