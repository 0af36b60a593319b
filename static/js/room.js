/*
 * Room page: wires the /room namespace to the board and the side panel.
 * The server is the referee: nothing is drawn until the server says it happened (stone_placed,
 * undone, game_over), and the whole state is fetched again with join_game on every (re)connect.
 * All user-provided text goes in through textContent; words go through window.t (i18n.js).
 */
(function () {
  "use strict";

  const $ = (id) => document.getElementById(id);
  const root = $("room");
  if (!root || typeof io === "undefined" || typeof GobangBoard === "undefined" || !window.t) return;
  const t = window.t;

  const GAME_ID = Number(root.dataset.gameId);
  const COLORS = ["black", "white"];
  const ACK_TIMEOUT_MS = 10000;
  const MUTE_KEY = "gobang.muted";
  const CONFIRM_KEY = "gobang.confirmMoves";
  const REASONS = {
    five: t("five in a row"), resign: t("resignation"), disconnect: t("player left"),
    timeout: t("out of time"), draw_agreed: t("draw agreed"), board_full: t("board full"),
    aborted: t("aborted"),
  };
  const RULESETS = {freestyle: t("freestyle"), standard: t("standard"), renju: t("renju")};
  const ROLES = {black: t("black"), white: t("white"), spectator: t("spectator")};

  const ui = {
    status: $("status"),
    reason: $("result-reason"),
    rulesetName: $("ruleset-name"),
    spectators: $("spectators"),
    connection: $("connection-notice"),
    away: $("away-notice"),
    notice: $("room-notice"),
    error: $("room-error"),
    drawPrompt: $("draw-prompt"),
    undoPrompt: $("undo-prompt"),
    pausePrompt: $("pause-prompt"),
    pauseButton: $("pause-button"),
    controls: $("controls"),
    playControls: $("play-controls"),
    resignButton: $("resign-button"),
    resignBox: $("resign-confirm-box"),
    drawButton: $("draw-button"),
    undoButton: $("undo-button"),
    endControls: $("end-controls"),
    rematchButton: $("rematch-button"),
    rematchStatus: $("rematch-status"),
    mute: $("mute-toggle"),
    numbers: $("numbers-toggle"),
    confirm: $("confirm-toggle"),
    announcer: $("move-announcer"),
    chatLog: $("room-chat-log"),
    chatForm: $("room-chat-form"),
    chatInput: $("room-chat-input"),
    cards: {black: $("player-black"), white: $("player-white")},
  };

  // What the server last told us about the game, plus pending offers it does not repeat in GameState.
  const game = {
    loaded: false, status: null, ruleset: null, you: "spectator",
    players: {black: null, white: null}, moves: [], toMove: null,
    clocks: null, clocksAt: 0, result: null,
    drawOfferBy: null, undoRequestBy: null, rematchBy: null,
    paused: false, pauseRequestBy: null, resumeVotes: [],
  };
  const page = {
    stopped: false, connected: false, placing: false, confirmingResign: false,
    awayUntil: 0, awayWho: null, awayName: null, awayTimer: null, noticeTimer: null,
    titleTimer: null, baseTitle: document.title, audio: null, muted: readSetting(MUTE_KEY),
  };

  const board = new GobangBoard($("board"), {onPlay: placeStone, confirm: readSetting(CONFIRM_KEY)});
  const socket = io("/room", {transports: ["websocket"]});

  /* ---------- helpers ---------- */

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function show(node, visible) {
    node.classList.toggle("hidden", !visible);
  }

  function other(color) {
    return color === "black" ? "white" : "black";
  }

  function isPlayer() {
    return game.you === "black" || game.you === "white";
  }

  function isMyTurn() {
    return isPlayer() && game.status === "playing" && !game.paused && game.toMove === game.you;
  }

  function showError(message) {
    ui.error.textContent = message || t("Something went wrong.");
    show(ui.error, true);
  }

  function clearError() {
    show(ui.error, false);
    ui.error.textContent = "";
  }

  /** A passing note (offer declined, move taken back) that clears itself. */
  function showNotice(message) {
    clearTimeout(page.noticeTimer);
    ui.notice.textContent = message;
    show(ui.notice, true);
    page.noticeTimer = setTimeout(() => show(ui.notice, false), 8000);
  }

  function showConnection(message) {
    ui.connection.textContent = message || "";
    show(ui.connection, Boolean(message));
  }

  /** Emits with an acknowledgement; failures show their message (see ack.js). */
  const request = window.GobangAck.requester(socket, {
    timeoutMs: ACK_TIMEOUT_MS, stopped: () => page.stopped, clearError: clearError, showError: showError,
  });

  function action(event, extra) {
    request(event, Object.assign({game_id: GAME_ID}, extra || {}));
  }

  /* ---------- applying server state ---------- */

  function applyState(state) {
    game.loaded = true;
    game.status = state.status;
    game.ruleset = state.ruleset;
    game.you = state.you || "spectator";
    game.players = {black: state.black, white: state.white};
    game.moves = (state.moves || []).slice();
    game.toMove = state.to_move;
    game.result = state.result;
    // Open offers come with the state, so a reload shows them again.
    game.drawOfferBy = state.draw_offer || null;
    game.undoRequestBy = state.undo_request || null;
    game.pauseRequestBy = state.pause_request || null;
    game.paused = Boolean(state.paused);
    game.resumeVotes = state.resume_votes || [];
    game.rematchBy = (state.rematch_offers || []).length === 1 ? state.rematch_offers[0] : null;
    setClocks(state.clocks);
    board.setMoves(game.moves);
    board.setWinLine(state.result ? state.result.line : null);
    clearScoreChanges();
    if (state.result) showScoreChanges(state.result);
    renderAll();
  }

  function setClocks(clocks) {
    game.clocks = clocks || null;
    game.clocksAt = performance.now();
  }

  function remainingMs(color) {
    const base = game.clocks[`${color}_ms`];
    // The server does not time black's first move, nor anyone while the game is paused.
    const running = game.status === "playing" && !game.paused && game.toMove === color
      && game.moves.length >= 1;
    return Math.max(0, base - (running ? performance.now() - game.clocksAt : 0));
  }

  function formatClock(ms) {
    const seconds = Math.ceil(ms / 1000);
    return `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
  }

  /* ---------- rendering ---------- */

  function renderAll() {
    ui.rulesetName.textContent = RULESETS[game.ruleset] || game.ruleset || "";
    COLORS.forEach(renderCard);
    renderStatus();
    renderControls();
    renderPrompts();
    renderClocks();
    updateInteractivity();
    updateTitleFlash();
  }

  function renderCard(color) {
    const card = ui.cards[color];
    const player = game.players[color];
    card.querySelector(".name").textContent = player ? player.username : "…";
    const score = card.querySelector(".score");
    if (player && !score.dataset.final) score.textContent = String(player.score);
    show(card.querySelector(".you-tag"), game.you === color);
    const turn = game.status === "playing" && game.toMove === color;
    card.classList.toggle("turn", turn);
    if (turn) card.setAttribute("aria-current", "true");
    else card.removeAttribute("aria-current");
  }

  function statusText() {
    if (game.status === "waiting") return t("Waiting for opponent…");
    if (game.status === "playing" && game.paused) return t("Paused");
    if (game.status === "playing") {
      if (!isPlayer()) return game.toMove === "white" ? t("White to move") : t("Black to move");
      return game.toMove === game.you ? t("Your turn") : t("Opponent's turn");
    }
    const winner = game.result ? game.result.winner : null;
    if (!winner) return t("Draw");
    if (!isPlayer()) return winner === "white" ? t("White won") : t("Black won");
    return winner === game.you ? t("You won!") : t("You lost");
  }

  function renderStatus() {
    if (!game.loaded) return;
    ui.status.textContent = statusText();
    ui.status.dataset.state = game.status;
    const finished = game.status === "finished" && game.result;
    ui.reason.textContent = finished ? REASONS[game.result.reason] || game.result.reason : "";
    show(ui.reason, Boolean(finished));
  }

  function renderControls() {
    const live = game.status === "waiting" || game.status === "playing";
    const playing = game.status === "playing";
    show(ui.controls, game.loaded && isPlayer());
    show(ui.playControls, live && !page.confirmingResign);
    show(ui.resignBox, live && page.confirmingResign);
    show(ui.endControls, game.status === "finished");
    ui.drawButton.disabled = !playing || game.drawOfferBy !== null;
    ui.drawButton.textContent = game.drawOfferBy === game.you ? t("Draw offered") : t("Offer draw");
    ui.undoButton.disabled = !playing || game.undoRequestBy !== null || !haveMoved();
    ui.undoButton.textContent = game.undoRequestBy === game.you ? t("Take-back requested") : t("Take back");
    renderPauseButton(playing);
    renderRematch();
  }

  function renderPauseButton(playing) {
    const myVote = game.resumeVotes.includes(game.you);
    ui.pauseButton.disabled = !playing || (!game.paused && game.pauseRequestBy !== null)
      || (game.paused && myVote);
    if (game.paused) ui.pauseButton.textContent = myVote ? t("Waiting to resume") : t("Resume");
    else ui.pauseButton.textContent = game.pauseRequestBy === game.you ? t("Pause requested") : t("Pause");
  }

  function haveMoved() {
    return game.moves.length >= (game.you === "black" ? 1 : 2);
  }

  function renderRematch() {
    const mine = game.rematchBy === game.you;
    const theirs = game.rematchBy !== null && !mine;
    ui.rematchButton.disabled = mine;
    ui.rematchButton.textContent = theirs ? t("Accept rematch") : t("Rematch");
    ui.rematchStatus.textContent = mine ? t("Rematch offered; waiting for your opponent.")
      : theirs ? t("Your opponent offers a rematch.") : "";
  }

  function renderPrompts() {
    const answering = isPlayer() && game.status === "playing";
    show(ui.drawPrompt, answering && game.drawOfferBy === other(game.you));
    show(ui.undoPrompt, answering && game.undoRequestBy === other(game.you));
    show(ui.pausePrompt, answering && !game.paused && game.pauseRequestBy === other(game.you));
  }

  function renderClocks() {
    for (const color of COLORS) {
      const clock = ui.cards[color].querySelector(".clock");
      show(clock, game.clocks !== null);
      if (game.clocks === null) continue;
      const ms = remainingMs(color);
      clock.textContent = formatClock(ms);
      clock.classList.toggle("low", ms < 10000);
    }
  }

  function updateInteractivity() {
    board.setInteractive(isMyTurn() && page.connected && !page.placing, game.you);
  }

  function clearScoreChanges() {
    for (const color of COLORS) {
      const score = ui.cards[color].querySelector(".score");
      show(ui.cards[color].querySelector(".score-change"), false);
      show(score, true);
      delete score.dataset.final;
    }
  }

  function showScoreChanges(result) {
    if (!result.scores) return;
    for (const color of COLORS) {
      const change = result.scores[color];
      if (!change) continue;
      const diff = change.after - change.before;
      const node = ui.cards[color].querySelector(".score-change");
      node.textContent = `${change.before} → ${change.after} (${diff >= 0 ? "+" : ""}${diff})`;
      node.classList.toggle("up", diff > 0);
      node.classList.toggle("down", diff < 0);
      show(node, true);
      // The change line already reads "before → after", so the plain score steps aside.
      const score = ui.cards[color].querySelector(".score");
      score.textContent = String(change.after);
      score.dataset.final = "1";
      show(score, false);
    }
  }

  /* ---------- player actions ---------- */

  function placeStone(row, col) {
    if (!isMyTurn() || page.placing) return;
    page.placing = true;
    updateInteractivity();
    request("place_stone", {game_id: GAME_ID, row: row, col: col}, donePlacing, donePlacing);
  }

  function donePlacing() {
    page.placing = false;
    updateInteractivity();
  }

  function askResign() {
    page.confirmingResign = true;
    renderControls();
    ui.resignBox.querySelector("#resign-cancel").focus();
  }

  function answerResign(confirmed) {
    page.confirmingResign = false;
    renderControls();
    if (confirmed) action("resign");
  }

  function offerDraw() {
    request("offer_draw", {game_id: GAME_ID}, () => {
      game.drawOfferBy = game.you;
      renderControls();
    });
  }

  function requestUndo() {
    request("request_undo", {game_id: GAME_ID}, () => {
      game.undoRequestBy = game.you;
      renderControls();
    });
  }

  function answerDraw(accept) {
    game.drawOfferBy = null;
    renderPrompts();
    renderControls();
    action("answer_draw", {accept: accept});
  }

  function answerUndo(accept) {
    game.undoRequestBy = null;
    renderPrompts();
    renderControls();
    action("answer_undo", {accept: accept});
  }

  function rematch() {
    request("rematch", {game_id: GAME_ID}, () => {
      if (game.rematchBy === null) game.rematchBy = game.you;
      renderRematch();
    });
  }

  /* ---------- server events ---------- */

  function join() {
    socket.timeout(ACK_TIMEOUT_MS).emit("join_game", {game_id: GAME_ID}, (err, ack) => {
      if (!err && ack && ack.ok) {
        clearError();
        applyState(ack.state);
        return;
      }
      ui.status.textContent = ack && ack.error === "not_found" ? t("Game not found") : t("Could not join the game");
      showError(err ? t("The server did not answer. Reload the page to try again.") : ack && ack.message);
    });
  }

  function onGameReady(data) {
    game.status = "playing";
    game.players = {black: data.black, white: data.white};
    game.toMove = data.to_move || "black";
    setClocks(data.clocks);
    renderAll();
  }

  function onStonePlaced(data) {
    if (data.move !== game.moves.length + 1) {
      join();  // We missed something; the server's full state is the truth.
      return;
    }
    game.moves.push([data.row, data.col]);
    board.addMove(data.row, data.col, data.color);
    game.toMove = data.to_move;
    // A standing offer or request is about the position it was made in.
    game.drawOfferBy = game.undoRequestBy = null;
    setClocks(data.clocks === undefined ? game.clocks : data.clocks);
    playStoneSound();
    announceMove(data.color, data.row, data.col);
    renderAll();
  }

  /** Screen readers hear every move: "black h8". */
  function announceMove(color, row, col) {
    const point = GobangBoard.notation(row, col);
    ui.announcer.textContent = color === "white" ? t("white {point}", {point: point})
      : t("black {point}", {point: point});
  }

  function onGameOver(data) {
    const result = data.result;
    game.status = "finished";
    game.result = result;
    game.toMove = null;
    game.drawOfferBy = game.undoRequestBy = null;
    page.confirmingResign = false;
    hideAway();
    board.setWinLine(result.line);
    showScoreChanges(result);
    renderAll();
  }

  function onOpponentLeft(data) {
    if (data.color === game.you) return;
    // Players hear of "your opponent"; spectators of the colour and the name.
    page.awayWho = isPlayer() ? "opponent" : data.color;
    page.awayName = game.players[data.color]?.username || "?";
    page.awayUntil = performance.now() + (data.grace_seconds || 0) * 1000;
    clearInterval(page.awayTimer);
    page.awayTimer = setInterval(renderAway, 250);
    renderAway();
  }

  function renderAway() {
    const seconds = Math.max(0, Math.ceil((page.awayUntil - performance.now()) / 1000));
    ui.away.textContent = awayText(seconds);
    show(ui.away, true);
    if (seconds === 0) clearInterval(page.awayTimer);
  }

  function awayText(seconds) {
    const params = {name: page.awayName, seconds: seconds};
    if (page.awayWho === "opponent") {
      return t("Your opponent left. They lose in {seconds}s unless they come back.", params);
    }
    return page.awayWho === "white" ? t("White ({name}) left. They lose in {seconds}s unless they come back.", params)
      : t("Black ({name}) left. They lose in {seconds}s unless they come back.", params);
  }

  function hideAway() {
    clearInterval(page.awayTimer);
    show(ui.away, false);
  }

  function onDrawOffered(data) {
    game.drawOfferBy = data.by;
    // Players get an Accept/Decline prompt instead; spectators just hear about it.
    if (!isPlayer()) showNotice(data.by === "white" ? t("White offered a draw.") : t("Black offered a draw."));
    renderPrompts();
    renderControls();
  }

  function onUndoRequested(data) {
    game.undoRequestBy = data.by;
    // Players get an Accept/Decline prompt instead; spectators just hear about it.
    if (!isPlayer()) {
      showNotice(data.by === "white" ? t("White asked to take back a move.") : t("Black asked to take back a move."));
    }
    renderPrompts();
    renderControls();
  }

  function onDeclined(kind) {
    return () => {
      if (kind === "draw") game.drawOfferBy = null;
      else game.undoRequestBy = null;
      showNotice(kind === "draw" ? t("The draw offer was declined.") : t("The take-back was declined."));
      renderPrompts();
      renderControls();
    };
  }

  function onPauseButton() {
    if (game.paused) request("resume", {game_id: GAME_ID});
    else request("request_pause", {game_id: GAME_ID});
  }

  function answerPause(accept) {
    request("answer_pause", {game_id: GAME_ID, accept: accept});
  }

  function onPauseRequested(data) {
    game.pauseRequestBy = data.by;
    renderPrompts();
    renderControls();
  }

  function onPauseDeclined() {
    game.pauseRequestBy = null;
    showNotice(t("The pause was declined."));
    renderPrompts();
    renderControls();
  }

  function onPaused(data) {
    game.paused = true;
    game.pauseRequestBy = null;
    game.resumeVotes = [];
    setClocks(data.clocks);
    renderAll();
  }

  function onResumeRequested(data) {
    game.resumeVotes = [data.by];
    if (isPlayer() && data.by !== game.you) showNotice(t("Your opponent wants to resume."));
    renderControls();
  }

  function onResumed(data) {
    game.paused = false;
    game.resumeVotes = [];
    setClocks(data.clocks);
    renderAll();
  }

  function onUndone(data) {
    game.moves = (data.moves || []).slice();
    game.toMove = game.moves.length % 2 === 0 ? "black" : "white";
    game.undoRequestBy = null;
    board.setMoves(game.moves);
    showNotice(t("A move was taken back."));
    renderAll();
  }

  function onRematchOffered(data) {
    game.rematchBy = data.by;
    if (!isPlayer()) showNotice(data.by === "white" ? t("White offers a rematch.") : t("Black offers a rematch."));
    renderRematch();
  }

  function onRematchReady(data) {
    // Spectators follow the players to the new game too.
    page.stopped = true;
    window.location.assign(`/game/${data.game_id}`);
  }

  function onChat(data) {
    const li = el("li", `chat-${data.role}`);
    if (data.ts) li.title = new Date(data.ts).toLocaleTimeString();
    li.appendChild(el("span", `role-tag ${data.role}`, `[${ROLES[data.role] || data.role}]`));
    li.appendChild(document.createTextNode(" "));
    li.appendChild(el("strong", "", data.from.username));
    li.appendChild(document.createTextNode(`: ${data.text}`));
    window.GobangChat.append(ui.chatLog, li);
  }

  function onChatSubmit(event) {
    event.preventDefault();
    const text = window.GobangChat.draft(ui.chatInput, showError);
    if (text === null) return;
    request("chat", {game_id: GAME_ID, text: text}, () => { ui.chatInput.value = ""; });
  }

  function onSessionReplaced() {
    stop(t("This game is open in another tab."));
    const retake = el("button", "small", t("Use this tab"));
    retake.type = "button";
    retake.dataset.testid = "use-this-tab";
    retake.addEventListener("click", () => window.location.reload());
    ui.connection.appendChild(document.createTextNode(" "));
    ui.connection.appendChild(retake);
  }

  /** Stops this page for good: no reconnects, no controls that would do nothing. */
  function stop(message) {
    page.stopped = true;
    page.connected = false;
    socket.disconnect();
    showConnection(message);
    updateInteractivity();
    updateTitleFlash();
    for (const control of root.querySelectorAll(".controls button, .prompt button, .chat-form button")) {
      control.disabled = true;
    }
  }

  /* ---------- sound, title, ticking ---------- */

  /** An on/off setting kept in localStorage ("1" or "0"); off when storage is blocked. */
  function readSetting(key) {
    try {
      return localStorage.getItem(key) === "1";
    } catch (e) {
      return false;
    }
  }

  function writeSetting(key, on) {
    try {
      localStorage.setItem(key, on ? "1" : "0");
    } catch (e) { /* not remembered, still honoured on this page */ }
  }

  function renderMute() {
    ui.mute.setAttribute("aria-pressed", String(page.muted));
    ui.mute.textContent = page.muted ? t("Sound off") : t("Sound on");
  }

  function toggleMute() {
    page.muted = !page.muted;
    writeSetting(MUTE_KEY, page.muted);
    renderMute();
  }

  function toggleConfirm() {
    board.setConfirm(ui.confirm.checked);
    writeSetting(CONFIRM_KEY, ui.confirm.checked);
  }

  /* Browsers only let audio start after a user gesture, so the context is made on the first one. */
  function unlockAudio() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    if (!page.audio) page.audio = new Ctx();
    if (page.audio.state === "suspended") page.audio.resume();
  }

  /** A short wooden "clack": a falling triangle tone with a fast decay. */
  function playStoneSound() {
    const ctx = page.audio;
    if (page.muted || !ctx || ctx.state !== "running") return;
    const now = ctx.currentTime;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "triangle";
    osc.frequency.setValueAtTime(880, now);
    osc.frequency.exponentialRampToValueAtTime(220, now + 0.08);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.35, now + 0.005);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.12);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now);
    osc.stop(now + 0.13);
  }

  function updateTitleFlash() {
    const wanted = document.hidden && isMyTurn() && !page.stopped;
    if (wanted && !page.titleTimer) {
      page.titleTimer = setInterval(() => {
        document.title = document.title === t("Your move") ? page.baseTitle : t("Your move");
      }, 1000);
      document.title = t("Your move");
    } else if (!wanted && page.titleTimer) {
      clearInterval(page.titleTimer);
      page.titleTimer = null;
      document.title = page.baseTitle;
    }
  }

  /* ---------- wiring ---------- */

  socket.on("connect", () => {
    page.connected = true;
    showConnection("");
    join();
  });
  socket.on("disconnect", () => {
    page.connected = false;
    updateInteractivity();
    if (!page.stopped) showConnection(t("Connection lost; reconnecting…"));
  });
  socket.on("connect_error", (err) => {
    // socket.active is false when the server refused us (e.g. logged out): no retry will come.
    if (socket.active) showConnection(t("Can't reach the server; retrying…"));
    else stop(t("Could not connect ({reason}). Reload the page to try again.", {reason: err.message}));
  });
  socket.on("game_ready", onGameReady);
  socket.on("stone_placed", onStonePlaced);
  socket.on("game_over", onGameOver);
  socket.on("opponent_left", onOpponentLeft);
  socket.on("opponent_back", (data) => { if (data.color !== game.you) hideAway(); });
  socket.on("draw_offered", onDrawOffered);
  socket.on("draw_declined", onDeclined("draw"));
  socket.on("undo_requested", onUndoRequested);
  socket.on("undo_declined", onDeclined("undo"));
  socket.on("undone", onUndone);
  socket.on("rematch_offered", onRematchOffered);
  socket.on("rematch_ready", onRematchReady);
  socket.on("chat", onChat);
  socket.on("spectators", (data) => { ui.spectators.textContent = t("{count} watching", {count: data.count}); });
  socket.on("session_replaced", onSessionReplaced);
  socket.on("pause_requested", onPauseRequested);
  socket.on("pause_declined", onPauseDeclined);
  socket.on("paused", onPaused);
  socket.on("resume_requested", onResumeRequested);
  socket.on("resumed", onResumed);
  socket.on("session_ended", () => stop(t("Your session was ended by the server's host.")));

  ui.resignButton.addEventListener("click", askResign);
  $("resign-confirm").addEventListener("click", () => answerResign(true));
  $("resign-cancel").addEventListener("click", () => answerResign(false));
  ui.drawButton.addEventListener("click", offerDraw);
  ui.undoButton.addEventListener("click", requestUndo);
  ui.pauseButton.addEventListener("click", onPauseButton);
  $("pause-accept").addEventListener("click", () => answerPause(true));
  $("pause-decline").addEventListener("click", () => answerPause(false));
  $("draw-accept").addEventListener("click", () => answerDraw(true));
  $("draw-decline").addEventListener("click", () => answerDraw(false));
  $("undo-accept").addEventListener("click", () => answerUndo(true));
  $("undo-decline").addEventListener("click", () => answerUndo(false));
  ui.rematchButton.addEventListener("click", rematch);
  ui.mute.addEventListener("click", toggleMute);
  ui.numbers.addEventListener("change", () => board.setShowNumbers(ui.numbers.checked));
  ui.confirm.addEventListener("change", toggleConfirm);
  ui.chatForm.addEventListener("submit", onChatSubmit);
  document.addEventListener("visibilitychange", updateTitleFlash);
  document.addEventListener("pointerdown", unlockAudio, {once: true});
  document.addEventListener("keydown", unlockAudio, {once: true});
  setInterval(() => { if (game.clocks && game.status === "playing") renderClocks(); }, 250);
  ui.confirm.checked = board.confirm;
  renderMute();
})();
