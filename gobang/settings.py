"""Loading settings: config class, then instance/config.py, then GOBANG_* variables."""

from __future__ import annotations

import json
import logging
import math
import os
import secrets
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

ENV_PREFIX = "GOBANG_"
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}
# Old setting names that still work for one release: old -> new.
DEPRECATED_NAMES = {
    "MATCHER_ENABLED": "TICKER_ENABLED",
    "MATCHER_INTERVAL_SECONDS": "TICKER_INTERVAL_SECONDS",
}
log = logging.getLogger("gobang.settings")


class SettingsRefused(Exception):
    """Settings the server will not start with; the message says why, and what to set."""


def coerce(name: str, raw: str, current: Any) -> Any:
    """Turn an environment string into the type of the setting's current value."""
    if isinstance(current, bool):
        lowered = raw.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise ValueError(f"{ENV_PREFIX}{name} must be a boolean (1/0, true/false), not {raw!r}")
    if isinstance(current, int):
        return int(raw)
    if isinstance(current, float):
        return float(raw)
    if isinstance(current, list):
        return _json_list(name, raw)
    return raw


def _json_list(name: str, raw: str) -> list[Any]:
    """A list setting is written as JSON: lists of numbers and nulls read plainly that way."""
    try:
        value = json.loads(raw)
    except ValueError as error:
        raise ValueError(f"{ENV_PREFIX}{name} must be a JSON list, not {raw!r}") from error
    if not isinstance(value, list):
        raise ValueError(f"{ENV_PREFIX}{name} must be a JSON list, not {raw!r}")
    return value


def apply_environment(app: Flask, environ: Mapping[str, str]) -> None:
    for key, raw in environ.items():
        if key.startswith(ENV_PREFIX):
            name = key[len(ENV_PREFIX) :]
            current = app.config.get(DEPRECATED_NAMES.get(name, name))
            app.config[name] = coerce(name, raw, current)


def load_settings(app: Flask, config: type | Mapping[str, Any] | None) -> None:
    from config import Config

    if config is None or isinstance(config, Mapping):
        app.config.from_object(Config)
        app.config.from_pyfile("config.py", silent=True)
        apply_environment(app, os.environ)
        if config:
            app.config.update(config)
        # The host's own settings; a settings class (as tests pass) is used as is.
        refuse_out_of_range(app.config)
        refuse_unsafe_processes(app.config)
    else:
        app.config.from_object(config)
    _rename_deprecated(app)
    _fill_defaults(app)


# Settings whose value below this would stop the server working rather than tune it.
AT_LEAST = {"HALL_EVENTS_AT_ONCE": 1, "READY_SOCKETS_PER_POLL": 0,
            "GUESTS_PER_HOUR_PER_ADDRESS": 0, "ANALYSIS_WORKERS": 1,
            "ANALYSIS_QUEUE_AT_MOST": 1, "ANALYSIS_RETRIES": 0,
            "ANALYSIS_NODES_PER_POSITION": 100, "PUZZLE_VERIFY_NODES": 100,
            "PUZZLE_JUDGE_NODES": 100, "PUZZLE_HARVEST_BATCH": 1,
            "ANALYSIS_BOARD_AT_ONCE": 1, "ANALYSIS_BOARD_NODES": 100,
            "ANALYSIS_BOARD_ASKS_PER_MINUTE": 1, "TOURNAMENTS_PER_DAY": 1}
# Settings whose value above this would hold a request's CPU for seconds.
AT_MOST = {"PUZZLE_VERIFY_NODES": 100_000, "PUZZLE_JUDGE_NODES": 100_000,
           "PUZZLE_HARVEST_BATCH": 50}


def refuse_out_of_range(config: Mapping[str, Any]) -> None:
    problems = [f"{name} must be a whole number of at least {least}, not {config[name]!r}"
                for name, least in AT_LEAST.items()
                if name in config and (type(config[name]) is not int or config[name] < least)]
    problems += [f"{name} must be at most {most}, not {config[name]!r}"
                 for name, most in AT_MOST.items()
                 if name in config and type(config[name]) is int and config[name] > most]
    problems += [f"{name} must be a number of seconds above 0, not {config[name]!r}"
                 for name in ABOVE_ZERO_SECONDS
                 if name in config and not _above_zero(config[name])]
    problems += [f"{name} must be true or false, not {config[name]!r}"
                 for name in BOOLEANS if name in config and type(config[name]) is not bool]
    if problems:
        raise SettingsRefused("; ".join(problems))


# Switches an instance/config.py might set to a string ("no" would read as on).
BOOLEANS = ("PLAYER_TOURNAMENTS",)
# Seconds that must be a finite number above 0: 0 or less would close every request at once,
# infinity (or NaN) none.
ABOVE_ZERO_SECONDS = ("REQUEST_HEADER_SECONDS", "ANALYSIS_SECONDS_PER_POSITION",
                      "PUZZLE_SECONDS", "ANALYSIS_BOARD_SECONDS", "SWISS_ROUND_PAUSE_SECONDS")


def _above_zero(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value) and value > 0


def refuse_unsafe_processes(config: Mapping[str, Any]) -> None:
    """With REDIS_URL (several processes), what one process may default to on its own breaks
    the others: a secret key generated per machine signs sessions the other processes refuse,
    and a SQLite file cannot be shared by processes on several machines (nor written fast by
    several at once). Checked before any default is filled in."""
    if not config.get("REDIS_URL"):
        return
    problems = []
    if not config.get("SECRET_KEY"):
        problems.append(
            "with REDIS_URL set, SECRET_KEY must be set explicitly and be the same for every "
            "process (GOBANG_SECRET_KEY or SECRET_KEY in instance/config.py): a key generated "
            "per machine signs sessions the other processes refuse")
    url = config.get("DATABASE_URL")
    if not url or url.startswith(("sqlite:", "sqlite+")):
        problems.append(
            f"with REDIS_URL set, DATABASE_URL is SQLite ({url or 'unset: instance/'}): "
            "several processes need "
            "PostgreSQL (GOBANG_DATABASE_URL=postgresql+psycopg://user@host/dbname)")
    if problems:
        raise SettingsRefused("; ".join(problems))


def _rename_deprecated(app: Flask) -> None:
    for old, new in DEPRECATED_NAMES.items():
        if old in app.config:
            app.config[new] = app.config.pop(old)
            log.warning("setting %s is deprecated: use %s", old, new)


def _fill_defaults(app: Flask) -> None:
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _persistent_secret(instance / "secret_key")
    url = app.config.get("DATABASE_URL") or f"sqlite:///{instance / 'gobang.sqlite3'}"
    app.config["DATABASE_URL"] = url
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    if not url.startswith("sqlite"):  # SQLite's file needs no pool of server connections
        app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", {
            "pool_size": app.config["DATABASE_POOL_SIZE"],
            "max_overflow": app.config["DATABASE_POOL_OVERFLOW"],
            "pool_timeout": app.config["DATABASE_POOL_TIMEOUT"]})
    app.config["PERMANENT_SESSION_LIFETIME"] = app.config["REMEMBER_COOKIE_DURATION"]
    # Unique among the processes sharing one Redis: leases and /metrics name it.
    app.config["PROCESS_NAME"] = (
        app.config.get("PROCESS_NAME")
        or f"{socket.gethostname()}:{app.config.get('SERVE_PORT') or os.getpid()}")


def _persistent_secret(path: Path) -> str:
    """Keep one random key per installation so sessions survive a restart."""
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key
