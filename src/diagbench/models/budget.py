"""`--max-cost`: a run that stops sending requests once what it has spent reaches a cap.

`Budgeted` wraps a model's adapter: before each call it checks the spend; once the cap
is reached a call is refused (a failed response saying so, never cached), so the run
ends cleanly with the rest recorded as not sent; re-running with a higher cap resumes
where it stopped. The spend starts from what the run's earlier answers cost (answers
from the cache cost nothing) and grows by each answer's cost from the price table.
Calls already in flight when the cap is reached still finish (at most
--max-connections of them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from diagbench.models.protocol import Model
from diagbench.models.request import Request
from diagbench.models.response import Response, Usage
from diagbench.models.retry import CallError


def over_budget(limit: float) -> str:
    """The error of a request not sent because the cap was reached."""
    return (f"not sent: the run's cost reached --max-cost {limit:g} USD (re-run with a "
            "higher cap to resume)")


@dataclass(slots=True)
class Budget:
    """A cap in USD and what has been spent towards it."""

    limit: float
    spent: float = 0.0

    @property
    def reached(self) -> bool:
        return self.spent >= self.limit


class Budgeted:
    """A `Model` that refuses calls once `budget` is reached; `price` gives the USD of
    an answer's usage."""

    def __init__(self, inner: Model, budget: Budget, price: Callable[[Usage], float]) -> None:
        self.inner, self.budget, self.price = inner, budget, price

    async def call(self, request: Request) -> Response:
        if self.budget.reached:
            raise CallError(over_budget(self.budget.limit), False)
        response = await self.inner.call(request)
        self.budget.spent += self.price(response.usage)
        return response

    async def close(self) -> None:
        await self.inner.close()
