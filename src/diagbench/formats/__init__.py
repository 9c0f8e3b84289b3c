"""Parsers and writers, one module per language and diagram kind.

A parser never raises on bad input: it returns what it could read plus
diagnostics with line numbers.
"""
