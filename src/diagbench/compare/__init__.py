"""Script-vs-script metrics: the paper-faithful line-diff method and the semantic method."""

from diagbench.compare.counts import COMPONENTS, Comparison, ComponentCounts
from diagbench.compare.pair import METHODS, compare_scripts

__all__ = ["COMPONENTS", "METHODS", "Comparison", "ComponentCounts", "compare_scripts"]
