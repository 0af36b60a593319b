"""Live games through the play services alone, on a fake clock."""

from __future__ import annotations

import random
import threading

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError

from gobang.extensions import db
from gobang.models import Game, Move
from gobang.rules import SIZE, IllegalMove, forbidden_kind
from gobang.rules import Game as RulesGame
from gobang.services.hall.matcher import Pairing
from gobang.services.notices import ActionError
from gobang.services.play.hints import _near_black
from gobang.services.registry import services
from tests.services.conftest import FIVE_FOR_BLACK, events, play
from tests.support.refusals import results_refused


def test_a_game_waits_until_both_players_have_joined(env, users):
    black, white = users("black_bo", "white_wu")
    live, _ = env.play.factory.create(black, white, "freestyle")
    notices = env.play.seating.join(live.game_id, black.id, "sid-b")
    assert events(notices) == []
    with pytest.raises(ActionError) as refused:
        env.play.moves.place_stone(live.game_id, black.id, 7, 7)
    assert refused.value.code == "conflict"


def test_a_move_is_saved_before_it_is_announced(env, started):
    live, black, _white = started
    notices = env.play.moves.place_stone(live.game_id, black.id, 7, 7)
    assert events(notices) == ["stone_placed"]
    saved = db.session.scalar(select(func.count()).select_from(Move)
                              .where(Move.game_id == live.game_id))
    assert saved == 1


def test_five_ends_the_game_once_and_leaves_the_hall_view(env, started, clock):
    live, black, white = started
    assert [g["game_id"] for g in env.lobby.view.flush()[0].payload["games"]["set"]] == [
        live.game_id]
    notices = play(env, live, black, white, FIVE_FOR_BLACK)
    assert events(notices)[:2] == ["stone_placed", "game_over"]
    clock.advance(env.lobby.view.interval)
    assert env.lobby.view.flush()[0].payload["games"]["removed"] == [live.game_id]
    assert db.session.get(Game, live.game_id).reason == "five"
    assert env.play.table.current_game_of(black.id) is None


def test_a_refused_save_leaves_board_and_clocks_as_they_were(env, started, monkeypatch):
    live, black, white = started
    play(env, live, black, white, FIVE_FOR_BLACK[:2])
    before = (list(live.rules.moves), live.clocks.snapshot(env.clock()))

    def refuse(*_args):
        raise OSError("disk full")

    monkeypatch.setattr(env.play.moves.writer, "write", refuse)
    with pytest.raises(ActionError) as refused:
        env.play.moves.place_stone(live.game_id, black.id, 7, 8)
    assert refused.value.code == "conflict"
    assert (list(live.rules.moves), live.clocks.snapshot(env.clock())) == before
    assert live.rules.to_move == "black"


def test_a_winning_move_whose_result_the_database_refuses_is_not_kept(env, started, app):
    """The five and its result are one write: refused, neither is saved nor on the board, the
    player is told to try again, and the same move wins once the database takes writes."""
    live, black, white = started
    play(env, live, black, white, FIVE_FOR_BLACK[:-1])
    before = (list(live.rules.moves), live.clocks.snapshot(env.clock()))
    with results_refused(app.config["SQLALCHEMY_DATABASE_URI"]):
        with pytest.raises(ActionError) as refused:
            env.play.moves.place_stone(live.game_id, black.id, *FIVE_FOR_BLACK[-1])
        assert refused.value.code == "conflict"
        assert refused.value.notices == []
        assert (list(live.rules.moves), live.clocks.snapshot(env.clock())) == before
        assert (live.status, live.rules.to_move) == ("playing", "black")
        assert saved_moves(live.game_id) == len(FIVE_FOR_BLACK) - 1
    notices = env.play.moves.place_stone(live.game_id, black.id, *FIVE_FOR_BLACK[-1])
    assert events(notices)[:2] == ["stone_placed", "game_over"]
    assert saved_moves(live.game_id) == len(FIVE_FOR_BLACK)
    db.session.expire_all()
    game = db.session.get(Game, live.game_id)
    assert (game.status, game.winner, game.reason) == ("finished", "black", "five")
    assert (black.score, black.games, black.wins, white.losses) == (1030, 1, 1, 1)


def saved_moves(game_id: int) -> int:
    count = db.session.scalar(select(func.count()).select_from(Move)
                              .where(Move.game_id == game_id))
    db.session.commit()  # end the read transaction
    return count


