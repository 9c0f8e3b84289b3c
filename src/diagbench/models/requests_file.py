"""A JSONL file of prompts (with images) to send to one model: `diagbench run`'s input."""

from __future__ import annotations

import json
from pathlib import Path

from diagbench.models.image_policy import ImagePolicyError
from diagbench.models.request import Request
from diagbench.models.settings import ModelSettings


class RequestFileError(ValueError):
    """A line of the requests file that cannot be sent; str() names file and line."""


def read_requests(path: Path, settings: ModelSettings, limit: int | None,
                  repeats: int = 1) -> tuple[list[str], list[Request]]:
    """(ids, requests) of a JSONL file of {"id", "prompt", "images": [paths]}; with
    `repeats` > 1 each line is asked that many times (ids `ID#k`, repeat index k)."""
    ids: list[str] = []
    requests: list[Request] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        if limit is not None and len(requests) >= limit * repeats:
            break
        try:
            item = json.loads(line)
            prompt, images = item["prompt"], item.get("images", [])
            if not isinstance(prompt, str) or not isinstance(images, list) \
                    or not all(isinstance(i, str) for i in images):
                raise TypeError("the prompt is text and images a list of paths")
            parts = tuple(settings.image(path.parent / image) for image in images)
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise RequestFileError(f"{path}:{number}: not a request object ({exc})") from None
        except OSError as exc:
            raise RequestFileError(f"{path}:{number}: image not readable: {exc}") from None
        except ImagePolicyError as exc:
            raise RequestFileError(f"{path}:{number}: {exc}") from None
        name = str(item.get("id", number))
        for repeat in range(repeats):
            ids.append(f"{name}#{repeat}" if repeats > 1 else name)
            requests.append(settings.request(prompt, parts, repeat))
    return ids, requests
