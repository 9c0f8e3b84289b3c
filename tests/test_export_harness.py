"""`diagbench export --format inspect` and `--format lmms-eval`: the tasks ask what
`diagbench eval` asks and score as it scores.

Each harness runs for real, in its own environment (`.venv-harness`, made on first use
from `locks/harness.txt`: torch's CPU wheel, inspect_ai, lmms-eval and all they need at
locked versions, then diagbench itself, editable), against the fake OpenAI-compatible
server on 127.0.0.1, and the score of every sample is compared with the one `diagbench
eval` gives for the same answer from the same server. Those tests are skipped only when
the registry cannot be reached (the reason is shown); an environment that installs but
cannot import fails with the import error. The first test needs no harness: every
benchmark's `score_row` against its own `eval`.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from diagbench.export import harness
from tests.fake_providers import FakeServer

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv-harness"
LOCK = ROOT / "locks" / "harness.txt"
#: What the harness environment holds: exactly the lock (torch's CPU wheel, the harnesses
#: and everything they need; PyPI's torchvision, a CUDA build that cannot load beside that
#: wheel and that lmms-eval's OpenAI-compatible model does not use, is left out of it), then
#: diagbench, editable, built by the locked setuptools.
INSTALL = (("install", "--require-hashes", "--no-deps", "-r", str(LOCK)),
           ("install", "--no-deps", "--no-build-isolation", "-e", str(ROOT)))
OFFLINE = ("NewConnectionError", "Max retries exceeded", "Temporary failure in name "
           "resolution", "Network is unreachable", "Could not fetch URL",
           "No matching distribution found")


def _install_failure(step: list[str], stderr: str) -> tuple[bool, str]:
    """(whether the registry could not be reached, the reason) of a failed install step."""
    last = (stderr.strip().splitlines() or ["failed"])[-1]
    if any(mark in stderr for mark in OFFLINE):
        return True, f"registry unreachable, {VENV.name} not installed: {last}"
    return False, f"making {VENV.name}: {' '.join(step[3:])}: {last}"


def test_install_without_registry_is_a_skip_and_a_bad_lock_a_failure(tmp_path: Path):
    """Real pip against a closed port (no registry): the reason to skip. A lock whose
    hash does not match what the registry serves: a failure, not a skip."""
    step = [sys.executable, "-m", "pip", "download", "--no-deps", "--retries", "0",
            "--timeout", "2", "--index-url", "http://127.0.0.1:9/simple", "--dest",
            str(tmp_path), "filelock==4.2.12"]
    done = subprocess.run(step, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PIP_CONFIG_FILE": os.devnull})
    assert done.returncode != 0
    offline, reason = _install_failure(step, done.stderr)
    assert offline, done.stderr
    assert reason.startswith("registry unreachable") and "filelock" in reason
    mismatch = ("ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.\n"
                "    filelock==4.2.12 from https://files.example/filelock.whl:\n"
                "        Expected sha256 00\n             Got        ff\n")
    assert _install_failure(list(INSTALL[0]), mismatch)[0] is False


def _diagbench(*args: str | Path, env: dict[str, str] | None = None) -> None:
    done = subprocess.run([sys.executable, "-m", "diagbench", *map(str, args)],
                          capture_output=True, text=True, timeout=900, env=env)
    assert done.returncode == 0, done.stderr + done.stdout


@pytest.fixture(scope="session")
def harness_python() -> Path:
    """The Python of `.venv-harness`, installed when missing or when the lock or
    pyproject.toml changed since (skip: the registry unreachable)."""
    python = VENV / "bin" / "python"
    check = [str(python), "-c", "import inspect_ai, diagbench\n"
             "from lmms_eval.evaluator import simple_evaluate"]
    stamp = VENV / "diagbench-harness.sha256"
    wanted = hashlib.sha256(repr(INSTALL).encode() + LOCK.read_bytes() +
                            (ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if python.exists() and stamp.is_file() and stamp.read_text() == wanted and \
            subprocess.run(check, capture_output=True).returncode == 0:
        return python
    start = time.perf_counter()
    # made once; a changed lock installs only what changed (pip keeps the rest)
    steps = [] if python.exists() else [[sys.executable, "-m", "venv", str(VENV)]]
    steps += [[str(python), "-m", "pip", "-q", *args] for args in INSTALL]
    for step in steps:
        # a second try: pip once crashed mid-download here (a TypeError of its own, seen
        # in a CI run), and the same install passed when run again
        for _ in range(2):
            done = subprocess.run(step, capture_output=True, text=True, timeout=3600)
            if done.returncode == 0:
                break
        if done.returncode:
            offline, reason = _install_failure(step, done.stderr)
            (pytest.skip if offline else pytest.fail)(reason)
    done = subprocess.run(check, capture_output=True, text=True)
    if done.returncode:
        pytest.fail(f"{VENV.name} installed but unusable: {done.stderr.strip()[-2000:]}")
    stamp.write_text(wanted)
    print(f"\n{VENV.name} installed in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return python


def _eval_scores(name: str, data: Path, run: Path, server: FakeServer,
                 env: dict[str, str]) -> dict[str, float | None]:
    """`diagbench eval NAME` against the fake server: the per-row value of each of its
    score records (as its scores.jsonl has it), by Ask id."""
    source = "--gold" if name == "conversion" else "--data"
    _diagbench("eval", name, source, data, "--model", f"openai:vlm@{server.base_url}",
               "--out", run, env=env)
    out: dict[str, float | None] = {}
    for line in (run / "scores.jsonl").read_text().splitlines():
        r = json.loads(line)
        if name == "conversion":  # one record per method and file
            if r["method"] == "semantic":
                out[Path(r["gold"]).stem] = r["total"]["rate"]
        elif name == "prior-bias":
            out[f"{r['id']}@{r['scale']}"] = float(r["correct"])
        elif name == "structure" and r["task"] == "image_to_code":
            out[r["id"]] = r["score"]
        else:
            out[r["id"]] = float(r["correct"])
    return out


def _env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "OPENAI_API_KEY": "k", "DIAGBENCH_CACHE": str(tmp / "cache.sqlite")}


def _prior_bias_reply(prompt: str) -> str:
    """No class names; True or False by the parity of the question's characters."""
    if "List all class names" in prompt:
        return "[]"
    return "True" if sum(map(ord, prompt)) % 2 else "False"


