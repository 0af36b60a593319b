"""The host's commands: `flask --app app <command>`.

They run in their own process, beside the server: accounts are changed in the database
directly, and what the live server must act on (disconnecting a banned user, aborting a game,
maintenance mode) goes through the tables it polls about once a second (see
gobang/services/admin.py). Commands that need the server wait a few seconds for it to confirm.
"""

from __future__ import annotations

import time
from datetime import timedelta

import click
from flask import Flask
from flask.cli import with_appcontext
from sqlalchemy import func, or_, select

from gobang.extensions import db
from gobang.models import Game, Move, User, utcnow
from gobang.services import admin
from gobang.services.accounts.accounts import AccountError, password_problem
from gobang.services.arenas.schedule import ARENA, KINDS, OPEN, SWISS, Plan, ends_at, parse_clock
from gobang.services.notices import ActionError
from gobang.services.registry import services

WAIT_HELP = "Seconds to wait for the running server to confirm (0: do not wait)."


def register_commands(app: Flask) -> None:
    for command in (create_user, reset_password, ban, unban, list_users, list_games,
                    abort_game, maintenance, moderator, remove_guests, tournament):
        app.cli.add_command(command)


def _user(username: str) -> User:
    user = services().accounts.find(username)
    if user is None:
        raise click.ClickException(f"There is no user named {username!r}.")
    return user


def _new_password() -> str:
    # Read from the terminal (or stdin), never from the command line, where `ps` would show it.
    password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    problem = password_problem(password)
    if problem:
        raise click.ClickException(problem)
    return password


def _await_server(command_id: int, wait: float) -> str | None:
    deadline = time.monotonic() + wait
    while True:
        outcome = admin.command_outcome(command_id)
        if outcome is not None or time.monotonic() >= deadline:
            return outcome
        time.sleep(0.2)


def _report(command_id: int, wait: float, pending: str) -> None:
    outcome = _await_server(command_id, wait) if wait > 0 else None
    click.echo(f"Server: {outcome}." if outcome else pending)


@click.command("create-user")
@with_appcontext
@click.argument("username")
def create_user(username: str) -> None:
    """Create an account (the password is asked for)."""
    password = _new_password()
    try:
        user = services().accounts.register(username, password, password)
    except AccountError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Created user {user.username} (id {user.id}).")


@click.command("reset-password")
@with_appcontext
@click.argument("username")
@click.option("--wait", default=5.0, show_default=True, help=WAIT_HELP)
def reset_password(username: str, wait: float) -> None:
    """Set a new password for an account (the password is asked for) and log it out
    everywhere."""
    user = _user(username)
    try:
        services().accounts.set_password(user, _new_password())
    except AccountError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Password of {user.username} changed; every session of theirs has ended.")
    command_id = admin.queue_command(admin.DISCONNECT, user.id)
    _report(command_id, wait, "No running server answered yet; it will disconnect them "
            "when it next polls.")


@click.command("ban")
@with_appcontext
@click.argument("username")
@click.option("--wait", default=5.0, show_default=True, help=WAIT_HELP)
def ban(username: str, wait: float) -> None:
    """Lock a user out and disconnect them from the hall and their game at once."""
    user = _user(username)
    user.banned = True
    # Their sessions stay ended after an unban; the server closes the connections (below).
    services().accounts.end_sessions(user, "banned")
    click.echo(f"Banned {user.username}: they can no longer log in.")
    command_id = admin.queue_command(admin.DISCONNECT, user.id)
    _report(command_id, wait, "No running server answered yet; it will disconnect them "
            "when it next polls.")


@click.command("unban")
@with_appcontext
@click.argument("username")
def unban(username: str) -> None:
    """Let a banned user log in again."""
    user = _user(username)
    user.banned = False
    db.session.commit()
    click.echo(f"Unbanned {user.username}.")


