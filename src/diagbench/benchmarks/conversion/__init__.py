"""Image → PlantUML conversion of sequence diagrams, scored against ground-truth scripts
(paper 000: §2.1 the task, §3.2 the prompt and models, §4 the results)."""
