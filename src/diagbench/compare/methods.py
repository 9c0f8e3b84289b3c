"""The two ways of comparing a predicted script with its ground truth."""

from __future__ import annotations

from typing import Literal, get_args

#: semantic: parsed elements matched by optimal assignment; diff: the line diff of paper
#: 000_30f6dc923c2b066d.txt §2.2–2.3.
Method = Literal["semantic", "diff"]
METHODS: tuple[Method, ...] = get_args(Method)
