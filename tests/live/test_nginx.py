"""The repository's nginx configuration in front of the real server: games over WebSocket,
and the client's own address seen by the app (PROXY_FIX)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import requests
from requests.adapters import HTTPAdapter

from tests.live.test_play import BLACK_FIVE, matched_pair, play
from tests.support.live import wait_until
from tests.support.nginx import DEPLOY, nginx_binary

pytestmark = [pytest.mark.live]

# Any 127.0.0.0/8 address is the loopback interface: a "remote" client on one machine.
OTHER_ADDRESS = "127.0.0.2"


@pytest.fixture
def live_env() -> dict[str, str]:
    return {"GOBANG_PROXY_FIX": "1"}


class SourceAddressAdapter(HTTPAdapter):
    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs) -> None:
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


def session_from(address: str) -> requests.Session:
    http = requests.Session()
    http.mount("http://", SourceAddressAdapter(address))
    return http


UPGRADE = re.compile(r'"GET /socket\.io/\?[^"]*transport=websocket[^"]*" 101 ')


def test_game_is_played_through_nginx_over_websocket(live_server, nginx):
    black, white, game_id = matched_pair(live_server)
    assert black[2].transport() == "websocket"
    play(black, white, game_id, BLACK_FIVE)
    result = white[2].wait_for("game_over")["result"]
    assert (result["winner"], result["reason"]) == ("black", "five")
    # nginx logs a WebSocket when it closes: all four were upgrades (HTTP 101) through it.
    for client in (*black[1:], *white[1:]):
        client.disconnect()
    assert wait_until(lambda: len(UPGRADE.findall(nginx.access_log())) == 4)


def test_app_sees_the_client_address_behind_nginx(live_server, nginx):
    http = session_from(OTHER_ADDRESS)
    page = http.get(f"{nginx.url}/login", timeout=10).text
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    http.post(f"{nginx.url}/login", data={"csrf_token": token, "username": "nobody",
                                          "password": "wrong password"}, timeout=10)
    assert f"event=login_failed address='{OTHER_ADDRESS}'" in live_server.log()


@pytest.mark.parametrize(("address", "status"), [("127.0.0.1", 200), (OTHER_ADDRESS, 403)])
def test_metrics_behind_nginx_answer_only_local_clients(live_server, nginx, address, status):
    assert session_from(address).get(f"{nginx.url}/metrics", timeout=10).status_code == status


@pytest.mark.parametrize("site_file", ["gobang.conf", "gobang-cluster.conf"])
def test_production_site_config_is_valid(tmp_path: Path, site_file: str):
    """deploy/nginx/gobang.conf (one process) and gobang-cluster.conf (several) as installed,
    with a throwaway certificate: `nginx -t`."""
    nginx = nginx_binary()
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=gobang.example.org", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    site = (DEPLOY / site_file).read_text()
    site = re.sub(r"/etc/letsencrypt/live/[^;]*/fullchain\.pem", str(cert), site)
    site = re.sub(r"/etc/letsencrypt/live/[^;]*/privkey\.pem", str(key), site)
    for snippet in ("gobang-proxy.conf", "gobang-process.conf"):
        site = site.replace(f"snippets/{snippet}", str(DEPLOY / snippet))
    (tmp_path / "gobang.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path / 'nginx.pid'};\nevents {{}}\n"
        f"http {{\n    include {tmp_path / 'gobang.conf'};\n}}\n")
    checked = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"),
         "-c", str(tmp_path / "nginx.conf")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
