"""What could not be asked or read in a run, counted by kind, and `--fail-on-error`, the
one limit on it every `eval NAME` and `score NAME` takes.

A sample that cannot be asked (its image missing or unreadable: `image_error`), whose
call failed after its retries (`call_error`) or whose answer could not be read
(`unparsed`) is a failure: every benchmark counts it as wrong in its headline figure
and shows the counts beside it. A run *fails* (exit 1) when its failed calls and
unusable images are more than RATE of the samples asked, and, without the option, when
every one of them failed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from diagbench.report.html import HtmlReport

#: The kinds of failure, in the order they are shown.
KINDS = ("image_error", "call_error", "unparsed")

FAIL_ON_ERROR = click.option(
    "--fail-on-error", "fail_on_error", type=click.FloatRange(0.0, 1.0), metavar="RATE",
    help="Exit 1 when a model's failed calls and unusable images are more than RATE of "
         "its samples (0: any). Without it, a model whose every call failed fails the run.")


@dataclass(frozen=True, slots=True)
class Failures:
    """One model's failures in a run: the samples asked, the count of each kind
    (`KINDS`), the distinct unusable images (path: reason) and the first failed call's
    reason."""

    asked: int
    counts: Mapping[str, int] = field(default_factory=dict)
    images: tuple[str, ...] = ()
    first_call_error: str | None = None

    @property
    def failed(self) -> int:
        """Samples never answered: failed calls and unusable images."""
        return self.counts.get("image_error", 0) + self.counts.get("call_error", 0)

    @property
    def total(self) -> int:
        """Every failure, unreadable answers included (each counted wrong)."""
        return sum(self.counts.get(kind, 0) for kind in KINDS)

    def words(self) -> str:
        """"6 failed (image_error 6)" — or "no failures"."""
        if not self.total:
            return "no failures"
        return f"{self.total} failed (" + ", ".join(
            f"{kind} {self.counts[kind]}" for kind in KINDS if self.counts.get(kind)) + ")"

    def to_json(self) -> dict[str, Any]:
        return {"asked": self.asked, **{kind: self.counts.get(kind, 0) for kind in KINDS},
                "unusable_images": list(self.images),
                "first_call_error": self.first_call_error}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Failures:
        return cls(int(data["asked"]), {kind: int(data.get(kind, 0)) for kind in KINDS},
                   tuple(data.get("unusable_images", ())), data.get("first_call_error"))

    @classmethod
    def of(cls, statuses: Iterable[tuple[str, str | None, bool]]) -> Failures:
        """The failures of (status, error, whether the answer was read) per sample:
        status `image_error` or `call_error`, else ok (read or `unparsed`)."""
        counts = dict.fromkeys(KINDS, 0)
        images: dict[str, None] = {}
        asked, first = 0, None
        for status, error, read in statuses:
            asked += 1
            if status in ("image_error", "call_error"):
                counts[status] += 1
                if status == "image_error" and error:
                    images[error] = None
                if status == "call_error" and first is None:
                    first = error
            elif not read:
                counts["unparsed"] += 1
        return cls(asked, counts, tuple(images), first)


def failure_reasons(failures: Mapping[str, Failures], rate: float | None) -> list[str]:
    """Why the run fails: each model whose failed calls and unusable images are more than
    `rate` of its samples; without `rate`, each model whose every sample failed."""
    out = []
    for model, f in failures.items():
        if not f.asked:
            continue
        first = f"; first: {f.first_call_error}" if f.first_call_error else ""
        if rate is None and f.failed == f.asked:
            out.append(f"{model}: nothing was answered: all {f.asked} samples failed "
                       f"({_kinds(f)}{first})")
        elif rate is not None and f.failed / f.asked > rate:
            out.append(f"{model}: {f.failed} of {f.asked} samples failed ({_kinds(f)}"
                       f"{first}), above --fail-on-error {rate:g}")
    return out


def _kinds(f: Failures) -> str:
    return ", ".join(f"{kind} {f.counts[kind]}" for kind in ("image_error", "call_error")
                     if f.counts.get(kind))


def report_failures(report: HtmlReport, failures: Mapping[str, Failures],
                    shown: int = 20) -> None:
    """The report's section on failures: per model the samples asked and each kind
    counted (each a wrong answer), the first failed call's reason and the first `shown`
    unusable images."""
    report.heading("Failures (each counted as a wrong answer)")
    report.paragraph("image_error: the image is missing or unreadable, never sent; "
                     "call_error: the call failed after its retries; unparsed: an answer "
                     "that could not be read as one. Each is in the denominators above.",
                     note=True)
    report.table(["model", "asked", *KINDS, "first failed call"],
                 [[name, f.asked, *(f.counts.get(kind, 0) for kind in KINDS),
                   f.first_call_error or "—"] for name, f in failures.items()])
    for name, f in failures.items():
        if f.images:
            report.details(f"{name}: {len(f.images)} unusable images",
                           list(f.images[:shown]) + ([f"… and {len(f.images) - shown} more"]
                                                     if len(f.images) > shown else []))
