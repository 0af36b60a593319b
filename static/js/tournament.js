/*
 * An arena's or a Swiss event's page: polls GET /api/tournaments/<id> every second
 * (docs/protocol.md, "Tournaments") and redraws the countdown, the standings, the games in
 * progress and the podium, for a Swiss event the round, its boards and the pause before the
 * next round, and the event's chat (tournament_chat.js); a player who has just been paired
 * is taken to their game. All user text goes in through textContent.
 */

import {$, el} from "./page.js";
import {t} from "./i18n.js";
import {eventChat} from "./tournament_chat.js";

const POLL_MS = 1000;
const root = $("tournament");
if (root) start(root);

function start(root) {
  const address = `/api/tournaments/${root.dataset.tournamentId}`;
  const chat = eventChat(address);
  let secondsLeft = null;
  let label = null;

  async function poll() {
    try {
      const response = await fetch(address + (chat ? chat.query() : ""), {headers: {Accept: "application/json"}, credentials: "same-origin"});
      if (response.ok) show(await response.json());
    } catch (e) {
      // The server restarting: the next poll tries again.
    }
    setTimeout(poll, POLL_MS);
  }

  function show(data) {
    if (data.me && data.me.game_id != null) {
      window.location.assign(`/game/${data.me.game_id}`);
      return;
    }
    const swiss = data.kind === "swiss";
    root.dataset.status = data.status;
    $("tournament-status").textContent = statusText(data.status);
    label = data.status === "scheduled" ? t("Starts in") : swiss ? t("Next round in") : t("Ends in");
    secondsLeft = data.status === "scheduled" ? data.seconds_to_start
      : data.status !== "running" ? null : swiss ? data.seconds_to_next_round : data.seconds_to_end;
    tickCountdown();
    // Once it is over there is nothing to count down to.
    document.querySelector("[data-testid=countdown-box]").hidden =
      data.status === "finished" || data.status === "cancelled";
    showStandings(data.standings, swiss);
    showGames(data.games);
    showPodium(data.podium);
    if (swiss) {
      document.querySelector("[data-testid=tournament-round]").textContent =
        t("{round} of {rounds}", {round: data.round, rounds: data.rounds});
      showBoards(data.boards);
    }
    if (chat) chat.show(data.chat);
  }

  function tickCountdown() {
    document.querySelector("[data-testid=countdown-label]").textContent = label;
    document.querySelector("[data-testid=countdown]").textContent =
      secondsLeft == null ? "–" : clockText(secondsLeft);
  }

  setInterval(() => {
    if (secondsLeft != null && secondsLeft > 0) secondsLeft -= 1;
    if (label != null) tickCountdown();
  }, 1000);
  poll();
}

function statusText(status) {
  return {scheduled: t("Starts soon"), running: t("Running"), finished: t("Finished"),
    cancelled: t("Cancelled")}[status] || status;
}

function clockText(seconds) {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

function showStandings(rows, swiss) {
  const body = $("standings-rows");
  body.replaceChildren(...rows.map(swiss ? swissRow : standingRow));
  $("no-players").hidden = rows.length > 0;
}

// A Swiss round's mark: 1, ½ or 0 for a game, the bye, absent, or a game still in play.
function swissMark(outcome) {
  return {win: "1", draw: "½", loss: "0", bye: t("bye"), absent: "–", playing: "…"}[outcome] || outcome;
}

function swissRow(row) {
  const tr = el("tr");
  tr.dataset.testid = "standing";
  tr.dataset.player = row.username;
  const name = el("td", "", row.username);
  if (row.withdrawn) name.appendChild(el("span", "muted", ` (${t("withdrawn")})`));
  const cells = [["standing-points", row.points], ["standing-buchholz", row.buchholz],
    ["standing-sb", row.sonneborn_berger]].map(([testid, value]) => {
    const cell = el("td", "", String(value));
    cell.dataset.testid = testid;
    return cell;
  });
  const marks = el("td", "marks");
  for (const mark of row.marks) {
    marks.appendChild(el("span", `mark ${mark.outcome}`, swissMark(mark.outcome)));
    marks.appendChild(document.createTextNode(" "));
  }
  tr.append(el("td", "", String(row.rank)), name, ...cells, marks);
  return tr;
}

function showBoards(boards) {
  $("tournament-boards").replaceChildren(...boards.map((board) => {
    const item = el("li");
    item.dataset.testid = "tournament-board";
    if (!board.white) {
      item.textContent = `${board.black.username} · ${t("bye")}`;
      return item;
    }
    item.textContent = `${board.black.username} – ${board.white.username}`
      + (board.result ? ` · ${board.result}` : "") + " ";
    if (board.game_id != null) {
      const link = el("a", "", board.result ? t("Game") : t("Watch"));
      link.href = `/game/${board.game_id}`;
      item.appendChild(link);
    }
    return item;
  }));
}

function standingRow(row) {
  const tr = el("tr");
  tr.dataset.testid = "standing";
  tr.dataset.player = row.username;
  const name = el("td", "", row.username);
  if (row.on_fire) {
    const fire = el("span", "fire", " 🔥");
    fire.title = t("On a streak: the next game counts double");
    name.appendChild(fire);
  }
  if (row.withdrawn) name.appendChild(el("span", "muted", ` (${t("withdrawn")})`));
  const points = el("td", "", String(row.points));
  points.dataset.testid = "standing-points";
  const marks = el("td", "marks");
  for (const mark of row.marks) {
    marks.appendChild(el("span", `mark ${mark.outcome}`, String(mark.points)));
    marks.appendChild(document.createTextNode(" "));
  }
  tr.append(el("td", "", String(row.rank)), name, points, marks);
  return tr;
}

function showGames(games) {
  $("tournament-games").replaceChildren(...games.map((game) => {
    const item = el("li", "", `${game.black.username} – ${game.white.username} `);
    const watch = el("a", "", t("Watch"));
    watch.href = `/game/${game.game_id}`;
    item.appendChild(watch);
    return item;
  }));
}

function showPodium(podium) {
  $("podium-card").hidden = podium.length === 0;
  $("podium").replaceChildren(...podium.map((row) => el("li", "", `${row.username} · ${row.points}`)));
}
