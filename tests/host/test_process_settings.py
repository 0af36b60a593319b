"""Several processes (REDIS_URL) refuse to start on what one process may default to alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask

from gobang.settings import SettingsRefused, load_settings
from tests.support.live import ROOT

REDIS = "redis://127.0.0.1:6379/0"
POSTGRES = "postgresql+psycopg://gobang@/gobang"
SQLITE = "sqlite:////srv/gobang/instance/gobang.sqlite3"


@pytest.fixture
def bare_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    for name in [key for key in os.environ if key.startswith("GOBANG_")]:
        monkeypatch.delenv(name)
    return Flask("probe", instance_path=str(tmp_path / "instance"), instance_relative_config=True)


@pytest.mark.parametrize(("settings", "refusal"), [
    ({"HALL_EVENTS_AT_ONCE": 0}, "HALL_EVENTS_AT_ONCE must be a whole number of at least 1"),
    ({"HALL_EVENTS_AT_ONCE": 2.5}, "HALL_EVENTS_AT_ONCE must be a whole number"),
    ({"READY_SOCKETS_PER_POLL": -1}, "READY_SOCKETS_PER_POLL must be a whole number of at least 0"),
    ({"GUESTS_PER_HOUR_PER_ADDRESS": -1},
     "GUESTS_PER_HOUR_PER_ADDRESS must be a whole number of at least 0"),
    ({"REQUEST_HEADER_SECONDS": 0}, "REQUEST_HEADER_SECONDS must be a number of seconds above 0"),
    ({"REQUEST_HEADER_SECONDS": -5.0}, "REQUEST_HEADER_SECONDS must be a number of seconds"),
    ({"REQUEST_HEADER_SECONDS": float("inf")}, "REQUEST_HEADER_SECONDS must be a number of"),
    ({"REQUEST_HEADER_SECONDS": float("nan")}, "REQUEST_HEADER_SECONDS must be a number of"),
    ({"REQUEST_HEADER_SECONDS": "10"}, "REQUEST_HEADER_SECONDS must be a number of seconds"),
    ({"ANALYSIS_WORKERS": 0}, "ANALYSIS_WORKERS must be a whole number of at least 1"),
    ({"ANALYSIS_QUEUE_AT_MOST": 0}, "ANALYSIS_QUEUE_AT_MOST must be a whole number of at least 1"),
    ({"ANALYSIS_RETRIES": -1}, "ANALYSIS_RETRIES must be a whole number of at least 0"),
    ({"ANALYSIS_NODES_PER_POSITION": 10}, "ANALYSIS_NODES_PER_POSITION must be a whole number"),
    ({"ANALYSIS_SECONDS_PER_POSITION": 0}, "ANALYSIS_SECONDS_PER_POSITION must be a number of"),
    ({"ANALYSIS_BOARD_AT_ONCE": 0}, "ANALYSIS_BOARD_AT_ONCE must be a whole number of at least 1"),
    ({"ANALYSIS_BOARD_NODES": 10}, "ANALYSIS_BOARD_NODES must be a whole number of at least 100"),
    ({"ANALYSIS_BOARD_ASKS_PER_MINUTE": 0}, "ANALYSIS_BOARD_ASKS_PER_MINUTE must be a whole"),
    ({"ANALYSIS_BOARD_SECONDS": 0}, "ANALYSIS_BOARD_SECONDS must be a number of seconds above 0"),
    ({"TOURNAMENTS_PER_DAY": 0}, "TOURNAMENTS_PER_DAY must be a whole number of at least 1"),
    ({"TOURNAMENTS_PER_DAY": "3"}, "TOURNAMENTS_PER_DAY must be a whole number"),
    ({"PLAYER_TOURNAMENTS": "no"}, "PLAYER_TOURNAMENTS must be true or false, not 'no'"),
    ({"PLAYER_TOURNAMENTS": 1}, "PLAYER_TOURNAMENTS must be true or false"),
    ({"SWISS_ROUND_PAUSE_SECONDS": 0}, "SWISS_ROUND_PAUSE_SECONDS must be a number of seconds"),
    ({"SWISS_ROUND_PAUSE_SECONDS": -20}, "SWISS_ROUND_PAUSE_SECONDS must be a number of seconds"),
])
def test_settings_that_would_stop_the_server_are_refused(bare_app, settings, refusal):
    with pytest.raises(SettingsRefused, match=refusal):
        load_settings(bare_app, settings)


@pytest.mark.parametrize("settings", [{"HALL_EVENTS_AT_ONCE": 1}, {"READY_SOCKETS_PER_POLL": 0},
                                      {"REQUEST_HEADER_SECONDS": 0.5},
                                      {"GUESTS_PER_HOUR_PER_ADDRESS": 0},
                                      {"ANALYSIS_WORKERS": 1, "ANALYSIS_QUEUE_AT_MOST": 1,
                                       "ANALYSIS_RETRIES": 0},
                                      {"ANALYSIS_BOARD_AT_ONCE": 1,
                                       "ANALYSIS_BOARD_ASKS_PER_MINUTE": 1},
                                      {"TOURNAMENTS_PER_DAY": 1, "PLAYER_TOURNAMENTS": True}])
def test_the_least_working_values_are_accepted(bare_app, settings):
    load_settings(bare_app, settings)
    assert all(bare_app.config[name] == value for name, value in settings.items())


@pytest.mark.parametrize(("settings", "refusal"), [
    ({"REDIS_URL": REDIS, "DATABASE_URL": POSTGRES}, "SECRET_KEY must be set explicitly"),
    ({"REDIS_URL": REDIS, "SECRET_KEY": "shared", "DATABASE_URL": SQLITE},
     "several processes need PostgreSQL"),
    ({"REDIS_URL": REDIS, "SECRET_KEY": "shared"}, "several processes need PostgreSQL"),
    ({"REDIS_URL": REDIS, "SECRET_KEY": "shared", "DATABASE_URL": "sqlite+pysqlite:///x.db"},
     "several processes need PostgreSQL"),
])
def test_several_processes_refuse_settings_one_process_may_default_to(bare_app, settings,
                                                                       refusal):
    with pytest.raises(SettingsRefused, match=refusal):
        load_settings(bare_app, settings)


def test_a_refused_start_leaves_no_generated_key_behind(bare_app):
    with pytest.raises(SettingsRefused):
        load_settings(bare_app, {"REDIS_URL": REDIS, "DATABASE_URL": POSTGRES})
    assert not (Path(bare_app.instance_path) / "secret_key").exists()


def test_both_refusals_are_given_at_once(bare_app):
    with pytest.raises(SettingsRefused) as refused:
        load_settings(bare_app, {"REDIS_URL": REDIS})
    assert "SECRET_KEY" in str(refused.value) and "PostgreSQL" in str(refused.value)


@pytest.mark.parametrize("source", ["environment", "instance config"])
def test_a_shared_key_and_postgresql_start_several_processes(bare_app, monkeypatch, source):
    if source == "environment":
        monkeypatch.setenv("GOBANG_SECRET_KEY", "shared")
        monkeypatch.setenv("GOBANG_DATABASE_URL", POSTGRES)
    else:
        Path(bare_app.instance_path).mkdir(parents=True)
        (Path(bare_app.instance_path) / "config.py").write_text(
            f"SECRET_KEY = 'shared'\nDATABASE_URL = {POSTGRES!r}\n")
    monkeypatch.setenv("GOBANG_REDIS_URL", REDIS)
    load_settings(bare_app, None)
    assert (bare_app.config["SECRET_KEY"], bare_app.config["DATABASE_URL"]) == (
        "shared", POSTGRES)


@pytest.mark.parametrize("settings", [{}, {"DATABASE_URL": SQLITE}, {"REDIS_URL": ""}])
def test_one_process_still_defaults_its_key_and_sqlite(bare_app, settings):
    load_settings(bare_app, settings)
    assert bare_app.config["SECRET_KEY"]
    assert bare_app.config["DATABASE_URL"].startswith("sqlite:")


@pytest.mark.live  # runs app.py
def test_app_py_says_why_in_one_line_and_exits_2(tmp_path: Path):
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("GOBANG_")},
           "GOBANG_REDIS_URL": REDIS, "GOBANG_SECRET_KEY": "shared", "GOBANG_DATABASE_URL": SQLITE}
    done = subprocess.run([sys.executable, "app.py", "--port", "1"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    # eventlet's own deprecation notice may come first
    last = done.stderr.splitlines()[-1]
    assert last.startswith("gobang: refusing to start:")
    assert "several processes need PostgreSQL" in last
