"""The match queue: pairs waiting players of one pool (a ruleset and a clock) by score.

The allowed score gap starts narrow and widens with the waiting time of the player who has
waited longest, so close opponents meet first but nobody waits forever while another player of
the same pool is queued. Longest-waiting players are served first.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable
from dataclasses import dataclass

from gobang.services.clock import Clock
from gobang.services.pools import TimeControl
from gobang.services.store import LiveStore, QueueEntry


@dataclass(frozen=True)
class Pairing:
    black: int
    white: int
    ruleset: str
    clock: TimeControl


class Matcher:
    def __init__(
        self,
        store: LiveStore,
        clock: Clock,
        rng: random.Random,
        gap_start: int,
        gap_per_second: int,
        connected: Callable[[list[int]], set[int]],
    ) -> None:
        self.store = store
        self.clock = clock
        self.rng = rng
        self.gap_start = gap_start
        self.gap_per_second = gap_per_second
        # Of these users, those whose hall connection lives: one read for the whole queue.
        self.connected = connected

    def enqueue(self, user_id: int, score: int, ruleset: str, clock: TimeControl) -> bool:
        """Queue a player in the pool of that ruleset and clock; False if already queued (the
        first place, in its pool, is kept)."""
        return self.store.queue_put(QueueEntry(user_id, score, ruleset, clock, self.clock()))

    def cancel(self, user_id: int) -> bool:
        return self.store.queue_remove(user_id) is not None

    def queued(self) -> list[QueueEntry]:
        return self.store.queue_entries()

    def is_queued(self, user_id: int) -> bool:
        return self.store.queue_entry(user_id) is not None

    def pool_of(self, user_id: int) -> tuple[str, TimeControl] | None:
        """The pool (ruleset, clock) the user waits in; None when not queued."""
        entry = self.store.queue_entry(user_id)
        return None if entry is None else (entry.ruleset, entry.clock)

    def allowed_gap(self, waited: float) -> float:
        return self.gap_start + self.gap_per_second * max(0.0, waited)

    def tick(self) -> tuple[list[Pairing], list[int]]:
        """Who can be paired now. Returns the pairings, each to be taken (`take`) just
        before its game is made, and the users dropped because their connection is gone.
        Pairs a former leader took and never made a game of wait again first."""
        self.store.queue_return_pending()
        entries = self.store.queue_entries()
        here = self.connected([e.user_id for e in entries]) if entries else set()
        dropped = [e.user_id for e in entries if e.user_id not in here]
        for user_id in dropped:
            self.store.queue_remove(user_id)
        by_pool: dict[tuple[str, TimeControl], list[QueueEntry]] = {}
        for entry in self.store.queue_entries():
            by_pool.setdefault((entry.ruleset, entry.clock), []).append(entry)
        pairings: list[Pairing] = []
        for entries in by_pool.values():
            pairings += self._pair_pool(entries)
        return pairings, dropped

    def take(self, pairing: Pairing) -> bool:
        """Only a pair still both queued stands: no one is ever paired twice, whichever
        process pairs them and whatever changed since the queue was read."""
        return self.store.queue_take_pair(pairing.black, pairing.white)

    def settle(self, pairing: Pairing) -> None:
        """Their game is made (or refused): the pair is no longer kept aside."""
        self.store.queue_settle(pairing.black, pairing.white)

    def _pair_pool(self, entries: list[QueueEntry]) -> list[Pairing]:
        now = self.clock()
        by_score = sorted(entries, key=lambda e: (e.score, e.joined_at, e.user_id))
        scores = [e.score for e in by_score]
        taken: set[int] = set()
        pairings = []
        for entry in sorted(entries, key=lambda e: (e.joined_at, e.user_id)):
            if entry.user_id in taken:
                continue
            gap = self.allowed_gap(now - entry.joined_at)
            partner = self._closest(entry, by_score, scores, gap, taken)
            if partner is not None:
                taken.update((entry.user_id, partner.user_id))
                pairings.append(self._colours(entry, partner))
        return pairings

    @staticmethod
    def _closest(
        entry: QueueEntry, by_score: list[QueueEntry], scores: list[int], gap: float,
        taken: set[int],
    ) -> QueueEntry | None:
        """The untaken player nearest in score within the gap (ties: the longer waiter).
        Walks outwards from the entry's own place, so a crowded queue stays cheap."""
        left = bisect.bisect_left(scores, entry.score) - 1
        right = left + 1

        def usable(i: int) -> bool:
            other = by_score[i]
            return other.user_id != entry.user_id and other.user_id not in taken

        while left >= 0 and not usable(left):
            left -= 1
        while right < len(by_score) and not usable(right):
            right += 1
        candidates = [by_score[i] for i in (left, right) if 0 <= i < len(by_score)]
        candidates = [c for c in candidates if abs(c.score - entry.score) <= gap]
        if not candidates:
            return None
        return min(candidates, key=lambda c: (abs(c.score - entry.score), c.joined_at))

    def _colours(self, a: QueueEntry, b: QueueEntry) -> Pairing:
        if self.rng.random() < 0.5:
            a, b = b, a
        return Pairing(black=a.user_id, white=b.user_id, ruleset=a.ruleset, clock=a.clock)
