"""`diagbench import strudel SOURCE --out DATA`: STRUDEL's released test split, in the
layout the Hugging Face `datasets` library saves (``data/test-0000X-of-0000N.parquet``;
one row a task: ``user_prompt``, ``image`` — a struct of ``bytes`` and ``path`` —,
``answer``, ``type``, ``task_type``, ``category_key``, ``lang_key``, ``domain``,
``difficulty``, ``id``), and its ``gold_statistics.json`` (node-type counts by id) when
present, read into a structure data set that `eval structure` runs unchanged:

    DATA/  samples.jsonl (one sample per distinct image), tasks.jsonl (the questions as
           published, the gold code of image-to-code under sources/), images/,
           build.json (`StrudelImport`: counts, mappings, what was left out and why)

STRUDEL's task types are folded into diagbench's task names as its evaluation folds
them into Table 3's columns (`TASK_NAMES`); its category keys become diagbench's
categories (`CATEGORIES`; an unknown key is kept as it is, with a warning); its
language keys diagbench's languages where diagbench reads them (an image-to-code task
of another is left out and counted: its code could not be scored).
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from diagbench.benchmarks.protocol import DataError
from diagbench.benchmarks.structure.records import StructureSample, StructureTask
from diagbench.records import Record

#: STRUDEL's category keys → diagbench's categories.
CATEGORIES = {
    "class": "class", "sequence": "sequence", "component": "component",
    "usecase": "usecase", "state": "state", "sql": "er", "flowchart": "flowchart",
    "mol": "molecule", "reaction": "reaction", "tree": "phylogenetic-tree",
    "dna": "dna-sequence", "rna": "rna-structure", "geo": "map", "chess": "chess-board",
    "music": "music", "circuit": "electrical-circuit", "hdl": "digital-hardware",
    "quantum": "quantum-circuit", "logic": "propositional-logic", "neural": "deep-learning",
    "kg": "knowledge-graph", "bpmn": "business-process", "gantt": "gantt",
    "mind": "mind-map", "chart": "chart", "table": "table"}
#: STRUDEL's language keys that diagbench names otherwise (the others: the same name).
LANGUAGES = {"graphviz": "dot", "smi": "smiles", "rxn": "reaction-smiles"}
#: STRUDEL's task types → diagbench's task names, folded as STRUDEL's evaluation folds
#: them into Table 3's columns (structural and analytical: structural analysis;
#: structural_count: quantification; consistency: association).
TASK_NAMES = {"code": "image_to_code", "identification": "identification",
              "structural_count": "quantification", "quantification": "quantification",
              "structural": "structural", "analytical": "structural",
              "association": "association", "consistency": "association"}
_FIELDS = ("user_prompt", "image", "answer", "type", "task_type", "category_key",
           "lang_key", "id")
_NUMBER = re.compile(r"^[+-]?\d+(?:\.\d+)?$")


@dataclass(frozen=True, slots=True)
class StrudelImport(Record):
    """build.json of an imported STRUDEL data set: where it came from, how many rows,
    samples and tasks (per task and per STRUDEL task type), the category and language
    mappings used, the unknown category keys kept as they are, and the rows left out,
    each "FILE:ROW: reason"."""

    source: str
    shards: list[str]
    gold_statistics: str | None
    rows: int
    samples: int
    tasks: dict[str, int]
    strudel_task_types: dict[str, int]
    categories: dict[str, str]
    languages: dict[str, str]
    unknown_categories: list[str] = field(default_factory=list)
    unscorable_code: dict[str, int] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    origin: str = "strudel"


def is_strudel_import(data: Path) -> bool:
    """Whether the data set `data` was imported from STRUDEL."""
    try:
        return json.loads((data / "build.json").read_text("utf-8")).get("origin") == "strudel"
    except (OSError, ValueError, AttributeError):
        return False


def shards(source: Path) -> list[Path]:
    """The test split's Parquet shards under `source` (its data/ folder or itself)."""
    found = sorted((source / "data").glob("test-*.parquet")) or \
        sorted(source.glob("test-*.parquet"))
    if not found:
        raise DataError(f"{source}: no test-*.parquet shard (in {source / 'data'} or "
                        f"{source}): is it STRUDEL's data set as `datasets` saves it?")
    return found


