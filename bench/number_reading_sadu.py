"""The number reader before and after a change, on real model answers: every counting
answer in SADU's published response logs (its experiment_result/response_result/, 11
models and the ablations) read by `scoring.strict.parse_number` as it is at revision
BEFORE (without the question: that reader took none) and as it is in this checkout
(with the question asked), then the readings that differ counted and shown, with how
many readings equal the logged gold answer before and now.

Usage: python bench/number_reading_sadu.py SADU_CHECKOUT [--before REV] [--show N]
(SADU_CHECKOUT: a local copy of github.com/ShuyinOuyang/SADU; REV: a git revision of
this repository, default the one before the reader read "There are 12.")
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from types import ModuleType

from diagbench.benchmarks.archqa.questions import COUNTING
from diagbench.scoring.strict import parse_number

READER = "src/diagbench/scoring/strict.py"
REPOSITORY = Path(__file__).resolve().parent.parent


def reader_at(revision: str) -> ModuleType:
    """`scoring.strict` as it is at `revision` of this repository."""
    source = subprocess.run(["git", "show", f"{revision}:{READER}"], cwd=REPOSITORY,
                            check=True, capture_output=True, text=True).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location("strict_before", f.name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["strict_before"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    Path(f.name).unlink()
    return module


def counting_answers(checkout: Path) -> list[tuple[str, int, str, str, object]]:
    """(log, line, question, response, gold) of every counting answer of the logs (gold:
    the logged answer's first item)."""
    out = []
    logs = sorted((checkout / "experiment_result" / "response_result").rglob("*.log"))
    if not logs:
        raise SystemExit(f"{checkout}: no experiment_result/response_result/**/*.log")
    for log in logs:
        for number, line in enumerate(log.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                print(f"{log}:{number}: not a JSON line ({exc.msg}), left out", file=sys.stderr)
                continue
            if not isinstance(row, dict):
                print(f"{log}:{number}: not a JSON object, left out", file=sys.stderr)
                continue
            if (row.get("metadata") or {}).get("sub_type") in COUNTING \
                    and isinstance(row.get("response"), str):
                gold = row.get("answer")
                out.append((str(log.relative_to(checkout)), number, row["question"],
                            row["response"], gold[0] if isinstance(gold, list) and gold
                            else gold))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--before", default="19359c2")
    ap.add_argument("--show", type=int, default=40)
    args = ap.parse_args()
    before = reader_at(args.before)
    answers = counting_answers(args.checkout)
    old_status: Counter[str] = Counter()
    new_status: Counter[str] = Counter()
    changes: Counter[tuple[str, str]] = Counter()
    by_log: Counter[str] = Counter()
    right: Counter[str] = Counter()
    shown = []
    for log, number, question, response, gold in answers:
        old, new = before.parse_number(response), parse_number(response, question)
        old_status[old.status] += 1
        new_status[new.status] += 1
        right["before"] += _equal(old.value, gold)
        right["now"] += _equal(new.value, gold)
        if (old.value, old.status) != (new.value, new.status):
            changes[(f"{old.status} {old.value}", f"{new.status} {new.value}")] += 1
            by_log[log.rsplit("/", 2)[-2] + "/" + log.rsplit("/", 1)[-1].split("_response")[0]
                   ] += 1
            shown.append((log, number, old, new, response))
    print(f"{len(answers)} counting answers in "
          f"{len({a[0] for a in answers})} logs of {args.checkout}")
    print(f"  before ({args.before}): {dict(sorted(old_status.items()))}")
    print(f"  now:              {dict(sorted(new_status.items()))}")
    print(f"  equal to the logged gold: before {right['before']}, now {right['now']}")
    print(f"  readings changed: {len(shown)}")
    for model, n in by_log.most_common():
        print(f"    {model:<50}{n:>5}")
    print("  changes (before → now: how many):")
    for (a, b), n in changes.most_common():
        print(f"    {a} → {b}: {n}")
    for log, number, old, new, response in shown[:args.show]:
        tail = " ".join(response.split())[-160:]
        print(f"\n{log}:{number}: {old.status} {old.value} → {new.status} {new.value}\n"
              f"  …{tail}")


def _equal(value: object, gold: object) -> bool:
    return isinstance(value, float) and isinstance(gold, int | float) \
        and not isinstance(gold, bool) and value == gold


if __name__ == "__main__":
    main()
