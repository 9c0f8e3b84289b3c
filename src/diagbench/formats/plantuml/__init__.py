"""PlantUML: the sequence-diagram parser and writer."""

from diagbench.formats.plantuml.sequence import parse_one, parse_sequence

__all__ = ["parse_one", "parse_sequence"]
