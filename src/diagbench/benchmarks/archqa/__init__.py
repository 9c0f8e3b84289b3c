"""The architecture-diagram question-answering benchmark (paper 003_26afdd344a01d15b.txt,
SADU): behavioural, structural and ER diagrams annotated with entities, relations and
clusters, 24 templated question subtypes answered in a strict `[start] {"answer": …}
[end]` format, scored by exact match (§3.3.2) and analysed with the counting and
retrieval metrics of §3.3.

    DATA/ (import)  annotations.jsonl, questions.jsonl, import.json
    RUN/  (score)   scores.jsonl, summary.json
"""
