"""Settings: defaults, instance/config.py, GOBANG_* variables, and a safe start with nothing set."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from gobang.services.pools import Pools
from gobang.settings import apply_environment, coerce, load_settings


@pytest.fixture
def bare_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    # One process, whatever the caller's environment (.ci/with-redis exports GOBANG_REDIS_URL).
    monkeypatch.delenv("GOBANG_REDIS_URL", raising=False)
    return Flask("probe", instance_path=str(tmp_path / "instance"), instance_relative_config=True)


def test_nothing_set_generates_and_keeps_a_secret_key(bare_app, monkeypatch):
    monkeypatch.delenv("GOBANG_SECRET_KEY", raising=False)
    load_settings(bare_app, None)
    key = bare_app.config["SECRET_KEY"]
    assert len(key) == 64
    key_file = Path(bare_app.instance_path) / "secret_key"
    assert key_file.read_text() == key
    assert key_file.stat().st_mode & 0o777 == 0o600
    again = Flask("probe", instance_path=bare_app.instance_path)
    load_settings(again, None)
    assert again.config["SECRET_KEY"] == key


def test_nothing_set_uses_sqlite_in_instance(bare_app, monkeypatch):
    monkeypatch.delenv("GOBANG_DATABASE_URL", raising=False)
    load_settings(bare_app, None)
    expected = f"sqlite:///{Path(bare_app.instance_path) / 'gobang.sqlite3'}"
    assert bare_app.config["SQLALCHEMY_DATABASE_URI"] == expected


def test_environment_overrides_settings(bare_app, monkeypatch):
    monkeypatch.setenv("GOBANG_SECRET_KEY", "from-env")
    monkeypatch.setenv("GOBANG_DATABASE_URL", "sqlite:////tmp/elsewhere.sqlite3")
    monkeypatch.setenv("GOBANG_FORFEIT_GRACE_SECONDS", "12")
    monkeypatch.setenv("GOBANG_RATELIMIT_ENABLED", "0")
    load_settings(bare_app, None)
    assert bare_app.config["SECRET_KEY"] == "from-env"
    assert bare_app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:////tmp/elsewhere.sqlite3"
    assert bare_app.config["FORFEIT_GRACE_SECONDS"] == 12
    assert bare_app.config["RATELIMIT_ENABLED"] is False


def test_instance_config_file_overrides_defaults_and_env_wins(bare_app, monkeypatch):
    instance = Path(bare_app.instance_path)
    instance.mkdir(parents=True)
    (instance / "config.py").write_text("RATING_K = 32\nABORT_SECONDS = 45\n")
    monkeypatch.setenv("GOBANG_ABORT_SECONDS", "50")
    load_settings(bare_app, None)
    assert bare_app.config["RATING_K"] == 32
    assert bare_app.config["ABORT_SECONDS"] == 50


@pytest.mark.parametrize(
    ("raw", "current", "expected"),
    [("1", True, True), ("off", True, False), ("TRUE", False, True), ("7", 3, 7),
     ("0.5", 0.2, 0.5), ("text", "old", "text"), ("anything", None, "anything")],
)
def test_environment_values_take_the_setting_type(raw, current, expected):
    assert coerce("X", raw, current) == expected


@pytest.mark.parametrize(("raw", "current"), [("maybe", True), ("ten", 3)])
def test_bad_environment_values_are_reported(raw, current):
    with pytest.raises(ValueError):
        coerce("X", raw, current)


def test_only_prefixed_variables_are_read(bare_app):
    bare_app.config["RATING_K"] = 60
    apply_environment(bare_app, {"RATING_K": "1", "GOBANG_RATING_K": "40"})
    assert bare_app.config["RATING_K"] == 40


@pytest.mark.parametrize(("old", "new", "raw", "expected"), [
    ("MATCHER_INTERVAL_SECONDS", "TICKER_INTERVAL_SECONDS", "0.5", 0.5),
    ("MATCHER_ENABLED", "TICKER_ENABLED", "0", False),
])
def test_the_old_ticker_setting_names_still_work(bare_app, monkeypatch, old, new, raw, expected):
    monkeypatch.setenv(f"GOBANG_{old}", raw)
    load_settings(bare_app, None)
    assert bare_app.config[new] == expected
    assert old not in bare_app.config


def test_match_pools_default_to_four_clocks_no_clock_and_two_openings(bare_app, monkeypatch):
    monkeypatch.delenv("GOBANG_MATCH_POOLS", raising=False)
    load_settings(bare_app, None)
    assert bare_app.config["MATCH_POOLS"] == [
        [180, 2], [300, 3], [600, 5], [900, 10], None,
        {"ruleset": "freestyle", "clock": [600, 5], "opening": "swap2"},
        {"ruleset": "renju", "clock": [600, 5], "opening": "taraguchi-10"}]
    pools = Pools.from_settings(bare_app.config["MATCH_POOLS"], initial=600, increment=5)
    assert [pool.name for pool in pools.openings] == ["freestyle/600+5/swap2",
                                                      "renju/600+5/taraguchi-10"]


def test_match_pools_are_set_in_the_environment_as_json(bare_app, monkeypatch):
    monkeypatch.setenv("GOBANG_MATCH_POOLS", "[[60, 0], [1800, 20], null]")
    load_settings(bare_app, None)
    assert bare_app.config["MATCH_POOLS"] == [[60, 0], [1800, 20], None]


def test_match_pools_are_set_in_the_instance_config(bare_app, monkeypatch):
    monkeypatch.delenv("GOBANG_MATCH_POOLS", raising=False)
    instance = Path(bare_app.instance_path)
    instance.mkdir(parents=True)
    (instance / "config.py").write_text("MATCH_POOLS = [(120, 1), None]\n")
    load_settings(bare_app, None)
    assert bare_app.config["MATCH_POOLS"] == [(120, 1), None]


@pytest.mark.parametrize("raw", ["3+2", '{"a": 1}', "[[60, 0]"])
def test_a_list_setting_that_is_not_a_json_list_is_reported(raw):
    with pytest.raises(ValueError, match="JSON list"):
        coerce("MATCH_POOLS", raw, [[180, 2]])


def test_pools_keep_the_hosts_order_and_always_offer_the_default_clock():
    pools = Pools.from_settings([[60, 0], None], initial=600, increment=5)
    assert pools.clocks == ((60, 0), None, (600, 5))
    assert pools.default == (600, 5)


def test_a_default_clock_of_zero_seconds_means_no_clock():
    pools = Pools.from_settings([[60, 0], None], initial=0, increment=5)
    assert (pools.clocks, pools.default) == (((60, 0), None), None)


@pytest.mark.parametrize("listed", [[[60]], [[0, 2]], [[60, -1]], [[60.0, 2]], ["3+2"],
                                    [[60, 0], (60, 0)]])
def test_bad_match_pools_stop_the_start(listed):
    with pytest.raises(ValueError, match="MATCH_POOLS"):
        Pools.from_settings(listed, initial=600, increment=5)


def test_an_object_entry_adds_a_pool_of_one_ruleset_with_an_opening(bare_app, monkeypatch):
    monkeypatch.setenv("GOBANG_MATCH_POOLS",
                       '[[300, 3], {"ruleset": "standard", "clock": null, "opening": "swap"}]')
    load_settings(bare_app, None)
    pools = Pools.from_settings(bare_app.config["MATCH_POOLS"], initial=300, increment=3)
    assert pools.clocks == ((300, 3),)
    assert [pool.name for pool in pools.openings] == ["standard/none/swap"]
    assert pools.names(["standard"]) == ["standard/300+3", "standard/none/swap"]


SWAP2 = {"ruleset": "freestyle", "clock": [600, 5], "opening": "swap2"}


@pytest.mark.parametrize(("entry", "said"), [
    ({**SWAP2, "ruleset": "go"}, "unknown ruleset 'go'"),
    ({**SWAP2, "opening": "soosyrv-8"}, "not played with the opening 'soosyrv-8'"),
    ({**SWAP2, "ruleset": "renju"}, "renju is not played with the opening 'swap2'"),
    ({**SWAP2, "opening": "none"}, "a pool without an opening is a clock entry"),
    ({**SWAP2, "clock": [0, 5]}, "initial > 0"),
    ({"ruleset": "freestyle", "opening": "swap2"}, "exactly the keys"),
    ({**SWAP2, "rated": False}, "exactly the keys"),
])
def test_a_bad_opening_pool_stops_the_start_saying_why(entry, said):
    with pytest.raises(ValueError, match="MATCH_POOLS") as refused:
        Pools.from_settings([[300, 3], entry], initial=300, increment=3)
    assert said in str(refused.value)


def test_an_opening_pool_listed_twice_stops_the_start():
    with pytest.raises(ValueError, match="twice"):
        Pools.from_settings([SWAP2, dict(SWAP2)], initial=600, increment=5)


def test_computer_settings_come_from_the_environment(bare_app, monkeypatch):
    from gobang.services.registry import engine_settings

    monkeypatch.setenv("GOBANG_COMPUTER_WORKERS", "3")
    monkeypatch.setenv("GOBANG_COMPUTER_GAMES_PER_WORKER", "4")
    monkeypatch.setenv("GOBANG_COMPUTER_THINK_SECONDS", "6.5")
    monkeypatch.setenv("GOBANG_ENGINE_COMMAND", "/opt/engines/pbrain --depth '{level}'")
    monkeypatch.setenv("GOBANG_ENGINE_LEVEL_OPTIONS", '{"8": {"timeout_turn": 5000}}')
    load_settings(bare_app, None)
    found = engine_settings(bare_app.config)
    assert found.workers == 3 and found.capacity == 3 * 4 and found.think_seconds == 6.5
    assert found.command == ("/opt/engines/pbrain", "--depth", "{level}")
    assert found.level_options == {8: {"timeout_turn": "5000"}}


def test_computer_workers_default_to_cores_less_one_and_at_least_one(bare_app, monkeypatch):
    from gobang.services.registry import engine_settings

    monkeypatch.delenv("GOBANG_COMPUTER_WORKERS", raising=False)
    for cores, workers in ((1, 1), (2, 1), (8, 7), (None, 1)):
        monkeypatch.setattr("os.cpu_count", lambda cores=cores: cores)
        load_settings(bare_app, None)
        assert engine_settings(bare_app.config).workers == workers


def test_a_database_server_gets_a_pool_sized_by_the_settings(bare_app, monkeypatch):
    monkeypatch.setenv("GOBANG_DATABASE_URL", "postgresql+psycopg://gobang@/gobang")
    monkeypatch.setenv("GOBANG_DATABASE_POOL_SIZE", "4")
    monkeypatch.setenv("GOBANG_DATABASE_POOL_OVERFLOW", "6")
    monkeypatch.setenv("GOBANG_DATABASE_POOL_TIMEOUT", "2.5")
    load_settings(bare_app, None)
    assert bare_app.config["SQLALCHEMY_ENGINE_OPTIONS"] == {
        "pool_size": 4, "max_overflow": 6, "pool_timeout": 2.5}


def test_sqlite_gets_no_pool_settings(bare_app, monkeypatch):
    monkeypatch.delenv("GOBANG_DATABASE_URL", raising=False)
    load_settings(bare_app, None)
    assert "SQLALCHEMY_ENGINE_OPTIONS" not in bare_app.config


@pytest.mark.parametrize("openings", [["taraguchi-10"], ["swap"], ["swap2", "nonsense"]])
def test_engine_openings_other_than_swap2_stop_the_start(openings):
    from gobang.services.registry import engine_settings

    config = {"ENGINE_OPENINGS": openings, "ENGINE_LEVEL_OPTIONS": None}
    with pytest.raises(ValueError, match="ENGINE_OPENINGS"):
        engine_settings(config)


def test_analysis_settings_come_from_the_environment(bare_app, monkeypatch):
    from gobang.services.registry import analysis_settings

    monkeypatch.setenv("GOBANG_ANALYSIS_WORKERS", "2")
    monkeypatch.setenv("GOBANG_ANALYSIS_QUEUE_AT_MOST", "5")
    monkeypatch.setenv("GOBANG_ANALYSIS_BY_SPECTATORS", "true")
    monkeypatch.setenv("GOBANG_ANALYSIS_SECONDS_PER_POSITION", "0.5")
    load_settings(bare_app, None)
    found = analysis_settings(bare_app.config)
    assert (found.workers, found.at_most, found.seconds_per_position) == (2, 5, 0.5)
    assert bare_app.config["ANALYSIS_BY_SPECTATORS"] is True


def test_analysis_board_settings_come_from_the_environment(bare_app, monkeypatch):
    from gobang.services.registry import analysis_board_settings

    monkeypatch.setenv("GOBANG_ANALYSIS_BOARD_AT_ONCE", "3")
    monkeypatch.setenv("GOBANG_ANALYSIS_BOARD_NODES", "5000")
    monkeypatch.setenv("GOBANG_ANALYSIS_BOARD_SECONDS", "0.4")
    monkeypatch.setenv("GOBANG_COMPUTER_NICE", "5")
    load_settings(bare_app, None)
    found = analysis_board_settings(bare_app.config)
    assert (found.at_once, found.nodes, found.seconds, found.nice) == (3, 5000, 0.4, 5)
