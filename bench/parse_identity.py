"""Byte-identity of `parse_sequence` and of the semantic comparison, this tree vs another.

Parses one corpus with this tree and with another checkout (`--base DIR`, e.g.
`git worktree add /tmp/old HEAD~3`), each in its own process, and compares the JSON of
every result (the whole model with source lines, the diagnostics, the kind). The
corpus: the PlantUML files of ../shared/data/realworld and examples/, the grammar cases
of tests/test_sequence_differential.py, generated diagrams (tests/sequence_grammar.py),
synthetic call flows (bench/synthetic.py), and every generated line mutated character by
character (spaces, arrow and comment characters inserted, characters dropped or doubled),
so that each fast path meets the lines it must hand on. Also the semantic comparison
(`Comparison`, every count and text) of synthetic pairs and of examples/callflows.
Prints the inputs compared and each difference; exits 1 when any.
Usage: python bench/parse_identity.py --base DIR [--diagrams N] [--seed S]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
SUFFIXES = {".puml", ".plantuml", ".pu", ".iuml", ".wsd"}
_NOISE = " \t-<>[]ox:&'\"#+*!/\\|=.@{}()"


def _files() -> list[str]:
    roots = [REPO.parent / "shared" / "data" / "realworld", REPO / "examples"]
    paths = sorted(p for root in roots for p in root.rglob("*") if p.suffix in SUFFIXES)
    return [p.read_text(encoding="utf-8", errors="replace") for p in paths]


def _mutate(text: str, rng: random.Random) -> str:
    """`text` with one edit on each of a third of its lines."""
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if not line or rng.random() > 0.33:
            continue
        at = rng.randrange(len(line) + 1)
        roll = rng.random()
        if roll < 0.5:
            line = line[:at] + rng.choice(_NOISE) + line[at:]
        elif roll < 0.75:
            line = line[:at] + line[at + 1:]
        else:
            line = line[:at] + line[at:at + 1] * 2 + line[at + 1:]
        lines[k] = line
    return "\n".join(lines)


def corpus(diagrams: int, seed: int) -> list[str]:
    """Every text to parse, in a fixed order."""
    sys.path[:0] = [str(REPO), str(BENCH)]
    from tests.sequence_grammar import corpus as grammar
    from tests.test_sequence_differential import CASES

    from synthetic import synthetic_diagram

    rng = random.Random(seed)
    texts = _files() + [f"@startuml\n{case}\n@enduml\n" for case in CASES.values()]
    generated = [g.text for g in grammar(seed, diagrams)]
    generated += [synthetic_diagram(rng, (10, 80)) for _ in range(diagrams // 4)]
    return texts + generated + [_mutate(t, rng) for t in generated for _ in range(2)]


def pairs(count: int, seed: int) -> list[tuple[str, str]]:
    sys.path[:0] = [str(BENCH)]
    from compare import corpus as compare_corpus

    callflows = REPO / "examples" / "callflows"
    named = [(p.read_text(), (callflows / "pred" / p.name).read_text())
             for p in sorted((callflows / "gold").glob("*.puml"))
             if (callflows / "pred" / p.name).exists()]
    return named + compare_corpus(count, seed)


def dump(diagrams: int, seed: int) -> None:
    """One sha256 per input (parses, then comparisons), as a JSON list on stdout."""
    from diagbench.compare.pair import compare_scripts
    from diagbench.formats.plantuml import parse_sequence

    digests = []
    for text in corpus(diagrams, seed):
        parsed = [[p.index, p.first_line, p.kind, [asdict(d) for d in p.diagnostics],
                   asdict(p.diagram)] for p in parse_sequence(text)]
        digests.append(json.dumps(parsed, sort_keys=True))
    for gold, pred in pairs(diagrams // 4, seed):
        digests.append(json.dumps(asdict(compare_scripts(gold, pred, "semantic")),
                                  sort_keys=True))
    print(json.dumps([hashlib.sha256(d.encode()).hexdigest() for d in digests]))


def run(base: Path | None, diagrams: int, seed: int) -> list[str]:
    env = dict(os.environ)
    if base is not None:
        env["PYTHONPATH"] = str(base / "src")
    done = subprocess.run([sys.executable, __file__, "--dump", "--diagrams", str(diagrams),
                           "--seed", str(seed)], env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, help="the checkout to compare with")
    ap.add_argument("--diagrams", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dump", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.dump:
        dump(args.diagrams, args.seed)
        return
    if args.base is None:
        ap.error("--base DIR is required")
    before, now = run(args.base, args.diagrams, args.seed), run(None, args.diagrams, args.seed)
    texts = corpus(args.diagrams, args.seed)
    n_parse = len(texts)
    differing = [k for k, (a, b) in enumerate(zip(before, now, strict=True)) if a != b]
    print(f"{n_parse:,} texts parsed and {len(now) - n_parse:,} pairs compared by both trees: "
          f"{len(differing)} differ")
    for k in differing[:5]:
        what = repr(texts[k][:300]) if k < n_parse else f"pair {k - n_parse}"
        print(f"  input {k}: {what}")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
