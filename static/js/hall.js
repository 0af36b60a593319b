/*
 * Hall page: wires the /hall namespace to the DOM. This is the one place the hall's pieces
 * (hall/*.js) are put together, so who talks to whom reads on one screen: the hall view and
 * finding players (hall/lists.js), matching in a pool (hall/matching.js), challenges
 * (hall/challenges.js), the players one follows who are online (hall/following.js), the
 * player's own game (hall_game.js), chat and the computer's card.
 * Every emit carries an acknowledgement; a failed one shows its message in #hall-error.
 * All user-provided text goes in through textContent; words go through t (i18n.js).
 */

import {Attention} from "./attention.js";
import {ChatPanel, reportLinks} from "./chat.js";
import {ChallengeDialog} from "./hall/challenge_dialog.js";
import {Challenges} from "./hall/challenges.js";
import {Following} from "./hall/following.js";
import {HallLists} from "./hall/lists.js";
import {Matching} from "./hall/matching.js";
import {CurrentGame} from "./hall_game.js";
import {startComputerPanel} from "./hall_computer.js";
import {t} from "./i18n.js";
import {$, Notices, PageSession, connect, haveSocketIo} from "./page.js";
import {categoryOf} from "./pools.js";

const root = $("hall");
if (root && haveSocketIo()) startHall(root);

function startHall(root) {
  const socket = connect("/hall");
  const notices = new Notices({error: $("hall-error"), connection: $("connection-notice")});
  const session = new PageSession(socket, notices, {
    root: root,
    controls: "button, input, select",
    replacedText: t("This hall is open in another tab."),
    refusedText: (reason) => t("Could not join the hall ({reason}). Reload the page to try again.", {reason: reason}),
    onStop: () => {
      matching.set(false);
      root.classList.add("stopped");
    },
  });
  const request = session.request;
  const chat = new ChatPanel({log: $("hall-chat-log"), form: $("hall-chat-form"), input: $("hall-chat-input")}, {
    showError: (message) => notices.showError(message),
    send: (text, sent) => request("chat", {text: text}, sent),
    report: reportLinks({url: $("hall-chat").dataset.reportUrl, myId: Number(root.dataset.userId)}),
  });
  const currentGame = new CurrentGame({notice: $("current-game"), link: $("back-to-game"),
    countdown: $("away-countdown"), result: $("game-result")});
  const matching = new Matching(matchingElements(), {
    request: request,
    waiting: (pool) => lists.waiting(pool),
    onBusy: (ack) => currentGame.set(ack.game_id != null ? ack.game_id : currentGame.gameId),
    onChoice: () => lists.render(),
  });
  const dialog = new ChallengeDialog({dialog: $("challenge-dialog"), form: $("challenge-form"),
    title: $("challenge-dialog-title"), ruleset: $("challenge-ruleset"), clock: $("challenge-clock"),
    opening: $("challenge-opening"), color: $("challenge-color")}, () => matching.choice());
  const challenges = new Challenges($("challenges"),
    {request: request, attention: new Attention(), dialog: dialog});
  const lists = new HallLists(listElements(), {
    myId: Number(root.dataset.userId), session: session,
    challenge: (username) => challenges.send(username), rendered: () => matching.renderPools(),
    category: () => categoryOf(...matching.choice()),
  });
  const following = new Following({list: $("following-list"), count: $("following-count"),
    empty: $("following-empty")}, {session: session, challenge: (username) => challenges.send(username)});
  const computerFromAddress = startComputerPanel(session, (gameId) => currentGame.set(gameId));
  const hall = {root, chat, currentGame, matching, lists, computerFromAddress, challenges,
    maintenance: $("maintenance-notice")};

  socket.on("hello", (data) => greeted(hall, data));
  socket.on("hall_update", (update) => lists.update(update));
  socket.on("me", (data) => toldOfMe(hall, data));
  socket.on("match_found", (data) => {
    matching.set(false);
    session.leave(`/game/${data.game_id}`);
  });
  socket.on("game_result", (data) => currentGame.showResult(data));
  socket.on("chat", (data) => chat.receive(data));
  socket.on("maintenance", (data) => setMaintenance(hall, Boolean(data.on)));
  challenges.listen(socket);
  following.listen(socket);
  matching.bind();
  lists.bind();
}

function matchingElements() {
  return {
    ruleset: $("ruleset"),
    clockChoice: $("clock-choice"),
    pools: Array.from($("pool-grid").querySelectorAll("button.pool")),
    openingPools: Array.from(document.querySelectorAll("#opening-pools button.pool")),
    rulesetHelp: $("ruleset-description"),
    matchButton: $("match-button"),
    matchTimer: $("match-timer"),
  };
}

function listElements() {
  return {
    onlineList: $("online-list"),
    onlineCount: $("online-count"),
    onlineMore: $("online-more"),
    counts: $("hall-counts"),
    gamesList: $("games-list"),
    gamesEmpty: $("games-empty"),
    findForm: $("find-form"),
    findInput: $("find-input"),
    findResults: $("find-results"),
  };
}

function renderStats(me) {
  for (const key of ["username", "score", "games", "wins", "losses", "draws"]) {
    const node = document.querySelector(`[data-testid="me-${key}"]`);
    if (node && me[key] !== undefined) node.textContent = String(me[key]);
  }
}

/** The server's greeting, on every (re)connect: the whole state again. */
function greeted(hall, data) {
  renderStats(data.me || {});
  hall.currentGame.set(data.current_game, data.away || null);
  hall.matching.set(data.status === "queued", hall.matching.showQueue(data.queue));
  hall.lists.categories = data.rating_categories || [];
  hall.lists.defaultClock = data.default_clock ?? null;
  hall.lists.reset(data.view);
  hall.chat.showHistory(data.chat);
  setMaintenance(hall, Boolean(data.maintenance));
  if (!data.maintenance) {
    hall.matching.fromAddress(data);
    hall.computerFromAddress(data);
    hall.challenges.fromAddress(data);
  }
}

/** My own status and figures, sent to me at once: what the server thinks, e.g. after a
    cancel from elsewhere or a game's end. */
function toldOfMe(hall, data) {
  renderStats(data.me || {});
  hall.matching.set(data.status === "queued", hall.matching.showQueue(data.queue));
  if (data.status !== "playing") hall.currentGame.set(null, null);
  else if (data.away !== undefined) hall.currentGame.set(data.away ? data.away.game_id : hall.currentGame.gameId, data.away);
}

/** In maintenance the server starts no new games, so matching and challenges are off. */
function setMaintenance(hall, on) {
  hall.maintenance.classList.toggle("hidden", !on);
  hall.root.classList.toggle("maintenance", on);
  hall.matching.setMaintenance(on);
}
