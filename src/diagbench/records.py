"""One serializer for the typed records that cross a file (samples, tasks, scores,
summaries, build.json, manifests): a frozen dataclass to the JSON object of its fields
and back, guided by its type hints — nested records, tuples, lists, dicts, unions and
optional fields — so that no record writes or reads its JSON by hand.

A record class derives from `Record`, which gives it `to_json()` and `from_json(data)`;
a nested value whose class writes a JSON shape of its own (`to_json`/`from_json`) is
written and read by those.
A field's metadata tunes its JSON: `OMIT_NONE` leaves it out while it is None,
`OMIT_EMPTY` while it is empty or None (a missing key reads as the field's default). A
record may list properties to write after its fields (`json_computed`, a class
variable: values derived from the fields, written for readers of the file and ignored
when read back).

    >>> from dataclasses import dataclass, field
    >>> @dataclass(frozen=True)
    ... class Point(Record):
    ...     x: int
    ...     tags: tuple[str, ...] = ()
    ...     note: str | None = field(default=None, metadata=OMIT_NONE)
    >>> Point(1, ("a",)).to_json()
    {'x': 1, 'tags': ['a']}
    >>> Point.from_json({"x": 1, "tags": ["a"]})
    Point(x=1, tags=('a',), note=None)
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar, TypeVar

T = TypeVar("T")
R = TypeVar("R", bound="Record")

#: Field metadata: leave the field out of the JSON while it is None.
OMIT_NONE: Mapping[str, bool] = types.MappingProxyType({"omit": True})
#: Field metadata: leave the field out of the JSON while it is empty or None.
OMIT_EMPTY: Mapping[str, bool] = types.MappingProxyType({"omit": True, "empty": True})


class Record:
    """The base of a dataclass record that crosses a file: its JSON is `to_json`'s."""

    __slots__ = ()
    #: Properties written after the fields (derived values; not read back).
    json_computed: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        return to_json(self)

    @classmethod
    def from_json(cls: type[R], data: Mapping[str, Any]) -> R:
        return from_json(cls, data)


class RecordError(ValueError):
    """A JSON object that is not the record it should be: a key missing or of the wrong
    shape (the message names the record and the key)."""


def to_json(record: Any) -> dict[str, Any]:
    """The JSON object of a dataclass record: its fields in order (nested records,
    tuples, lists and dicts turned into JSON values), then its `json_computed`
    properties."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(record):
        value = getattr(record, f.name)
        if f.metadata.get("omit") and (value is None or (f.metadata.get("empty")
                                                          and not value)):
            continue
        out[f.name] = _dump(value)
    for name in getattr(type(record), "json_computed", ()):
        out[name] = _dump(getattr(record, name))
    return out


def _dump(value: Any) -> Any:
    if callable(getattr(value, "to_json", None)):  # a record, or a JSON shape of its own
        return value.to_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json(value)
    if isinstance(value, list | tuple):
        return [_dump(v) for v in value]
    if isinstance(value, dict):
        return {k: _dump(v) for k, v in value.items()}
    return value


def from_json(cls: type[T], data: Mapping[str, Any]) -> T:
    """The record of type `cls` that `data` (its JSON object) holds: each field read by
    its type hint; a missing key takes the field's default, or is a `RecordError`."""
    if not isinstance(data, Mapping):
        raise RecordError(f"{cls.__name__}: a JSON object was expected, not "
                          f"{type(data).__name__}")
    hints = _hints(typing.cast(type, cls))
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.name in data:
            try:
                values[f.name] = _load(hints[f.name], data[f.name])
            except (TypeError, ValueError, AttributeError) as e:
                raise RecordError(f"{cls.__name__}.{f.name}: {e}") from None
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise RecordError(f"{cls.__name__}: no {f.name!r}")
    try:
        return cls(**values)
    except (TypeError, ValueError) as e:  # what the record itself refuses
        raise RecordError(f"{cls.__name__}: {e}") from None


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _load(hint: Any, value: Any) -> Any:
    if value is None or hint is Any:
        return value
    own = getattr(hint, "from_json", None) if isinstance(hint, type) else None
    if callable(own):
        return own(value)
    if dataclasses.is_dataclass(hint):
        return from_json(hint, value)  # type: ignore[arg-type]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return _load_union(args, value)
    if origin is typing.Literal:
        if value not in args:
            raise ValueError(f"{value!r} is not one of {', '.join(map(repr, args))}")
        return value
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_load(args[0], v) for v in value)
        return tuple(_load(a, v) for a, v in zip(args, value, strict=True))
    if origin is list:
        return [_load(args[0], v) for v in value]
    if origin is dict:
        return {k: _load(args[1], v) for k, v in value.items()}
    return value


def _load_union(args: tuple[Any, ...], value: Any) -> Any:
    """A value of a union: an object as the union's record, a list as its tuple or list
    type, anything else as it is."""
    if isinstance(value, Mapping):
        for arg in args:
            if dataclasses.is_dataclass(arg):
                return _load(arg, value)
    if isinstance(value, list):
        for arg in args:
            if typing.get_origin(arg) in (tuple, list):
                return _load(arg, value)
    return value
