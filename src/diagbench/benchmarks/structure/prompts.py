"""The generation prompts of the structure build (paper 004 Appendix, Figs. 7–8) and the
split of an answer into its parts: shared with `codegen`, so they live in
`diagbench.benchmarks.synthesis`; the task prompts are in `tasks`."""

from __future__ import annotations

from diagbench.benchmarks.synthesis import SYSTEM, Split, split_answer, template_hash

__all__ = ["SYSTEM", "Split", "split_answer", "template_hash"]
