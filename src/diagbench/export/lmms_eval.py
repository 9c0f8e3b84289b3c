"""An exported dataset as an lmms-eval task:

    DIR/lmms_eval/diagbench_NAME.yaml   the task: the Parquet shards of DIR/data (by
                                        absolute path), split `test`, generate_until with
                                        diagbench's generation defaults, the row metric
                                        averaged
    DIR/lmms_eval/utils.py              its functions, each a call into
                                        `diagbench.export.harness`: the image, the prompt
                                        (and system prompt) diagbench sends, the gold text,
                                        and the benchmark's own scorer

`lmms-eval --tasks diagbench_NAME --include_path DIR/lmms_eval …` runs it in an
environment where diagbench is installed.
"""

from __future__ import annotations

from pathlib import Path

from diagbench import __version__
from diagbench.export.hf import SPLIT

UTILS = '''"""lmms-eval functions of the task {task} (diagbench {name}), written by `diagbench
export --format lmms-eval`: every one calls diagbench, which scores as `diagbench eval
{name}` does."""

from diagbench.export import harness

BENCHMARK = {name!r}
METRIC = {metric!r}


def doc_to_visual(doc):
    return [harness.image(BENCHMARK, doc)]


def doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return harness.ask(BENCHMARK, doc).prompt


def doc_to_messages(doc, lmms_eval_specific_kwargs=None):
    """The image, then the prompt, after diagbench's system prompt (if any)."""
    ask = harness.ask(BENCHMARK, doc)
    system = [{{"role": "system", "content": [{{"type": "text", "text": ask.system}}]}}]
    user = {{"role": "user", "content": [{{"type": "image", "url": doc_to_visual(doc)[0]}},
                                       {{"type": "text", "text": ask.prompt}}]}}
    return (system if ask.system else []) + [user]


def doc_to_target(doc):
    return harness.ask(BENCHMARK, doc).target


def process_results(doc, results):
    score = harness.score(BENCHMARK, doc, results[0])
    value = float("nan") if score.value is None else score.value
    return {{METRIC: value}}
'''


def task_name(name: str) -> str:
    """The lmms-eval task name of benchmark `name`."""
    return "diagbench_" + name.replace("-", "_")


def write_lmms_eval(name: str, dataset: Path) -> list[Path]:
    """Write the task files of benchmark `name` beside the dataset `export_hf` wrote in
    `dataset`; return their paths."""
    from diagbench.export.harness import row_metric
    from diagbench.models.request import GenerationConfig

    metric = row_metric(name)
    config = GenerationConfig()
    task = task_name(name)
    shards = (dataset / "data").resolve() / f"{SPLIT}-*.parquet"
    yaml_text = (
        f"# lmms-eval task for diagbench {name}, written by diagbench {__version__} "
        "(`diagbench export --format lmms-eval`).\n"
        f"task: {task}\n"
        "dataset_path: parquet\n"
        f"dataset_kwargs:\n  data_files:\n    {SPLIT}: {_quote(str(shards))}\n"
        f"test_split: {SPLIT}\n"
        "output_type: generate_until\n"
        "doc_to_visual: !function utils.doc_to_visual\n"
        "doc_to_text: !function utils.doc_to_text\n"
        "doc_to_messages: !function utils.doc_to_messages\n"
        "doc_to_target: !function utils.doc_to_target\n"
        "process_results: !function utils.process_results\n"
        f"generation_kwargs:\n  max_new_tokens: {config.max_tokens}\n"
        f"  temperature: {config.temperature}\n  do_sample: false\n"
        f"metric_list:\n  - metric: {metric.name}\n    aggregation: mean\n"
        f"    higher_is_better: {str(metric.higher_is_better).lower()}\n"
        f"metadata:\n  version: 1.0\n  diagbench: {_quote(__version__)}\n"
        f"# {metric.name}: {metric.description}\n")
    folder = dataset / "lmms_eval"
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{task}.yaml", folder / "utils.py"]
    paths[0].write_text(yaml_text, encoding="utf-8")
    paths[1].write_text(UTILS.format(task=task, name=name, metric=metric.name),
                        encoding="utf-8")
    return paths


def _quote(text: str) -> str:
    """`text` as a double-quoted YAML scalar."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
