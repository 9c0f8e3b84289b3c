"""The aggregates behind paper 002's figures, from a run's summary (§4, Figs. 4–8, §4.3.2).

Every number is a simple mean of per-model RelAcc values (%), as the captions say:

- Fig. 4 (`family_gaps`): per family, the mean over its members of RelAcc on prior-conform
  and on prior-conflict (2-reverse), each averaged over 4 relations × 3 scales, and
  Δ = conform − conflict; "Mean" over all models.
- Fig. 5 (`family_conflicts`): per family, the mean RelAcc on 2-reverse, 3-reverse and
  3-mixed; "Mean" over all models.
- Fig. 6 (`relation_gaps`): per relation, the models' mean RelAcc on prior-conform and
  2-reverse, each averaged over the scales, and Δ; "Mean" is the simple mean over the
  relations.
- Fig. 7 (`scale_gaps`): the same per image scale (averaged over the relations); "Mean"
  over the scales.
- Fig. 8 (`size_scaling`): per model with a known size, RelAcc on 2-reverse and 3-reverse
  against its size, within its family.
- §4.3.2 (`passing_gap`): Δ over the prerequisite-passing models only (EM ≥ 95 and
  prior-free RelAcc ≥ 50), beside Δ over all (paper: 32.94 vs 33.48 over eight models).

Families and sizes come from the model names (`Qwen/Qwen3-VL-8B-Instruct` → Qwen3-VL, 8 B:
the number before a B, the family the name before it), or from RUN/model_sizes.json
(`{"MODEL": {"family": "GPT-5.4", "size": 8}}`, either key optional), which wins.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from diagbench.benchmarks.jsonl import not_json
from diagbench.benchmarks.prior_bias.records import Cell, ModelSummary
from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS
from diagbench.benchmarks.protocol import DataError

MEAN = "Mean"
SIZES_FILE = "model_sizes.json"
_SIZE = re.compile(r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)[bB](?![A-Za-z0-9])")


@dataclass(frozen=True, slots=True)
class Gap:
    """One group of Figs. 4, 6, 7 or §4.3.2: mean RelAcc conform and conflict, Δ, and how
    many models it averages."""

    label: str
    models: int
    conform: float | None
    conflict: float | None
    delta: float | None


@dataclass(frozen=True, slots=True)
class Identity:
    """A model's family and size in billions of parameters (None: unknown)."""

    family: str
    size: float | None


@dataclass(frozen=True, slots=True)
class SizePoint:
    """One point pair of Fig. 8."""

    model: str
    family: str
    size: float
    reverse2: float | None
    reverse3: float | None


def mean(values: list[float | None]) -> float | None:
    """The mean of the values present; None when there is none."""
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def _minus(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b


def identify(model: str, given: Mapping[str, Mapping] | None = None) -> Identity:
    """The family and size of `model`: from `given` (RUN/model_sizes.json) where it says,
    else from the name (provider, organisation and server address left out)."""
    name = model.split(":", 1)[-1].split("@", 1)[0].rsplit("/", 1)[-1]
    found = _SIZE.search(name)
    family = name[:found.start()].rstrip("-_ ") if found else name
    size = float(found.group(1)) if found else None
    told = (given or {}).get(model, {})
    return Identity(told.get("family", family), told.get("size", size))


def read_sizes(run: Path) -> dict[str, dict]:
    """RUN/model_sizes.json, or nothing when there is none."""
    path = run / SIZES_FILE
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise not_json(path, exc) from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise DataError(f"{path}: expected {{MODEL: {{\"family\": …, \"size\": …}}}}")
    return data


def by_family(models: Mapping[str, ModelSummary], identities: Mapping[str, Identity]
              ) -> dict[str, list[ModelSummary]]:
    """The models of each family, in the run's order, then all of them (`MEAN`)."""
    groups: dict[str, list[ModelSummary]] = {}
    for name, model in models.items():
        groups.setdefault(identities[name].family, []).append(model)
    return groups | {MEAN: list(models.values())}


def _gap(label: str, models: list[ModelSummary],
         conform: Callable[[ModelSummary], float | None],
         conflict: Callable[[ModelSummary], float | None]) -> Gap:
    a, b = mean([conform(m) for m in models]), mean([conflict(m) for m in models])
    return Gap(label, len(models), a, b, _minus(a, b))


def _rel(condition: str) -> Callable[[ModelSummary], float | None]:
    return lambda m: m.conditions[condition].rel_acc


def family_gaps(models: Mapping[str, ModelSummary], identities: Mapping[str, Identity]
                ) -> list[Gap]:
    """Fig. 4: per family and over all models."""
    return [_gap(label, group, _rel("prior-conform"), _rel("2-reverse"))
            for label, group in by_family(models, identities).items()]


def family_conflicts(models: Mapping[str, ModelSummary], identities: Mapping[str, Identity]
                     ) -> dict[str, dict[str, float | None]]:
    """Fig. 5: per family and over all models, the mean RelAcc of each conflict condition."""
    return {label: {c: mean([m.conditions[c].rel_acc for m in group])
                    for c in ("2-reverse", "3-reverse", "3-mixed")}
            for label, group in by_family(models, identities).items()}


def _cells_mean(cells: list[Cell | None]) -> float | None:
    return mean([c.rel_acc for c in cells if c is not None and c.n])


def _axis_gaps(models: list[ModelSummary], labels: list[str],
               cells: Callable[[ModelSummary, str, str], list[Cell | None]]) -> list[Gap]:
    def at(condition: str, label: str) -> Callable[[ModelSummary], float | None]:
        return lambda m: _cells_mean(cells(m, condition, label))

    rows = [_gap(label, models, at("prior-conform", label), at("2-reverse", label))
            for label in labels]
    conform, conflict = mean([r.conform for r in rows]), mean([r.conflict for r in rows])
    return [*rows, Gap(MEAN, len(models), conform, conflict, _minus(conform, conflict))]


def relation_gaps(models: list[ModelSummary]) -> list[Gap]:
    """Fig. 6: per relation (each model's RelAcc averaged over the scales), and their mean."""
    return _axis_gaps(models, list(RELATIONS), lambda m, c, r: list(m.cells[c][r].values()))


def scale_gaps(models: list[ModelSummary]) -> list[Gap]:
    """Fig. 7: per scale (each model's RelAcc averaged over the relations), and their mean."""
    scales = list(dict.fromkeys(s for m in models for s in m.delta_by_scale))
    return _axis_gaps(models, scales,
                      lambda m, c, s: [m.cells[c][r].get(s) for r in RELATIONS])


def size_scaling(models: Mapping[str, ModelSummary], identities: Mapping[str, Identity]
                 ) -> list[SizePoint]:
    """Fig. 8: the models with a known size, by family then size."""
    points = [SizePoint(name, identities[name].family, size,
                        m.conditions["2-reverse"].rel_acc, m.conditions["3-reverse"].rel_acc)
              for name, m in models.items() if (size := identities[name].size) is not None]
    return sorted(points, key=lambda p: (p.family, p.size))


def passing_gap(models: Mapping[str, ModelSummary]) -> tuple[Gap, list[str]]:
    """§4.3.2: Δ over the models that pass the prerequisite, and their names."""
    passing = [name for name, m in models.items() if m.prerequisite.passed]
    return (_gap("prerequisite-passing", [models[n] for n in passing], _rel("prior-conform"),
                 _rel("2-reverse")), passing)
