"""The typed model of every non-sequence diagram: a graph of entities and relations.

One model serves class, object, component, deployment, use-case, C4, ER,
state, activity and flow diagrams in every language diagbench reads
(PlantUML, Mermaid, Graphviz DOT, DBML). A reader fills it with what the
source *means*; its `counts()` are what the engine *draws*, and the tests
check that the two agree on each engine's SVG.

- `Entity`: an element the engine draws as a node or box (a class, a table,
  a component, an actor, a state, a flowchart box, a DOT node…). Notes are
  not entities.
- `Relation`: a link drawn between two entities (or clusters: PlantUML and
  DOT may link a package/cluster). A note's connector is not a relation;
  layout-only links that draw nothing (C4 `Lay_*`, PlantUML `-[hidden]-`) are
  not relations either — a reader leaves them out.
- `Cluster`: a container the engine draws around entities: a package, a
  namespace, a C4 boundary, a deployment node with content, a DOT
  `cluster_*` subgraph, a Mermaid subgraph, a DBML table group, a composite
  state.
- `Note`: a note, free or attached to an entity (or to a relation).

Every element keeps the 1-based source line it came from in `line`; lines
are excluded from equality, so a diagram written out and read back compares
equal. Ids are what relations, clusters and notes refer to: the alias when
one is given, else the name as written (without quotes). All collections are
tuples: the model is frozen and hashable.

Each kind list is one `Literal` type, and its tuple (`ENTITY_KINDS`, …) is
derived from it with `typing.get_args`, so a list is written once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

#: The kind of diagram (how the source declares or implies it).
#: "er" covers PlantUML `entity` diagrams, Mermaid `erDiagram` and DBML; "graph" is a
#: Graphviz graph or digraph; "flowchart" a Mermaid `flowchart`/`graph`; "molecule" a
#: chemical structure (SMILES: `diagbench.diagram.molecule`), "reaction" a chemical
#: reaction (reaction SMILES: `diagbench.diagram.reaction`); "tree" a phylogenetic tree
#: (Newick); "rna" an RNA secondary structure (dot-bracket: `diagbench.diagram.rna`).
GraphKind = Literal[
    "class", "object", "component", "deployment", "usecase", "state", "activity", "er", "c4",
    "flowchart", "graph", "molecule", "reaction", "tree", "rna",
]
GRAPH_KINDS: tuple[GraphKind, ...] = get_args(GraphKind)

#: What an entity is. The meaning, not the keyword: the keyword (or engine shape) as written
#: is kept in `Entity.shape`.
#:
#: - class family: class, interface, abstract (abstract class), enum, annotation, struct,
#:   record, exception, protocol, metaclass, stereotype (PlantUML `stereotype` element),
#:   circle (PlantUML's `()`/`circle` lollipop interface), diamond (PlantUML's `<>` n-ary
#:   association node);
#: - objects: object, map (PlantUML `map`), json (PlantUML `json`);
#: - architecture: component, node (a deployment node), database, queue, artifact, cloud,
#:   folder, frame, file, package (an empty package drawn as a box), rectangle, card,
#:   storage, stack, hexagon, agent, collections, label, port (also `portin`/`portout`),
#:   boundary, control, entity (the robustness icons of PlantUML);
#: - use cases and C4: actor, usecase, person, system, container (C4 levels; a C4
#:   `ComponentDb` is a "component" with shape "ComponentDb");
#: - ER: table (a PlantUML `entity`, a Mermaid ER entity, a DBML table);
#: - states: state, choice, fork, join, start (initial pseudo-state), end (final state),
#:   history, deep_history, entry_point, exit_point, junction;
#: - activity and flow: action, decision, merge, process (a flowchart box), io
#:   (parallelogram), terminal (stadium/rounded end box), subroutine;
#: - vertex: a generic graph node (Graphviz) whose meaning is only its shape;
#: - atom: an atom of a molecule, named by its element symbol ("C", "N").
#: - trees (Newick): leaf (a tip, a taxon), internal (an ancestor: a clade's root).
#: - RNA structures (dot-bracket): base (a nucleotide, named by its letter).
EntityKind = Literal[
    "class", "interface", "abstract", "enum", "annotation", "struct", "record", "exception",
    "protocol", "metaclass", "stereotype", "circle", "diamond",
    "object", "map", "json",
    "component", "node", "database", "queue", "artifact", "cloud", "folder", "frame", "file",
    "package", "rectangle", "card", "storage", "stack", "hexagon", "agent", "collections",
    "label", "port", "boundary", "control", "entity",
    "actor", "usecase", "person", "system", "container",
    "table",
    "state", "choice", "fork", "join", "start", "end", "history", "deep_history",
    "entry_point", "exit_point", "junction",
    "action", "decision", "merge", "process", "io", "terminal", "subroutine",
    "vertex", "atom", "leaf", "internal", "base",
]
ENTITY_KINDS: tuple[EntityKind, ...] = get_args(EntityKind)

#: What a relation means.
#:
#: | type | source | target |
#: |---|---|---|
#: | association | one end (the navigable end is the target) | other end |
#: | inheritance | child | parent |
#: | realization | implementer | interface |
#: | composition | whole | part |
#: | aggregation | whole | part |
#: | dependency | dependent (the user) | depended-on |
#: | identifying | ER parent table | child table whose key includes the parent's |
#: | non_identifying | ER referenced table | referencing table |
#: | flow | from (activity, flowchart, C4 `Rel` data/call flow) | to |
#: | transition | from state | to state |
#: | include | base use case | included use case |
#: | extend | extending use case | extended use case |
#: | containment | outer (PlantUML `+--` nested class) | inner |
#: | link | one end (a plain graph edge with no further meaning) | other end |
#: | single_bond, double_bond, triple_bond, quadruple_bond, aromatic_bond | atom | atom |
#: | dative_bond | donor atom | acceptor atom |
#: | branch | parent node of a tree (Newick) | child node |
#: | base_pair | 5' base of an RNA base pair (dot-bracket) | 3' base |
RelationType = Literal[
    "association", "inheritance", "realization", "composition", "aggregation", "dependency",
    "identifying", "non_identifying", "flow", "transition", "include", "extend", "containment",
    "link", "single_bond", "double_bond", "triple_bond", "quadruple_bond", "aromatic_bond",
    "dative_bond", "branch", "base_pair",
]
RELATION_TYPES: tuple[RelationType, ...] = get_args(RelationType)

#: How a relation is drawn: an arrowhead or other decoration at one end ("single"), at
#: both ends ("double"), or a plain line ("none"). The decorations themselves are in
#: `Relation.source_head` / `target_head`.
Direction = Literal["single", "double", "none"]
DIRECTIONS: tuple[Direction, ...] = get_args(Direction)

#: The decoration drawn at one end of a relation.
#: arrow (open or filled arrowhead), triangle (hollow, inheritance/realization), diamond
#: (hollow, aggregation), filled_diamond (composition), circle, cross, plus (nesting),
#: socket (`)`-shaped required interface), crowfoot variants for ER ends are not heads:
#: an ER end is a cardinality (see `Relation`).
Head = Literal[
    "none", "arrow", "triangle", "diamond", "filled_diamond", "circle", "cross", "plus",
    "socket", "square",
]
HEADS: tuple[Head, ...] = get_args(Head)

#: The line of a relation as drawn.
LineStyle = Literal["solid", "dashed", "dotted", "bold"]
LINE_STYLES: tuple[LineStyle, ...] = get_args(LineStyle)

#: What a cluster is. The keyword or engine shape as written is in `Cluster.shape`.
#:
#: - package: PlantUML `package` (any style); namespace: PlantUML `namespace`;
#: - boundary: a C4 `*_Boundary` (Enterprise, System, Container, generic);
#: - node: a deployment node with content (PlantUML `node {…}`, C4 `Deployment_Node`,
#:   `Node`);
#: - component: a component with content (PlantUML `component X {…}`);
#: - group: any other PlantUML container with content (rectangle, folder, frame, cloud,
#:   database, card, artifact, storage, queue, stack, file, hexagon, agent — `shape`
#:   says which), a use-case system `rectangle`, an activity partition;
#: - subgraph: a Mermaid subgraph, a DOT `cluster_*` subgraph;
#: - table_group: a DBML TableGroup;
#: - composite_state: a state with sub-states (PlantUML `state X {…}`, Mermaid
#:   `state X {…}`);
#: - region: a concurrent region inside a composite state, when the engine draws it as
#:   its own container.
ClusterKind = Literal[
    "package", "namespace", "boundary", "node", "component", "group", "subgraph",
    "table_group", "composite_state", "region",
]
CLUSTER_KINDS: tuple[ClusterKind, ...] = get_args(ClusterKind)

#: Flags of a member: visibility is separate (`Member.visibility`); for ER columns the key
#: flags pk (primary key), fk (foreign key), uk (unique), plus not_null, nullable,
#: increment (auto increment); for class members static and abstract.
MemberFlag = Literal["pk", "fk", "uk", "not_null", "nullable", "increment", "static", "abstract"]
MEMBER_FLAGS: tuple[MemberFlag, ...] = get_args(MemberFlag)

#: UML visibility of a member as written (+ public, - private, # protected, ~ package).
Visibility = Literal["", "+", "-", "#", "~"]
VISIBILITIES: tuple[Visibility, ...] = get_args(Visibility)

#: Where a note is placed relative to what it is attached to.
NotePosition = Literal["left", "right", "top", "bottom", "over", "floating", "link"]
NOTE_POSITIONS: tuple[NotePosition, ...] = get_args(NotePosition)


def _line() -> int:
    return field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Member:
    """An attribute, method or ER column of an entity.

    `name` is the member's name (for a method without its parameters), `type` its type
    or return type as written ("" when none), `parameters` the text between a method's
    parentheses; `text` is the whole member line as written (stripped), which a writer
    emits verbatim. `default` is an ER column's default value, `note` its comment.
    """

    name: str
    type: str = ""
    visibility: Visibility = ""
    flags: tuple[MemberFlag, ...] = ()
    parameters: str | None = None
    default: str = ""
    note: str = ""
    text: str = ""
    line: int = _line()

    @property
    def is_method(self) -> bool:
        return self.parameters is not None


@dataclass(frozen=True, slots=True)
class Entity:
    """An element drawn as a node or box.

    `id` is what relations refer to (the alias, or the name as written); `name` is the
    displayed name ("" for unnamed pseudo-states such as `[*]`). `kind` is its meaning
    (`EntityKind`); `shape` keeps the keyword, macro or engine shape as written
    (`"abstract class"`, `"ContainerDb_Ext"`, `"cylinder"`, `"rect"`), "" when it is the
    default for the kind. `stereotypes` are the `<<…>>` (or C4 tags) without brackets.
    `attributes` are fields (for ER tables: the columns, with type and key flags),
    `methods` the operations. `description` is the descriptive text (C4 `$descr`,
    a state's description lines), `technology` a C4 or deployment technology.
    `parent` is the id of the innermost cluster containing it, None at top level.
    `properties` keeps other attributes as written, as (key, value) pairs in source
    order (DOT attributes, a colour, a URL).
    """

    id: str
    name: str = ""
    kind: EntityKind = "class"
    shape: str = ""
    stereotypes: tuple[str, ...] = ()
    attributes: tuple[Member, ...] = ()
    methods: tuple[Member, ...] = ()
    description: str = ""
    technology: str = ""
    parent: str | None = None
    properties: tuple[tuple[str, str], ...] = ()
    line: int = _line()

    @property
    def columns(self) -> tuple[Member, ...]:
        """An ER table's columns (its attributes)."""
        return self.attributes

    @property
    def label(self) -> str:
        """The displayed name, falling back to the id."""
        return self.name or self.id


@dataclass(frozen=True, slots=True)
class Relation:
    """A link drawn between two entities (or clusters).

    `source` and `target` are ids in the sense of `RelationType` (an inheritance goes
    from child to parent however the text draws it: `A <|-- B` and `B --|> A` are both
    source B, target A). `direction` is how it is drawn: "single" — a decoration at one
    end only (`source_head`/`target_head` say which and what), "double" — at both ends,
    "none" — a plain line. `reversed` says the text wrote the target first (`A <|-- B`),
    which a writer uses to keep the layout. `source_cardinality`/`target_cardinality`
    are the multiplicity at each end as written (`"1"`, `"0..*"`); crow's-foot ER ends
    are given as UML multiplicities: `||` → "1", `|o`/`o|` → "0..1", `}|`/`|{` → "1..*",
    `}o`/`o{` → "0..*". `source_port`/`target_port` are DOT ports or DBML column names
    ("" when none). `technology` is a C4 relation's technology.
    """

    source: str
    target: str
    type: RelationType = "association"
    direction: Direction = "none"
    label: str = ""
    source_head: Head = "none"
    target_head: Head = "none"
    style: LineStyle = "solid"
    source_cardinality: str = ""
    target_cardinality: str = ""
    source_port: str = ""
    target_port: str = ""
    technology: str = ""
    stereotypes: tuple[str, ...] = ()
    reversed: bool = False
    properties: tuple[tuple[str, str], ...] = ()
    line: int = _line()

    @property
    def endpoints(self) -> tuple[str, str]:
        return self.source, self.target

    @property
    def is_self(self) -> bool:
        return self.source == self.target


@dataclass(frozen=True, slots=True)
class Cluster:
    """A container drawn around entities.

    `id` is what `Entity.parent` and `Cluster.parent` refer to (the alias or the name
    as written); `name` is the displayed title. `kind` is its meaning (`ClusterKind`),
    `shape` the keyword or macro as written (`"folder"`, `"System_Boundary"`,
    `"cluster_0"`). `parent` is the enclosing cluster's id (None at top level);
    `members` are the ids of the entities directly inside it, in source order.
    A composite state or a node with content is a cluster, not also an entity.
    """

    id: str
    name: str = ""
    kind: ClusterKind = "package"
    shape: str = ""
    parent: str | None = None
    members: tuple[str, ...] = ()
    stereotypes: tuple[str, ...] = ()
    description: str = ""
    properties: tuple[tuple[str, str], ...] = ()
    line: int = _line()

    @property
    def label(self) -> str:
        return self.name or self.id


@dataclass(frozen=True, slots=True)
class Note:
    """A note. `targets` are the ids it is attached to (an entity, or for a note on a
    link the two ends of that relation); empty for a floating note. `id` is its alias
    when the source gives one (`note "…" as N1`), which relations may not use: a
    connector from a note is part of the note, not a relation."""

    text: str
    targets: tuple[str, ...] = ()
    position: NotePosition = "floating"
    id: str = ""
    parent: str | None = None
    line: int = _line()


@dataclass(frozen=True, slots=True)
class GraphDiagram:
    """One non-sequence diagram: what it draws, in source order.

    `language` is the source language, `kind` the diagram kind; `name` is the block's
    name (`@startuml name`, DOT graph id), `title` its title; `direction` is the layout
    direction as declared (`"LR"`, `"TB"`, `"left to right"`) or "".
    """

    language: str  # the name of the language it is read from (`diagbench.languages`)
    kind: GraphKind
    entities: tuple[Entity, ...] = ()
    relations: tuple[Relation, ...] = ()
    clusters: tuple[Cluster, ...] = ()
    notes: tuple[Note, ...] = ()
    name: str | None = None
    title: str = ""
    direction: str = ""

    def counts(self) -> dict[str, int]:
        """What the engine draws: entities (nodes/boxes, notes excluded), relations
        (links between them, a note's connector excluded), clusters (containers),
        notes."""
        return {
            "entities": len(self.entities),
            "relations": len(self.relations),
            "clusters": len(self.clusters),
            "notes": len(self.notes),
        }

    def entity(self, id: str) -> Entity | None:
        """The entity with this id, or None."""
        return next((e for e in self.entities if e.id == id), None)

    def cluster(self, id: str) -> Cluster | None:
        """The cluster with this id, or None."""
        return next((c for c in self.clusters if c.id == id), None)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(e.id for e in self.entities)

    def children(self, cluster: str | None) -> tuple[Cluster, ...]:
        """The clusters directly inside `cluster` (None: the top-level clusters)."""
        return tuple(c for c in self.clusters if c.parent == cluster)