@click.command("list-users")
@with_appcontext
@click.option("--banned", is_flag=True, help="Only banned users.")
@click.option("--search", default=None, help="Only names containing this text.")
def list_users(banned: bool, search: str | None) -> None:
    """List accounts: id, name, score, games played, and whether banned (or a guest)."""
    query = select(User).where(User.deleted.is_(False)).order_by(User.id)
    if banned:
        query = query.where(User.banned.is_(True))
    if search:
        query = query.where(User.username_key.contains(search.casefold(), autoescape=True))
    click.echo(f"{'id':>6}  {'username':<20} {'score':>6} {'games':>6}  status")
    for user in db.session.scalars(query):
        status = "banned" if user.banned else "guest" if user.guest else "active"
        click.echo(f"{user.id:>6}  {user.username:<20} {user.score:>6} {user.games:>6}  {status}")


@click.command("list-games")
@with_appcontext
def list_games() -> None:
    """List the games in play (waiting for a player, or playing)."""
    moves = (select(func.count(Move.id)).where(Move.game_id == Game.id)
             .correlate(Game).scalar_subquery())
    rows = db.session.execute(
        select(Game, moves).where(or_(Game.status == "waiting", Game.status == "playing"))
        .order_by(Game.id)).all()
    click.echo(f"{'id':>6}  {'status':<8} {'ruleset':<9} {'moves':>5}  black vs white, started")
    for game, count in rows:
        started = game.started_at.strftime("%Y-%m-%d %H:%M")
        click.echo(f"{game.id:>6}  {game.status:<8} {game.ruleset:<9} {count:>5}  "
                   f"{game.black.username} vs {game.white.username}, {started} UTC")
    if not rows:
        click.echo("No games in play.")


@click.command("abort-game")
@with_appcontext
@click.argument("game_id", type=int)
@click.option("--wait", default=5.0, show_default=True, help=WAIT_HELP)
def abort_game(game_id: int, wait: float) -> None:
    """End a game in play with reason "aborted": no winner, no score change."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise click.ClickException(f"There is no game {game_id}.")
    if game.status == "finished":
        raise click.ClickException(f"Game {game_id} is already over.")
    command_id = admin.queue_command(admin.ABORT, game_id)
    _report(command_id, wait, "No running server answered yet; the game will be aborted "
            "when the server next polls.")


@click.command("maintenance")
@with_appcontext
@click.argument("state", type=click.Choice(["on", "off", "status"]))
@click.option("--wait", default=5.0, show_default=True, help=WAIT_HELP)
def maintenance(state: str, wait: float) -> None:
    """Maintenance mode: "on" stops new games (games in play finish normally), "off" lets
    them start again, "status" tells which. Restart once `list-games` shows none in play."""
    if state != "status":
        admin.set_maintenance(state == "on")
    on = admin.maintenance_on()
    live = db.session.scalar(select(func.count(Game.id)).where(Game.status != "finished"))
    click.echo(f"Maintenance mode is {'on' if on else 'off'}; {live} game(s) in play.")
    if state != "status":
        command_id = admin.queue_command(admin.CONFIRM_MAINTENANCE, 0)
        _report(command_id, wait, "No running server answered yet; it applies the mode "
                "when it next polls, or as it starts.")


@click.command("moderator")
@with_appcontext
@click.argument("action", type=click.Choice(["grant", "revoke", "list"]))
@click.argument("username", required=False)
def moderator(action: str, username: str | None) -> None:
    """Grant or take a user's moderator role (the /moderation pages), or list moderators."""
    if action == "list":
        names = db.session.scalars(select(User.username).where(User.moderator)
                                   .order_by(User.username))
        for name in names:
            click.echo(name)
        return
    if username is None:
        raise click.ClickException("Name the user.")
    user = _user(username)
    if user.guest and action == "grant":
        raise click.ClickException(f"{user.username} is a guest: only registered players "
                                   "can be moderators.")
    user.moderator = action == "grant"
    db.session.commit()
    done = "is now a moderator" if user.moderator else "is no longer a moderator"
    click.echo(f"{user.username} {done}.")


@click.command("remove-guests")
@with_appcontext
@click.option("--days", default=7, show_default=True, type=click.IntRange(min=0),
              help="Only guests made at least this many days ago.")
