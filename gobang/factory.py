"""The app factory: settings, extensions, services, namespaces, blueprints."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from gobang.extensions import csrf, db, login_manager, migrate, socketio
from gobang.settings import load_settings

if TYPE_CHECKING:
    from gobang.transport.fanout import FailureCount

ROOT = Path(__file__).resolve().parent.parent


def create_app(config: type | Mapping[str, Any] | None = None) -> Flask:
    """Build the app. `config` is a settings class (used as is, as tests do), or None or a
    mapping of overrides on top of `config.Config`, instance/config.py and GOBANG_* variables."""
    from gobang.transport.sessions import SocketAwareFlask

    app = SocketAwareFlask(
        __name__,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
        instance_path=str(ROOT / "instance"),
        instance_relative_config=True,
    )
    load_settings(app, config)
    _configure_logging(app)
    _init_extensions(app)
    _register_blueprints(app)

    from gobang.database import init_database

    init_database(app)
    _start_services(app)
    _install_host_tools(app)
    return app


def _start_services(app: Flask) -> None:
    from gobang.services.admin import last_alive
    from gobang.services.registry import services
    from gobang.sockets.ticker import start_ticker

    if _loaded_by_flask_command():
        return
    with app.app_context():
        found = services()
        # With several processes a starting one takes back only its own games: the others
        # play theirs, and the leader's sweep adopts those of a process that died.
        restored = (found.play.homes.reclaim() if app.config["REDIS_URL"]
                    else found.play.factory.restore(last_alive()))
        # Maintenance mode, and commands left while the server was down.
        found.admin.poll(found.leadership.hold())
    logging.getLogger("gobang").info("games restored", extra={"fields": {"count": restored}})
    if app.config["TICKER_ENABLED"]:
        start_ticker(app, found)


def _loaded_by_flask_command() -> bool:
    """True while `flask --app app <command>` (db upgrade, ban, shell...) builds the app. That
    process must neither restore games nor run the ticker: it would forfeit and abort games,
    and take the host's commands, behind the running server's back. `flask run` serves."""
    if os.environ.get("FLASK_RUN_FROM_CLI") != "true":
        return False
    context = click.get_current_context(silent=True)
    return context is None or context.info_name != "run"


def _install_host_tools(app: Flask) -> None:
    from gobang.cli import register_commands

    register_commands(app)
    trusted = app.config["PROXY_FIX"]
    if trusted:
        # Outermost, so that Socket.IO's WSGI layer sees the client's address and scheme too.
        # Not x_host: the proxy passes the Host header itself (see deploy/nginx/).
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=trusted, x_proto=trusted)


def _configure_logging(app: Flask) -> None:
    from gobang.logs import configure

    configure(app.config["LOG_LEVEL"])


def _init_extensions(app: Flask) -> None:
    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    login_manager.init_app(app)
    csrf.init_app(app)

    from gobang.i18n import init_app as init_i18n

    init_i18n(app)

    from gobang.sockets import register_namespaces
    from gobang.transport.sessions import EventSessionInterface

    app.session_interface = EventSessionInterface()

    from gobang.services.registry import install_services

    found = install_services(app)
    register_namespaces(socketio, found, app.config["HALL_EVENTS_AT_ONCE"])
    socketio.init_app(
        app,
        async_mode=app.config["SOCKETIO_ASYNC_MODE"],
        ping_interval=app.config["SOCKETIO_PING_INTERVAL"],
        ping_timeout=app.config["SOCKETIO_PING_TIMEOUT"],
        max_http_buffer_size=app.config["SOCKETIO_MAX_MESSAGE_BYTES"],
        # Several processes: an emit to any room or connection reaches whichever holds it.
        **_message_queue(app.config["REDIS_URL"] if app.config["REDIS_MESSAGE_QUEUE"]
                         else None, found.metrics.emit_failed),
        logger=False,
        engineio_logger=False,
    )
    from gobang.transport.guard import install_transport_guard
    from gobang.transport.packets import guard_malformed_packets
    from gobang.transport.polling import install_polling_guard

    guard_malformed_packets(socketio.server)
    install_transport_guard(socketio.server, app.config, time.monotonic, socketio.server.sleep)
    install_polling_guard(socketio.server, app.config, time.monotonic)


def _message_queue(url: str | None, count_failure: FailureCount) -> dict[str, Any]:
    """Flask-SocketIO keeps the options of an earlier init_app (tests make many apps): a
    single process says outright that it has no queue manager. The manager counts the emits
    it could not deliver into this app's /metrics."""
    if url:
        from gobang.transport.queue import BatchingRedisManager

        return {"message_queue": url,
                "client_manager": BatchingRedisManager(url, channel="gobang-socketio",
                                                       count_failure=count_failure)}
    from gobang.transport.fanout import PacedEmits

    return {"message_queue": None, "client_manager": PacedEmits(count_failure)}


def _register_blueprints(app: Flask) -> None:
    """Every blueprint of the site, in one place."""
    from gobang.analysis_board.routes import bp as analysis_board_bp
    from gobang.api.routes import bp as api_bp
    from gobang.auth.routes import bp as auth_bp
    from gobang.errors.handlers import bp as errors_bp
    from gobang.i18n.routes import bp as i18n_bp
    from gobang.metrics.routes import bp as metrics_bp
    from gobang.moderation.routes import bp as moderation_bp
    from gobang.play.routes import bp as play_bp
    from gobang.players.routes import bp as players_bp
    from gobang.puzzles.routes import bp as puzzles_bp
    from gobang.records.routes import bp as records_bp
    from gobang.security_headers import install as install_headers
    from gobang.tournaments.events import bp as tournament_events_bp
    from gobang.tournaments.routes import bp as tournaments_bp

    for blueprint in (auth_bp, play_bp, players_bp, records_bp, api_bp, i18n_bp, metrics_bp,
                      moderation_bp, puzzles_bp, analysis_board_bp, tournaments_bp,
                      tournament_events_bp, errors_bp):
        app.register_blueprint(blueprint)
    install_headers(app)
