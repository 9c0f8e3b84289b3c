"""Reader throughput per graph language and kind: diagrams/s of `languages.read` on generated
diagrams (tests/formats_grammar.py for Mermaid, DOT and DBML; tests/graph_grammar.py for
the PlantUML graph kinds), parsed one at a time on one core. bench/parse.py prints it
beside the sequence figure; alone:

    .venv/bin/python bench/parse_graph.py [--diagrams N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests import formats_grammar, graph_grammar

from diagbench.languages import read


def _formats(language: str, kind: str) -> Callable[[random.Random], str]:
    return lambda rng: formats_grammar.generate(rng, language, kind).text


def _plantuml(kind: str) -> Callable[[random.Random], str]:
    return lambda rng: graph_grammar.diagram(rng, kind)[1]


#: (language, kind) → a generator of one diagram's text.
KINDS: dict[tuple[str, str], Callable[[random.Random], str]] = {
    **{(lang, kind): _formats(lang, kind) for lang, kind in formats_grammar.KINDS},
    **{("plantuml", kind): _plantuml(kind) for kind in graph_grammar.KINDS},
}


def graph_rates(diagrams: int = 500, seed: int = 0
                ) -> list[tuple[str, str, int, int, float, float]]:
    """(language, kind, diagrams, lines, wall seconds, CPU seconds) per kind, `diagrams` of
    each (the CPU time is the steadier figure on a shared machine)."""
    out = []
    for (language, kind), make in KINDS.items():
        rng = random.Random(seed)
        corpus = [make(rng) for _ in range(diagrams)]
        read(corpus[0], language)  # import the reader outside the timing
        start, cpu = time.perf_counter(), time.process_time()
        for text in corpus:
            read(text, language)
        out.append((language, kind, len(corpus), sum(t.count("\n") for t in corpus),
                    time.perf_counter() - start, time.process_time() - cpu))
    return out


def print_graph_rates(diagrams: int = 500, seed: int = 0) -> None:
    print(f"\ngraph readers ({diagrams} generated diagrams per kind, one core):")
    print(f"{'language/kind':24}{'seconds':>10}{'diagrams/s':>14}{'lines/s':>14}"
          f"{'CPU diagrams/s':>16}")
    for language, kind, n, lines, seconds, cpu in graph_rates(diagrams, seed):
        print(f"{language + '/' + kind:24}{seconds:>10.3f}{n / seconds:>14,.0f}"
              f"{lines / seconds:>14,.0f}{n / cpu:>16,.0f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--diagrams", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print_graph_rates(args.diagrams, args.seed)


if __name__ == "__main__":
    main()
