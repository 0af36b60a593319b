"""Opening rules in play (docs/protocol.md, "Openings"): each step judged like a move, saved
before it is told, seats swapped by a colour choice, and every step back after a restart."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from gobang.extensions import db
from gobang.models import Game, Move
from gobang.services.notices import ActionError
from tests.services.conftest import events

CENTRE = (7, 7)
# Three stones a swap or swap2 opening begins with (black, white, black).
THREE = [(7, 7), (7, 8), (8, 8)]
# Taraguchi-10's first four stones, each within its square (1, 3, 5, 7).
FOUR = [(7, 7), (6, 7), (9, 9), (4, 7)]


@pytest.fixture
def opening_game(env, users, clock):
    """A game with an opening between `first` (who places the first stone) and `second`,
    both seated; a 5+0 clock."""

    def make(rule: str, ruleset: str = "freestyle"):
        first, second = users("first_fa", "second_se")
        live, _ = env.play.factory.create(first, second, ruleset, opening=rule,
                                          time_control=(300, 0))
        env.play.seating.join(live.game_id, first.id, "sid-f")
        env.play.seating.join(live.game_id, second.id, "sid-s")
        return live, first, second

    return make


def place(env, live, user, point):
    return env.play.moves.place_stone(live.game_id, user.id, *point)


def refusal(call, *args) -> str:
    with pytest.raises(ActionError) as refused:
        call(*args)
    return refused.value.code


def seats(live) -> tuple[int, int]:
    return live.black.user_id, live.white.user_id


def test_swap2_the_second_player_takes_black_and_the_seats_swap(env, opening_game):
    live, first, second = opening_game("swap2")
    for point in THREE:
        place(env, live, first, point)
    notices = env.play.openings.choose(live.game_id, second.id, "black")
    assert events(notices) == ["opening_chosen"]
    assert seats(live) == (second.id, first.id)
    assert live.to_move() == "white" and not live.in_opening()
    db.session.expire_all()
    row = db.session.get(Game, live.game_id)
    assert (row.black_id, row.white_id) == (second.id, first.id)


def test_swap2_place_two_then_the_first_player_chooses(env, opening_game):
    live, first, second = opening_game("swap2")
    for point in THREE:
        place(env, live, first, point)
    env.play.openings.choose(live.game_id, second.id, "place_two")
    assert live.to_move() == "white"  # the second player's seat, placing a white stone
    place(env, live, second, (6, 6))
    place(env, live, second, (9, 9))
    env.play.openings.choose(live.game_id, first.id, "white")
    assert seats(live) == (second.id, first.id)
    assert live.to_move() == "white" and len(live.rules.moves) == 5
    place(env, live, first, (5, 5))  # the sixth stone, in play: first holds white now
    assert live.to_move() == "black"


def test_the_stones_of_an_opening_are_the_games_first_moves(env, opening_game):
    live, first, second = opening_game("swap")
    for point in THREE:
        place(env, live, first, point)
    stored = db.session.scalars(select(Move).where(Move.game_id == live.game_id)
                                .order_by(Move.number)).all()
    assert [(m.row, m.col, m.color) for m in stored] == [
        (7, 7, "black"), (7, 8, "white"), (8, 8, "black")]


def test_taraguchi_ten_offers_then_white_picks_one(env, opening_game):
    live, first, second = opening_game("taraguchi-10", "renju")
    for point in FOUR:
        user = first if live.to_move() == "black" else second
        place(env, live, user, point)
        chooser = second if user is first else first
        env.play.openings.choose(live.game_id, chooser.id, "black" if chooser is first
                                 else "white")
    offers = [(3, col) for col in range(10)]
    notices = env.play.openings.offer(live.game_id, first.id, offers)
    assert events(notices) == ["fifth_offered"]
    assert live.to_move() == "white"
    picked = env.play.openings.pick(live.game_id, second.id, 3, 4)
    assert events(picked) == ["stone_placed"]
    assert live.rules.moves[-1] == (3, 4) and not live.in_opening()
    assert live.to_move() == "white"


REFUSALS = [
    # (rule, ruleset, stones placed by the first player before, action, expected code)
    ("swap", "freestyle", 3, ("place", "second", (0, 0)), "conflict"),
    ("swap", "freestyle", 3, ("choose", "first", "black"), "not_your_turn"),
    ("swap", "freestyle", 1, ("choose", "second", "black"), "not_your_turn"),
    ("swap", "freestyle", 3, ("choose", "second", "place_two"), "bad_request"),
    ("swap2", "freestyle", 2, ("place", "first", (7, 7)), "occupied"),
    ("taraguchi-10", "renju", 0, ("place", "first", (6, 6)), "outside_area"),
]


@pytest.mark.parametrize(("rule", "ruleset", "before", "action", "code"), REFUSALS)
def test_a_step_the_opening_does_not_allow_is_refused_and_changes_nothing(
        env, opening_game, rule, ruleset, before, action, code):
    live, first, second = opening_game(rule, ruleset)
    for point in THREE[:before]:
        place(env, live, first, point)
    kind, who, value = action
    user = first if who == "first" else second
    version, log = live.version, live.opening.log
    if kind == "place":
        assert refusal(place, env, live, user, value) == code
    else:
        assert refusal(env.play.openings.choose, live.game_id, user.id, value) == code
    assert (live.version, live.opening.log, len(live.rules.moves)) == (version, log, before)


@pytest.mark.parametrize(("offers", "code"), [
    ([(3, col) for col in range(9)] + [(3, 0)], "repeated_offer"),
    # (7, 3) and (7, 11) mirror each other once the four stones are placed symmetrically.
    ([(7, 3), (7, 11)] + [(2, col) for col in range(8)], "symmetric_offer"),
    ([(3, col) for col in range(9)], "bad_request"),
])
def test_taraguchi_offers_refused(env, opening_game, offers, code):
    live, first, second = opening_game("taraguchi-10", "renju")
    # Symmetric about the vertical line through the centre, so mirrored points are alike.
    for point in [(7, 7), (6, 7), (5, 7), (8, 7)]:
        user = first if live.to_move() == "black" else second
        place(env, live, user, point)
        chooser = second if user is first else first
        env.play.openings.choose(live.game_id, chooser.id,
                                 "black" if chooser is first else "white")
    assert refusal(env.play.openings.offer, live.game_id, first.id, offers) == code


def test_a_pick_of_a_point_not_offered_is_refused(env, opening_game):
    live, first, second = opening_game("taraguchi-10", "renju")
    for point in FOUR:
        user = first if live.to_move() == "black" else second
        place(env, live, user, point)
        chooser = second if user is first else first
        env.play.openings.choose(live.game_id, chooser.id,
                                 "black" if chooser is first else "white")
    env.play.openings.offer(live.game_id, first.id, [(3, col) for col in range(10)])
    assert refusal(env.play.openings.pick, live.game_id, second.id, 12, 12) == "not_offered"
    assert refusal(place, env, live, second, (3, 4)) == "conflict"


@pytest.mark.parametrize("ask", ["draw", "take-back"])
def test_draws_and_take_backs_wait_for_the_end_of_the_opening(env, opening_game, ask):
    live, first, second = opening_game("swap")
    place(env, live, first, THREE[0])
    call = env.play.draws.offer if ask == "draw" else env.play.takebacks.request
    assert refusal(call, live.game_id, first.id) == "conflict"


def test_a_take_back_never_reaches_into_the_opening(env, opening_game):
    live, first, second = opening_game("swap")
    for point in THREE:
        place(env, live, first, point)
    env.play.openings.choose(live.game_id, second.id, "white")
    # Swap ends with white to move: the second player, at white, has no move of its own yet.
    assert refusal(env.play.takebacks.request, live.game_id, second.id) == "conflict"
    assert refusal(env.play.takebacks.request, live.game_id, first.id) == "conflict"


def test_the_clock_of_whoever_acts_runs_and_a_swap_keeps_each_players_time(
        env, opening_game, clock):
    live, first, second = opening_game("swap")
    place(env, live, first, THREE[0])  # a first step is not charged: no clock ran
    clock.advance(10)
    place(env, live, first, THREE[1])
    clock.advance(5)
    place(env, live, first, THREE[2])
    clock.advance(20)
    env.play.openings.choose(live.game_id, second.id, "black")
    snapshot = live.clocks.snapshot(clock())
    # first (now white) used 15 s, second (now black) 20 s; white's clock runs now.
    assert snapshot == {"white_ms": 285_000, "black_ms": 280_000}
    assert live.clocks.running == "white"


def _restore(app, game_id):
    from gobang.services.registry import build_services

    other = build_services(app)
    assert other.play.factory.restore() >= 1
    return other, other.play.table.get(game_id)


RESTARTS = [
    # (rule, ruleset, steps as (who, kind, value))
    ("swap", "freestyle", [("first", "place", (7, 7)), ("first", "place", (7, 8))]),
    ("swap2", "freestyle", [("first", "place", p) for p in THREE]
     + [("second", "choose", "place_two"), ("second", "place", (6, 6))]),
    # The second player takes black: the first places the white stone.
    ("taraguchi-10", "renju", [("first", "place", (7, 7)), ("second", "choose", "black"),
                               ("first", "place", (6, 7))]),
    # Nobody swaps: each chooser keeps their colour, and black offers ten fifth stones.
    ("taraguchi-10", "renju",
     [("first", "place", FOUR[0]), ("second", "choose", "white"),
      ("second", "place", FOUR[1]), ("first", "choose", "black"),
      ("first", "place", FOUR[2]), ("second", "choose", "white"),
      ("second", "place", FOUR[3]), ("first", "choose", "black"),
      ("first", "offer", [(3, col) for col in range(10)])]),
]


@pytest.mark.parametrize(("rule", "ruleset", "steps"), RESTARTS)
def test_a_restart_in_the_middle_of_an_opening_brings_back_the_same_step(
        env, opening_game, app, rule, ruleset, steps):
    live, first, second = opening_game(rule, ruleset)
    for who, kind, value in steps:
        user = first if who == "first" else second
        if kind == "place":
            place(env, live, user, value)
        elif kind == "choose":
            env.play.openings.choose(live.game_id, user.id, value)
        else:
            env.play.openings.offer(live.game_id, user.id, value)
    before = live.state("spectator", 0)
    _other, back = _restore(app, live.game_id)
    after = back.state("spectator", 0)
    assert after["opening"] == before["opening"]
    assert (after["black"], after["white"], after["moves"], after["to_move"]) == (
        before["black"], before["white"], before["moves"], before["to_move"])
    assert after["opening"]["step"] is not None


def test_the_state_names_the_players_by_id_in_the_opening(env, opening_game):
    live, first, second = opening_game("swap2")
    place(env, live, first, THREE[0])
    opening = live.state("black", 0)["opening"]
    assert opening == {
        "rule": "swap2", "first": first.id,
        "step": {"player": first.id, "kind": "place"},
        "log": [{"player": first.id, "kind": "place", "row": 7, "col": 7}],
    }


def test_a_game_without_an_opening_says_so(env, opening_game):
    live, _first, _second = opening_game("none")
    assert live.state("black", 0)["opening"] is None and live.opening is None


@pytest.mark.parametrize(("ruleset", "rule"), [("renju", "swap2"), ("freestyle", "taraguchi-10"),
                                               ("standard", "nonsense")])
def test_an_opening_the_ruleset_does_not_allow_is_refused(env, users, ruleset, rule):
    first, second = users("first_fa", "second_se")
    with pytest.raises(ActionError) as refused:
        env.play.factory.create(first, second, ruleset, opening=rule)
    assert refused.value.code == "bad_request"


def _finish_swap2_by_resignation(env, opening_game):
    live, first, second = opening_game("swap2")
    for point in THREE:
        place(env, live, first, point)
    env.play.openings.choose(live.game_id, second.id, "black")
    env.play.finisher.resign(live.game_id, first.id)
    return live, first, second


def test_the_record_file_tells_the_opening_and_who_ended_with_which_colour(env, opening_game):
    from gobang.services.history.record_files import record_txt

    live, first, second = _finish_swap2_by_resignation(env, opening_game)
    db.session.expire_all()
    text = record_txt(db.session.get(Game, live.game_id))
    assert "# Black: second_se" in text and "# White: first_fa" in text
    assert [line for line in text.splitlines() if "Opening" in line] == [
        "# Opening: swap2, first stone by first_fa",
        "# Opening: first_fa placed stone 1 at h8",
        "# Opening: first_fa placed stone 2 at i8",
        "# Opening: first_fa placed stone 3 at i7",
        "# Opening: second_se chose black",
    ]


def test_a_finished_games_record_has_the_opening_and_no_step_left(env, opening_game):
    from gobang.services.play.stored import game_record

    live, first, second = _finish_swap2_by_resignation(env, opening_game)
    db.session.expire_all()
    record = game_record(live.game_id)
    assert record["opening"]["rule"] == "swap2" and record["opening"]["step"] is None
    assert record["opening"]["first"] == first.id
    assert record["opening"]["log"][-1] == {"player": second.id, "kind": "choose",
                                            "option": "black"}


def test_a_rematch_keeps_the_opening_and_the_other_player_places_the_first_stone(
        env, opening_game):
    live, first, second = _finish_swap2_by_resignation(env, opening_game)
    env.play.rematches.offer(live.game_id, first.id)
    env.play.rematches.offer(live.game_id, second.id)
    rematch = next(g for g in env.play.table.all() if g.game_id != live.game_id)
    assert rematch.opening.rule == "swap2"
    assert rematch.black.user_id == second.id  # places the first stone this time
