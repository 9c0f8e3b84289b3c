"""The prompts of paper 002, verbatim (Appendix F, Fig. 11–14): the system prompt, the
stage-1 class-name recovery prompt and the stage-2 relation-direction prompt with its
relation-specific rule and question template. Placeholders in angle brackets in the
paper are fields here: relation, number of classes, class names, rule, question."""

from __future__ import annotations

import hashlib

SYSTEM = (
    "You are an accurate UML diagram reasoning assistant. You will be asked to complete a "
    "question or task. Treat the provided image as the only source of truth. Do not use the "
    "model's internal knowledge, assumptions, and guesses. Follow the requested output format "
    "exactly, without extra explanation."
)
_BOX = (
    "Each class is represented as a box, with the class name at the top. The green circled "
    "letter 'C' inside each box is only a class-type icon and is not part of the class name. "
    "The actual class name is the text to the right of the icon."
)
STAGE1 = (
    "The image provided is a UML diagram showing {relation} relationships. The UML diagram "
    "contains {number} classes. " + _BOX + " You must treat the image as the only source of "
    "truth for the task. Do not infer, guess, or invent any names. Complete the following "
    "task using only the class names that are visibly and explicitly depicted in the UML "
    "diagram.\n"
    "The task is: List all class names that appear in the UML diagram.\n"
    "Each class name in your final output must match the UML diagram text exactly, character "
    "by character. You may reason privately, but do not reveal any reasoning or intermediate "
    'steps. Output only a JSON array of strings, for example: ["ClassA", "ClassB"]. Do not '
    "output any text before or after the JSON array. Output [] if the image is missing or "
    "unreadable."
)
STAGE2 = (
    "The image provided is a UML diagram showing {relation} relationships. The diagram "
    "contains {number} classes: {names}. " + _BOX + "\n"
    "{rule}\n"
    "Carefully verify the direction of every arrow or line in the UML diagram. Treat arrow "
    "direction as authoritative and do not assume it. You must treat the image as the only "
    "source of truth for the question. Do not use the model's internal knowledge or prior "
    "assumptions to attempt to answer the question. Answer the following question solely "
    "from the relationships explicitly depicted in the image.\n"
    "The question is: {question}\n"
    "You may reason privately, but do not reveal any reasoning or intermediate steps. Output "
    "only one of: True, False, or Unknown. Output 'Unknown' if the image is missing, "
    "unreadable, or the relation direction is unclear."
)
RULES = {
    "inheritance": "A solid line with a hollow triangular arrow indicates an inheritance "
                   "relationship. The arrow points from the subclass to the superclass.",
    "aggregation": "A solid line with a hollow diamond indicates an aggregation relationship. "
                   "The class at the diamond end is the whole, and the class at the other end "
                   "is the part.",
    "composition": "A solid line with a filled diamond indicates a composition relationship. "
                   "The class at the diamond end is the whole, and the class at the other end "
                   "is the part.",
    "dependency": "A dashed line with an open arrow indicates a dependency relationship. The "
                  "arrow points from the dependent class to the class it depends on.",
}
QUESTIONS = {
    "inheritance": "Does class {a} inherit from class {b}?",
    "aggregation": "Is class {a} the whole and class {b} the part?",
    "composition": "Is class {a} the whole and class {b} the part?",
    "dependency": "Does class {a} depend on class {b}?",
}
_NUMBERS = {2: "two", 3: "three"}


def number(classes: list[str]) -> str:
    return _NUMBERS.get(len(classes), str(len(classes)))


def stage1(relation: str, classes: list[str]) -> str:
    """Class-name recovery (Fig. 12)."""
    return STAGE1.format(relation=relation, number=number(classes))


def stage2(relation: str, classes: list[str], query: tuple[str, str]) -> str:
    """Relation-direction QA (Fig. 13) with the rule and question of Fig. 14."""
    return STAGE2.format(relation=relation, number=number(classes), names=", ".join(classes),
                         rule=RULES[relation],
                         question=QUESTIONS[relation].format(a=query[0], b=query[1]))


def template_hash() -> str:
    """sha256 of every template, for the manifest."""
    text = "\0".join([SYSTEM, STAGE1, STAGE2, *RULES.values(), *QUESTIONS.values()])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
