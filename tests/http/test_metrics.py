"""/metrics: the Prometheus text format, and who may read it."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.support.prometheus import families, sample

REMOTE = "203.0.113.9"
TOKEN = "s3cret-token"


def test_metrics_are_prometheus_text(client):
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.content_type == "text/plain; version=0.0.4; charset=utf-8"
    assert families(response.get_data(as_text=True)) == {
        "gobang_connected_users": "gauge",
        "gobang_queued_players": "gauge",
        "gobang_live_games": "gauge",
        "gobang_maintenance": "gauge",
        "gobang_moves": "counter",
        "gobang_game_ends": "counter",
        "gobang_emit_failures": "counter",
        "gobang_move_save_seconds": "histogram",
    }


def test_a_fresh_server_reports_zeros(client):
    text = client.get("/metrics").get_data(as_text=True)
    assert sample(text, "gobang_connected_users", namespace="/hall") == 0
    assert sample(text, "gobang_moves_total") == 0
    assert sample(text, "gobang_game_ends_total", reason="five") == 0
    assert sample(text, "gobang_move_save_seconds_bucket", le="+Inf") == 0


def test_every_sample_names_the_process_that_answered(app, client):
    text = client.get("/metrics").get_data(as_text=True)
    found = [sample for family in text_string_to_metric_families(text)
             for sample in family.samples]
    assert len(found) > 20
    assert {sample.labels.get("process") for sample in found} == {app.config["PROCESS_NAME"]}


@pytest.mark.parametrize("app_overrides", [{"PROCESS_NAME": "p2"}])
def test_the_process_label_is_the_process_name_setting(client):
    text = client.get("/metrics").get_data(as_text=True)
    assert sample(text, "gobang_moves_total", process="p2") == 0
    assert sample(text, "gobang_live_games", status="playing", process="p2") == 0


@pytest.mark.parametrize(
    ("address", "headers", "token", "status"),
    [
        ("127.0.0.1", {}, None, 200),
        ("::1", {}, None, 200),
        (REMOTE, {}, None, 403),
        (REMOTE, {"Authorization": f"Bearer {TOKEN}"}, TOKEN, 200),
        (REMOTE, {"Authorization": "Bearer wrong"}, TOKEN, 403),
        (REMOTE, {"Authorization": TOKEN}, TOKEN, 403),
        (REMOTE, {"Authorization": "Bearer "}, None, 403),
        (REMOTE, {"Authorization": "Bearer None"}, None, 403),
    ],
)
def test_metrics_answer_local_clients_or_the_token(app, address, headers, token, status):
    app.config["METRICS_TOKEN"] = token
    response = app.test_client().get("/metrics", headers=headers,
                                     environ_base={"REMOTE_ADDR": address})
    assert response.status_code == status


@pytest.mark.parametrize(
    ("app_overrides", "forwarded_for", "status"),
    [
        ({"PROXY_FIX": 0}, REMOTE, 200),  # header ignored: the peer itself is local
        ({"PROXY_FIX": 1}, REMOTE, 403),  # behind a local proxy, the client is remote
        ({"PROXY_FIX": 1}, f"127.0.0.1, {REMOTE}", 403),  # a forged entry is not trusted
        ({"PROXY_FIX": 1}, "127.0.0.1", 200),
    ],
)
def test_proxy_fix_decides_which_address_is_the_client(client, forwarded_for, status):
    response = client.get("/metrics", headers={"X-Forwarded-For": forwarded_for},
                          environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert response.status_code == status