def test_staying_away_past_the_grace_period_forfeits(env, started, clock):
    live, black, white = started
    play(env, live, black, white, FIVE_FOR_BLACK[:2])
    notices = env.play.seating.leave("sid-w")
    assert events(notices) == ["opponent_left"]
    clock.advance(env.play.timekeeper.grace_seconds - 1)
    assert env.play.timekeeper.tick() == []
    clock.advance(1)
    assert "game_over" in events(env.play.timekeeper.tick())
    game = db.session.get(Game, live.game_id)
    assert (game.winner, game.reason) == ("black", "disconnect")


def test_an_accepted_draw_offer_ends_the_game_drawn(env, started):
    live, black, white = started
    play(env, live, black, white, FIVE_FOR_BLACK[:2])
    assert events(env.play.draws.offer(live.game_id, black.id)) == ["draw_offered"]
    assert "game_over" in events(env.play.draws.answer(live.game_id, white.id, True))
    assert db.session.get(Game, live.game_id).reason == "draw_agreed"


def test_an_agreed_take_back_removes_the_move_and_its_reply(env, started):
    live, black, white = started
    play(env, live, black, white, FIVE_FOR_BLACK[:3])
    env.play.takebacks.request(live.game_id, white.id)
    notices = env.play.takebacks.answer(live.game_id, black.id, True)
    assert events(notices) == ["undone"]
    assert live.rules.moves == [FIVE_FOR_BLACK[0]]


def test_a_paused_game_stops_the_clock(env, started, clock):
    live, black, white = started
    play(env, live, black, white, FIVE_FOR_BLACK[:2])
    env.play.pauses.request(live.game_id, black.id)
    env.play.pauses.answer(live.game_id, white.id, True)
    frozen = live.clocks.snapshot(clock())
    clock.advance(60)
    assert live.clocks.snapshot(clock()) == frozen


def test_a_player_in_a_live_game_cannot_be_given_another(env, started, users):
    _live, black, _white = started
    (third,) = users("third_tu")
    with pytest.raises(ActionError) as refused:
        env.play.factory.create(third, black, "freestyle")
    assert refused.value.code == "busy"


@pytest.mark.parametrize("path", ["challenge_or_match", "rematch_or_new_game", "computer"])
def test_a_player_whose_game_only_the_database_knows_is_given_no_second_game(
        env, started, users, path):
    """The live store lost its user -> game map (Redis restarted empty): the database still
    knows the game, and every path that makes a game asks it."""
    live, black, _white = started
    env.play.table.store.drop_game(live.game_id)  # the map forgets; the game stays in play
    assert env.play.table.current_game_of(black.id) is None
    (third,) = users("third_tu")
    if path == "challenge_or_match":
        (made,) = env.lobby.pairings.start_many([Pairing(third.id, black.id, "freestyle", None)])
        refused = made
    else:
        with pytest.raises(ActionError) as raised:
            if path == "computer":
                env.computer.start(black, 1)
            else:
                env.play.factory.create(black, third, "freestyle")
        refused = raised.value
    assert isinstance(refused, ActionError)
    assert (refused.code, refused.extra["game_id"]) == ("busy", live.game_id)
    db.session.expire_all()
    games = db.session.scalars(select(Game).where(Game.status != "finished")).all()
    assert [game.id for game in games] == [live.game_id]
    assert env.play.table.current_game_of(third.id) is None


def test_a_result_is_saved_once_even_when_two_copies_of_the_game_end_it(env, started, app):
    """Two processes each holding the game (a stale owner, a restore) both pass their own
    in-memory check; the database's conditional update lets one ending through."""
    from gobang.services.registry import build_services

    live, black, white = started
    play(env, live, black, white, FIVE_FOR_BLACK[:4])
    other = build_services(app)
    assert other.play.factory.restore() == 1
    copy = other.play.table.get(live.game_id)
    assert copy is not live and copy.status == "playing"
    first = env.play.finisher.resign(live.game_id, white.id)
    second = other.play.finisher.resign(live.game_id, black.id)
    assert "game_over" in events(first)
    assert second == []
    db.session.expire_all()
    assert (black.score, black.games, black.wins, white.games) == (1030, 1, 1, 1)
    assert db.session.get(Game, live.game_id).winner == "black"


def _crash_state(env, users, moves):
    """The database as a crash leaves it: the moves saved, the game still `playing`."""
    from datetime import timedelta

    from gobang.models import utcnow

    black, white = users("black_bo", "white_wu")
    live, _ = env.play.factory.create(black, white, "freestyle")
    env.play.seating.join(live.game_id, black.id, "sid-b")
    env.play.seating.join(live.game_id, white.id, "sid-w")
    started = utcnow() - timedelta(minutes=5)
    for number, (row, col) in enumerate(moves, start=1):
        db.session.add(Move(game_id=live.game_id, number=number, row=row, col=col,
                            color="black" if number % 2 else "white"))
    game = db.session.get(Game, live.game_id)
    game.turn_started_at = started
    db.session.commit()
    env.play.table.drop(live.game_id)
    return live.game_id, black, white, started


