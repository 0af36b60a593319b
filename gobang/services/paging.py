"""Lists shown a page at a time (profiles' games, the leaderboards)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Page:
    """One page of a list; `number` counts from 1 and `pages` is never below 1."""

    items: list[dict[str, Any]]
    number: int
    pages: int
    total: int

    @property
    def has_prev(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.pages


def page_count(total: int, per_page: int) -> int:
    return max(1, -(-total // per_page))
