"""The code-generation study of paper 004_34f8485b6a3a0424.txt (STRUDEL §4, Tables 2 and
4): how well a model writes diagram code in each FRL. For every category × FRL, a set
of personas (each with a domain) at each complexity level, asked with the all-in-one
prompt and with the sequential one; the code of each answer is rendered by the real
engine (valid = `diagbench.render` draws it), and its length checked against the level
asked for (complexity consistency, `scoring.metrics.complexity_consistency`)."""