def _rows(path: Path) -> Iterator[tuple[int, dict]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.ParquetFile(path)
        number = 0
        for batch in table.iter_batches(batch_size=256):
            for row in batch.to_pylist():
                yield number, row
                number += 1
    except (pa.ArrowException, OSError) as exc:
        raise DataError(f"{path}: not a Parquet file ({exc})") from None


def answer_type(gold: str) -> tuple[str, str]:
    """(how diagbench reads the answer, the gold as compared) of a published answer."""
    if gold in ("A", "B", "C", "D", "NONE"):
        return "choice", gold
    if gold.lower() in ("yes", "no"):
        return "yes_no", gold.lower()
    if _NUMBER.match(gold):
        return "number", gold
    return "label", gold


def _image(data: Any, where: str) -> tuple[bytes, str, int, int]:
    """(bytes, suffix, width, height) of a row's `datasets.Image` struct."""
    from PIL import Image, UnidentifiedImageError

    raw = data.get("bytes") if isinstance(data, dict) else None
    if not raw:
        raise DataError(f"{where}: the image has no bytes")
    try:
        with Image.open(io.BytesIO(raw)) as img:
            return raw, (img.format or "png").lower().replace("jpeg", "jpg"), *img.size
    except (UnidentifiedImageError, OSError) as exc:
        raise DataError(f"{where}: the image cannot be read ({exc})") from None


class _Writer:
    """The samples and tasks of an import, as they are read."""

    def __init__(self, out: Path, statistics: dict[str, Any]) -> None:
        from diagbench.languages import category_named, names

        self.out, self.statistics = out, statistics
        self.languages = set(names())
        self.category_named = category_named
        self.samples: dict[str, StructureSample] = {}
        self.tasks: list[StructureTask] = []
        self.unknown: Counter[str] = Counter()
        self.left_out: Counter[str] = Counter()
        self.skipped: list[str] = []
        self.types: Counter[str] = Counter()
        self.per_sample: Counter[str] = Counter()  # tasks so far, numbering the next
        (out / "images").mkdir(parents=True, exist_ok=True)
        (out / "sources").mkdir(parents=True, exist_ok=True)

    def add(self, row: dict, where: str) -> None:
        missing = [f for f in _FIELDS if row.get(f) is None]
        if missing:
            raise DataError(f"{where}: no {', '.join(missing)}")
        key, lang = str(row["category_key"]), str(row["lang_key"])
        task = TASK_NAMES.get(str(row["task_type"]))
        if row["type"] == "code":
            task = "image_to_code"
        if task is None:
            raise DataError(f"{where}: unknown task type {row['task_type']!r}")
        language = LANGUAGES.get(lang, lang)
        if task == "image_to_code" and language not in self.languages:
            self.left_out[lang] += 1  # its code could not be scored
            return
        category = CATEGORIES.get(key)
        if category is None:
            self.unknown[key] += 1
            category = key
        raw, suffix, width, height = _image(row["image"], where)
        sample = self._sample(row, raw, suffix, width, height, category, language)
        gold = str(row["answer"]).strip()
        number = self.per_sample[sample.id]
        self.per_sample[sample.id] += 1
        ident = f"{sample.id}/{task}/{number}"
        if task == "image_to_code":
            path = f"sources/{sample.id}-{number}.txt"
            (self.out / path).write_text(gold if gold.endswith("\n") else gold + "\n",
                                         encoding="utf-8")
            self.tasks.append(StructureTask(ident, sample.id, task, category, language,
                                            lang, sample.image, str(row["user_prompt"]),
                                            path))
        else:
            kind, value = answer_type(gold)
            self.tasks.append(StructureTask(ident, sample.id, task, category, language,
                                            lang, sample.image, str(row["user_prompt"]),
                                            value, answer_type=kind))
        self.types[str(row["task_type"])] += 1

    def _sample(self, row: dict, raw: bytes, suffix: str, width: int, height: int,
                category: str, language: str) -> StructureSample:
        digest = hashlib.sha256(raw).hexdigest()
        ident = f"strudel-{digest[:16]}"
        node_types = (self.statistics.get(str(row["id"])) or {}).get("node_types")
        known = self.samples.get(ident)
        if known is not None:
            if node_types and not known.statistics:  # the code row of a question's image
                known = self.samples[ident] = _with_statistics(known, node_types)
            return known
        image = f"images/{ident}.{suffix}"
        (self.out / image).write_bytes(raw)
        try:
            domain = self.category_named(category).domain
        except (KeyError, LookupError):
            domain = str(row.get("domain") or "")
        sample = StructureSample(
            ident, category, language, str(row["lang_key"]), str(row.get("difficulty") or ""),
            "", domain, None, None, "", False, "", image, width, height, digest, 0, 0, {},
            None, {"node_types": dict(node_types)} if node_types else {})
        self.samples[ident] = sample
        return sample


def _with_statistics(sample: StructureSample, node_types: dict) -> StructureSample:
    from dataclasses import replace
    return replace(sample, statistics={"node_types": dict(node_types)})


def import_strudel(source: Path, out: Path, gold_statistics: Path | None = None
                   ) -> StrudelImport:
    """Read STRUDEL's test split under `source` into the data set `out`; a row that
    cannot be read is left out and listed (the others are imported)."""
    files = shards(source)
    if gold_statistics is None and (source / "gold_statistics.json").is_file():
        gold_statistics = source / "gold_statistics.json"
    statistics = _load_statistics(gold_statistics) if gold_statistics else {}
    out.mkdir(parents=True, exist_ok=True)
    writer = _Writer(out, statistics)
    rows = 0
    for path in files:
        for number, row in _rows(path):
            rows += 1
            try:
                writer.add(row, f"{path.name}:{number}")
            except DataError as exc:
                writer.skipped.append(str(exc))
    if not writer.tasks:
        raise DataError(f"{source}: no task could be imported" + (
            f" ({writer.skipped[0]}{' …' if len(writer.skipped) > 1 else ''})"
            if writer.skipped else " (the shards are empty)"))
    _write_jsonl(out / "samples.jsonl", [s.to_json() for s in writer.samples.values()])
    _write_jsonl(out / "tasks.jsonl", [t.to_json() for t in writer.tasks])
    info = StrudelImport(
        str(source.resolve()), [p.name for p in files],
        str(gold_statistics.resolve()) if gold_statistics else None, rows,
        len(writer.samples), dict(sorted(Counter(t.task for t in writer.tasks).items())),
        dict(sorted(writer.types.items())), CATEGORIES, LANGUAGES,
        sorted(writer.unknown), dict(sorted(writer.left_out.items())), writer.skipped)
    (out / "build.json").write_text(json.dumps(info.to_json(), indent=1, ensure_ascii=False)
                                    + "\n", encoding="utf-8")
    return info


def _load_statistics(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise DataError(f"{path}: not an object of statistics by sample id")
    return data


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")