def _archqa_reply(prompt: str) -> str:
    """3 to every count, nothing found otherwise: right on the few counts of 3."""
    answer = 3 if "must be a number" in prompt else ["nothing"]
    return f"[start]\n{json.dumps({'answer': answer})}\n[end]"


def _structure_reply(prompt: str) -> str:
    """2 to every count, no to every match, a one-class diagram as code."""
    if "Write the PlantUML code" in prompt:
        return "```plantuml\n@startuml\nclass Teacher\nclass Course\nTeacher --> Course\n" \
               "@enduml\n```"
    return "2" if "How many" in prompt else "no"


def _conversion_reply(prompt: str) -> str:
    """The same short script for every image."""
    return "```plantuml\n@startuml\nparticipant UE\nparticipant AMF\n" \
           "UE -> AMF: Registration Request\n@enduml\n```"


@pytest.fixture(scope="module")
def prior_bias(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("pb") / "data"
    _diagbench("build", "prior-bias", "--out", data, "--per-cell", "1", "--scale", "1")
    return data


@pytest.fixture(scope="module")
def archqa(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("aq") / "data"
    _diagbench("build", "archqa", "--from", ROOT / "examples" / "archqa" / "build_system.dot",
               "--out", data)
    return data


@pytest.fixture(scope="module")
def structure(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("st") / "data"
    _diagbench("build", "structure", "--model", "baseline:synth", "--categories", "class",
               "--languages", "plantuml", "--per-category", "1", "--out", data)
    return data


@pytest.fixture(scope="module")
def conversion(tmp_path_factory: pytest.TempPathFactory) -> Path:
    gold = tmp_path_factory.mktemp("cv") / "gold"
    gold.mkdir()
    for name in ("deregistration", "5g_aka"):
        shutil.copy(ROOT / "examples" / "callflows" / "gold" / f"{name}.puml", gold)
    return gold


@pytest.mark.parametrize(("name", "reply"), [("prior-bias", _prior_bias_reply),
                                             ("archqa", _archqa_reply),
                                             ("structure", _structure_reply),
                                             ("conversion", _conversion_reply)])
def test_score_row_gives_what_eval_gives(name: str, reply: Callable[[str], str],
                                         request: pytest.FixtureRequest, tmp_path: Path):
    """Every exported row, asked by `ask_row` and scored by `score_row`, against eval's
    score record for the same question (same id, same prompt, same answer)."""
    data = request.getfixturevalue(name.replace("-", "_"))
    out = tmp_path / "export"
    _diagbench("export", data, "--format", "inspect", "--out", out)
    with FakeServer(reply=reply) as server:
        scores = _eval_scores(name, data, tmp_path / "run", server, _env(tmp_path))
        sent = {m["content"][-1]["text"] for b in server.requests for m in b["messages"]
                if m["role"] == "user"}
    values = {}
    for doc in harness.rows(out):
        ask = harness.ask(name, doc)
        if ask.id in scores:  # eval's default tasks (structure: not every kind)
            assert ask.prompt in sent  # the prompt eval sent, word for word
            values[ask.id] = harness.score(name, doc, reply(ask.prompt)).value
    assert values == scores
    assert len(set(values.values())) > 1  # answers right and wrong


def test_inspect_task_scores_like_eval(harness_python: Path, prior_bias: Path,
                                       tmp_path: Path):
    """inspect_ai's eval() of the exported task.py: every sample's score is eval's, the
    messages are eval's (system prompt, image, then prompt)."""
    out = tmp_path / "export"
    _diagbench("export", prior_bias, "--format", "inspect", "--out", out)
    env = _env(tmp_path)
    script = ("import json, sys\nfrom inspect_ai import eval\n"
              "log = eval(sys.argv[1], model='openai/vlm', model_base_url=sys.argv[2], "
              "model_args={'responses_api': False}, log_dir=sys.argv[3], display='none')[0]\n"
              "print(json.dumps({'status': log.status, 'scores': {str(s.id): "
              "next(iter(s.scores.values())).value for s in log.samples}}))\n")
    with FakeServer(reply=_prior_bias_reply) as server:
        done = subprocess.run([str(harness_python), "-c", script, "task.py",
                               server.base_url, str(tmp_path / "logs")], cwd=out,
                              capture_output=True, text=True, timeout=900, env=env)
        assert done.returncode == 0, done.stderr[-3000:]
        inspect_bodies = list(server.requests)
        server.requests.clear()
        expected = _eval_scores("prior-bias", prior_bias, tmp_path / "run", server, env)
        eval_bodies = [b for b in server.requests
                       if "List all class names" not in str(b["messages"])]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] == "success"
    assert result["scores"] == expected
    assert set(result["scores"].values()) == {0.0, 1.0}
    assert _messages(inspect_bodies) == _messages(eval_bodies)


def _pixels(url: str) -> str:
    """The image of a data URL as its size and a hash of its RGBA pixels (a harness may
    encode the PNG again)."""
    from PIL import Image

    image = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGBA")
    return f"{image.size} {hashlib.sha256(image.tobytes()).hexdigest()}"


def _messages(bodies: list[dict]) -> list[list[tuple[str, str]]]:
    """Each request's messages as (role, text or image pixels), in order, the requests
    sorted; inspect's OpenAI provider names the system message `developer`."""
    def parts(content: str | list[dict]) -> list[str]:
        if isinstance(content, str):
            return [content]
        return [p["text"] if p["type"] == "text" else _pixels(p["image_url"]["url"])
                for p in content]
    return sorted([({"developer": "system"}.get(m["role"], m["role"]), part)
                   for m in b["messages"] for part in parts(m["content"])] for b in bodies)


def test_lmms_eval_task_scores_like_eval(harness_python: Path, archqa: Path, tmp_path: Path):
    """lmms-eval's simple_evaluate of the exported task with its OpenAI-compatible model:
    every sample's score is eval's, and the mean is the accuracy over the rows."""
    out = tmp_path / "export"
    _diagbench("export", archqa, "--format", "lmms-eval", "--out", out)
    env = _env(tmp_path) | {"HF_DATASETS_CACHE": str(tmp_path / "hf"), "HF_HUB_OFFLINE": "1"}
    script = (
        "import json, sys\n"
        "from lmms_eval.evaluator import simple_evaluate\n"
        "from lmms_eval.tasks import TaskManager\n"
        "tm = TaskManager(include_path=sys.argv[1])\n"
        "r = simple_evaluate(model='openai', model_args='model_version=vlm,base_url=' + "
        "sys.argv[2] + ',api_key=k', tasks=['diagbench_archqa'], task_manager=tm, "
        "log_samples=True, batch_size=1)\n"
        "samples = r['samples']['diagbench_archqa']\n"
        "print(json.dumps({'mean': r['results']['diagbench_archqa']['correct,none'], "
        "'scores': {s['doc']['id']: s['correct'] for s in samples}}))\n")
    with FakeServer(reply=_archqa_reply) as server:
        done = subprocess.run([str(harness_python), "-c", script, str(out / "lmms_eval"),
                               server.base_url], capture_output=True, text=True,
                              timeout=900, env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-3000:]
        lmms_bodies = list(server.requests)
        server.requests.clear()
        expected = _eval_scores("archqa", archqa, tmp_path / "run", server, env)
        eval_bodies = list(server.requests)
    assert _messages(lmms_bodies) == _messages(eval_bodies)  # image, then eval's prompt
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["scores"] == expected
    assert set(result["scores"].values()) == {0.0, 1.0}
    right = sum(1 for value in expected.values() if value == 1.0)
    assert result["mean"] == pytest.approx(right / len(expected))


def test_every_benchmark_writes_both_tasks(tmp_path: Path):
    """The task files for a conversion export (no harness needed to write them): the
    YAML names the shards and the row metric; task.py names the benchmark."""
    gold = tmp_path / "gold"
    gold.mkdir()
    shutil.copy(ROOT / "examples" / "callflows" / "gold" / "deregistration.puml", gold)
    out = tmp_path / "export"
    _diagbench("export", gold, "--format", "lmms-eval", "--out", out)
    _diagbench("export", gold, "--format", "inspect", "--out", out)
    import yaml

    class Loader(yaml.SafeLoader):
        pass
    Loader.add_constructor("!function", lambda loader, node: f"fn:{node.value}")
    task = yaml.load((out / "lmms_eval" / "diagbench_conversion.yaml").read_text(),
                     Loader=Loader)
    assert task["dataset_kwargs"]["data_files"]["test"] == \
        str((out / "data").resolve() / "test-*.parquet")
    assert task["metric_list"] == [{"metric": "total_error_rate", "aggregation": "mean",
                                    "higher_is_better": False}]
    assert task["process_results"] == "fn:utils.process_results"
    assert "BENCHMARK = 'conversion'" in (out / "task.py").read_text()
    doc = next(harness.rows(out))
    script = (gold / "deregistration.puml").read_text()
    assert harness.score("conversion", doc, f"```plantuml\n{script}```").value == 0.0
    # no script: an empty prediction, as `diagbench compare` scores one
    (tmp_path / "empty.puml").write_text("")
    done = subprocess.run([sys.executable, "-m", "diagbench", "compare",
                           gold / "deregistration.puml", tmp_path / "empty.puml", "--json", "-"],
                          capture_output=True, text=True, timeout=300)
    total = json.loads(done.stdout)["files"][0]["total"]
    assert 0 < total["rate"] < 1
    assert harness.score("conversion", doc, "no script").value == total["rate"]
