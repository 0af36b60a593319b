/*
 * Hall page: wires the /hall namespace to the DOM (the hall view, finding players, matching,
 * challenges, chat). The view is kept by HallViewModel (hall_view.js) from hello and hall_update.
 * Match queues in a pool (a ruleset and a clock: pools.js); the grid of pool buttons shows who
 * waits in each for the chosen ruleset. Every emit carries an acknowledgement; a failed one shows its message in #hall-error.
 * All user-provided text goes in through textContent; words go through t (i18n.js).
 */

import {Attention} from "./attention.js";
import {ChatPanel} from "./chat.js";
import {CurrentGame} from "./hall_game.js";
import {HallViewModel} from "./hall_view.js";
import {startComputerPanel} from "./hall_computer.js";
import {t} from "./i18n.js";
import {$, Notices, PageSession, button, connect, el, haveSocketIo, show} from "./page.js";
import {clockLabel, clockName, parseClockName, poolName} from "./pools.js";

const root = $("hall");
if (root && haveSocketIo()) startHall(root);

function startHall(root) {
  const MY_ID = Number(root.dataset.userId);
  const RULESET_HELP = {
    freestyle: t("five or more in a row wins"),
    standard: t("exactly five wins; six or more does not"),
    renju: t("black: exactly five, no double-three, double-four or overline; white: five or more"),
  };
  const RULESETS = {freestyle: t("freestyle"), standard: t("standard"), renju: t("renju")};
  const STATUSES = {idle: t("idle"), queued: t("queued"), playing: t("playing")};

  const ui = {
    maintenance: $("maintenance-notice"),
    challenges: $("challenges"),
    ruleset: $("ruleset"),
    clockChoice: $("clock-choice"),
    pools: Array.from($("pool-grid").querySelectorAll("button.pool")),
    rulesetHelp: $("ruleset-description"),
    matchButton: $("match-button"),
    matchTimer: $("match-timer"),
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

  const view = new HallViewModel();
  const attention = new Attention();
  const currentGame = new CurrentGame({notice: $("current-game"), link: $("back-to-game"),
    countdown: $("away-countdown"), result: $("game-result")});
  const state = {
    resyncing: false,
    sentChallenges: new Map(), // challenge id -> username we challenged
    matching: false,
    matchingPool: null, // the pool name we queued in from this page; null when not known
    matchStartedAt: 0,
    matchTimer: null,
  };

  const socket = connect("/hall");
  const notices = new Notices({error: $("hall-error"), connection: $("connection-notice")});
  const session = new PageSession(socket, notices, {
    root: root,
    controls: "button, input, select",
    replacedText: t("This hall is open in another tab."),
    refusedText: (reason) => t("Could not join the hall ({reason}). Reload the page to try again.", {reason: reason}),
    onStop: () => {
      setMatching(false);
      root.classList.add("stopped");
    },
  });
  const request = session.request;
  const chat = new ChatPanel({log: $("hall-chat-log"), form: $("hall-chat-form"), input: $("hall-chat-input")}, {
    showError: (message) => notices.showError(message),
    send: (text, sent) => request("chat", {text: text}, sent),
  });

  function formatElapsed(ms) {
    const seconds = Math.floor(ms / 1000);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  }

  /* ---------- my stats and current game ---------- */

  function renderStats(me) {
    for (const key of ["username", "score", "games", "wins", "losses", "draws"]) {
      const node = document.querySelector(`[data-testid="me-${key}"]`);
      if (node && me[key] !== undefined) node.textContent = String(me[key]);
    }
  }

  /* ---------- matching ---------- */

  /** `pool`: the pool we queued in, when this page knows it (the `me` that says "queued" can
      come before the answer to our start_match). */
  function setMatching(on, pool = null) {
    if (!on || pool !== null) state.matchingPool = pool;
    if (on === state.matching) {
      renderPools();
      return;
    }
    state.matching = on;
    clearInterval(state.matchTimer);
    ui.matchButton.textContent = on ? t("Matching… (click to cancel)") : t("Match");
    ui.matchButton.classList.toggle("primary", !on);
    ui.matchButton.setAttribute("aria-pressed", String(on));
    ui.ruleset.disabled = on;
    ui.clockChoice.disabled = on;
    renderPools();
    show(ui.matchTimer, on);
    if (!on) return;
    state.matchStartedAt = Date.now();
    ui.matchTimer.textContent = "0:00";
    state.matchTimer = setInterval(() => {
      ui.matchTimer.textContent = formatElapsed(Date.now() - state.matchStartedAt);
    }, 1000);
  }

  /** The pool the server says we wait in (`queue` in hello and me): after a reload or a
      reconnect this page did not queue us, so it shows that pool's ruleset and clock, and
      returns its name for the pressed button (null when not queued). */
  function showQueue(queue) {
    if (!queue || !(queue.ruleset in RULESETS) || !offersClock(clockName(queue.clock))) return null;
    ui.ruleset.value = queue.ruleset;
    ui.clockChoice.value = clockName(queue.clock);
    ui.rulesetHelp.textContent = RULESET_HELP[queue.ruleset] || "";
    return poolName(queue.ruleset, queue.clock);
  }

  function chosenClock() {
    return parseClockName(ui.clockChoice.value);
  }

  function onMatchClick() {
    if (state.matching) {
      request("cancel_match", {}, () => setMatching(false));
      return;
    }
    const [ruleset, clock] = [ui.ruleset.value, chosenClock()];
    request("start_match", {ruleset: ruleset, clock: clock}, () => setMatching(true, poolName(ruleset, clock)), (ack) => {
      if (ack.error === "busy") currentGame.set(ack.game_id != null ? ack.game_id : currentGame.gameId);
    });
  }

  /** A pool button: queue in that pool, or leave the queue when it is the one we wait in. */
  function onPoolClick(poolButton) {
    if (state.matching) {
      if (poolButton.getAttribute("aria-pressed") === "true") onMatchClick();
      return;
    }
    ui.clockChoice.value = poolButton.dataset.clock;
    onMatchClick();
  }

  function offersClock(name) {
    return Array.from(ui.clockChoice.options).some((option) => option.value === name);
  }

  /** /hall?match=<ruleset>&clock=<name> ("New opponent" after a game): start matching in that
      pool once (no clock named: the default one), then drop the query so that a reload does
      not queue again. */
  function matchFromAddress(data) {
    const params = new URLSearchParams(window.location.search);
    const ruleset = params.get("match");
    if (ruleset === null) return;
    window.history.replaceState(null, "", window.location.pathname);
    const clock = params.has("clock") ? parseClockName(params.get("clock")) : undefined;
    if (state.matching || data.current_game != null || !(ruleset in RULESETS)) return;
    if (params.has("clock") && (clock === undefined || !offersClock(clockName(clock)))) return;
    ui.ruleset.value = ruleset;
    if (clock !== undefined) ui.clockChoice.value = clockName(clock);
    onRulesetChange();
    onMatchClick();
  }

  function rulesetName(ruleset) {
    return RULESETS[ruleset] || ruleset;
  }

  function onRulesetChange() {
    ui.rulesetHelp.textContent = RULESET_HELP[ui.ruleset.value] || "";
    renderPools();
  }

  /** The grid for the chosen ruleset: who waits in each pool; while we wait, our pool is the
      pressed one (pressing it cancels) and the others are off. */
  function renderPools() {
    for (const poolButton of ui.pools) {
      const pool = poolName(ui.ruleset.value, parseClockName(poolButton.dataset.clock));
      const waiting = (view.counts.waiting || {})[pool] || 0;
      poolButton.querySelector(".pool-count").textContent = t("{count} waiting", {count: waiting});
      const mine = state.matching && state.matchingPool === pool;
      poolButton.setAttribute("aria-pressed", String(mine));
      poolButton.disabled = (state.matching && !mine) || root.classList.contains("maintenance");
      poolButton.title = mine ? t("Matching… (click to cancel)") : "";
    }
  }

  /** "freestyle · 5+3": how a challenge names its game. */
  function gameKind(ruleset, clock) {
    return `${rulesetName(ruleset)} · ${clockLabel(clock)}`;
  }

  /* ---------- the hall view: counts, online players, live games ---------- */

  function playerItem(user) {
    const li = el("li");
    li.dataset.userId = String(user.id);
    li.dataset.status = user.status;
    const who = el("span", "who");
    who.appendChild(el("span", "name", user.username));
    if (user.id === MY_ID) who.appendChild(el("span", "you-tag", t("you")));
    who.appendChild(el("span", "score", String(user.score)));
    li.appendChild(who);
    const side = el("span", "actions");
    side.appendChild(el("span", `badge ${user.status}`, STATUSES[user.status] || user.status));
    if (user.id !== MY_ID && user.status === "idle" && !session.stopped) {
      side.appendChild(button(t("Challenge"), "challenge-button", () => challenge(user.username)));
    }
    if (user.id !== MY_ID && user.status === "playing" && user.game_id != null) {
      side.appendChild(watchLink(user.game_id));
    }
    li.appendChild(side);
    return li;
  }

  function watchLink(gameId) {
    const watch = el("a", "button-link", t("Watch"));
    watch.href = `/game/${gameId}`;
    watch.dataset.testid = "watch-link";
    return watch;
  }

  function renderView() {
    const players = view.sortedPlayers();
    ui.onlineList.replaceChildren(...players.map(playerItem));
    ui.onlineCount.textContent = `(${view.counts.online})`;
    const more = view.counts.online > players.length;
    ui.onlineMore.textContent = more ? t("Showing {shown} of {online}; find anyone else by name.",
      {shown: players.length, online: view.counts.online}) : "";
    show(ui.onlineMore, more);
    ui.counts.textContent = t("{online} online · {playing} playing · {waiting} waiting for a match",
      {online: view.counts.online, playing: view.counts.playing, waiting: view.waiting()});
    const games = view.sortedGames();
    ui.gamesList.replaceChildren(...games.map(gameItem));
    show(ui.gamesEmpty, games.length === 0);
    renderPools();
  }

  function onHallUpdate(update) {
    if (state.resyncing) return;
    if (view.apply(update)) {
      renderView();
      return;
    }
    // An update went missing: take the whole view again rather than show a wrong one.
    state.resyncing = true;
    session.emitWithAck("hall_view", {}, (err, ack) => {
      state.resyncing = false;
      if (err || !ack || !ack.ok) return; // the next gap or reconnect tries again
      view.reset(ack.view);
      renderView();
    });
  }

  /* ---------- finding a player ---------- */

  function onFind(event) {
    event.preventDefault();
    const prefix = ui.findInput.value.trim();
    if (!prefix) return;
    request("find_players", {prefix: prefix}, (ack) => {
      const items = ack.players.map(playerItem);
      if (items.length === 0) items.push(el("li", "muted", t("No one online has a name starting like that.")));
      ui.findResults.replaceChildren(...items);
    });
  }

  /** My own status and figures, sent to me at once: what the server thinks, e.g. after a
      cancel from elsewhere or a game's end. */
  function onMe(data) {
    renderStats(data.me || {});
    setMatching(data.status === "queued", showQueue(data.queue));
    if (data.status !== "playing") currentGame.set(null, null);
    else if (data.away !== undefined) currentGame.set(data.away ? data.away.game_id : currentGame.gameId, data.away);
  }

  /* ---------- challenges ---------- */

  function challenge(username) {
    const [ruleset, clock] = [ui.ruleset.value, chosenClock()];
    request("challenge", {username: username, ruleset: ruleset, clock: clock}, (ack) => {
      state.sentChallenges.set(ack.challenge_id, username);
      const li = challengeItem(ack.challenge_id, "outgoing");
      li.appendChild(el("span", "text", t("Challenge sent to {name} ({ruleset}); waiting for an answer…",
        {name: username, ruleset: gameKind(ruleset, clock)})));
      ui.challenges.appendChild(li);
    });
  }

  function challengeItem(challengeId, kind) {
    findChallenge(challengeId)?.remove();
    const li = el("li", `challenge ${kind}`);
    li.dataset.challengeId = String(challengeId);
    li.dataset.testid = kind === "incoming" ? "challenge" : "challenge-sent";
    return li;
  }

  /** The title stops flashing once no challenge to us is left open. */
  function settled() {
    if (!ui.challenges.querySelector("[data-testid=challenge]")) attention.stopFlashing();
  }

  function findChallenge(challengeId) {
    return Array.from(ui.challenges.children).find((li) => li.dataset.challengeId === String(challengeId));
  }

  function answerChallenge(challengeId, accept) {
    request("answer_challenge", {challenge_id: challengeId, accept: accept}, () => {
      findChallenge(challengeId)?.remove();
      settled();
    });
  }

  function onChallengeReceived(data) {
    const li = challengeItem(data.challenge_id, "incoming");
    const text = el("span", "text");
    text.appendChild(el("strong", "", data.from.username));
    text.appendChild(document.createTextNode(" " + t("({score}) challenges you · {ruleset}",
      {score: data.from.score, ruleset: gameKind(data.ruleset, data.clock)})));
    li.appendChild(text);
    const actions = el("span", "actions");
    actions.appendChild(button(t("Accept"), "challenge-accept", () => answerChallenge(data.challenge_id, true), "small primary"));
    actions.appendChild(button(t("Decline"), "challenge-decline", () => answerChallenge(data.challenge_id, false)));
    li.appendChild(actions);
    ui.challenges.appendChild(li);
    li.dataset.sound = attention.challenge(data.from.username);
  }

  /** Replaces a challenge line with a short note that then fades out of the list. */
  function endChallenge(challengeId, note) {
    const li = findChallenge(challengeId);
    state.sentChallenges.delete(challengeId);
    if (!li) return;
    if (!note) {
      li.remove();
      settled();
      return;
    }
    li.replaceChildren(el("span", "text muted", note));
    setTimeout(() => li.remove(), 6000);
  }

  function onChallengeDeclined(data) {
    const name = state.sentChallenges.get(data.challenge_id);
    endChallenge(data.challenge_id, name ? t("{name} declined your challenge.", {name: name})
      : t("Your challenge was declined."));
  }

  function onChallengeCancelled(data) {
    const name = state.sentChallenges.get(data.challenge_id);
    endChallenge(data.challenge_id, name ? t("Your challenge to {name} was cancelled.", {name: name}) : "");
  }

  /* ---------- live games ---------- */

  function gameItem(game) {
    const li = el("li");
    li.dataset.gameId = String(game.game_id);
    const moves = game.moves === 1 ? t("1 move") : t("{count} moves", {count: game.moves});
    const players = t("{black} vs {white}", {black: game.black.username, white: game.white.username});
    li.appendChild(el("span", "text", `${players} · ${moves} · ${rulesetName(game.ruleset)}`));
    li.appendChild(watchLink(game.game_id));
    return li;
  }

  /* ---------- server events ---------- */

  function onHello(data) {
    renderStats(data.me || {});
    currentGame.set(data.current_game, data.away || null);
    setMatching(data.status === "queued", showQueue(data.queue));
    state.resyncing = false;
    view.reset(data.view);
    renderView();
    chat.showHistory(data.chat);
    setMaintenance(Boolean(data.maintenance));
    if (!data.maintenance) matchFromAddress(data);
  }

  /** In maintenance the server starts no new games, so matching and challenges are off. */
  function setMaintenance(on) {
    ui.maintenance.classList.toggle("hidden", !on);
    if (on) setMatching(false);
    ui.matchButton.disabled = on;
    root.classList.toggle("maintenance", on);
    renderPools();
  }

  function onMatchFound(data) {
    setMatching(false);
    session.leave(`/game/${data.game_id}`);
  }

  socket.on("hello", onHello);
  socket.on("hall_update", onHallUpdate);
  socket.on("me", onMe);
  socket.on("match_found", onMatchFound);
  socket.on("game_result", (data) => currentGame.showResult(data));
  socket.on("challenge_received", onChallengeReceived);
  socket.on("challenge_declined", onChallengeDeclined);
  socket.on("challenge_cancelled", onChallengeCancelled);
  socket.on("chat", (data) => chat.receive(data));
  socket.on("maintenance", (data) => setMaintenance(Boolean(data.on)));

  ui.matchButton.addEventListener("click", onMatchClick);
  ui.ruleset.addEventListener("change", onRulesetChange);
  for (const poolButton of ui.pools) poolButton.addEventListener("click", () => onPoolClick(poolButton));
  ui.findForm.addEventListener("submit", onFind);
  onRulesetChange();
  startComputerPanel(session, (gameId) => currentGame.set(gameId));
}
