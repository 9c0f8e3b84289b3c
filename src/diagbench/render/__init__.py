"""Turning diagram code into images with the real engines, sandboxed."""
