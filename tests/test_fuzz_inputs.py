"""Hostile input files, checked continuously (issue 32, item 6): the files a command
reads — a requests file (`run`), response logs (`score archqa --responses`), SADU's
published folder (`import sadu`) — mutated
by a seeded generator (lines cut short, values of the wrong type, keys dropped, lines
that are not JSON or not objects, blank and doubled lines, a byte-order mark) give a
clear error naming the file and line with exit 3, or are read; never a traceback.
Where a command reads several files, the others are still read: nothing already
computed is lost.

Bounded by `tests/sizes.py`; the seed is fixed, so a red run repeats."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from diagbench.cli import cli
from tests.fake_providers import FakeServer
from tests.sadu_fixture import write_sadu
from tests.sizes import sized

MUTATIONS = sized(12, 120)
WRONG = [None, 7, -1, 1e308, "", "x" * 300, [], {}, [1, "a"], {"a": None}, True,
         "../../etc/passwd", "\u0000"]
WHERE = re.compile(r"\S+:\d+: \S")


def mutate_jsonl(text: str, rng: random.Random) -> str:
    """One edit of a JSON-lines text: a line cut short, a value of the wrong type, a key
    dropped, a line that is not JSON or not an object, a blank or doubled line, a BOM."""
    lines = text.splitlines() or [""]
    k = rng.randrange(len(lines))
    edit = rng.randrange(8)
    try:
        row = json.loads(lines[k])
    except json.JSONDecodeError:
        row = None
    if edit == 0:
        lines[k] = lines[k][:rng.randrange(len(lines[k]) + 1)]
    elif edit in (1, 2) and isinstance(row, dict) and row:
        key = rng.choice(sorted(row))
        if edit == 1:
            row[key] = rng.choice(WRONG)
        else:
            del row[key]
        lines[k] = json.dumps(row)
    elif edit == 3:
        lines[k] = rng.choice(["not json", "[1, 2]", '"a string"', "42", "null", "{"])
    elif edit == 4:
        lines.insert(k, "")
    elif edit == 5:
        lines.insert(k, lines[k])
    elif edit == 6:
        lines[0] = "\ufeff" + lines[0]
    else:
        lines[k] = json.dumps(rng.choice(WRONG))
    return "\n".join(lines) + "\n"


def mutate_json(text: str, rng: random.Random) -> str:
    """One edit of a JSON document: cut short, or a value somewhere of the wrong type."""
    data = json.loads(text)
    if rng.random() < 0.3:
        return text[:rng.randrange(len(text))]
    holder, key = _somewhere(data, rng)
    if holder is None:
        return json.dumps(rng.choice(WRONG))
    if rng.random() < 0.5 and isinstance(holder, dict):
        del holder[key]
    else:
        holder[key] = rng.choice(WRONG)
    return json.dumps(data)


def _somewhere(data: object, rng: random.Random) -> tuple[object, object]:
    """A random (container, key) inside `data`, or (None, None) for a scalar."""
    found: list[tuple[object, object]] = []

    def walk(node: object) -> None:
        items = (node.items() if isinstance(node, dict)
                 else enumerate(node) if isinstance(node, list) else ())
        for key, value in items:
            found.append((node, key))
            walk(value)
    walk(data)
    return rng.choice(found) if found else (None, None)


def _clear(result: Result, what: str, lined: bool = True) -> None:
    """The command ended by itself: read (0, 1) or refused (3) naming the file and, for
    a file of lines (`lined`), the line."""
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        what, result.exception, result.output)
    assert result.exit_code in (0, 1, 3), (what, result.exit_code, result.output)
    assert "Traceback" not in result.output and "internal error" not in result.output
    if result.exit_code == 3 and lined:
        assert WHERE.search(result.stderr), (what, result.stderr)


@pytest.mark.differential
def test_run_refuses_a_broken_requests_file_by_line_before_any_call(tmp_path, monkeypatch):
    from PIL import Image
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fuzz")
    monkeypatch.setenv("DIAGBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    monkeypatch.chdir(tmp_path)
    Image.new("RGB", (20, 20), "white").save(tmp_path / "img.png")
    good = "".join(json.dumps({"id": f"r{k}", "prompt": f"q{k}", "images": ["img.png"]}) + "\n"
                   for k in range(4))
    rng = random.Random("fuzz:run")
    refused = 0
    with FakeServer() as server:
        for n in range(MUTATIONS):
            path = tmp_path / f"requests{n}.jsonl"
            path.write_text(mutate_jsonl(good, rng), encoding="utf-8")
            calls = len(server.requests)
            result = CliRunner().invoke(cli, [
                "--quiet", "run", str(path), "--model", f"openai:gpt-4o@{server.base_url}",
                "--out", str(tmp_path / f"run{n}"), "--no-cache"])
            _clear(result, path.read_text())
            if result.exit_code == 3:
                refused += 1
                assert len(server.requests) == calls  # refused before any call
    assert refused  # the mutations do break files


@pytest.fixture(scope="module")
def sadu(tmp_path_factory) -> tuple[Path, Path]:
    """The SADU-shaped fixture and its import."""
    root = write_sadu(tmp_path_factory.mktemp("sadu"))
    data = tmp_path_factory.mktemp("data")
    done = CliRunner().invoke(cli, ["import", "sadu", str(root / "dataset" / "SAD"),
                                    "--out", str(data)])
    assert done.exit_code == 0, done.output
    return root, data


@pytest.mark.differential
def test_score_archqa_reads_the_good_logs_beside_a_broken_one(sadu, tmp_path):
    root, data = sadu
    logs = sorted((root / "experiment_result" / "response_result" / "default").glob("*.log"))
    rng = random.Random("fuzz:archqa-logs")
    for n in range(MUTATIONS):
        broken = tmp_path / f"{n}" / logs[0].name
        broken.parent.mkdir()
        broken.write_text(mutate_jsonl(logs[0].read_text(encoding="utf-8"), rng),
                          encoding="utf-8")
        run = tmp_path / f"run{n}"
        result = CliRunner().invoke(cli, ["--quiet", "score", "archqa", "--data", str(data),
                                          "--responses", str(broken), str(logs[1]),
                                          "--out", str(run)])
        _clear(result, broken.read_text())
        summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
        assert logs[1].stem in json.dumps(summary)  # the good log is still scored


@pytest.mark.differential
def test_import_sadu_names_the_broken_file_and_imports_the_rest(sadu, tmp_path):
    root, _ = sadu
    files = sorted((root / "dataset" / "SAD").rglob("*.json"))
    rng = random.Random("fuzz:sadu-import")
    for n in range(MUTATIONS):
        copy = tmp_path / f"{n}"
        for path in (root / "dataset" / "SAD").rglob("*"):
            target = copy / path.relative_to(root / "dataset" / "SAD")
            if path.is_dir():
                target.mkdir(parents=True, exist_ok=True)
            else:
                target.write_bytes(path.read_bytes())
        victim = copy / rng.choice(files).relative_to(root / "dataset" / "SAD")
        victim.write_text(mutate_json(victim.read_text(encoding="utf-8"), rng),
                          encoding="utf-8")
        out = tmp_path / f"data{n}"
        result = CliRunner().invoke(cli, ["--quiet", "import", "sadu", str(copy),
                                          "--out", str(out)])
        _clear(result, victim.read_text(), lined=False)  # one JSON document: no lines
        if result.exit_code == 3:
            assert victim.name in result.stderr
        rows = (out / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        assert rows  # the other diagrams' questions are imported


#: Per benchmark: how a small data set is made (the SADU-shaped import for archqa), the
#: JSON-lines files of it a run reads, and the offline model that answers.
DATA_SETS = {
    "archqa": (None, ("questions.jsonl", "annotations.jsonl"), "baseline:blind"),
    "prior-bias": (("build", "prior-bias", "--per-cell", "1", "--scale", "1"),
                   ("manifest.jsonl",), "baseline:prior"),
    "structure": (("build", "structure", "--model", "baseline:synth", "--per-category", "1",
                   "--categories", "class"), ("samples.jsonl", "tasks.jsonl"),
                  "baseline:synth"),
}


@pytest.mark.differential
@pytest.mark.parametrize("name", DATA_SETS)
def test_eval_refuses_a_broken_data_set_by_file_and_line(name, sadu, tmp_path, monkeypatch):
    import shutil

    monkeypatch.setenv("DIAGBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    build, files, model = DATA_SETS[name]
    good = sadu[1] if build is None else tmp_path / "good"
    if build is not None:
        done = CliRunner().invoke(cli, ["--quiet", *build, "--out", str(good)])
        assert done.exit_code == 0, done.output
    rng = random.Random(f"fuzz:data:{name}")
    for n in range(sized(4, 40)):
        data = tmp_path / f"data{n}"
        shutil.copytree(good, data)
        victim = data / files[n % len(files)]
        victim.write_text(mutate_jsonl(victim.read_text(encoding="utf-8"), rng),
                          encoding="utf-8")
        result = CliRunner().invoke(cli, ["--quiet", "eval", name, "--data", str(data),
                                          "--model", model, "--out", str(tmp_path / f"r{n}")])
        _clear(result, victim.read_text(encoding="utf-8"))
