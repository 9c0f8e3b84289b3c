"""PlantUML: the sequence-diagram parser and writer."""

from diagbench.formats.plantuml.sequence import ParsedDiagram, parse_one, parse_sequence

__all__ = ["ParsedDiagram", "parse_one", "parse_sequence"]
