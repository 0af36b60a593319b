"""The match queue: pairs waiting players of one pool (a ruleset, a clock and an opening rule)
by their rating in the pool's category (the entries' `score`).

The allowed gap starts narrow and widens with the waiting time of the player who has waited
longest, so close opponents meet first but nobody waits forever while another player of the
same pool is queued; it is twice as wide when either rating is provisional, which says little
yet. Longest-waiting players are served first. Two players either of whom blocks the other are
never paired (`apart`): one rule for one process and for several, where the leader's matcher
pairs the queue that Redis holds.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable
from dataclasses import dataclass

from gobang.services.clock import Clock
from gobang.services.pools import NO_OPENING, Pool, TimeControl
from gobang.services.store import MatchQueue, QueueEntry


@dataclass(frozen=True)
class Pairing:
    black: int
    white: int
    ruleset: str
    clock: TimeControl
    rated: bool = True  # a challenge may ask for a casual game; the pools' games are rated
    opening: str = NO_OPENING  # black places the opening's first stone


class Matcher:
    def __init__(
        self,
        queue: MatchQueue,
        clock: Clock,
        rng: random.Random,
        gap_start: int,
        gap_per_second: int,
        connected: Callable[[list[int]], set[int]],
        apart: Callable[[list[int]], set[frozenset[int]]] = lambda _users: set(),
    ) -> None:
        self.queue = queue
        self.clock = clock
        self.rng = rng
        self.gap_start = gap_start
        self.gap_per_second = gap_per_second
        # Of these users, those whose hall connection lives: one read for the whole queue.
        self.connected = connected
        # Of these users, the pairs that must never meet (either blocks the other): one
        # read for the whole queue.
        self.apart = apart

    def enqueue(self, user_id: int, score: int, ruleset: str, clock: TimeControl,
                provisional: bool = False, opening: str = NO_OPENING) -> bool:
        """Queue a player in the pool of that ruleset, clock and opening, with their rating
        there; False if already queued (the first place, in its pool, is kept)."""
        return self.queue.put(
            QueueEntry(user_id, score, ruleset, clock, self.clock(), provisional, opening))

    def cancel(self, user_id: int) -> bool:
        return self.queue.remove(user_id) is not None

    def queued(self) -> list[QueueEntry]:
        return self.queue.entries()

    def is_queued(self, user_id: int) -> bool:
        return self.queue.entry(user_id) is not None

    def pool_of(self, user_id: int) -> Pool | None:
        """The pool the user waits in; None when not queued."""
        entry = self.queue.entry(user_id)
        return None if entry is None else pool_of(entry)

    def allowed_gap(self, waited: float) -> float:
        return self.gap_start + self.gap_per_second * max(0.0, waited)

    def tick(self) -> tuple[list[Pairing], list[int]]:
        """Who can be paired now. Returns the pairings, to be taken (`take`) just
        before their games are made, and the users dropped because their connection is gone.
        Pairs a former leader took and never made a game of wait again first."""
        self.queue.return_pending()
        entries = self.queue.entries()
        here = self.connected([e.user_id for e in entries]) if entries else set()
        dropped = [e.user_id for e in entries if e.user_id not in here]
        for user_id in dropped:
            self.queue.remove(user_id)
        by_pool: dict[Pool, list[QueueEntry]] = {}
        for entry in self.queue.entries():
            by_pool.setdefault(pool_of(entry), []).append(entry)
        crowded = [e.user_id for entries in by_pool.values() if len(entries) > 1
                   for e in entries]
        apart = self.apart(crowded) if crowded else set()
        pairings: list[Pairing] = []
        for entries in by_pool.values():
            pairings += self._pair_pool(entries, apart)
        return pairings, dropped

    def take(self, pairings: list[Pairing]) -> list[Pairing]:
        """Those of the pairings whose players are both still queued, taken: no one is ever
        paired twice, whichever process pairs them and whatever changed since the queue was
        read."""
        taken = self.queue.take_pairs([(p.black, p.white) for p in pairings])
        return [pairing for pairing, ok in zip(pairings, taken, strict=True) if ok]

    def settle(self, pairing: Pairing) -> None:
        """Their game is made (or refused): the pair is no longer kept aside."""
        self.queue.settle(pairing.black, pairing.white)

    def _pair_pool(self, entries: list[QueueEntry],
                   apart: set[frozenset[int]]) -> list[Pairing]:
        """Longest waiters first, each with the untaken player nearest in score within the
        gap (ties: the longer waiter). The untaken are kept in score order and a pair leaves
        it at once, so each player's candidates are its two neighbours there: everyone
        who waited longer is already paired (two equal scores always pair), so a neighbour
        on the same side is never passed over. A crowd of equal scores stays cheap. A
        neighbour `apart` from the player (a block) is stepped over to the next one."""
        now = self.clock()
        keys = sorted((e.score, e.joined_at, e.user_id) for e in entries)
        by_id = {e.user_id: e for e in entries}
        pairings = []
        for entry in sorted(entries, key=lambda e: (e.joined_at, e.user_id)):
            key = (entry.score, entry.joined_at, entry.user_id)
            place = bisect.bisect_left(keys, key)
            if place == len(keys) or keys[place] != key:
                continue  # taken
            gap = self.allowed_gap(now - entry.joined_at)
            reach = gap * PROVISIONAL_GAP_FACTOR  # the widest any pair's gap can be
            partner = _closest(entry, [
                found for step in (-1, 1)
                if (found := _neighbour(entry, keys, place, step, by_id, apart, reach))], gap)
            if partner is not None:
                taken = sorted((place, bisect.bisect_left(
                    keys, (partner.score, partner.joined_at, partner.user_id))))
                del keys[taken[1]], keys[taken[0]]
                pairings.append(self._colours(entry, partner))
        return pairings

    def _colours(self, a: QueueEntry, b: QueueEntry) -> Pairing:
        if self.rng.random() < 0.5:
            a, b = b, a
        return Pairing(black=a.user_id, white=b.user_id, ruleset=a.ruleset, clock=a.clock,
                       opening=a.opening)


def pool_of(entry: QueueEntry) -> Pool:
    return Pool(entry.ruleset, entry.clock, entry.opening)


# How much wider the gap is when either player's rating is provisional.
PROVISIONAL_GAP_FACTOR = 2


def _widened(gap: float, a: QueueEntry, b: QueueEntry) -> float:
    return gap * (PROVISIONAL_GAP_FACTOR if a.provisional or b.provisional else 1)


def _neighbour(entry: QueueEntry, keys: list[tuple[int, float, int]], place: int, step: int,
               by_id: dict[int, QueueEntry], apart: set[frozenset[int]],
               reach: float) -> QueueEntry | None:
    """The nearest untaken player on one side of `place` in score order whom the entry may
    meet, within `reach` of its score."""
    index = place + step
    while 0 <= index < len(keys):
        other = by_id[keys[index][2]]
        if abs(other.score - entry.score) > reach:
            return None
        if not apart or frozenset((entry.user_id, other.user_id)) not in apart:
            return other
        index += step
    return None


def _closest(entry: QueueEntry, neighbours: list[QueueEntry], gap: float) -> QueueEntry | None:
    """The neighbour nearest in score within the gap, widened for a provisional rating on
    either side (ties: the longer waiter)."""
    candidates = [c for c in neighbours if abs(c.score - entry.score) <= _widened(gap, entry, c)]
    if not candidates:
        return None
    return min(candidates, key=lambda c: (abs(c.score - entry.score), c.joined_at))
