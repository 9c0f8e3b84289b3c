"""Lazy references: registries name their entries as `"package.module:attribute"` and
import an entry only when it is used, so that start-up imports no heavy library."""

from __future__ import annotations

import importlib
from typing import Any


def load(reference: str) -> Any:
    """The object that `reference` (`"package.module:attribute"`) names, imported now."""
    module, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)
