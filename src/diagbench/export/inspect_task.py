"""An exported dataset as an inspect_ai task:

    DIR/task.py   a `@task` whose samples are the rows of DIR/data (each a user message
                  with the image, then the prompt diagbench sends, after its system
                  prompt; the gold text as target; the row without its image as
                  metadata), `generate()` as solver and a `@scorer` that scores the
                  completion with the benchmark's own scorer (`diagbench.export.harness`)

`inspect eval DIR/task.py --model openai/MODEL` runs it in an environment where diagbench
is installed; the task reads the shards beside it, so DIR can be moved whole.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from diagbench import __version__

TASK = '''"""inspect_ai task for diagbench {name}, written by diagbench {version} (`diagbench
export --format inspect`): the rows of data/ beside this file, scored as `diagbench eval
{name}` scores them.

{about}
"""

from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessageSystem,
    ChatMessageUser,
    ContentImage,
    ContentText,
    GenerateConfig,
)
from inspect_ai.scorer import Score, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState, generate

from diagbench.export import harness

BENCHMARK = {name!r}
HERE = Path(__file__).resolve().parent


def sample(doc):
    ask = harness.ask(BENCHMARK, doc)
    user = ChatMessageUser(content=[ContentImage(image=harness.data_uri(BENCHMARK, doc)),
                                    ContentText(text=ask.prompt)])
    system = [ChatMessageSystem(content=ask.system)] if ask.system else []
    return Sample(input=[*system, user], target=ask.target, id=ask.id,
                  metadata=harness.metadata(BENCHMARK, doc))


@scorer(metrics=[mean(), stderr()])
def diagbench_{ident}_scorer():
    """{metric}, by diagbench's scorer for {name}."""

    async def score(state: TaskState, target: Target) -> Score:
        result = harness.score(BENCHMARK, state.metadata, state.output.completion)
        value = float("nan") if result.value is None else result.value
        return Score(value=value, answer=result.answer, explanation=result.explanation)

    return score


@task
def diagbench_{ident}():
    return Task(dataset=MemoryDataset([sample(doc) for doc in harness.rows(HERE)],
                                      name="diagbench-{name}"),
                solver=generate(), scorer=diagbench_{ident}_scorer(),
                config=GenerateConfig(temperature={temperature}, max_tokens={max_tokens}))
'''


def write_inspect(name: str, dataset: Path) -> list[Path]:
    """Write DIR/task.py for benchmark `name` beside the dataset `export_hf` wrote in
    `dataset`; return its path."""
    from diagbench.export.harness import row_metric
    from diagbench.models.request import GenerationConfig

    metric = row_metric(name)
    config = GenerationConfig()
    path = dataset / "task.py"
    about = textwrap.fill(f"{metric.name}: {metric.description}.", 88)
    path.write_text(TASK.format(name=name, ident=name.replace("-", "_"), version=__version__,
                                metric=metric.name, about=about,
                                temperature=config.temperature, max_tokens=config.max_tokens),
                    encoding="utf-8")
    return [path]
