"""Deliberate one-line slips in the product code, and whether the tests catch each.

Each mutant changes one line of one file under gobang/ in a copy of the repository, then runs
the tests that cover that file there (the cheapest layer that can see the slip). A mutant is
`caught` when those tests fail, `missed` when they pass, and an `error` when its original text
is not found exactly once (the table has rotted as the code moved) or the tests could not run.
Before the mutants, each set of tests runs once on the unchanged copy: a set that fails there
proves nothing, and its mutants are errors.

    .venv/bin/python bench/mutants.py               # every mutant
    .venv/bin/python bench/mutants.py --list        # the table
    .venv/bin/python bench/mutants.py --check       # only: is every original found once?
    .venv/bin/python bench/mutants.py --only ratelimit-clear play-restore-one-move
    .venv/bin/python bench/mutants.py --jobs 2 --json

Mutants marked `redis` run with GOBANG_REQUIRE_REDIS=1 (the fixtures start their own
redis-server); those marked `postgres` run under .ci/with-postgres as `make test-pg` runs,
with the Redis store and several processes required. Exit status 1 when any mutant is missed
or is an error. docs/testing.md, "The suite's power: mutations", lists them and what caught
each.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from queue import Queue

ROOT = Path(__file__).resolve().parent.parent
# Seconds one mutant's tests may take before they count as caught (a hang is a failure).
TIMEOUT = 900.0

CAUGHT, MISSED, ERROR = "caught", "missed", "error"

# The known blind spots each mutant may stand for (docs/testing.md).
IN_FLIGHT = "acted on while a write is in flight"
EDGE_OF_ONE = "restore at the edge of one move"
MANY_ITEMS = "a loop over many items"
ONE_EXPIRY = "a window whose hits expire one by one"
LIVE_HOLDER = "a live holder that lost its lease"
COUNTS_ONLY = "a view whose counts alone change"


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str
    original: str
    replacement: str
    slip: str
    tests: tuple[str, ...]
    # "" (SQLite, no server), "redis" (a redis-server), "postgres" (PostgreSQL and Redis)
    needs: str = ""
    pattern: str = ""


RULES = "tests/rules"
PLAY = "tests/services/test_play.py"
ROOM = "tests/sockets/test_room_features.py"
COMPUTER = "tests/services/test_computer.py"
ACCOUNTS = "tests/services/test_accounts.py"
LIMITS = "tests/services/test_ratelimit.py"

MUTANTS: tuple[Mutant, ...] = (
    # --- rules ---
    Mutant("rules-five-needs-six", "gobang/rules/board.py",
           "            if ahead + behind >= 4:",
           "            if ahead + behind >= 5:",
           "A run is counted from the new stone outwards and the stone itself is forgotten.",
           (RULES,)),
    Mutant("rules-standard-overline-wins", "gobang/rules/rulesets.py",
           "        return length == 5\n",
           "        return length >= 5\n",
           "Standard gomoku is written as freestyle: an overline wins.",
           ("tests/rules/test_rules_rulesets.py", "tests/rules/test_rules_outcomes.py")),
    Mutant("rules-renju-white-overline", "gobang/rules/rulesets.py",
           "        return length == 5 or (length > 5 and color != BLACK)",
           "        return length == 5 or (length > 5 and color == BLACK)",
           "The renju overline rule is applied to the wrong colour.",
           (RULES,)),
    Mutant("rules-renju-overline-seven", "gobang/rules/renju.py",
           "        overline = overline or length > 5",
           "        overline = overline or length > 6",
           "An overline is taken to start at seven stones.",
           ("tests/rules/test_rules_renju.py",)),
    Mutant("rules-renju-double-four-three", "gobang/rules/renju.py",
           "    if fours >= 2:",
           "    if fours > 2:",
           "Off by one: a double-four is only forbidden from three fours.",
           ("tests/rules/test_rules_renju.py",)),
    Mutant("rules-renju-three-end-six", "gobang/rules/renju.py",
           "                and line[lo - 2] != BLACK_STONE",
           "                and line[lo - 1] != BLACK_STONE",
           "A three's far end is checked one point too near, so a 'three' that can only make "
           "six counts.",
           ("tests/rules/test_rules_renju.py",)),
    # --- play ---
    Mutant("play-draw-offer-lapses-wrong-side", "gobang/services/play/moves.py",
           "        live.draw_offer = None if live.draw_offer == color else live.draw_offer",
           "        live.draw_offer = None if live.draw_offer != color else live.draw_offer",
           "The draw offer that lapses on a move is the opponent's, not the mover's.",
           (ROOM,)),
    Mutant("play-first-move-charged", "gobang/services/play/moves.py",
           "            live.clocks.after_move(color, now, charged=number > 1)",
           "            live.clocks.after_move(color, now, charged=number > 0)",
           "Black's first move, made before any clock ran, is charged to black's clock.",
           (PLAY, "tests/sockets/test_room.py")),
    Mutant("play-finished-game-kept-in-table", "gobang/services/play/finisher.py",
           "        self.table.drop(live.game_id)\n",
           "        self.table.get(live.game_id)\n",
           "A finished game is never dropped from the games in play.",
           (PLAY,)),
    Mutant("play-acting-without-lock", "gobang/services/play/table.py",
           "        with live.lock:\n            check(live, color)\n",
           "        if live.lock:\n            check(live, color)\n",
           "A player's action does not take the game's lock, so a resignation can end a game "
           "while a move of it is being written.",
           (PLAY, ROOM), pattern=IN_FLIGHT),
    Mutant("play-draw-answered-by-offerer", "gobang/services/play/draws.py",
           "            if live.draw_offer != opponent(color):",
           "            if live.draw_offer is None:",
           "Any open draw offer may be answered, even by the player who made it.",
           (ROOM,)),
    Mutant("play-take-back-only-reply", "gobang/services/play/takebacks.py",
           "    return count - mine[-1] if mine else 0",
           "    return count - mine[-1] - 1 if mine else 0",
           "Off by one: a take-back removes only the reply, not the requester's own move.",
           (PLAY,)),
    Mutant("play-take-back-limit-plus-one", "gobang/services/play/takebacks.py",
           "            if live.undos[color] >= self.max_per_player:",
           "            if live.undos[color] > self.max_per_player:",
           "Off by one: a player gets one take-back more than the limit.",
           (ROOM,)),
    Mutant("play-take-back-abort-window", "gobang/services/play/takebacks.py",
           "        live.abort_from = now if remaining < 2 and live.opening is None else None",
           "        live.abort_from = now if remaining < 1 and live.opening is None else None",
           "A take-back back to one move forgets that white's first move is again due "
           "within the abort window.",
           (PLAY, ROOM), pattern=EDGE_OF_ONE),
    Mutant("play-one-resume-vote", "gobang/services/play/pauses.py",
           "            if live.resume_votes != {BLACK, WHITE}:",
           "            if not live.resume_votes:",
           "One player's vote resumes a paused game.",
           (ROOM,)),
    Mutant("play-pause-clock-runs", "gobang/services/play/pauses.py",
           "                live.clocks.stop(self.clock())",
           "                live.clocks.copy()",
           "Pausing forgets to stop the running clock.",
           (PLAY,)),
    Mutant("play-timekeeper-stops-at-first-quiet-game", "gobang/services/play/timekeeper.py",
           "                if ending is None:\n                    continue",
           "                if ending is None:\n                    break",
           "The timekeeper stops at the first game with nothing due, so later games never "
           "time out.",
           (PLAY,), pattern=MANY_ITEMS),
    Mutant("play-forfeit-latest-leaver", "gobang/services/play/timekeeper.py",
           "            return Ending(opponent(min(overdue, key=overdue.get)), Reason.DISCONNECT)",
           "            return Ending(opponent(max(overdue, key=overdue.get)), Reason.DISCONNECT)",
           "When both players are away the one who left last forfeits.",
           (PLAY, "tests/services/test_results.py")),
    Mutant("play-rematch-same-colours", "gobang/services/play/rematches.py",
           "        black, white = db.session.get(User, second), db.session.get(User, first)",
           "        black, white = db.session.get(User, first), db.session.get(User, second)",
           "A rematch keeps the colours instead of swapping them.",
           (ROOM,)),
    Mutant("play-restore-clock-after-one-move", "gobang/services/play/factory.py",
           "    if clocks is not None and acted >= 1 and to_move is not None:",
           "    if clocks is not None and acted > 1 and to_move is not None:",
           "A game restored with one saved move does not start white's clock.",
           (PLAY, "tests/services/test_results.py"), pattern=EDGE_OF_ONE),
    Mutant("play-restore-abort-window-one-move", "gobang/services/play/factory.py",
           "        if acted < (2 if opening is None else 1):",
           "        if acted < (1 if opening is None else 1):",
           "A game restored with one saved move has no abort window for white's first move.",
           (PLAY, "tests/services/test_results.py"), pattern=EDGE_OF_ONE),
    Mutant("play-flag-at-zero-missed", "gobang/services/play/live.py",
           "        if self.running and self.left(self.running, now) <= 0:",
           "        if self.running and self.left(self.running, now) < 0:",
           "A clock that reached exactly zero has not fallen.",
           (PLAY, "tests/sockets/test_room.py")),
    Mutant("play-batch-refusal-first-only", "gobang/services/play/move_writer.py",
           "                for waiting in batch:\n                    self._write([waiting])",
           "                for waiting in batch[:1]:\n                    self._write([waiting])",
           "A refused batch of moves is written again one at a time, but only its first.",
           ("tests/services/test_move_writer.py",), pattern=MANY_ITEMS),
    # --- hall ---
    Mutant("hall-gap-exclusive", "gobang/services/hall/matcher.py",
           "    candidates = [c for c in neighbours"
           " if abs(c.score - entry.score) <= _widened(gap, entry, c)]",
           "    candidates = [c for c in neighbours"
           " if abs(c.score - entry.score) < _widened(gap, entry, c)]",
           "Off by one: players exactly the allowed gap apart are not paired.",
           ("tests/services/test_matcher.py",)),
    Mutant("hall-drop-first-vanished", "gobang/services/hall/matcher.py",
           "        for user_id in dropped:",
           "        for user_id in dropped[:1]:",
           "Of the players whose connection is gone, only the first leaves the queue.",
           ("tests/services/test_matcher.py",), pattern=MANY_ITEMS),
    Mutant("hall-challenges-drop-first", "gobang/services/hall/challenges.py",
           "        for challenge in [c for c in self.book.all() if matches(c)]:",
           "        for challenge in [c for c in self.book.all() if matches(c)][:1]:",
           "Leaving cancels only the first of a player's open challenges.",
           ("tests/services/test_hall.py", "tests/sockets/test_hall_features.py"),
           pattern=MANY_ITEMS),
    Mutant("hall-challenge-accepted-by-sender", "gobang/services/hall/challenges.py",
           "        if challenge is None or challenge.to_id != user.id or challenge.hidden:",
           "        if challenge is None or challenge.hidden:",
           "Anyone who knows a challenge's id may answer it, its sender included.",
           ("tests/services/test_hall.py", "tests/sockets/test_hall_features.py")),
    Mutant("social-hidden-challenge-accepted", "gobang/services/hall/challenges.py",
           "        if challenge is None or challenge.to_id != user.id or challenge.hidden:",
           "        if challenge is None or challenge.to_id != user.id:",
           "The blocker accepts a blocked player's hidden challenge by guessing its id.",
           ("tests/services/test_blocks.py", "tests/sockets/test_social.py")),
    Mutant("social-matcher-pairs-blocked", "gobang/services/hall/matcher.py",
           "        if not apart or frozenset((entry.user_id, other.user_id)) not in apart:",
           "        if not apart or frozenset((entry.user_id, entry.user_id)) not in apart:",
           "The matcher looks up the wrong pair, so two players one of whom blocks the other meet.",
           ("tests/services/test_matcher.py", "tests/services/test_blocks.py")),
    Mutant("social-chat-skip-dropped", "gobang/sockets/base.py",
           "        present = self.store.connected_among(namespace, user_ids)",
           "        present = self.store.connected_among(namespace, user_ids[:0])",
           "A chat line's author's blockers are looked up nowhere, so the line reaches them.",
           ("tests/sockets/test_social.py",)),
    Mutant("hall-online-only-in-hall", "gobang/services/hall/presence.py",
           "        return self.is_here(user_id) or self.state.on_pages(user_id)",
           "        return self.is_here(user_id)",
           "A player on another page of the site cannot be challenged.",
           ("tests/services/test_hall.py", "tests/sockets/test_site.py")),
    Mutant("hall-view-counts-alone-dropped", "gobang/services/hall/view.py",
           "        elif not any(update[\"players\"].values()) and not any(",
           "        if not any(update[\"players\"].values()) and not any(",
           "An update whose counts alone changed is not sent.",
           ("tests/services/test_hall.py",), pattern=COUNTS_ONLY),
    Mutant("hall-view-playing-one-seat", "gobang/services/hall/view.py",
           "        playing = 2 * len(live)",
           "        playing = len(live)",
           "The hall counts games in play, not the players in them.",
           ("tests/services/test_hall.py",), pattern=COUNTS_ONLY),
    # --- cluster ---
    Mutant("cluster-renew-any-holder", "gobang/services/cluster/leases.py",
           "_RENEW = \"\"\"\nif redis.call('GET', KEYS[1]) == ARGV[1] then",
           "_RENEW = \"\"\"\nif redis.call('GET', KEYS[1]) then",
           "A lease is renewed whoever holds it, so a stalled process never learns another "
           "took its game.",
           ("tests/cluster/test_services.py",), needs="redis", pattern=LIVE_HOLDER),
    Mutant("cluster-drop-game-first-player", "gobang/services/cluster/redis_store.py",
           "DROP_GAME = \"\"\"\nfor i = 2, #ARGV do",
           "DROP_GAME = \"\"\"\nfor i = 2, 2 do",
           "Dropping a game frees only its first player in Redis.",
           ("tests/cluster/test_live_store.py",), needs="redis", pattern=MANY_ITEMS),
    Mutant("cluster-reserve-last-player-only", "gobang/services/cluster/reservations.py",
           "    busy = busy or redis.call('HGET', KEYS[1], user)",
           "    busy = redis.call('HGET', KEYS[1], user)",
           "Reserving a game checks only its last player for a game already.",
           ("tests/cluster/test_processes.py",), needs="redis", pattern=MANY_ITEMS),
    Mutant("cluster-stale-ignores-ended-lease", "gobang/services/cluster/reservations.py",
           "  if not ends or tonumber(ends) <= now or tonumber(at) < now - tonumber(ARGV[1]) then",
           "  if not ends or tonumber(at) < now - tonumber(ARGV[1]) then",
           "A reservation is stale only once its process's lease is gone from Redis, not "
           "when it has run out.",
           ("tests/cluster/test_processes.py", "tests/cluster/test_reservations.py"),
           needs="postgres", pattern=LIVE_HOLDER),
    # --- computer and engine ---
    Mutant("computer-capacity-one-short", "gobang/services/computer/capacity.py",
           "    if len(levels) > settings.capacity:",
           "    if len(levels) >= settings.capacity:",
           "Off by one: the computer refuses its last game slot.",
           ("tests/services/test_computer_capacity.py", "tests/services/test_computer.py")),
    Mutant("computer-plays-stale-thought", "gobang/services/computer/computer.py",
           "                    or tuple(live.rules.moves) != thought.moves):",
           "                    or False):",
           "An engine's answer is played even if the position changed (a take-back) while it "
           "thought.",
           (f"{COMPUTER}::test_a_reply_to_a_position_taken_back_is_not_played",
            f"{COMPUTER}::test_a_reply_to_a_position_since_changed_is_not_played")),
    Mutant("ai-blocks-on-a-forbidden-point", "gobang/ai/search.py",
           "        blocks = [i for i in pos.fives(3 - side) if i in allowed]",
           "        blocks = [i for i in pos.fives(3 - side)]",
           "The engine blocks the opponent's five even where it may not play (renju black).",
           ("tests/ai/test_ai_renju.py", "tests/ai/test_ai_levels.py")),
    Mutant("ai-budget-share-forgets-spent", "gobang/ai/budget.py",
           "        left = max(0, self.limit - self.nodes)",
           "        left = max(0, self.limit)",
           "A sub-search's share is taken of the whole allowance, not of what is left.",
           ("tests/ai/test_ai_budget.py", "tests/ai/test_ai_levels.py")),
    # --- transport ---
    Mutant("guard-budget-one-extra", "gobang/transport/guard.py",
           "        if self.tokens < 1:",
           "        if self.tokens < 0:",
           "The frame budget lets one frame more through than it holds.",
           ("tests/host/test_transport_guard.py",)),
    Mutant("guard-fragment-limit-inclusive", "gobang/transport/guard.py",
           "        if self._fragment_bytes > self._max_message_bytes:",
           "        if self._fragment_bytes >= self._max_message_bytes:",
           "Off by one: a fragmented message exactly at the size limit is refused.",
           ("tests/host/test_transport_guard.py",)),
    Mutant("guard-empty-fragments-free", "gobang/transport/guard.py",
           "        self._fragment_bytes += max(1, pushed)",
           "        self._fragment_bytes += pushed",
           "Empty fragments cost nothing, so they pile up without limit.",
           ("tests/host/test_transport_guard.py",)),
    Mutant("guard-sweep-one-deadline", "gobang/transport/guard.py",
           "        while self.pending and self.pending[0][0] <= now:",
           "        if self.pending and self.pending[0][0] <= now:",
           "Each sweep closes at most one connection past its namespace deadline.",
           ("tests/host/test_transport_guard.py",), pattern=MANY_ITEMS),
    Mutant("polling-first-frame-only", "gobang/transport/polling.py",
           "    for frame in frames:\n        fault = frame_fault(frame, upgrading=False)",
           "    for frame in frames[:1]:\n        fault = frame_fault(frame, upgrading=False)",
           "Only the first frame of a long-polling POST is checked.",
           ("tests/host/test_transport_guard.py",), pattern=MANY_ITEMS),
    Mutant("polling-frame-count-inclusive", "gobang/transport/polling.py",
           "    if len(frames) > frames_at_most:",
           "    if len(frames) >= frames_at_most:",
           "Off by one: a POST with as many frames as allowed is refused.",
           ("tests/host/test_transport_guard.py",)),
    # --- accounts ---
    Mutant("accounts-password-min-exclusive", "gobang/services/accounts/accounts.py",
           "    if len(password) < PASSWORD_MIN:",
           "    if len(password) <= PASSWORD_MIN:",
           "Off by one: a password of exactly the minimum length is refused.",
           (ACCOUNTS, "tests/http/test_accounts_http.py")),
    Mutant("accounts-username-max-exclusive", "gobang/services/accounts/accounts.py",
           "    if not USERNAME_MIN <= len(username) <= USERNAME_MAX:",
           "    if not USERNAME_MIN <= len(username) < USERNAME_MAX:",
           "Off by one: a name of exactly the maximum length is refused.",
           (ACCOUNTS, "tests/http/test_accounts_http.py", "tests/http/test_usernames.py")),
    Mutant("accounts-inactive-user-logs-in", "gobang/services/accounts/accounts.py",
           "        if user is None or not user.is_active:",
           "        if user is None:",
           "An account that is no longer active can still log in.",
           (ACCOUNTS, "tests/http/test_accounts_http.py", "tests/http/test_sessions_http.py")),
    # --- limits ---
    Mutant("ratelimit-window-edge", "gobang/services/ratelimit.py",
           "            while hits and hits[0] <= now - self.window:",
           "            while hits and hits[0] < now - self.window:",
           "Off by one: a hit exactly one window old still counts.",
           (LIMITS, ROOM)),
    Mutant("ratelimit-clear-at-first-expiry", "gobang/services/ratelimit.py",
           "                hits.popleft()",
           "                hits.clear()",
           "When the oldest hit leaves the window every hit is forgotten, not only it.",
           (LIMITS, ROOM),
           pattern=ONE_EXPIRY),
    Mutant("ratelimit-limit-plus-one", "gobang/services/ratelimit.py",
           "            if len(hits) >= self.limit:",
           "            if len(hits) > self.limit:",
           "Off by one: one attempt more than the limit is allowed.",
           (LIMITS, ROOM)),
    Mutant("ratelimit-forget-busy-keys", "gobang/services/ratelimit.py",
           "            stale = [k for k, h in self._hits.items() if not h or h[-1] <= now - "
           "self.window]",
           "            stale = [k for k, h in self._hits.items() if not h or h[0] <= now - "
           "self.window]",
           "Tidying a crowded limiter forgets keys whose oldest hit expired though newer "
           "ones still count.",
           (LIMITS, ROOM),
           pattern=ONE_EXPIRY),
)


@dataclass
class Result:
    id: str
    status: str
    seconds: float
    caught_by: str = ""
    detail: str = ""
    tests: list[str] = field(default_factory=list)


# --- the table itself ---


def problems(mutant: Mutant, root: Path = ROOT) -> list[str]:
    """Why the mutant cannot be applied to the code under `root` as the table says."""
    path = root / mutant.file
    if not mutant.file.startswith("gobang/"):
        return [f"{mutant.file}: not product code"]
    if not path.is_file():
        return [f"{mutant.file}: no such file"]
    text = path.read_text()
    found = text.count(mutant.original)
    if found != 1:
        return [f"{mutant.file}: original found {found} times, not once"]
    before, after = mutant.original.splitlines(), mutant.replacement.splitlines()
    changed = sum(a != b for a, b in zip(before, after, strict=False))
    if len(before) != len(after) or changed != 1:
        return ["the replacement must change exactly one line of the original"]
    try:
        compile(text.replace(mutant.original, mutant.replacement), mutant.file, "exec")
    except SyntaxError as error:
        return [f"the mutated file does not compile: {error}"]
    return []


def check(mutants: Iterable[Mutant] = MUTANTS, root: Path = ROOT) -> list[str]:
    """Every problem of the table against the code under `root`; empty when it holds."""
    found: list[str] = []
    seen: set[str] = set()
    for mutant in mutants:
        if mutant.id in seen:
            found.append(f"{mutant.id}: id used twice")
        seen.add(mutant.id)
        found += [f"{mutant.id}: {problem}" for problem in problems(mutant, root)]
        found += [f"{mutant.id}: {test}: no such test file or folder"
                  for test in mutant.tests if not (root / test.split("::")[0]).exists()]
    return found


# --- running ---


def tracked_files(root: Path) -> list[str]:
    """The repository's files as the working tree has them, new files not yet committed too."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root, check=True, capture_output=True).stdout
    return [name for name in listed.decode().split("\0") if name]


