"""Paper 002 at its size: `build prior-bias --paper-sizes --plan` fills Table 1 (bounded:
Table 1 divided by 20 from the curated vocabulary; full, DIAGBENCH_TEST_SIZE=full: the real
command with WordNet), one query per base instance, matched groups whole; `--queries both`
keeps the two-query design; eval's `--limit` samples every cell evenly."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from diagbench.benchmarks.prior_bias.generate import (
    CONDITIONS,
    PAPER_SIZES,
    generate,
    uniform,
)
from diagbench.benchmarks.prior_bias.records import Item
from diagbench.benchmarks.prior_bias.scoring import stratified
from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS, load_vocabulary
from tests.cli import run_cli
from tests.sizes import FULL, sized

#: Table 1 of paper 002, copied from its Appendix D by hand.
TABLE_1 = {"prior-free": (338, 373, 1044, 1401), "prior-conform": (1200, 1200, 1300, 2300),
           "2-reverse": (1200, 1200, 1300, 2300), "3-reverse": (1200, 1200, 1300, 2300),
           "3-mixed": (1200, 1200, 1300, 2300)}


def _rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]


def test_paper_sizes_are_table_1():
    assert {c: tuple(PAPER_SIZES[c][r] for r in RELATIONS) for c in CONDITIONS} == TABLE_1


def test_plan_reaches_table_1_with_one_query_per_diagram(tmp_path):
    divisor = sized(20, 1)
    out = tmp_path / "plan"
    if FULL:  # the command as a user runs it (WordNet, Table 1 itself)
        done = run_cli("build", "prior-bias", "--paper-sizes", "--plan", "--out", str(out))
        assert done.returncode == 0, done.stderr
        assert "27156 instances, 27156 diagrams (planned, not rendered)" in done.stdout
    else:  # Table 1 / 20 from the curated vocabulary
        sizes = {c: {r: n // divisor for r, n in row.items()} for c, row in PAPER_SIZES.items()}
        from diagbench.benchmarks.prior_bias.build import build_benchmark
        build_benchmark(out, load_vocabulary(), sizes, 0, None)
    info = json.loads((out / "build.json").read_text())
    rows = _rows(out)
    assert info["planned_only"] is True and not (out / "images").exists()
    assert all(r["images"] == {} for r in rows)
    cells = Counter((r["condition"], r["relation"]) for r in rows)
    for condition, sizes_row in TABLE_1.items():
        for relation, printed in zip(RELATIONS, sizes_row, strict=True):
            wanted = printed // divisor
            got = info["cells"][condition][relation]
            assert got == cells[condition, relation]
            if condition == "prior-free":  # what deduplication leaves, at most the printed size
                assert 0.9 * wanted <= got <= wanted, (condition, relation, got)
            else:
                assert got == wanted, (condition, relation, got)
            labels = Counter(r["gold"] for r in rows
                             if (r["condition"], r["relation"]) == (condition, relation))
            # named cells alternate the query's direction; prior-free keeps what deduplication
            # leaves of them, then of the other direction
            slack = max(2, got // 10) if condition == "prior-free" else 1
            assert abs(labels[True] - labels[False]) <= slack, (condition, relation, labels)
    by_diagram = Counter(r["diagram"] for r in rows)
    assert set(by_diagram.values()) == {1}  # one base instance = one diagram, one query
    assert info["diagrams"] == len(by_diagram) == info["instances"] == len(rows)
    assert (out / "diagrams").is_dir() and len(list((out / "diagrams").iterdir())) == len(rows)
    ids = {r["id"]: r for r in rows}
    for row in rows:  # matched groups whole, pointing both ways, same query
        if row["condition"] in ("prior-conform", "2-reverse", "3-reverse", "3-mixed"):
            other = ids[row["matched"]]
            assert other["matched"] == row["id"] and other["query"] == row["query"]
        elif row["matched"]:
            assert ids[row["matched"]]["condition"] == "prior-conform"
    assert all(key.split(": ")[0] in (*CONDITIONS, "vocabulary") for key in info["rejected"])


def test_both_queries_keeps_the_two_query_design_and_groups_whole():
    build = generate(load_vocabulary(), uniform(6), 0, "both")
    per_diagram = Counter((i.condition, i.diagram) for i in build.instances)
    assert {c: {n for (cc, _), n in per_diagram.items() if cc == c} for c in CONDITIONS} == {
        "prior-free": {2}, "prior-conform": {2}, "2-reverse": {2}, "3-reverse": {4},
        "3-mixed": {2}}
    cells = Counter((i.condition, i.relation) for i in build.instances)
    for relation in RELATIONS:  # 3-reverse fills first (4 per diagram): 3-mixed has half
        assert cells["3-reverse", relation] == 4 and cells["3-mixed", relation] == 2
        assert cells["prior-conform", relation] == cells["2-reverse", relation] == 6
    ids = {i.id for i in build.instances}
    assert all(i.matched in ids for i in build.instances if i.condition == "3-mixed")


def _item(ident: str, condition: str, relation: str) -> Item:
    return Item(ident, ident, relation, condition, ("A", "B"), ("A", "B"), True)


def test_limit_samples_every_cell_evenly_in_manifest_order():
    items = ([_item(f"a{k}", "prior-conform", "aggregation") for k in range(10)]
             + [_item(f"b{k}", "2-reverse", "aggregation") for k in range(5)]
             + [_item("c0", "3-mixed", "inheritance")])
    picked = stratified(items, 7, seed=1)
    # cells in sorted order b ("2-reverse"), c ("3-mixed"), a ("prior-conform"): turn 1
    # takes b, c, a (3); turn 2 b, a (c is empty: 5); turn 3 b, a (7)
    assert Counter(i.id[0] for i in picked) == {"a": 3, "b": 3, "c": 1}
    assert [i.id for i in picked] == sorted((i.id for i in picked), key=[x.id for x in items]
                                            .index)
    assert stratified(items, 7, seed=1) == picked
    assert {i.id for i in stratified(items, 7, seed=2)} != {i.id for i in picked}
    assert stratified(items, 100) == items


def test_eval_refuses_a_planned_build(tmp_path):
    out = tmp_path / "plan"
    assert run_cli("build", "prior-bias", "--per-cell", "2", "--plan", "--out",
                   str(out)).returncode == 0
    done = run_cli("eval", "prior-bias", "--data", str(out), "--model", "baseline:prior", "--out",
                   str(tmp_path / "run"))
    assert done.returncode == 3 and "planned only, no images" in done.stderr