def test_restore_finishes_a_game_its_last_saved_move_had_won(env, users):
    game_id, black, white, _started = _crash_state(env, users, FIVE_FOR_BLACK)
    assert env.play.factory.restore() == 1
    game = db.session.get(Game, game_id)
    db.session.refresh(game)
    assert (game.status, game.winner, game.reason) == ("finished", "black", "five")
    assert env.play.table.get(game_id) is None
    db.session.refresh(black)
    assert (black.score, black.wins) == (1030, 1)


def test_a_restored_game_whose_result_was_refused_ends_on_the_next_tick_after(env, users, app):
    game_id, black, _white, _started = _crash_state(env, users, FIVE_FOR_BLACK)
    with results_refused(app.config["SQLALCHEMY_DATABASE_URI"]):
        with pytest.raises(SQLAlchemyError):
            env.play.factory.restore()
        db.session.rollback()
        with pytest.raises(SQLAlchemyError):
            env.play.timekeeper.tick()
        db.session.rollback()
    assert "game_over" in events(env.play.timekeeper.tick())
    game = db.session.get(Game, game_id)
    db.session.refresh(game)
    assert (game.status, game.winner, game.reason) == ("finished", "black", "five")
    assert env.play.timekeeper.tick() == []
    db.session.refresh(black)
    assert (black.score, black.wins, black.games) == (1030, 1, 1)


def test_restore_charges_the_thinking_time_used_before_the_server_stopped(env, users, clock):
    from datetime import timedelta

    game_id, _black, _white, started = _crash_state(env, users, FIVE_FOR_BLACK[:3])
    env.play.factory.restore(last_alive=started + timedelta(seconds=20))
    live = env.play.table.get(game_id)
    left = live.clocks.snapshot(clock())
    assert left["white_ms"] == 600_000 - 20_000
    assert left["black_ms"] == 600_000


@pytest.mark.parametrize("seed", range(6))
def test_forbidden_points_near_black_stones_are_all_of_them(seed):
    """Hints check only the points within four steps of a black stone; on crowded random
    renju positions that finds exactly what checking every empty point finds."""
    rng = random.Random(seed)
    game = RulesGame("renju")
    centre = [(r, c) for r in range(3, 12) for c in range(3, 12)]
    rng.shuffle(centre)
    for point in centre[:60]:
        try:
            if game.place(*point) is not None:
                break
        except IllegalMove:
            continue
    taken = set(game.moves)
    everywhere = {(r, c) for r in range(SIZE) for c in range(SIZE)
                  if (r, c) not in taken and forbidden_kind(game.board, r, c) is not None}
    near = {p for p in _near_black(tuple(game.moves)[0::2]) - taken
            if forbidden_kind(game.board, *p) is not None}
    assert everywhere  # each seed's position has some, so the comparison means something
    assert near == everywhere


def test_time_ends_games_one_at_a_time_so_the_ticker_can_yield_between_them(env, users, clock):
    seated = [users(f"black_{n}", f"white_{n}") for n in range(3)]
    games = [env.play.factory.create(black, white, "freestyle")[0] for black, white in seated]
    clock.advance(env.play.timekeeper.abort_seconds)  # nobody sat down: all three abort
    endings = env.play.timekeeper.endings()
    first = next(endings)
    assert events(first).count("game_over") == 1
    assert sum(1 for live in games if live.status == "finished") == 1  # the others not yet
    assert [events(batch).count("game_over") for batch in endings] == [1, 1]
    assert all(db.session.get(Game, live.game_id).reason == "aborted" for live in games)


def test_a_game_restored_after_one_move_runs_whites_clock(env, users, clock):
    from datetime import timedelta

    game_id, _black, _white, started = _crash_state(env, users, FIVE_FOR_BLACK[:1])
    env.play.factory.restore(last_alive=started + timedelta(seconds=20))
    live = env.play.table.get(game_id)
    assert live.clocks.running == "white"
    assert live.clocks.snapshot(clock())["white_ms"] == 600_000 - 20_000


def test_a_game_restored_after_one_move_gives_white_the_abort_window_again(env, users, clock):
    game_id, _black, _white, _started = _crash_state(env, users, FIVE_FOR_BLACK[:1])
    env.play.factory.restore()
    live = env.play.table.get(game_id)
    assert live.abort_left(clock()) == env.play.timekeeper.abort_seconds


