"""baseline:blind — the chance floor of archqa (paper 003, SADU): an answer to each
question from its text alone, never looking at the diagram.

The question's subtype is found by matching its wording against the 24 templates
(`questions.match`); the answer is a fixed guess per subtype, the same for every
diagram, written in the strict format of Fig. 2. The guesses are round, typical values
of small architecture diagrams, not fitted to any gold answers: a count (5 entities,
4 relations, 2 entities with more than one relation, 0 clusters…), the most common
relation type of the family the question names (single direction, association, one to
many), or for a question that names an element no knowable answer at all (an empty
list; a retrieval question whose gold is empty is never asked, so it is wrong — the
floor). What it gets right is what the question text gives away.
"""

from __future__ import annotations

import json
from typing import Any

from diagbench.benchmarks.archqa.questions import TEMPLATES, stem

#: The fixed answer per subtype (None: the subtype gives nothing away: an empty list).
GUESSES: dict[str, Any] = {
    "total_entity_number": 5,
    "total_relation_number": 4,
    "entities_have_more_than_one_relations": 2,
    "total_cluster_number": 0,
    "how_many_entities_not_in_clusters": 5,
    "how_many_relations_have_label": 0,
    "how_many_clusters_have_clusters_within": 0,
    "how_many_entities_does_certain_cluster_have": 2,
    "how_many_relation_types": 1,
    "how_many_attributes_certain_entity_has": 2,
    "how_many_methods_certain_entity_has": 1,
}
_TYPE_GUESS = {"directionality": ["single"], "type": ["association"],
               "cardinality": [["exactly one", "zero or more"]]}


def blind_answer(question: str) -> Any:
    """The answer baseline:blind gives to `question` (its text, with or without the
    prompt around it: the part from the last template match is used).

    >>> blind_answer("How many entities are in the diagram?")
    5
    >>> blind_answer("What is the type of the relation between Entity 'A' and Entity 'B'? "
    ...              "(e.g., association, inheritance, composition, dependency, and aggregation)")
    ['association']
    >>> blind_answer("Which entity has a relation with Entity 'A'?")
    []
    """
    text = stem(question)
    for template in TEMPLATES:
        for pattern in template.patterns:
            if pattern.search(text):
                if template.subtype == "type_on_the_relation":
                    word = next(w for w in _TYPE_GUESS if f"the {w} of" in text
                                or f"the {w} on" in text)
                    return _TYPE_GUESS[word]
                return GUESSES.get(template.subtype, [])
    return []


def answer_blind(request: Any) -> str:
    """baseline:blind as an offline model: the request's text → the strict answer."""
    from diagbench.models.offline import prompt_text

    answer = blind_answer(prompt_text(request))
    return f"[start]\n{json.dumps({'answer': answer})}\n[end]"
