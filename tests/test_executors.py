"""The executors: `--executor ray` gives the same outputs as the local executor —
rendered images (sha256, errors and their lines), a seeded prior-bias build (every
file), offline structure and archqa builds (data files and images), re-scored runs
(scores.jsonl, summary.json) — on one Ray instance started here;
a missing Ray is a usage error; `--help` imports no Ray."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from diagbench.cli import cli
from diagbench.executors.local import LocalExecutor

REPO = Path(__file__).resolve().parents[1]
CALLFLOWS = REPO / "examples" / "callflows" / "gold"
BROKEN = "@startuml\nAlice -> Bob: hi\nthis is not plantuml\n@enduml\n"

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster():
    """One local Ray instance for the module (the CLI joins the one this process started)."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _diagbench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diagbench", *args], capture_output=True,
                          text=True, timeout=600, check=False)


def _in_process(*args: str) -> tuple[int, str]:
    done = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return done.exit_code, done.output


def _files(root: Path) -> dict[str, str]:
    """Every file under `root` by relative path: its sha256."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("make", [LocalExecutor, "ray"])
def test_map_keeps_the_order_and_reports_each_item(cluster, make):
    from diagbench.executors.registry import open_executor

    executor = open_executor("ray") if make == "ray" else make()
    ticks: list[int] = []
    try:
        out = executor.map(lambda x: x * x, [3, 1, 2, 7], lambda: ticks.append(1))
    finally:
        executor.close()
    assert out == [9, 1, 4, 49]
    assert len(ticks) == 4


def test_engines_asked_for_from_two_threads_share_one_pool(cluster):
    """As `build archqa` asks (image and SVG at once): a second pool of actors would
    wait forever for the CPUs the first one holds."""
    import threading

    from diagbench.executors.registry import open_executor

    executor = open_executor("ray")
    start = threading.Barrier(4)
    pools: list[list] = []

    def ask(name: str) -> None:
        start.wait()
        pools.append(executor.engine(name, 2, 20.0).actors)

    threads = [threading.Thread(target=ask, args=(n,))
               for n in ("plantuml", "graphviz", "plantuml", "mermaid")]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        executor.close()
    assert len(pools) == 4 and all(pool is pools[0] for pool in pools)
    assert len(pools[0]) == 2


def test_render_under_ray_gives_the_same_images_and_errors(cluster, tmp_path):
    src = tmp_path / "src"
    shutil.copytree(CALLFLOWS, src)
    (src / "zz_broken.puml").write_text(BROKEN, encoding="utf-8")
    (src / "graph.dot").write_text("digraph G { a -> b; b -> c; a -> c; }\n", encoding="utf-8")
    local = _diagbench("render", str(src), "--out", str(tmp_path / "local"), "--json",
                       str(tmp_path / "local.json"))
    assert local.returncode == 1, local.stderr  # the broken diagram is invalid
    code, output = _in_process("render", str(src), "--out", str(tmp_path / "ray"), "--json",
                               str(tmp_path / "ray.json"), "--executor", "ray")
    assert code == 1, output
    images = _files(tmp_path / "ray")
    assert len([p for p in images if p.endswith(".png")]) == 13  # two engines, one pool
    assert images == _files(tmp_path / "local")

    def facts(path: Path) -> list[tuple]:
        return [(Path(r["file"]).name, r["block"], r["ok"], r["width"], r["height"],
                 r["sha256"], r["error"], r["error_line"])
                for r in json.loads(path.read_text())]

    by_ray = facts(tmp_path / "ray.json")
    assert by_ray == facts(tmp_path / "local.json")
    assert by_ray[-1][0] == "zz_broken.puml" and by_ray[-1][2] is False
    assert by_ray[-1][7] == 3  # PlantUML's error line, carried back from the actor


@pytest.fixture(scope="module")
def built(cluster, tmp_path_factory) -> Path:
    """A small seeded prior-bias build by the local executor, and the same under Ray."""
    root = tmp_path_factory.mktemp("pb")
    args = ("build", "prior-bias", "--per-cell", "2", "--seed", "3", "--scale", "1",
            "--scale", "1.5")
    done = _diagbench(*args, "--out", str(root / "local"))
    assert done.returncode == 0, done.stderr
    code, output = _in_process(*args, "--out", str(root / "ray"), "--executor", "ray")
    assert code == 0, output
    return root


def test_prior_bias_build_under_ray_writes_the_same_files(built):
    files = _files(built / "ray")
    assert len([p for p in files if p.startswith("images/")]) >= 2 * 19
    assert "manifest.jsonl" in files and "build.json" in files
    assert files == _files(built / "local")


def test_score_under_ray_writes_the_same_scores_and_summary(built, tmp_path):
    run = tmp_path / "run"
    done = _diagbench("eval", "prior-bias", "--data", str(built / "local"), "--limit", "6",
                      "--scale", "1x", "--model", "baseline:prior", "--model",
                      "baseline:vision-uml", "--out", str(run))
    assert done.returncode == 0, done.stderr
    local = {name: (run / name).read_bytes() for name in ("scores.jsonl", "summary.json")}
    models = [json.loads(line)["model"] for line in local["scores.jsonl"].splitlines()]
    assert models == ["baseline:prior"] * 6 + ["baseline:vision-uml"] * 6
    for name in local:
        (run / name).unlink()
    code, output = _in_process("score", "prior-bias", str(run), "--executor", "ray")
    assert code == 0, output
    assert {name: (run / name).read_bytes() for name in local} == local


def test_eval_under_ray_scores_as_local(built, tmp_path):
    args = ("eval", "prior-bias", "--data", str(built / "local"), "--limit", "4", "--scale",
            "1x", "--model", "baseline:prior", "--model", "baseline:vision-uml")
    done = _diagbench(*args, "--out", str(tmp_path / "local"))
    assert done.returncode == 0, done.stderr
    code, output = _in_process(*args, "--out", str(tmp_path / "ray"), "--executor", "ray")
    assert code == 0, output
    for name in ("scores.jsonl", "summary.json"):
        ours = (tmp_path / "ray" / name).read_bytes()
        assert b"baseline:vision-uml" in ours
        assert ours == (tmp_path / "local" / name).read_bytes()
    manifest = json.loads((tmp_path / "ray" / "manifest.json").read_text())
    assert "executor" not in manifest["options"]  # where it ran is not part of the run


def test_structure_build_under_ray_writes_the_same_data_and_images(cluster, tmp_path):
    args = ("build", "structure", "--model", "baseline:synth", "--per-category", "1",
            "--categories", "class,flowchart", "--languages", "plantuml,dot")
    done = _diagbench(*args, "--out", str(tmp_path / "local"))
    assert done.returncode == 0, done.stderr
    code, output = _in_process(*args, "--out", str(tmp_path / "ray"), "--executor", "ray")
    assert code == 0, output
    ray_files, local_files = _files(tmp_path / "ray"), _files(tmp_path / "local")
    images = sorted(p for p in ray_files if p.startswith("images/"))
    assert images == ["images/class-plantuml-000.png", "images/flowchart-dot-000.png"]
    for name in [*images, "samples.jsonl", "tasks.jsonl", "build.json"]:
        assert ray_files[name] == local_files[name], name


def test_archqa_build_under_ray_writes_the_same_files(cluster, tmp_path):
    src = tmp_path / "src"  # one diagram per engine: PlantUML (C4 too), DOT, Mermaid, DBML
    src.mkdir()
    for name in ("banking_c4.puml", "library_classes.puml", "build_system.dot",
                 "checkout_flowchart.mmd", "blog_schema.dbml"):
        shutil.copy(REPO / "examples" / "archqa" / name, src)
    args = ("build", "archqa", "--from", str(src))
    done = _diagbench(*args, "--out", str(tmp_path / "local"))
    assert done.returncode == 0, done.stderr
    code, output = _in_process(*args, "--out", str(tmp_path / "ray"), "--executor", "ray")
    assert code == 0, output
    files = _files(tmp_path / "ray")
    assert len([p for p in files if p.startswith("images/")]) == 5
    assert files == _files(tmp_path / "local")


def test_ray_asked_but_not_installed_is_a_usage_error(tmp_path):
    code = ("import sys\nsys.modules['ray'] = None\nfrom diagbench.cli import main\n"
            f"sys.argv = ['diagbench', 'render', {str(CALLFLOWS)!r}, '--out', "
            f"{str(tmp_path / 'out')!r}, '--executor', 'ray']\nmain()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 2
    assert "pip install 'diagbench[ray]'" in done.stderr
    assert not (tmp_path / "out").exists()


def test_ray_address_without_the_ray_executor_is_a_usage_error(tmp_path):
    done = _diagbench("render", str(CALLFLOWS), "--out", str(tmp_path / "out"),
                      "--ray-address", "auto")
    assert done.returncode == 2
    assert "--ray-address applies to --executor ray only" in done.stderr


@pytest.mark.parametrize(("address", "reason"), [("127.0.0.1:1", "Connection refused"),
                                                  ("nowhere", "is not HOST:PORT")])
def test_an_unreachable_ray_address_is_a_usage_error(tmp_path, address, reason):
    done = _diagbench("render", str(CALLFLOWS), "--out", str(tmp_path / "out"), "--executor",
                      "ray", "--ray-address", address)
    assert done.returncode == 2
    assert f"cannot start or join the Ray cluster at {address}" in done.stderr
    assert reason in done.stderr


@pytest.mark.parametrize("args", [["render", "--help"], ["build", "prior-bias", "--help"],
                                  ["eval", "prior-bias", "--help"],
                                  ["score", "prior-bias", "--help"]])
def test_help_imports_no_ray(args):
    code = (f"import sys\nfrom diagbench.cli import cli\ntry:\n    cli.main({args!r})\n"
            "except SystemExit:\n    pass\nprint('RAY', 'ray' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True, env=dict(os.environ))
    assert "--executor" in done.stdout
    assert done.stdout.splitlines()[-1] == "RAY False"
