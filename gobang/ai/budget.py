"""A per-move allowance of search nodes with a wall-clock backstop."""

from collections.abc import Callable


class OutOfBudget(Exception):
    """Raised from deep inside a search when its allowance is spent."""


class Budget:
    """Counts nodes; `tick` raises OutOfBudget past ``nodes`` or once ``clock()`` passes
    ``deadline`` (the clock is read only every 64 nodes, it is not free)."""

    __slots__ = ("nodes", "limit", "deadline", "_clock")

    def __init__(self, limit: int, deadline: float, clock: Callable[[], float]) -> None:
        self.nodes = 0
        self.limit = limit
        self.deadline = deadline
        self._clock = clock

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfBudget
        if not self.nodes & 63 and self._clock() > self.deadline:
            raise OutOfBudget

    def share(self, fraction: float) -> "Budget":
        """A budget for a sub-search: ``fraction`` of the nodes left, same deadline."""
        left = max(0, self.limit - self.nodes)
        return Budget(int(left * fraction), self.deadline, self._clock)

    def spend(self, other: "Budget") -> None:
        """Count a finished sub-search's nodes against this budget."""
        self.nodes += other.nodes
