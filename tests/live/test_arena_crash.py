"""SIGKILL in the middle of an arena: it resumes, and every finished game counts once."""

from __future__ import annotations

import re

import pytest

from tests.live.test_play import BLACK_FIVE
from tests.support.arenas import running_arena
from tests.support.live import wait_until

pytestmark = [pytest.mark.live]
TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


@pytest.fixture
def live_env() -> dict[str, str]:
    return {"GOBANG_FORFEIT_GRACE_SECONDS": "20"}


class Arena:
    """Players who joined a tournament (a running arena unless another is given) with a page
    of the site open, and what they see of it."""

    def __init__(self, live_server, names: tuple[str, ...],
                 tournament_id: int | None = None) -> None:
        self.server = live_server
        self.address = f"{live_server.url}/api/tournaments/"
        self.id = tournament_id or running_arena(live_server.database_url)
        self.http = {name: live_server.user(name) for name in names}
        for http in self.http.values():
            page = http.get(f"{live_server.url}/tournaments/{self.id}").text
            http.post(f"{live_server.url}/tournaments/{self.id}/join",
                      data={"csrf_token": TOKEN.search(page).group(1)})
            live_server.connect(http, "/site")  # a page open: the arena pairs them

    def summary(self, name: str) -> dict:
        return self.http[name].get(f"{self.address}{self.id}").json()

    def game_of(self, name: str) -> int | None:
        return self.summary(name)["me"]["game_id"]

    def next_game(self, among: tuple[str, ...]) -> tuple[int, dict[str, str]]:
        """The game the arena pairs next among these players: its id and its seats."""
        assert wait_until(lambda: sum(self.game_of(n) is not None for n in among) == 2)
        name = next(n for n in among if self.game_of(n) is not None)
        game_id = self.game_of(name)
        record = self.http[name].get(f"{self.server.url}/api/games/{game_id}").json()
        return game_id, {color: record[color]["username"] for color in ("black", "white")}

    def play(self, game_id: int, seats: dict[str, str], moves) -> dict:
        rooms = {color: self.server.connect(self.http[name], "/room")
                 for color, name in seats.items()}
        for room in rooms.values():
            assert room.ask("join_game", {"game_id": game_id})["ok"]
        for index, (row, col) in enumerate(moves):
            mover = rooms["black"] if index % 2 == 0 else rooms["white"]
            assert mover.ask("place_stone", {"game_id": game_id, "row": row, "col": col}) == {
                "ok": True}
        return rooms

    def marks(self) -> dict[str, list[int]]:
        rows = self.summary(next(iter(self.http)))["standings"]
        return {row["username"]: [mark["points"] for mark in row["marks"]] for row in rows}


def test_an_arena_resumes_after_sigkill_with_nothing_lost_or_doubled(live_server):
    arena = Arena(live_server, ("ann", "ben", "cyd"))
    first, first_seats = arena.next_game(("ann", "ben", "cyd"))
    rooms = arena.play(first, first_seats, BLACK_FIVE)
    rooms["white"].wait_for("game_over")
    assert sorted(map(tuple, arena.marks().values())) == [(), (0,), (2,)]

    # The one who waited meets one of the first game's players: that game is in play.
    second, second_seats = arena.next_game(("ann", "ben", "cyd"))
    assert second != first
    arena.play(second, second_seats, BLACK_FIVE[:3])
    before = arena.marks()
    live_server.crash_and_restart()

    assert arena.summary("ann")["status"] == "running"
    assert arena.marks() == before
    rooms = arena.play(second, second_seats, [])
    for index, (row, col) in enumerate(BLACK_FIVE[3:]):
        mover = rooms["white"] if index % 2 == 0 else rooms["black"]
        assert mover.ask("place_stone", {"game_id": second, "row": row, "col": col}) == {
            "ok": True}
    rooms["white"].wait_for("game_over")
    after = arena.marks()
    assert sorted(len(marks) for marks in after.values()) == [1, 1, 2]
    assert after[second_seats["black"]][-1] == 2 and after[second_seats["white"]][-1] == 0
    assert sum(map(sum, after.values())) == 4