def remove_guests(days: int) -> None:
    """Delete the guest accounts that never played a game: visitors who pressed "Play the
    computer as a guest" and left. Guests with games keep them (and their accounts)."""
    made_before = utcnow() - timedelta(days=days)
    removed = services().guests.remove_unused(made_before)
    click.echo(f"Removed {removed} unused guest account(s) made before "
               f"{made_before:%Y-%m-%d %H:%M} UTC.")


DEFAULT_MINUTES = 60  # an arena's, when --minutes is not given


@click.group("tournament")
def tournament() -> None:
    """Arenas and Swiss events: create, list and cancel them (docs/tournaments.md). The running
    server starts, pairs and ends them on its own; it reads them from the database."""


@tournament.command("create")
@with_appcontext
@click.option("--kind", type=click.Choice(KINDS), default=ARENA, show_default=True)
@click.option("--name", required=True)
@click.option("--ruleset", default="freestyle", show_default=True)
@click.option("--clock", "clock_text", default="180+2", show_default=True,
              help="Seconds + seconds a move, or none.")
@click.option("--minutes", type=int, help="How long an arena lasts.  [default: 60]")
@click.option("--rounds", type=int, help="A Swiss event's rounds (1 to 20).")
@click.option("--starts-in", default=60.0, show_default=True, type=float,
              help="Minutes from now.")
@click.option("--min-players", default=2, show_default=True, type=int,
              help="Cancelled at the start with fewer.")
@click.option("--casual", is_flag=True, help="Unrated games.")
@click.option("--opening", default="none", show_default=True)
def create_tournament(kind: str, name: str, ruleset: str, clock_text: str, minutes: int | None,
                      rounds: int | None, starts_in: float, min_players: int, casual: bool,
                      opening: str) -> None:
    """Schedule an arena (--minutes) or a Swiss event (--kind swiss --rounds N)."""
    if kind == SWISS and minutes is not None:
        raise click.UsageError("A Swiss event has rounds (--rounds), not minutes.")
    if kind == ARENA and rounds is not None:
        raise click.UsageError("An arena has minutes (--minutes), not rounds.")
    try:
        length = DEFAULT_MINUTES if minutes is None and kind == ARENA else minutes
        plan = Plan(name, ruleset, parse_clock(clock_text), length, starts_in, min_players,
                    not casual, opening, kind=kind, rounds=rounds)
        made = services().arenas.schedule.create(plan, "host")
    except ActionError as refused:
        raise click.ClickException(refused.message) from None
    end = ends_at(made)
    click.echo(f"Created tournament {made.id}: {made.name}, "
               f"{made.starts_at:%Y-%m-%d %H:%M}"
               + (f" UTC, {made.rounds} rounds." if end is None else f" to {end:%H:%M} UTC."))


@tournament.command("list")
@with_appcontext
def list_tournaments() -> None:
    """The tournaments scheduled and running, then the recent ones."""
    schedule = services().arenas.schedule
    found = schedule.of_status(*OPEN) + schedule.recent()
    if not found:
        click.echo("No tournaments.")
    for row in found:
        clock = "no clock" if row.time_control() is None else "+".join(
            map(str, row.time_control()))
        length = f"{row.minutes:>4} min" if row.rounds is None else f"{row.rounds:>3} rnd"
        click.echo(f"{row.id:>5}  {row.kind:<6} {row.status:<10} "
                   f"{row.starts_at:%Y-%m-%d %H:%M}  {length}  {row.ruleset} {clock}  "
                   f"{row.name}")


@tournament.command("cancel")
@with_appcontext
@click.argument("tournament_id", type=int)
def cancel_tournament(tournament_id: int) -> None:
    """Cancel a tournament before its end: nobody is paired any more."""
    try:
        services().arenas.schedule.cancel(tournament_id)
    except ActionError as refused:
        raise click.ClickException(refused.message) from None
    click.echo(f"Cancelled tournament {tournament_id}.")
