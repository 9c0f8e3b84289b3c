"""Tables 8 and 9 of paper 003 assembled from several runs (`report archqa RUN…`): each
model of each run labelled with the settings it ran with — its prompt (`--prompt`, or a
SADU log's ``setting.prompt_type``) and its thinking setting (`--reasoning`, or a log's
``setting.thinking_level``; "default" when none was set) — then Table 8 (prompt × model)
and Table 9 (thinking level × prompt, per model run at more than one thinking setting),
accuracy per diagram type in percent: the rule-based scorer's, and the judge's where a
judge ran (the paper's tables are the judge's)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from diagbench.benchmarks.archqa.prompts import PROMPTS
from diagbench.benchmarks.protocol import DataError

_COLUMNS = ("behavioral", "structural", "er", "all")
#: SADU's names of its prompt variants (its logs' ``setting.prompt_type``) → diagbench's.
SADU_PROMPTS = {"full": "full", "without_definition": "without-definitions",
                "without_rules": "without-rules", "only_question": "only-question"}


@dataclass(frozen=True, slots=True)
class Labelled:
    """One model of one run, with the settings it ran with and its accuracies."""

    model: str
    prompt: str
    thinking: str
    scorer: str
    accuracy: dict[str, float | None]
    accuracy_judge: dict[str, float | None] | None

    @property
    def key(self) -> tuple:
        """What makes two rows the same: labels, scorer and every accuracy."""
        return (self.model, self.prompt, self.thinking, self.scorer,
                tuple(self.accuracy.items()), tuple((self.accuracy_judge or {}).items()))


def log_labels(setting: Any, name: str) -> dict[str, str]:
    """The model, prompt and thinking level a SADU log's ``setting`` records."""
    setting = setting if isinstance(setting, dict) else {}
    return {"model": str(setting.get("model") or name),
            "prompt": SADU_PROMPTS.get(str(setting.get("prompt_type", "full")),
                                       str(setting.get("prompt_type"))),
            "thinking": str(setting.get("thinking_level") or "default")}


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: not readable as JSON ({exc})") from None


def labelled(run: Path) -> list[Labelled]:
    """Every model of the archqa run `run`, labelled from its manifest."""
    manifest, summary = _read(run / "manifest.json"), _read(run / "summary.json")
    if manifest.get("benchmark") != "archqa":
        raise DataError(f"{run / 'manifest.json'}: not a run of archqa")
    options = manifest.get("options", {})
    entries = {e.get("name"): e for e in manifest.get("models", [])}
    logs = manifest.get("logs", {})
    out = []
    for name, m in summary.get("models", {}).items():
        if name in logs:
            labels = {k: logs[name].get(k) or d for k, d in
                      (("model", name), ("prompt", "full"), ("thinking", "default"))}
        else:
            reasoning = entries.get(name, {}).get("parameters", {}).get("reasoning")
            labels = {"model": name, "prompt": options.get("prompt", "full"),
                      "thinking": reasoning or "default"}
        out.append(Labelled(labels["model"], labels["prompt"], labels["thinking"],
                            summary.get("scorer", "?"), m["accuracy"],
                            m.get("accuracy_judge")))
    return out


def _cells(values: dict[str, float | None] | None) -> str:
    return "".join(f"{'—' if v is None else f'{v:.2f}':>11}"
                   for v in ((values or {}).get(c) for c in _COLUMNS))


#: Thinking settings in the paper's order (Table 9: default, low, high), budgets after.
_LEVELS = ("default", "minimal", "low", "medium", "high")


def _level(thinking: str) -> tuple[int, str]:
    return (_LEVELS.index(thinking) if thinking in _LEVELS else len(_LEVELS), thinking)


def _order(prompt: str) -> int:
    return PROMPTS.index(prompt) if prompt in PROMPTS else len(PROMPTS)


def tables_8_9(runs: Sequence[Path]) -> list[str]:
    """Tables 8 and 9 over the models of `runs`, as the console prints them."""
    rows = list({row.key: row for run in runs for row in labelled(run)}.values())  # a
    # model met twice — SADU's default log is in two folders — is one row
    kinds = [("rule-based", lambda r: r.accuracy)]
    if any(r.accuracy_judge for r in rows):
        kinds.append(("LLM judge", lambda r: r.accuracy_judge))
    head = "".join(f"{c:>11}" for c in ("Behavioral", "Structural", "ER", "All"))
    width = max([len(r.model) for r in rows] + [5])
    out: list[str] = []
    for kind, accuracy in kinds:
        scorers = ", ".join(sorted({r.scorer for r in rows}))
        out += [f"Table 8: prompt × model, accuracy ({kind}"
                + (f", scorer {scorers}" if kind == "rule-based" else "") + ")",
                f"{'prompt':<20}{'model':<{width}}{'thinking':>10}{head}"]
        out += [f"{r.prompt:<20}{r.model:<{width}}{r.thinking:>10}{_cells(accuracy(r))}"
                for r in sorted(rows, key=lambda r: (_order(r.prompt), r.model,
                                                     _level(r.thinking)))]
        for model in sorted({r.model for r in rows}):
            mine = [r for r in rows if r.model == model]
            if len({r.thinking for r in mine}) < 2:
                continue
            out += [f"Table 9: thinking level × prompt, {model}, accuracy ({kind})",
                    f"{'thinking':<10}{'prompt':<20}{head}"]
            out += [f"{r.thinking:<10}{r.prompt:<20}{_cells(accuracy(r))}"
                    for r in sorted(mine, key=lambda r: (_level(r.thinking), _order(r.prompt)))]
    return out