def test_a_game_with_nothing_due_does_not_hold_up_the_games_after_it(env, users, clock):
    seated = users("black_bo", "white_wu")
    quiet, _ = env.play.factory.create(*seated, "freestyle")
    env.play.seating.join(quiet.game_id, seated[0].id, "sid-b")
    env.play.seating.join(quiet.game_id, seated[1].id, "sid-w")
    play(env, quiet, *seated, FIVE_FOR_BLACK[:2])  # both have moved: no abort window
    empty, _ = env.play.factory.create(*users("black_2", "white_2"), "freestyle")
    clock.advance(env.play.timekeeper.abort_seconds)  # nobody sat down at the second game
    assert events(env.play.timekeeper.tick()).count("game_over") == 1
    assert (quiet.status, empty.status) == ("playing", "finished")


class WatchedLock:
    """A game's lock that sets `waited` when a thread finds it held by another."""

    def __init__(self, waited: threading.Event) -> None:
        self._lock = threading.RLock()
        self.waited = waited

    def __enter__(self) -> WatchedLock:
        if not self._lock.acquire(blocking=False):
            self.waited.set()
            self._lock.acquire()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._lock.release()


def test_a_resignation_waits_for_the_move_being_written(env, started, app, monkeypatch):
    live, black, white = started
    either = threading.Event()  # the resignation waited for the lock, or it is done
    live.lock = WatchedLock(either)
    resigned: list[object] = []

    def resign() -> None:
        with app.app_context():
            try:
                resigned.append(events(services().play.finisher.resign(live.game_id, white.id)))
            except Exception as error:  # noqa: BLE001 - asserted below
                resigned.append(error)
            finally:
                either.set()

    resigning = threading.Thread(target=resign)
    real_write = env.play.moves.writer.write
    done_while_writing: list[bool] = []

    def write(move, clocks) -> None:
        resigning.start()
        assert either.wait(10)
        done_while_writing.append(bool(resigned))
        real_write(move, clocks)

    monkeypatch.setattr(env.play.moves.writer, "write", write)
    assert events(env.play.moves.place_stone(live.game_id, black.id, 7, 7)) == ["stone_placed"]
    resigning.join(10)
    assert done_while_writing == [False]
    assert resigned and "game_over" in resigned[0]
    game = db.session.get(Game, live.game_id)
    db.session.refresh(game)
    assert (game.reason, len(game.moves)) == ("resign", 1)


def test_taking_back_to_one_move_gives_white_the_abort_window_again(env, started, clock):
    live, black, white = started
    play(env, live, black, white, FIVE_FOR_BLACK[:3])
    env.play.takebacks.request(live.game_id, white.id)
    env.play.takebacks.answer(live.game_id, black.id, True)
    assert len(live.rules.moves) == 1
    assert live.abort_left(clock()) == env.play.timekeeper.abort_seconds


def test_when_both_players_stay_away_the_first_to_leave_forfeits(env, started, clock):
    live, black, white = started
    play(env, live, black, white, FIVE_FOR_BLACK[:2])
    env.play.seating.leave("sid-b")
    clock.advance(5)
    env.play.seating.leave("sid-w")
    clock.advance(env.play.timekeeper.grace_seconds)  # both past their grace at this tick
    assert "game_over" in events(env.play.timekeeper.tick())
    game = db.session.get(Game, live.game_id)
    assert (game.winner, game.reason) == ("white", "disconnect")


def test_a_declined_draw_offer_may_be_made_again_only_after_ten_more_moves(env, started):
    from gobang.services.play.draws import AGAIN_AFTER_MOVES

    live, black, white = started
    moves = [(row, col) for row in range(0, 15, 2) for col in range(0, 15, 3)]
    play(env, live, black, white, moves[:2])
    env.play.draws.offer(live.game_id, black.id)
    env.play.draws.answer(live.game_id, white.id, False)
    for played in range(AGAIN_AFTER_MOVES):
        if played in (0, AGAIN_AFTER_MOVES - 1):
            with pytest.raises(ActionError) as refused:
                env.play.draws.offer(live.game_id, black.id)
            assert (refused.value.code, refused.value.extra) == (
                "conflict", {"moves_left": AGAIN_AFTER_MOVES - played})
        mover = black if len(live.rules.moves) % 2 == 0 else white
        env.play.moves.place_stone(live.game_id, mover.id, *moves[2 + played])
    assert events(env.play.draws.offer(live.game_id, black.id)) == ["draw_offered"]


def test_a_declined_offer_does_not_stop_the_decliner_offering(env, started):
    live, black, white = started
    play(env, live, black, white, FIVE_FOR_BLACK[:2])
    env.play.draws.offer(live.game_id, black.id)
    env.play.draws.answer(live.game_id, white.id, False)
    assert events(env.play.draws.offer(live.game_id, white.id)) == ["draw_offered"]
