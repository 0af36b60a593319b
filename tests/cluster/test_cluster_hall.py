"""The hall across processes: Match pairs players wherever their connections are, exactly
once, also when the leader dies mid-crowd; a dead process's players leave every hall."""

from __future__ import annotations

import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
import socketio
from sqlalchemy import create_engine, text

from tests.support.cluster import owner_of
from tests.support.games import BLACK_FIVE
from tests.support.live import LiveClient, wait_until

pytestmark = [pytest.mark.live, pytest.mark.serial]


def leader_of(cluster) -> str | None:
    """The process holding the leader's lease; None between a dead leader's lease running
    out and the next one taking it."""
    holder = cluster.redis.client().get("gobang:lease:leader")
    return holder.decode() if holder is not None else None


def play(rooms, game_id, moves):
    for index, (row, col) in enumerate(moves):
        ack = rooms[index % 2].ask("place_stone", {"game_id": game_id, "row": row, "col": col})
        assert ack == {"ok": True}, ack


def test_players_on_different_processes_are_paired_once_and_play_through_nginx(cluster):
    p1, p2 = cluster.servers
    https = {name: cluster.user(name) for name in ("ann", "ben")}
    halls = {"ann": p1.connect(https["ann"], "/hall"), "ben": p2.connect(https["ben"], "/hall")}
    for hall in halls.values():
        hall.wait_for("hello")
        assert hall.ask("start_match", {}) == {"ok": True}
    found = {name: hall.wait_for("match_found", timeout=10) for name, hall in halls.items()}
    assert found["ann"]["game_id"] == found["ben"]["game_id"]
    game_id = found["ann"]["game_id"]
    by_color = {found[name]["color"]: name for name in found}
    rooms = [cluster.join(https[by_color[color]], game_id)[0] for color in ("black", "white")]
    play(rooms, game_id, BLACK_FIVE)
    assert rooms[1].wait_for("game_over")["result"]["winner"] == "black"
    me = {name: http.get(cluster.url + "/api/me", timeout=5).json() for name, http in https.items()}
    assert me[by_color["black"]]["score"] == 1030
    assert me[by_color["white"]]["score"] == 970
    assert [m["games"] for m in me.values()] == [1, 1]
    assert owner_of(cluster.redis, game_id) is None


def test_a_dead_process_s_players_leave_every_hall_within_five_seconds(cluster):
    p1, p2 = cluster.servers
    watcher = p1.connect(cluster.user("ann"), "/hall")
    watcher.wait_for("hello")
    leaving = p2.connect(cluster.user("ben"), "/hall")
    leaving.wait_for("hello")
    def online() -> set[str]:
        found = watcher.ask("find_players", {"prefix": "ben"})["players"]
        return {player["username"] for player in found}

    assert wait_until(lambda: "ben" in online(), 5)
    cluster.kill("p2")
    killed = time.monotonic()
    assert wait_until(lambda: "ben" not in online(), 5)
    assert time.monotonic() - killed <= 5


CROWD = 200


