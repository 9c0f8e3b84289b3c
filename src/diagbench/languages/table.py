"""THE table of formal languages and of the categories they are drawn in.

Adding a language is one package beside this one (its `LANGUAGE`, an instance of a
`diagbench.languages.record.Language` subclass) and one line in `LANGUAGES`;
`diagbench.languages.checks.check_language` checks it has every part. Order matters twice: a
source without a known suffix is the first language that recognises it, and a
category's languages are listed (and generated) in this order.
"""

from __future__ import annotations

from diagbench.languages import (
    abc,
    bpmn,
    dbml,
    dot,
    dotbracket,
    fasta,
    fen,
    geojson,
    logic,
    mermaid,
    newick,
    onnx_text,
    plantuml,
    plotly,
    qasm,
    rdf,
    reaction_smiles,
    smiles,
    spice,
    verilog,
)
from diagbench.languages.record import Category, Domain, Language

LANGUAGES: tuple[Language, ...] = (
    plantuml.LANGUAGE,
    mermaid.LANGUAGE,
    dot.LANGUAGE,
    dbml.LANGUAGE,
    smiles.LANGUAGE,
    reaction_smiles.LANGUAGE,
    newick.LANGUAGE,
    dotbracket.LANGUAGE,  # before FASTA, which recognises any `>` text
    fasta.LANGUAGE,
    plotly.LANGUAGE,  # before GeoJSON: a figure may hold a GeoJSON object
    geojson.LANGUAGE,
    fen.LANGUAGE,
    abc.LANGUAGE,
    spice.LANGUAGE,
    verilog.LANGUAGE,
    qasm.LANGUAGE,
    logic.LANGUAGE,
    bpmn.LANGUAGE,
    rdf.LANGUAGE,
    onnx_text.LANGUAGE,
)

#: The categories (paper 004 §3.1: STRUDEL's software rows, then its other domains as
#: its Table 3 groups them), in the order benchmarks list them.
CATEGORIES: tuple[Category, ...] = (
    Category("class", "UML class diagram", "software", ("class",)),
    Category("sequence", "UML sequence diagram", "software", ("sequence",)),
    Category("component", "UML component diagram", "software", ("component",)),
    Category("usecase", "UML use case diagram", "software", ("usecase",)),
    Category("state", "UML state machine diagram", "software", ("state",)),
    Category("er", "entity relationship diagram", "software", ("er",)),
    Category("flowchart", "flowchart", "software", ("flowchart", "graph")),
    Category("molecule", "chemical structure", "chemistry", ("molecule",)),
    Category("reaction", "chemical reaction", "chemistry", ("reaction",)),
    Category("phylogenetic-tree", "phylogenetic tree", "biology", ("tree",)),
    Category("dna-sequence", "DNA sequence", "biology", ("alignment",)),
    Category("rna-structure", "DNA sequence (RNA structure)", "biology", ("rna",)),
    Category("map", "geographic map", "geography", ("map",)),
    Category("chess-board", "chess board", "games-music", ("board",)),
    Category("music", "musical notation", "games-music", ("tune",)),
    Category("electrical-circuit", "electrical circuit", "engineering", ("circuit",)),
    Category("digital-hardware", "digital hardware design", "engineering", ("hardware",)),
    Category("quantum-circuit", "quantum circuit", "engineering", ("quantum",)),
    Category("propositional-logic", "propositional logic", "engineering", ("logic",)),
    Category("business-process", "business process model", "business", ("process",)),
    Category("chart", "chart", "business", ("chart",)),
    Category("table", "table", "business", ("table",)),
    Category("deep-learning", "deep learning architecture", "computer-science", ("network",)),
    Category("knowledge-graph", "knowledge graph", "computer-science", ("knowledge-graph",)),
    Category("gantt", "Gantt diagram", "business", ("gantt",)),
    Category("mind-map", "mind map", "business", ("mindmap",)),
)

#: The domains (paper 004, Table 1), in the order of Table 3's columns, with its titles.
DOMAINS: tuple[Domain, ...] = (
    Domain("engineering", "Electrical & Computer Eng."),
    Domain("chemistry", "Chemistry"),
    Domain("biology", "Biology"),
    Domain("computer-science", "Computer Science & AI"),
    Domain("software", "System Modeling & Softw. Eng."),
    Domain("business", "Business & Process Mgmt."),
    Domain("geography", "Geography"),
    Domain("games-music", "Games & Music"),
)