def make_copy(root: Path, into: Path) -> Path:
    for name in tracked_files(root):
        source = root / name
        if source.is_symlink() or not source.is_file():
            continue
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    return into


def command(mutant_needs: str, tests: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("GOBANG_") and key != "PYTHONPATH"}
    args = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    if mutant_needs in ("redis", "postgres"):
        env["GOBANG_REQUIRE_REDIS"] = "1"
    if mutant_needs == "postgres":
        env.update(GOBANG_TEST_LIVE_STORE="redis", GOBANG_REQUIRE_CLUSTER="1")
        args = ["bash", ".ci/with-postgres", *args]
    return args, env


def run_tests(copy: Path, needs: str, tests: Sequence[str],
              timeout: float) -> tuple[str, str, str]:
    """(passed | failed | timeout | broken, first failing test, the output's tail)."""
    args, env = command(needs, tests)
    try:
        done = subprocess.run(args, cwd=copy, env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", "", f"no end within {timeout:.0f} s"
    output = done.stdout + done.stderr
    tail = "\n".join(output.strip().splitlines()[-15:])
    failed = next((line.split()[1] for line in output.splitlines()
                   if line.startswith(("FAILED ", "ERROR ")) and len(line.split()) > 1), "")
    if done.returncode == 0:
        return "passed", "", tail
    if done.returncode in (1, 2, 3) and (failed or done.returncode == 1):
        return "failed", failed, tail
    return "broken", failed, tail


def run_mutant(mutant: Mutant, copy: Path, timeout: float) -> Result:
    started = time.monotonic()
    trouble = problems(mutant, copy)
    if trouble:
        return Result(mutant.id, ERROR, 0.0, detail="; ".join(trouble),
                      tests=list(mutant.tests))
    path = copy / mutant.file
    original = path.read_text()
    path.write_text(original.replace(mutant.original, mutant.replacement))
    try:
        outcome, failed, tail = run_tests(copy, mutant.needs, mutant.tests, timeout)
    finally:
        path.write_text(original)
    seconds = time.monotonic() - started
    if outcome == "passed":
        return Result(mutant.id, MISSED, seconds, tests=list(mutant.tests))
    if outcome == "failed":
        return Result(mutant.id, CAUGHT, seconds, caught_by=failed, tests=list(mutant.tests))
    if outcome == "timeout":
        return Result(mutant.id, CAUGHT, seconds, caught_by="(timeout)", detail=tail,
                      tests=list(mutant.tests))
    return Result(mutant.id, ERROR, seconds, detail=tail, tests=list(mutant.tests))


def run_all(mutants: Sequence[Mutant], jobs: int, timeout: float, baseline: bool,
            say) -> list[Result]:
    with tempfile.TemporaryDirectory(prefix="gobang-mutants-") as scratch:
        copies: Queue[Path] = Queue()
        for n in range(max(1, jobs)):
            copies.put(make_copy(ROOT, Path(scratch) / f"copy{n}"))
        broken: dict[tuple[str, tuple[str, ...]], str] = {}
        if baseline:
            sets = sorted({(m.needs, m.tests) for m in mutants})
            say(f"baseline: {len(sets)} sets of tests on the unchanged code")

            def base(key: tuple[str, tuple[str, ...]]) -> None:
                copy = copies.get()
                try:
                    outcome, failed, tail = run_tests(copy, key[0], key[1], timeout)
                finally:
                    copies.put(copy)
                if outcome != "passed":
                    broken[key] = f"fails unmutated ({outcome} {failed}): {tail}"
                    say(f"  FAILS unmutated: {' '.join(key[1])} ({failed or outcome})")

            with ThreadPoolExecutor(max(1, jobs)) as pool:
                list(pool.map(base, sets))

        def one(mutant: Mutant) -> Result:
            key = (mutant.needs, mutant.tests)
            if key in broken:
                result = Result(mutant.id, ERROR, 0.0, detail=broken[key],
                                tests=list(mutant.tests))
            else:
                copy = copies.get()
                try:
                    result = run_mutant(mutant, copy, timeout)
                finally:
                    copies.put(copy)
            say(f"{result.status:7} {result.seconds:6.1f} s  {mutant.id}"
                + (f"  ({result.caught_by})" if result.caught_by else "")
                + (f"\n{result.detail}" if result.status == ERROR else ""))
            return result

        with ThreadPoolExecutor(max(1, jobs)) as pool:
            return list(pool.map(one, mutants))


def table(results: Sequence[Result], mutants: dict[str, Mutant]) -> str:
    rows = [f"{'id':44} {'file':38} {'status':7} {'s':>6}  caught by"]
    for r in results:
        file = mutants[r.id].file.removeprefix("gobang/")
        rows.append(f"{r.id:44} {file:38} {r.status:7} {r.seconds:6.1f}  {r.caught_by}")
    counts = {status: sum(r.status == status for r in results)
              for status in (CAUGHT, MISSED, ERROR)}
    rows.append(", ".join(f"{n} {status}" for status, n in counts.items())
                + f" of {len(results)}")
    return "\n".join(rows)


def listing(mutants: Sequence[Mutant]) -> str:
    lines = []
    for m in mutants:
        lines.append(f"{m.id}  [{m.file}]{'  (' + m.needs + ')' if m.needs else ''}")
        lines.append(f"    {m.slip}")
        if m.pattern:
            lines.append(f"    blind spot: {m.pattern}")
        lines.append(f"    tests: {' '.join(m.tests)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="ID", help="run only these mutants")
    parser.add_argument("--list", action="store_true", help="print the table and stop")
    parser.add_argument("--check", action="store_true",
                        help="only check that every original is found exactly once")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    parser.add_argument("--json", action="store_true", help="the results as JSON on stdout")
    parser.add_argument("--timeout", type=float, default=TIMEOUT,
                        help=f"seconds per mutant's tests (default {TIMEOUT:.0f})")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip running each set of tests on the unchanged code first")
    args = parser.parse_args(argv)
    by_id = {m.id: m for m in MUTANTS}
    chosen = list(MUTANTS)
    if args.only:
        unknown = [i for i in args.only if i not in by_id]
        if unknown:
            parser.error(f"no mutant {', '.join(unknown)}")
        chosen = [by_id[i] for i in args.only]
    if args.list:
        print(listing(chosen))
        return 0
    if args.check:
        found = check(chosen)
        for problem in found:
            print(problem)
        print(f"{len(chosen)} mutants, {len(found)} problems")
        return 1 if found else 0

    def say(line: str) -> None:
        print(line, file=sys.stderr if args.json else sys.stdout, flush=True)

    started = time.monotonic()
    results = run_all(chosen, args.jobs, args.timeout, not args.no_baseline, say)
    total = time.monotonic() - started
    if args.json:
        print(json.dumps({"seconds": round(total, 1),
                          "results": [asdict(r) for r in results]}, indent=2))
    else:
        print()
        print(table(results, by_id))
        print(f"{total:.0f} s in all")
    return 0 if all(r.status == CAUGHT for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
