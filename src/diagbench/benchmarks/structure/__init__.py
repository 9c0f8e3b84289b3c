"""The structure benchmark (paper 004_34f8485b6a3a0424.txt, STRUDEL) for software
diagrams: diagram code written by a model (or the offline `baseline:synth`) for a
category, an FRL, a persona, a domain and a complexity level; rendered by the real
engines, its statistics read from the parsed model and checked against the engines'
SVG; filtered (§3.3, with the LLM-as-judge of Fig. 9 when `--judge` is given);
counting, association, matching and image-to-code tasks (§3.4) with gold answers from
the code, and the closed-ended questions the generating model writes (Fig. 10), scored
strictly; the image-to-code score on parsed models (`diagbench.compare.graph`) beside
STRUDEL's counts-only one."""
