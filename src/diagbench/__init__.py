"""diagbench: measure how well vision-language models read software diagrams."""

__version__ = "0.1.0"
