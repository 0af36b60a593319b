"""The host's `flask tournament` commands, through Flask's CLI runner."""

from __future__ import annotations

import pytest

from gobang.extensions import db
from gobang.models import Tournament


@pytest.fixture
def host(app):
    def run(*args: str):
        return app.test_cli_runner().invoke(args=["tournament", *args])

    return run


def stored(app) -> list[tuple]:
    with app.app_context():
        return [(t.name, t.ruleset, t.time_control(), t.minutes, t.min_players, t.rated,
                 t.opening, t.status) for t in db.session.scalars(db.select(Tournament))]


def test_create_schedules_an_arena_with_what_was_asked(app, host):
    result = host("create", "--name", "Sunday arena", "--ruleset", "renju", "--clock", "300+3",
                  "--minutes", "90", "--starts-in", "30", "--min-players", "4", "--casual")
    assert result.exit_code == 0, result.output
    assert "Created tournament 1: Sunday arena" in result.output
    assert stored(app) == [("Sunday arena", "renju", (300, 3), 90, 4, False, "none",
                            "scheduled")]


@pytest.mark.parametrize("args, message", [
    (["--clock", "fast"], "seconds+increment"),
    (["--ruleset", "chess"], "Ruleset must be one of"),
    (["--minutes", "0"], "1 to 1440 minutes"),
    (["--min-players", "1"], "at least 2 players"),
    (["--ruleset", "freestyle", "--opening", "nonsense"], "Opening must be one of"),
])
def test_create_refuses_a_bad_plan_with_a_message(app, host, args, message):
    result = host("create", "--name", "Bad", *args)
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output
    assert stored(app) == []


def test_list_shows_each_tournament_and_cancel_ends_one(app, host):
    host("create", "--name", "Weekly", "--clock", "none")
    assert "scheduled" in host("list").output and "no clock  Weekly" in host("list").output
    assert host("cancel", "1").exit_code == 0
    assert "cancelled" in host("list").output
    again = host("cancel", "1")
    assert again.exit_code != 0 and "already over" in again.output


def test_list_says_when_there_are_none(host):
    assert host("list").output == "No tournaments.\n"


def test_cancelling_an_unknown_tournament_is_an_error(host):
    result = host("cancel", "42")
    assert result.exit_code != 0 and "no tournament with that id" in result.output


def test_create_schedules_a_swiss_event_of_so_many_rounds(app, host):
    result = host("create", "--kind", "swiss", "--name", "Weekly Swiss", "--rounds", "7")
    assert result.exit_code == 0, result.output
    assert "Created tournament 1: Weekly Swiss" in result.output and "7 rounds" in result.output
    with app.app_context():
        made = db.session.scalars(db.select(Tournament)).one()
        assert (made.kind, made.rounds, made.minutes) == ("swiss", 7, None)
    assert "swiss" in host("list").output and "7 rnd" in host("list").output


@pytest.mark.parametrize("args, message", [
    (["--kind", "swiss"], "1 to 20 rounds"),
    (["--kind", "swiss", "--rounds", "21"], "1 to 20 rounds"),
    (["--kind", "swiss", "--rounds", "5", "--minutes", "60"], "not minutes"),
    (["--rounds", "5"], "not rounds"),
    (["--kind", "knockout"], "'knockout' is not one of"),
])
def test_create_refuses_a_swiss_event_without_its_rounds(app, host, args, message):
    result = host("create", "--name", "Bad", *args)
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output
    assert stored(app) == []
