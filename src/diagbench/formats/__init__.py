"""The reading machinery languages share: decoding sources (`source`), diagnostics with
line and column (`diagnostics`), the `Parsed` record, and the readers and writers of the
software languages that several packages use (PlantUML, Mermaid, DOT, DBML). A
language's own reader lives in its plug-in (`diagbench.languages.<name>`).

A reader never raises on bad input: it returns what it could read plus diagnostics
with line numbers.
"""
