"""The price table: USD per million input and output tokens by PROVIDER:MODEL, the date
it was read and its source, and the discount of the providers' batch APIs. diagbench
bundles one (`prices.json`); `--prices FILE` gives another of the same form."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from diagbench.models.response import Usage

#: The finish reasons that mean an answer was cut by the token limit (OpenAI-compatible,
#: Anthropic, Gemini).
TRUNCATED = frozenset({"length", "max_tokens", "MAX_TOKENS"})


class PriceTableError(ValueError):
    """A price table that cannot be used; str() names the file and the reason."""


@dataclass(frozen=True, slots=True)
class PriceTable:
    """Prices (USD per million input, output tokens) by PROVIDER:MODEL; `batch_discount`
    is the share of the price a batch API charges (0.5: half)."""

    prices: dict[str, tuple[float, float]]
    date: str
    source: str
    batch_discount: float = 0.5

    def cost(self, model: str, usage: Usage, batch: bool = False) -> float | None:
        """USD of one call's `usage` (output tokens include the reasoning ones, as they
        are billed); None when the model has no price."""
        price = self.prices.get(model)
        if price is None:
            return None
        full = (usage.input_tokens * price[0] + usage.output_tokens * price[1]) / 1e6
        return full * (self.batch_discount if batch else 1.0)

    def describe(self) -> dict:
        """What a manifest records of the table used."""
        return {"date": self.date, "source": self.source,
                "batch_discount": self.batch_discount}


@functools.cache
def _bundled() -> PriceTable:
    return _read(None)


def load_prices(path: Path | None = None) -> PriceTable:
    """The table in `path` (None: the bundled one, read once); see `_read`."""
    return _bundled() if path is None else _read(path)


def _read(path: Path | None) -> PriceTable:
    """The table in `path` (None: the bundled one); PriceTableError naming the file when
    it is not one: a JSON object whose ``_date`` and ``_source`` are strings, optional
    ``_batch_discount`` a number in (0, 1], every other key a PROVIDER:MODEL with a pair
    of non-negative numbers."""
    where = str(path) if path else "the bundled prices.json"
    try:
        text = (path.read_text(encoding="utf-8") if path else
                resources.files("diagbench.models").joinpath("prices.json").read_text())
        table = json.loads(text)
    except OSError as exc:
        raise PriceTableError(f"{where}: cannot be read ({exc.strerror or exc})") from None
    except json.JSONDecodeError as exc:
        raise PriceTableError(f"{where}:{exc.lineno}: not JSON ({exc.msg})") from None
    if not isinstance(table, dict):
        raise PriceTableError(f"{where}: not a JSON object of prices")
    date, source = table.get("_date"), table.get("_source")
    discount = table.get("_batch_discount", 0.5)
    if not isinstance(date, str) or not isinstance(source, str):
        raise PriceTableError(f"{where}: needs \"_date\" and \"_source\" (the date the "
                              "prices were read and where)")
    if not isinstance(discount, int | float) or not 0 < discount <= 1:
        raise PriceTableError(f"{where}: \"_batch_discount\" must be a number in (0, 1]")
    prices = {}
    for model, pair in table.items():
        if model.startswith("_"):
            continue
        if ":" not in model or not isinstance(pair, list) or len(pair) != 2 or not all(
                isinstance(v, int | float) and v >= 0 for v in pair):
            raise PriceTableError(f"{where}: {model!r}: expected \"PROVIDER:MODEL\": "
                                  "[USD per million input tokens, per million output tokens]")
        prices[model] = (float(pair[0]), float(pair[1]))
    return PriceTable(prices, date, source, float(discount))
