"""Answer parsers (code blocks, …) and metric functions."""
