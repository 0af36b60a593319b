"""Maximum matching in a general graph: Edmonds' blossom algorithm, one augmenting path at a
time (Edmonds, "Paths, trees, and flowers", 1965).

Both pairings lean on it. The Swiss pairing asks, before it commits a board, whether everyone
still unpaired can be paired legally: if so, no later score group can be left stranded, so
the pairing never has to give up a half-made round. The arena uses it to make sure that no
two free players who may meet are both left waiting.

Vertices are 0..n-1; `adjacent[v]` lists v's neighbours; `match[v]` is v's partner or -1.
Vertices whose `alive` flag is False are left out, so one graph serves while players are
taken off it. O(n^3) at worst for a whole matching; the tournaments have at most a few
hundred players, and one augmenting path from a single vertex is O(n^2).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

UNMATCHED = -1


def maximum_matching(adjacent: Sequence[Sequence[int]], alive: Sequence[bool] | None = None,
                     match: list[int] | None = None) -> list[int]:
    """A maximum matching of the live vertices; `match`, if given, is a matching to grow
    (its pairs stay matched: augmenting paths never expose a matched vertex)."""
    alive = [True] * len(adjacent) if alive is None else alive
    match = _greedy(adjacent, alive) if match is None else match
    for vertex in range(len(adjacent)):
        if alive[vertex] and match[vertex] == UNMATCHED:
            augment(adjacent, match, vertex, alive)
    return match


def is_perfect(match: Sequence[int], alive: Sequence[bool]) -> bool:
    return all(match[v] != UNMATCHED for v in range(len(match)) if alive[v])


def _greedy(adjacent: Sequence[Sequence[int]], alive: Sequence[bool]) -> list[int]:
    """A quick maximal matching to start from: most vertices need no search after it."""
    match = [UNMATCHED] * len(adjacent)
    for vertex, neighbours in enumerate(adjacent):
        if not alive[vertex] or match[vertex] != UNMATCHED:
            continue
        for other in neighbours:
            if alive[other] and match[other] == UNMATCHED:
                match[vertex], match[other] = other, vertex
                break
    return match


def augment(adjacent: Sequence[Sequence[int]], match: list[int], root: int,
            alive: Sequence[bool]) -> bool:
    """Find an augmenting path from the exposed vertex `root` and flip it into `match`
    (changed in place). False, and `match` untouched, when there is none."""
    search = _Search(adjacent, match, alive)
    end = search.from_root(root)
    if end == UNMATCHED:
        return False
    vertex = end
    while vertex != UNMATCHED:
        previous = search.parent[vertex]
        next_vertex = match[previous]
        match[vertex], match[previous] = previous, vertex
        vertex = next_vertex
    return True


class _Search:
    """One breadth-first search of alternating trees, shrinking odd cycles (blossoms) to
    their base as it meets them."""

    def __init__(self, adjacent: Sequence[Sequence[int]], match: list[int],
                 alive: Sequence[bool]) -> None:
        size = len(adjacent)
        self.adjacent = adjacent
        self.match = match
        self.alive = alive
        self.parent = [UNMATCHED] * size
        self.base = list(range(size))
        self.used = [False] * size
        self.queue: deque[int] = deque()

    def from_root(self, root: int) -> int:
        """The exposed vertex an augmenting path from `root` ends at, or UNMATCHED."""
        self.used[root] = True
        self.queue.append(root)
        while self.queue:
            vertex = self.queue.popleft()
            for other in self.adjacent[vertex]:
                if not self.alive[other] or self.base[vertex] == self.base[other]:
                    continue
                if self.match[vertex] == other:
                    continue
                mate = self.match[other]
                if other == root or (mate != UNMATCHED and self.parent[mate] != UNMATCHED):
                    self._shrink(vertex, other)
                elif self.parent[other] == UNMATCHED:
                    self.parent[other] = vertex
                    if mate == UNMATCHED:
                        return other
                    self.used[mate] = True
                    self.queue.append(mate)
        return UNMATCHED

    def _shrink(self, vertex: int, other: int) -> None:
        """Shrink the blossom closed by the edge vertex-other into its base."""
        base = self._common_ancestor(vertex, other)
        in_blossom = [False] * len(self.base)
        self._mark_path(vertex, base, other, in_blossom)
        self._mark_path(other, base, vertex, in_blossom)
        for index, index_base in enumerate(self.base):
            if in_blossom[index_base]:
                self.base[index] = base
                if not self.used[index]:
                    self.used[index] = True
                    self.queue.append(index)

    def _common_ancestor(self, first: int, second: int) -> int:
        seen = [False] * len(self.base)
        while True:
            first = self.base[first]
            seen[first] = True
            if self.match[first] == UNMATCHED:
                break
            first = self.parent[self.match[first]]
        while True:
            second = self.base[second]
            if seen[second]:
                return second
            second = self.parent[self.match[second]]

    def _mark_path(self, vertex: int, base: int, child: int, in_blossom: list[bool]) -> None:
        while self.base[vertex] != base:
            in_blossom[self.base[vertex]] = True
            in_blossom[self.base[self.match[vertex]]] = True
            self.parent[vertex] = child
            child = self.match[vertex]
            vertex = self.parent[self.match[vertex]]
