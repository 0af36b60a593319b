/*
 * Hall page: wires the /hall namespace to the DOM (presence, matching, challenges, live games, chat).
 * Every emit carries an acknowledgement; a failed one shows its message in #hall-error.
 * All user-provided text goes in through textContent; words go through window.t (i18n.js).
 */
(function () {
  "use strict";

  const root = document.getElementById("hall");
  if (!root || typeof io === "undefined" || !window.t) return;
  const t = window.t;

  const MY_ID = Number(root.dataset.userId);
  const ACK_TIMEOUT_MS = 10000;
  const RULESET_HELP = {
    freestyle: t("five or more in a row wins"),
    standard: t("exactly five wins; six or more does not"),
    renju: t("black: exactly five, no double-three, double-four or overline; white: five or more"),
  };
  const RULESETS = {freestyle: t("freestyle"), standard: t("standard"), renju: t("renju")};
  const STATUSES = {idle: t("idle"), queued: t("queued"), playing: t("playing")};
  const STATUS_ORDER = {idle: 0, queued: 1, playing: 2};

  const $ = (id) => document.getElementById(id);
  const ui = {
    error: $("hall-error"),
    connection: $("connection-notice"),
    maintenance: $("maintenance-notice"),
    currentGame: $("current-game"),
    backToGame: $("back-to-game"),
    challenges: $("challenges"),
    ruleset: $("ruleset"),
    rulesetHelp: $("ruleset-description"),
    matchButton: $("match-button"),
    matchTimer: $("match-timer"),
    onlineList: $("online-list"),
    onlineCount: $("online-count"),
    gamesList: $("games-list"),
    gamesEmpty: $("games-empty"),
    chatLog: $("hall-chat-log"),
    chatForm: $("hall-chat-form"),
    chatInput: $("hall-chat-input"),
  };

  const state = {
    online: new Map(),        // user id -> {id, username, score, status}
    sentChallenges: new Map(), // challenge id -> username we challenged
    currentGame: null,
    matching: false,
    matchStartedAt: 0,
    matchTimer: null,
    stopped: false,           // replaced by another tab, or leaving for a game
  };

  const socket = io("/hall", {transports: ["websocket"]});

  /* ---------- small DOM helpers ---------- */

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(text, testid, onClick, className) {
    const b = el("button", className || "small", text);
    b.type = "button";
    if (testid) b.dataset.testid = testid;
    b.addEventListener("click", onClick);
    return b;
  }

  function show(node, visible) {
    node.classList.toggle("hidden", !visible);
  }

  function showError(message) {
    ui.error.textContent = message || t("Something went wrong.");
    show(ui.error, true);
  }

  function clearError() {
    ui.error.textContent = "";
    show(ui.error, false);
  }

  function showConnection(message) {
    ui.connection.textContent = message || "";
    show(ui.connection, Boolean(message));
  }

  function formatElapsed(ms) {
    const seconds = Math.floor(ms / 1000);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  }

  /** Emits with an acknowledgement; failures show their message (see ack.js). */
  const request = window.GobangAck.requester(socket, {
    timeoutMs: ACK_TIMEOUT_MS, stopped: () => state.stopped, clearError: clearError, showError: showError,
  });

  /* ---------- my stats and current game ---------- */

  function renderStats(me) {
    for (const key of ["username", "score", "games", "wins", "losses", "draws"]) {
      const node = document.querySelector(`[data-testid="me-${key}"]`);
      if (node && me[key] !== undefined) node.textContent = String(me[key]);
    }
  }

  function setCurrentGame(gameId) {
    state.currentGame = gameId == null ? null : gameId;
    if (state.currentGame !== null) ui.backToGame.href = `/game/${state.currentGame}`;
    show(ui.currentGame, state.currentGame !== null);
  }

  /* ---------- matching ---------- */

  function setMatching(on) {
    if (on === state.matching) return;
    state.matching = on;
    clearInterval(state.matchTimer);
    ui.matchButton.textContent = on ? t("Matching… (click to cancel)") : t("Match");
    ui.matchButton.classList.toggle("primary", !on);
    ui.matchButton.setAttribute("aria-pressed", String(on));
    ui.ruleset.disabled = on;
    show(ui.matchTimer, on);
    if (!on) return;
    state.matchStartedAt = Date.now();
    ui.matchTimer.textContent = "0:00";
    state.matchTimer = setInterval(() => {
      ui.matchTimer.textContent = formatElapsed(Date.now() - state.matchStartedAt);
    }, 1000);
  }

  function onMatchClick() {
    if (state.matching) {
      request("cancel_match", {}, () => setMatching(false));
      return;
    }
    request("start_match", {ruleset: ui.ruleset.value}, () => setMatching(true), (ack) => {
      if (ack.error === "busy") setCurrentGame(ack.game_id != null ? ack.game_id : state.currentGame);
    });
  }

  function rulesetName(ruleset) {
    return RULESETS[ruleset] || ruleset;
  }

  function onRulesetChange() {
    ui.rulesetHelp.textContent = RULESET_HELP[ui.ruleset.value] || "";
  }

  /* ---------- online players ---------- */

  function sortedOnline() {
    return Array.from(state.online.values()).sort((a, b) =>
      (STATUS_ORDER[a.status] || 0) - (STATUS_ORDER[b.status] || 0) ||
      b.score - a.score || a.username.localeCompare(b.username));
  }

  function onlineItem(user) {
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
    if (user.id !== MY_ID && user.status === "idle" && !state.stopped) {
      side.appendChild(button(t("Challenge"), "challenge-button", () => challenge(user.username)));
    }
    li.appendChild(side);
    return li;
  }

  function renderOnline() {
    ui.onlineList.replaceChildren(...sortedOnline().map(onlineItem));
    ui.onlineCount.textContent = `(${state.online.size})`;
  }

  function upsertUser(user) {
    const before = state.online.get(user.id);
    state.online.set(user.id, user);
    if (user.id === MY_ID) onMyPresence(user, before);
    renderOnline();
  }

  /** My own presence tells this tab what the server thinks, e.g. after a cancel from elsewhere. */
  function onMyPresence(user, before) {
    setMatching(user.status === "queued");
    const score = document.querySelector('[data-testid="me-score"]');
    if (score) score.textContent = String(user.score);
    if (before && before.status === "playing" && user.status !== "playing") setCurrentGame(null);
  }

  /* ---------- challenges ---------- */

  function challenge(username) {
    request("challenge", {username: username, ruleset: ui.ruleset.value}, (ack) => {
      state.sentChallenges.set(ack.challenge_id, username);
      const li = challengeItem(ack.challenge_id, "outgoing");
      li.appendChild(el("span", "text", t("Challenge sent to {name} ({ruleset}); waiting for an answer…",
        {name: username, ruleset: rulesetName(ui.ruleset.value)})));
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

  function findChallenge(challengeId) {
    return Array.from(ui.challenges.children).find((li) => li.dataset.challengeId === String(challengeId));
  }

  function answerChallenge(challengeId, accept) {
    request("answer_challenge", {challenge_id: challengeId, accept: accept}, () => {
      findChallenge(challengeId)?.remove();
    });
  }

  function onChallengeReceived(data) {
    const li = challengeItem(data.challenge_id, "incoming");
    const text = el("span", "text");
    text.appendChild(el("strong", "", data.from.username));
    text.appendChild(document.createTextNode(" " + t("({score}) challenges you · {ruleset}",
      {score: data.from.score, ruleset: rulesetName(data.ruleset)})));
    li.appendChild(text);
    const actions = el("span", "actions");
    actions.appendChild(button(t("Accept"), "challenge-accept", () => answerChallenge(data.challenge_id, true), "small primary"));
    actions.appendChild(button(t("Decline"), "challenge-decline", () => answerChallenge(data.challenge_id, false)));
    li.appendChild(actions);
    ui.challenges.appendChild(li);
  }

  /** Replaces a challenge line with a short note that then fades out of the list. */
  function endChallenge(challengeId, note) {
    const li = findChallenge(challengeId);
    state.sentChallenges.delete(challengeId);
    if (!li) return;
    if (!note) {
      li.remove();
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
    const watch = el("a", "button-link", t("Watch"));
    watch.href = `/game/${game.game_id}`;
    watch.dataset.testid = "watch-link";
    li.appendChild(watch);
    return li;
  }

  function renderGames(games) {
    ui.gamesList.replaceChildren(...(games || []).map(gameItem));
    show(ui.gamesEmpty, !games || games.length === 0);
  }

  /* ---------- chat ---------- */

  function onChat(data) {
    const li = el("li");
    if (data.ts) li.title = new Date(data.ts).toLocaleTimeString();
    li.appendChild(el("strong", "", data.from.username));
    li.appendChild(document.createTextNode(`: ${data.text}`));
    window.GobangChat.append(ui.chatLog, li);
  }

  function onChatSubmit(event) {
    event.preventDefault();
    const text = window.GobangChat.draft(ui.chatInput, showError);
    if (text === null) return;
    request("chat", {text: text}, () => { ui.chatInput.value = ""; });
  }

  /* ---------- server events ---------- */

  function onHello(data) {
    renderStats(data.me || {});
    setCurrentGame(data.current_game);
    state.online = new Map((data.online || []).map((u) => [u.id, u]));
    const me = state.online.get(MY_ID);
    setMatching(Boolean(me && me.status === "queued"));
    renderOnline();
    renderGames(data.games);
    setMaintenance(Boolean(data.maintenance));
  }

  /** In maintenance the server starts no new games, so matching and challenges are off. */
  function setMaintenance(on) {
    ui.maintenance.classList.toggle("hidden", !on);
    if (on) setMatching(false);
    ui.matchButton.disabled = on;
    root.classList.toggle("maintenance", on);
  }

  function onSessionEnded() {
    stop(t("Your session was ended by the server's host."));
  }

  function onMatchFound(data) {
    state.stopped = true;
    setMatching(false);
    window.location.assign(`/game/${data.game_id}`);
  }

  function onSessionReplaced() {
    stop(t("This hall is open in another tab."));
    const retake = button(t("Use this tab"), "use-this-tab", () => window.location.reload());
    ui.connection.appendChild(document.createTextNode(" "));
    ui.connection.appendChild(retake);
  }

  /** Stops this page for good: no reconnects, no controls that would do nothing. */
  function stop(message) {
    state.stopped = true;
    socket.disconnect();
    setMatching(false);
    showConnection(message);
    root.classList.add("stopped");
    for (const control of root.querySelectorAll("button, input, select")) control.disabled = true;
  }

  socket.on("connect", () => showConnection(""));
  socket.on("disconnect", () => {
    if (!state.stopped) showConnection(t("Connection lost; reconnecting…"));
  });
  socket.on("connect_error", (err) => {
    // socket.active is false when the server refused us (e.g. logged out): no retry will come.
    if (socket.active) showConnection(t("Can't reach the server; retrying…"));
    else stop(t("Could not join the hall ({reason}). Reload the page to try again.", {reason: err.message}));
  });
  socket.on("hello", onHello);
  socket.on("presence", (data) => upsertUser(data.user));
  socket.on("presence_gone", (data) => {
    state.online.delete(data.id);
    renderOnline();
  });
  socket.on("games_changed", (data) => renderGames(data.games));
  socket.on("match_found", onMatchFound);
  socket.on("challenge_received", onChallengeReceived);
  socket.on("challenge_declined", onChallengeDeclined);
  socket.on("challenge_cancelled", onChallengeCancelled);
  socket.on("chat", onChat);
  socket.on("session_replaced", onSessionReplaced);
  socket.on("maintenance", (data) => setMaintenance(Boolean(data.on)));
  socket.on("session_ended", onSessionEnded);

  ui.matchButton.addEventListener("click", onMatchClick);
  ui.ruleset.addEventListener("change", onRulesetChange);
  ui.chatForm.addEventListener("submit", onChatSubmit);
  onRulesetChange();
})();