def crowd_presses_match(cluster, names, kill_leader_after: int | None = None):
    """Each player's hall on a process in turn; all press Match at once. Returns
    {name: match_found}, for those whose process lived."""
    # Registered on every process at once: how the crowd got its accounts is not the point.
    size = len(cluster.servers)
    with ThreadPoolExecutor(max_workers=2 * size) as pool:
        sessions = pool.map(lambda i: cluster.servers[i % size].user(names[i]), range(len(names)))
        https = dict(zip(names, sessions, strict=True))
    halls = {}
    for index, name in enumerate(names):
        halls[name] = cluster.servers[index % len(cluster.servers)].connect(https[name], "/hall")
    for hall in halls.values():
        hall.wait_for("hello")
    pressed = threading.Barrier(len(names))
    killed: list[str] = []
    acks: dict[str, object] = {}

    def press(index: int, name: str) -> None:
        pressed.wait()
        try:
            acks[name] = halls[name].ask("start_match", {}, timeout=30)
        except socketio.exceptions.SocketIOError as error:  # its process was killed
            acks[name] = error
        if kill_leader_after is not None and index == kill_leader_after:
            killed.append(leader_of(cluster))
            cluster.kill(killed[0])

    threads = [threading.Thread(target=press, args=(i, n)) for i, n in enumerate(names)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    dead = cluster.server(killed[0]) if killed else None
    size = len(cluster.servers)
    alive = [n for i, n in enumerate(names) if cluster.servers[i % size] is not dead]
    assert [n for n in alive if acks[n] != {"ok": True}] == []
    # With a process gone, an odd number may be left: one of them still waits, queued alone
    # (nobody is left to pair it with: waiting longer would not change that).
    left_over = 1 if killed else 0

    def waiting() -> list[str]:
        return [name for name in alive if not halls[name].has("match_found")]

    def settled() -> bool:
        still = waiting()
        if len(still) != left_over:
            return len(still) == 0
        return all(s["queued"] and s["queue"] == 1 for s in map(
            lambda name: debug_state(cluster, name), still))

    settled_in_time = wait_until(settled, 30)
    still = waiting()
    assert settled_in_time, [debug_state(cluster, name) for name in still]
    found = {name: halls[name].wait_for("match_found") for name in alive if name not in still}
    return found, killed


def debug_state(cluster, name) -> dict:
    client = cluster.redis.client()
    engine = create_engine(cluster.database_url)
    with engine.connect() as connection:
        games = connection.execute(text(
            "SELECT g.id, g.status FROM games g JOIN users u ON g.black_id = u.id "
            "OR g.white_id = u.id WHERE u.username = :name"), {"name": name}).all()
        user_id = connection.execute(text("SELECT id FROM users WHERE username = :name"),
                                     {"name": name}).scalar()
    engine.dispose()
    return {"games": games, "queued": client.hexists("gobang:queue", str(user_id)),
            "pending": client.hexists("gobang:pairing", str(user_id)),
            "user_game": client.hget("gobang:user_game", str(user_id)),
            "leader": leader_of(cluster), "queue": client.hlen("gobang:queue")}


def games_of(found) -> Counter:
    return Counter(match["game_id"] for match in found.values())


def test_a_crowd_over_three_processes_is_paired_exactly_once(cluster_of):
    cluster = cluster_of(3)
    names = [f"p{i:03d}" for i in range(CROWD)]
    found, _ = crowd_presses_match(cluster, names)
    games = games_of(found)
    assert len(games) == CROWD // 2
    assert set(games.values()) == {2}
    assert_each_player_has_one_game(cluster, names)


def test_a_crowd_is_paired_exactly_once_when_the_leader_dies_mid_crowd(cluster_of):
    cluster = cluster_of(3)
    names = [f"q{i:03d}" for i in range(CROWD)]
    found, killed = crowd_presses_match(cluster, names, kill_leader_after=CROWD // 2)
    assert killed
    # Everyone whose process lived is paired, with another such player or with one whose
    # process died after the pairing; nobody twice.
    # Batched, the crowd may all be paired before the dead leader's lease has run out.
    assert wait_until(lambda: leader_of(cluster) not in (None, killed[0]), 10)
    assert all(count <= 2 for count in games_of(found).values())
    assert_each_player_has_one_game(cluster, names)


def assert_each_player_has_one_game(cluster, names):
    engine = create_engine(cluster.database_url)
    with engine.connect() as connection:
        rows = connection.execute(text(
            "SELECT u.username, count(g.id) FROM users u JOIN games g "
            "ON g.black_id = u.id OR g.white_id = u.id GROUP BY u.username")).all()
    engine.dispose()
    counts = dict(rows)
    assert not [name for name in names if counts.get(name, 0) > 1]


def test_the_clock_is_not_charged_for_the_time_its_process_was_dead(cluster):
    https = {name: cluster.user(name) for name in ("ann", "ben")}
    halls = {name: cluster.connect(http, "/hall") for name, http in https.items()}
    for hall in halls.values():
        hall.wait_for("hello")
        assert hall.ask("start_match", {}) == {"ok": True}
    found = {name: hall.wait_for("match_found", timeout=10) for name, hall in halls.items()}
    game_id = found["ann"]["game_id"]
    by_color = {found[name]["color"]: https[name] for name in found}
    rooms = [cluster.join(by_color[color], game_id)[0] for color in ("black", "white")]
    play(rooms, game_id, BLACK_FIVE[:4])
    left = [rooms[1].wait_for("stone_placed") for _ in range(4)][-1]["clocks"]["black_ms"]
    killed_at = time.monotonic()
    cluster.kill(owner_of(cluster.redis, game_id))
    state = cluster.join(by_color["black"], game_id)[1]
    down = time.monotonic() - killed_at
    charged = left - state["clocks"]["black_ms"]
    assert down >= 2  # the lease ran out before anyone could take the game
    assert charged < 1500  # what black thought before the process died, not the downtime


def test_matched_games_are_played_where_their_players_join_not_all_on_the_leader(cluster):
    https = {f"sam{i}": cluster.user(f"sam{i}") for i in range(12)}
    halls = {name: cluster.servers[i % 2].connect(http, "/hall")
             for i, (name, http) in enumerate(https.items())}
    for hall in halls.values():
        hall.wait_for("hello")
        assert hall.ask("start_match", {}) == {"ok": True}
    found = {name: hall.wait_for("match_found", timeout=10) for name, hall in halls.items()}
    games = sorted({match["game_id"] for match in found.values()})
    assert len(games) == 6
    # Made by the leader, kept by nobody until a player comes.
    assert {owner_of(cluster.redis, game_id) for game_id in games} == {"(handed out)"}
    for name, match in found.items():
        if match["color"] == "black":
            cluster.join(https[name], match["game_id"])
    assert {owner_of(cluster.redis, game_id) for game_id in games} == {"p1", "p2"}


def test_both_players_joining_a_handed_out_game_at_once_on_one_process_start_it(cluster):
    https = {name: cluster.user(name) for name in ("ann", "ben")}
    halls = {name: cluster.servers[0].connect(http, "/hall") for name, http in https.items()}
    for hall in halls.values():
        hall.wait_for("hello")
        assert hall.ask("start_match", {}) == {"ok": True}
    game_id = halls["ann"].wait_for("match_found", timeout=10)["game_id"]
    assert owner_of(cluster.redis, game_id) == "(handed out)"
    rooms = [cluster.servers[1].connect(http, "/room") for http in https.values()]
    answers: list[dict] = []
    joins = [threading.Thread(target=lambda r=room: answers.append(
        r.ask("join_game", {"game_id": game_id}))) for room in rooms]
    for join in joins:
        join.start()
    for join in joins:
        join.join(timeout=15)
    assert [answer["ok"] for answer in answers] == [True, True]
    for room in rooms:
        assert room.wait_for("game_ready", timeout=10)["to_move"] == "black"
    assert owner_of(cluster.redis, game_id) == "p2"


def test_a_connection_while_redis_is_down_is_refused_as_unavailable_and_then_admitted(cluster):
    p1 = cluster.servers[0]
    http = cluster.user("ann")
    cluster.redis.stop()
    try:
        refused = LiveClient("/hall")
        reasons: list[dict] = []
        refused.on("connect_error", reasons.append, namespace="/hall")
        cookie = "; ".join(f"{c.name}={c.value}" for c in http.cookies)
        with pytest.raises(socketio.exceptions.ConnectionError):
            refused.connect(p1.url, namespaces=["/hall"], headers={"Cookie": cookie},
                            transports=["websocket"], wait_timeout=10)
    finally:
        cluster.redis.start()
    # What the pages retry on: the server is up, its shared store is not yet.
    assert reasons == [{"message": "unavailable"}]
    hall = p1.connect(http, "/hall")
    assert hall.wait_for("hello")["me"]["username"] == "ann"
