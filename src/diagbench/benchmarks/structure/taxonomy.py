"""STRUDEL's taxonomy (paper 004, Tables 1 and 3): the task type of each of diagbench's
structure tasks, and the domain of each category as Table 3 titles it — the one place
both are defined; task and score records carry them (`task_type`, `domain`)."""

from __future__ import annotations

#: STRUDEL's task types (Table 3's columns), in its order.
TASK_TYPES = ("identification", "quantification", "structural_analysis", "association",
              "image_to_code")
#: The task type of each of diagbench's tasks; a model-written question's is its answer
#: type's (`MODEL_QUESTION_TYPE`).
TASK_TYPE = {"identification": "identification", "quantification": "quantification",
             "structural": "structural_analysis", "association": "association",
             "problem_match": "association", "description_match": "association",
             "caption_match": "association", "image_to_code": "image_to_code"}
#: STRUDEL's own category × FRL pairs (Table 1): each of diagbench's categories that
#: STRUDEL has, with the FRLs it draws it in (STRUDEL's "DNA Sequence" is diagbench's
#: dna-sequence in FASTA and rna-structure in dot-bracket; its "Chemical Structures"
#: molecule in SMILES and reaction in SMARTS reactions).
PAPER_CELLS: dict[str, tuple[str, ...]] = {
    "class": ("plantuml",), "sequence": ("plantuml",), "er": ("dbml",),
    "molecule": ("smiles",), "reaction": ("reaction-smiles",),
    "phylogenetic-tree": ("newick",), "dna-sequence": ("fasta",),
    "rna-structure": ("dotbracket",), "map": ("geojson",), "chess-board": ("fen",),
    "music": ("abc",), "electrical-circuit": ("spice",), "digital-hardware": ("verilog",),
    "quantum-circuit": ("qasm",), "propositional-logic": ("logic",),
    "business-process": ("bpmn",), "chart": ("plotly",), "table": ("plotly",),
    "deep-learning": ("onnx",), "knowledge-graph": ("rdf",), "gantt": ("mermaid",),
    "mind-map": ("mermaid",)}
#: The task type of a model-written question by its answer type: a number is counted
#: (quantification), a label named (identification), a yes/no or an option decided
#: about the structure (structural analysis).
MODEL_QUESTION_TYPE = {"number": "quantification", "label": "identification",
                       "yes_no": "structural_analysis", "choice": "structural_analysis"}


def task_type(task: str, answer_type: str | None) -> str:
    """STRUDEL's task type of a task (`TASK_TYPES`); a `structural` task without an answer
    type is a counting question of a data set built before the templates (quantification).

    >>> task_type("structural", None), task_type("structural", "yes_no")
    ('quantification', 'structural_analysis')
    """
    if task == "model_question":
        return MODEL_QUESTION_TYPE.get(answer_type or "", "structural_analysis")
    if task == "structural" and answer_type is None:
        return "quantification"
    return TASK_TYPE.get(task, task)


def domain_title(category: str) -> str:
    """Table 3's title of the domain of `category` ("" for a category not in the table:
    an imported data set's own)."""
    from diagbench.languages import domain_of

    domain = domain_of(category)
    return "" if domain is None else domain.title
