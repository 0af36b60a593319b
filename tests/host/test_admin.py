"""The host's commands themselves (`flask --app app ...`), through Flask's CLI runner."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gobang import create_app
from gobang.extensions import db
from gobang.models import Game, User, utcnow
from gobang.services.registry import services
from tests.conftest import make_config
from tests.support.forms import login

PASSWORD = "correct horse"


@pytest.fixture
def host(app):
    def run(*args: str, stdin: str | None = None):
        return app.test_cli_runner().invoke(args=list(args), input=stdin)

    return run


@pytest.fixture
def users(host) -> None:
    for name in ("alice", "bob", "carol"):
        assert host("create-user", name, stdin=f"{PASSWORD}\n{PASSWORD}\n").exit_code == 0


@pytest.fixture
def game_in_play(app, users) -> int:
    with app.app_context():
        alice, bob = (services().accounts.find(n) for n in ("alice", "bob"))
        game = Game(black_id=alice.id, white_id=bob.id, status="playing")
        db.session.add(game)
        db.session.commit()
        return game.id


def test_created_user_can_log_in(host, client):
    result = host("create-user", "dora", stdin=f"{PASSWORD}\n{PASSWORD}\n")
    assert result.exit_code == 0
    assert "Created user dora" in result.output
    assert login(client, "dora").status_code == 302


@pytest.mark.parametrize(
    ("username", "typed", "error"),
    [
        ("al", f"{PASSWORD}\n{PASSWORD}\n", "Username must be"),
        ("al ice", f"{PASSWORD}\n{PASSWORD}\n", "Username may contain only"),
        ("alice", f"{PASSWORD}\n{PASSWORD}\n", "That username is taken."),
        ("ALICE", f"{PASSWORD}\n{PASSWORD}\n", "That username is taken."),
        ("dora", "short\nshort\n", "Password must be at least"),
    ],
)
def test_create_user_refuses_what_registration_refuses(host, users, username, typed, error):
    result = host("create-user", username, stdin=typed)
    assert result.exit_code == 1
    assert error in result.output


def test_create_user_asks_for_the_password_twice(host):
    result = host("create-user", "dora", stdin=f"{PASSWORD}\nsomething else\n" * 3)
    assert "do not match" in result.output


def test_password_is_never_echoed(host):
    result = host("create-user", "dora", stdin=f"{PASSWORD}\n{PASSWORD}\n")
    assert PASSWORD not in result.output


def test_reset_password_replaces_the_old_one(app, host, users):
    result = host("reset-password", "alice", "--wait", "0", stdin="new password\n" * 2)
    assert result.exit_code == 0
    assert login(app.test_client(), "alice", "new password").status_code == 302
    assert login(app.test_client(), "alice").status_code == 200  # the form again: refused


@pytest.mark.parametrize("command", ["reset-password", "ban", "unban"])
def test_unknown_user_is_an_error(host, command):
    result = host(command, "nobody", stdin="new password\n" * 2)
    assert result.exit_code == 1
    assert "no user named 'nobody'" in result.output


def test_banned_user_cannot_log_in(host, users, client):
    result = host("ban", "alice", "--wait", "0")
    assert result.exit_code == 0
    assert login(client, "alice").status_code == 200  # the form again, with the error


def test_ban_says_when_no_server_answered(host, users):
    result = host("ban", "alice", "--wait", "0.3")
    assert "No running server answered yet" in result.output


def test_list_users_shows_each_with_status(host, users):
    host("ban", "bob", "--wait", "0")
    lines = host("list-users").output.splitlines()
    assert [line.split()[1:] for line in lines[1:]] == [
        ["alice", "1000", "0", "active"], ["bob", "1000", "0", "banned"],
        ["carol", "1000", "0", "active"]]


@pytest.mark.parametrize(
    ("options", "names"),
    [(["--banned"], ["bob"]), (["--search", "AR"], ["carol"]), (["--search", "%"], [])],
)
def test_list_users_filters(host, users, options, names):
    host("ban", "bob", "--wait", "0")
    lines = host("list-users", *options).output.splitlines()[1:]
    assert [line.split()[1] for line in lines] == names


def test_list_games_shows_games_in_play(host, game_in_play):
    output = host("list-games").output
    assert f"{game_in_play}  playing" in output
    assert "alice vs bob" in output


def test_list_games_says_when_there_are_none(host):
    assert "No games in play." in host("list-games").output


@pytest.mark.parametrize(("game", "error"), [("999", "There is no game 999."),
                                              ("finished", "is already over")])
def test_abort_game_refuses_games_not_in_play(app, host, game_in_play, game, error):
    if game == "finished":
        with app.app_context():
            db.session.get(Game, game_in_play).status = "finished"
            db.session.commit()
        game = str(game_in_play)
    result = host("abort-game", game, "--wait", "0")
    assert result.exit_code == 1
    assert error in result.output


@pytest.mark.parametrize(("steps", "shown"), [
    ([], "off"), (["on"], "on"), (["on", "off"], "off")])
def test_maintenance_status(host, steps, shown):
    for step in steps:
        host("maintenance", step, "--wait", "0")
    assert f"Maintenance mode is {shown}" in host("maintenance", "status").output


def test_what_was_asked_while_no_server_ran_applies_when_it_starts(
    app, host, game_in_play, database_url
):
    host("abort-game", str(game_in_play), "--wait", "0")
    host("maintenance", "on", "--wait", "0")
    started = create_app(make_config(database_url))
    try:
        with started.app_context():
            assert services().play.maintenance.on is True
            assert services().store.get_game(game_in_play) is None
            game = db.session.get(Game, game_in_play)
            assert (game.status, game.reason) == ("finished", "aborted")
            assert db.session.get(User, game.black_id).games == 0
    finally:
        with started.app_context():
            db.session.remove()
            db.engine.dispose()


def test_the_host_grants_lists_and_takes_the_moderator_role(host, users):
    assert "alice is now a moderator." in host("moderator", "grant", "alice").output
    assert host("moderator", "list").output.split() == ["alice"]
    assert "alice is no longer a moderator." in host("moderator", "revoke", "alice").output
    assert host("moderator", "list").output.split() == []


@pytest.mark.parametrize("args", [("moderator", "grant"), ("moderator", "grant", "nobody")])
def test_the_moderator_command_refuses_a_missing_or_unknown_name(host, users, args):
    result = host(*args)
    assert result.exit_code != 0 and "Error" in result.output


def test_remove_guests_deletes_only_old_guests_that_never_played(app, host, users):
    with app.app_context():
        idle, played, recent = (services().guests.create(f"10.0.0.{n}") for n in (1, 2, 3))
        alice = services().accounts.find("alice")
        db.session.add(Game(black_id=played.id, white_id=alice.id, status="finished"))
        for user in (idle, played, alice):
            user.created_at = utcnow() - timedelta(days=8)
        db.session.commit()
        kept = {played.id, recent.id}
    result = host("remove-guests")
    assert result.exit_code == 0 and "Removed 1 unused guest account(s)" in result.output
    with app.app_context():
        guests = {user.id for user in db.session.query(User).filter(User.guest)}
        assert guests == kept and services().accounts.find("alice") is not None


def test_a_guest_cannot_be_made_a_moderator(app, host):
    with app.app_context():
        name = services().guests.create("10.0.0.1").username
    result = host("moderator", "grant", name)
    assert result.exit_code != 0 and "is a guest" in result.output
