"""The hall's state in Redis, seen from two processes: who is in the hall and on other pages,
the open challenges, the chat log and the live games."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from gobang.rules import Game
from gobang.services.cluster.directory import SoleDirectory
from gobang.services.cluster.hall_state import HALL_PLAYERS, DecodedPlayers, redis_hall_state
from gobang.services.cluster.leases import RedisLeases
from gobang.services.cluster.processes import PROCESSES
from gobang.services.cluster.redis_store import RedisStore
from gobang.services.cluster.reservations import RedisReservations
from gobang.services.hall.state import Challenge, HallState
from gobang.services.play.live import LiveGame, Seat
from gobang.services.play.table import GameTable
from gobang.vocabulary import Namespace, Status

# Leases of a fraction of a second, timed on the wall clock: run alone (Makefile).
pytestmark = [pytest.mark.serial]

LONG, SHORT = 30.0, 0.6
CHAT_KEPT = 3


@dataclass
class Process:
    store: RedisStore
    table: GameTable
    state: HallState

    def arrive(self, user_id: int, sid: str) -> None:
        """What Presence.arrive does: the connection first, then the player."""
        self.store.claim_connection(Namespace.HALL, user_id, sid)
        self.state.presence.hall_add(user_id, player(user_id))


@pytest.fixture
def process(redis_server) -> Callable[..., Process]:
    def start(name: str, lease_seconds: float = LONG) -> Process:
        store = RedisStore(redis_server.client(), name, lease_seconds)
        table = GameTable(store, lambda: 0.0, RedisLeases(redis_server.client(), name, LONG),
                          SoleDirectory(), RedisReservations(redis_server.client(),
                                                             store.processes))
        return Process(store, table, redis_hall_state(store, table, CHAT_KEPT))

    return start


def player(user_id: int, score: int = 1000) -> dict[str, object]:
    return {"id": user_id, "username": f"user{user_id}", "score": score}


def live_game(game_id: int, black: int, white: int, status: str = Status.PLAYING) -> LiveGame:
    return LiveGame(game_id, "freestyle", Seat(black, f"user{black}", 1000),
                    Seat(white, f"user{white}", 1100), Game(), None, 0.0, status=status)


def until(condition: Callable[[], bool], within: float, keep_alive: Process) -> None:
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < within, "did not happen in time"
        keep_alive.store.heartbeat()
        time.sleep(0.02)


def test_a_player_in_the_hall_of_one_process_is_listed_by_another(process):
    one, two = process("p1"), process("p2")
    one.arrive(1, "a")
    assert two.state.presence.hall_players() == {1: player(1)}


def test_a_player_who_left_the_hall_is_no_longer_listed(process):
    one, two = process("p1"), process("p2")
    one.arrive(1, "a")
    one.store.release_connection(Namespace.HALL, 1, "a")
    one.state.presence.hall_remove(1)
    assert two.state.presence.hall_players() == {}


def test_the_hall_players_of_a_dead_process_leave_the_list_within_its_lease(process,
                                                                           redis_server):
    dying, living = process("p1", SHORT), process("p2", SHORT)
    dying.arrive(1, "a")
    living.arrive(2, "b")
    until(lambda: list(living.state.presence.hall_players()) == [2], SHORT + 1, living)
    living.store.heartbeat()
    living.state.presence.hall_players()
    assert redis_server.client().hkeys(HALL_PLAYERS) == [b"2"]


def test_a_page_open_on_one_process_is_seen_by_another(process):
    one, two = process("p1"), process("p2")
    one.state.presence.page_add(1, "page", player(1))
    assert two.state.presence.on_pages(1)
    assert two.state.presence.page_users() == [1]
    assert two.state.presence.page_players() == {1: player(1)}


def test_closing_a_page_is_the_last_only_when_no_process_has_another(process):
    one, two = process("p1"), process("p2")
    one.state.presence.page_add(1, "page-a", player(1))
    one.state.presence.page_add(1, "page-b", player(1))
    two.state.presence.page_add(1, "page-c", player(1))
    assert one.state.presence.page_remove(1, "page-a") is False
    assert one.state.presence.page_remove(1, "page-b") is False
    assert two.state.presence.page_remove(1, "page-c") is True
    assert not one.state.presence.on_pages(1)


def test_a_new_score_reaches_the_pages_listed_by_every_process(process):
    one, two = process("p1"), process("p2")
    one.state.presence.page_add(1, "page", player(1))
    two.state.presence.page_update(1, player(1, score=1016))
    assert one.state.presence.page_players() == {1: player(1, score=1016)}


def test_a_new_score_lists_no_one_who_has_no_page_open(process):
    one = process("p1")
    one.state.presence.page_update(1, player(1, score=1016))
    assert one.state.presence.page_players() == {}


def test_the_pages_of_a_dead_process_leave_the_list_within_its_lease(process):
    dying, living = process("p1", SHORT), process("p2", SHORT)
    dying.state.presence.page_add(1, "page", player(1))
    assert living.state.presence.on_pages(1)
    until(lambda: not living.state.presence.on_pages(1), SHORT + 1, living)
    assert living.state.presence.page_players() == {}


def test_a_live_process_sweeps_away_a_dead_ones_keys_and_lease(process, redis_server):
    dying, living = process("p1", SHORT), process("p2", SHORT)
    dying.state.presence.page_add(1, "page", player(1))
    until(lambda: not living.state.presence.on_pages(1), SHORT + 1, living)
    living.store.heartbeat()
    client = redis_server.client()
    assert client.keys("gobang:process:*") == []
    assert client.zrange(PROCESSES, 0, -1) == [living.store.processes.me.encode()]


def test_a_challenge_sent_on_one_process_is_found_on_another(process):
    one, two = process("p1"), process("p2")
    for clock in [(300, 3), None]:
        challenge = Challenge(one.state.challenges.new_id(), 1, 2, "renju", clock)
        one.state.challenges.add(challenge)
        assert two.state.challenges.get(challenge.challenge_id) == challenge
    assert [c.clock for c in two.state.challenges.all()] == [(300, 3), None]


@pytest.mark.parametrize("hidden", [True, False])
def test_a_challenge_hidden_from_a_blocker_stays_hidden_on_another_process(process, hidden):
    one, two = process("p1"), process("p2")
    challenge = Challenge(one.state.challenges.new_id(), 1, 2, "freestyle", None, hidden=hidden)
    one.state.challenges.add(challenge)
    assert two.state.challenges.get(challenge.challenge_id).hidden is hidden


def test_a_challenge_is_closed_once_whichever_process_closes_it(process):
    one, two = process("p1"), process("p2")
    challenge = Challenge(one.state.challenges.new_id(), 1, 2, "freestyle", None)
    one.state.challenges.add(challenge)
    assert two.state.challenges.take(challenge.challenge_id) is True
    assert one.state.challenges.take(challenge.challenge_id) is False
    assert one.state.challenges.get(challenge.challenge_id) is None


def test_challenge_ids_are_unique_across_processes(process):
    one, two = process("p1"), process("p2")
    ids = [p.state.challenges.new_id() for _ in range(50) for p in (one, two)]
    assert len(set(ids)) == 100


def test_the_hall_chat_is_one_log_that_keeps_the_newest_messages(process):
    one, two = process("p1"), process("p2")
    for n in range(5):
        (one, two)[n % 2].state.chat.append({"text": f"m{n}"})
    assert [m["text"] for m in one.state.chat.messages()] == ["m2", "m3", "m4"]


def test_every_processes_live_games_are_listed_by_each(process):
    one, two = process("p1"), process("p2")
    one.table.add(live_game(7, 1, 2))
    two.table.add(live_game(3, 3, 4))
    one.state.games.publish()
    two.state.games.publish()
    for listing in (one, two):
        assert [g["game_id"] for g in listing.state.games.summaries()] == [3, 7]
    assert one.state.games.summaries()[0] == live_game(3, 3, 4).live_summary()


def test_finished_games_are_not_listed(process):
    one = process("p1")
    one.table.add(live_game(7, 1, 2, status=Status.FINISHED))
    one.state.games.publish()
    assert one.state.games.summaries() == []


def test_a_dead_processes_games_leave_the_list_within_its_lease(process):
    dying, living = process("p1", SHORT), process("p2", SHORT)
    dying.table.add(live_game(7, 1, 2))
    dying.state.games.publish()
    assert [g["game_id"] for g in living.state.games.summaries()] == [7]
    until(lambda: living.state.games.summaries() == [], SHORT + 1, living)


def test_decoded_players_are_read_from_their_json():
    decoded = DecodedPlayers()
    assert decoded.decode({b"7": b'{"id": 7, "score": 1200}'}) == {7: {"id": 7, "score": 1200}}


def test_an_entry_whose_bytes_did_not_change_is_not_decoded_again():
    decoded = DecodedPlayers()
    first = decoded.decode({b"7": b'{"id": 7}'})[7]
    assert decoded.decode({b"7": b'{"id": 7}', b"8": b'{"id": 8}'})[7] is first


def test_an_entry_whose_bytes_changed_is_decoded_anew():
    decoded = DecodedPlayers()
    decoded.decode({b"7": b'{"id": 7, "score": 1200}'})
    assert decoded.decode({b"7": b'{"id": 7, "score": 1216}'}) == {7: {"id": 7, "score": 1216}}


def test_an_entry_gone_from_the_hash_is_gone_from_the_next_read():
    decoded = DecodedPlayers()
    decoded.decode({b"7": b'{"id": 7}', b"8": b'{"id": 8}'})
    assert decoded.decode({b"8": b'{"id": 8}'}) == {8: {"id": 8}}
