"""The prompt of paper 003_26afdd344a01d15b.txt, Fig. 2: definitions, answering rules,
then the question with its strict output format (which the question text carries), and
the ablations of §4.3 (Table 8): without the definitions, without the rules, the
question alone (its output-format part removed)."""

from __future__ import annotations

import hashlib

PROMPTS = ("full", "without-definitions", "without-rules", "only-question")

OPENING = ("Please answer the question strictly based on the given diagram and follow ALL "
           "rules below.")
DEFINITIONS = (
    "Definitions:\n"
    "1. Entity: An individual, identifiable component in the diagram, represented by a "
    "distinct icon or label with text.\n"
    "2. Cluster: A visual container or boundary (circle, box, or similar shape) that "
    "encloses multiple related entities to indicate environment, region, or service "
    "domain.\n"
    "3. Relation: Any directional, bidirectional, or non-directional interaction between "
    "entities shown in the diagram.\n"
    "4. Relation label: The exact string attached to the relation arrow or line.\n"
    "5. Attribute: A descriptive element attached to an entity in the diagram, shown as "
    "text inside or near the entity, representing properties, configurations, or "
    "characteristics of that entity.\n"
    "6. Method: An operational element associated with an entity in the diagram, shown as "
    "a named action, capability, or functional label that indicates what behavior the "
    "entity performs or exposes.")
RULES = (
    "Answering Rules:\n"
    "1. Count all visible items shown inside the diagram.\n"
    "2. Name matching is case sensitive.\n"
    "3. Do NOT include explanations, reasoning, or text outside the JSON object.\n"
    '4. Output MUST follow the exact format shown below, including the [start] and [end] '
    'markers, the key name "answer", array brackets, and quotes around every string.\n'
    "5. Do NOT add extra fields, extra text, or comments.\n"
    "6. The JSON array MUST contain only the final answer values (e.g., entity names, "
    "cluster names, relation labels, counts, etc., depending on the question).")


def prompt(question: str, variant: str = "full") -> str:
    """The prompt asking `question` (its full text, output format included)."""
    if variant == "only-question":
        return question.split("\nRequired Output Format", 1)[0].strip() + "\n"
    parts = [OPENING]
    if variant != "without-definitions":
        parts.append(DEFINITIONS)
    if variant != "without-rules":
        parts.append(RULES)
    if variant not in PROMPTS:
        raise ValueError(f"unknown prompt {variant!r} (known: {', '.join(PROMPTS)})")
    return "\n".join(parts) + "\n\n" + question


def template_hash(variant: str = "full") -> str:
    """sha256 of the prompt with the question left as a placeholder."""
    return hashlib.sha256(prompt("{question}", variant).encode()).hexdigest()
