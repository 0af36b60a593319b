/*
 * Room page: wires the /room namespace to the board and the side panel. This is the one place
 * the room's pieces (room/*.js) are put together, so who talks to whom reads on one screen.
 * The server is the referee: nothing is drawn until the server says it happened (stone_placed,
 * undone, game_over), and the whole state is fetched again with join_game on every (re)connect
 * and whenever the events' numbers show a gap (room/order.js).
 */

import {reportLinks} from "./chat.js";
import {t} from "./i18n.js";
import {$, Notices, PageSession, connect, haveSocketIo} from "./page.js";
import {AbortCountdown} from "./room/abort.js";
import {AwayNotice} from "./room/away.js";
import {BoardController} from "./room/board_controller.js";
import {RoomChat} from "./room/chat.js";
import {Clocks} from "./room/clock.js";
import {ForbiddenHints} from "./room/hints.js";
import {LeaveGuard} from "./room/leave.js";
import {MoveList} from "./room/move_list.js";
import {Offers} from "./room/offers.js";
import {OpeningControls} from "./room/opening.js";
import {EventOrder} from "./room/order.js";
import {Panel} from "./room/panel.js";
import {PauseVotes} from "./room/pause.js";
import {RoomSound} from "./room/sound.js";
import {RoomGame} from "./room/state.js";
import {TitleFlash} from "./room/title.js";

const root = $("room");
if (root && haveSocketIo()) startRoom(root);

function startRoom(root) {
  const gameId = Number(root.dataset.gameId);
  const game = new RoomGame(Number(root.dataset.userId));
  const socket = connect("/room");
  const notices = new Notices({error: $("room-error"), connection: $("connection-notice"), notice: $("room-notice")});
  const session = new PageSession(socket, notices, {
    root: root,
    controls: ".controls button, .prompt button, .chat-form button, .opening-box button",
    replacedText: t("This game is open in another tab."),
    refusedText: (reason) => t("Could not connect ({reason}). Reload the page to try again.", {reason: reason}),
    onConnect: join,
    onDisconnect: () => controller.update(),
    onStop: () => {
      controller.update();
      title.update();
    },
  });
  const send = (event, extra, onOk, onFail) => session.request(event, {game_id: gameId, ...extra}, onOk, onFail);
  const showNotice = (message) => notices.showNotice(message);

  const panel = new Panel(game);
  const sound = new RoomSound($("mute-toggle"));
  const clocks = new Clocks({black: $("player-black").querySelector(".clock"),
    white: $("player-white").querySelector(".clock")}, game,
    (color) => { if (color === game.you) sound.play("low"); });
  const controller = new BoardController(
    {board: $("board"), announcer: $("move-announcer"), numbers: $("numbers-toggle"), confirm: $("confirm-toggle")},
    {game: game, send: send, connected: () => session.connected});
  const opening = new OpeningControls({
    box: $("opening"), rule: $("opening-rule"), step: $("opening-step"), choices: $("opening-choices"),
    fifth: $("opening-fifth"), offerMode: $("opening-offer-mode"), offerCount: $("opening-offer-count"),
    offerSend: $("opening-offer-send"), offerClear: $("opening-offer-clear"), log: $("opening-log"),
  }, {game: game, send: send, decorate: (view) => controller.decorate(view), changed: () => controller.update()});
  controller.marker = opening;
  const title = new TitleFlash(() => game.isMyTurn() && !session.stopped);
  const away = new AwayNotice($("away-notice"), game);
  const offers = new Offers({
    game: game, panel: panel, send: send, showNotice: showNotice, leave: (url) => session.leave(url),
  });
  const abort = new AbortCountdown($("abort-notice"), game);
  const hints = new ForbiddenHints({toggle: $("forbidden-toggle"), option: $("forbidden-option")},
    {game: game, send: send, mark: (points) => controller.setMarks(points)});
  const pause = new PauseVotes({
    game: game, panel: panel, clocks: clocks, send: send, showNotice: showNotice, abort: abort,
    refresh: () => {
      hints.update();  // no marks while paused; the position's marks again on resuming
      refresh();
    },
  });
  const chat = new RoomChat(chatElements(), {
    send: send, showError: (message) => notices.showError(message), game: game,
    report: reportLinks({url: $("room-chat").dataset.reportUrl, myId: game.userId, gameId: gameId}),
    rejoin: () => { if (session.connected) join(); },
  });
  const leave = new LeaveGuard({link: $("back-to-hall"), box: $("leave-confirm-box"), stay: $("leave-cancel")}, game);
  const moveList = new MoveList({list: $("move-list"), live: $("live-button")},
    {game: game, view: (count) => controller.view(count)});

  /** Whether it was our turn at the last refresh: see followTheTurn. */
  let wasMyTurn = false;

  /** "Your turn" always comes with a board that takes the move: when the turn comes to us
      while we look back through the moves, the live position comes back. */
  function followTheTurn() {
    const mine = game.isMyTurn();
    if (mine && !wasMyTurn && moveList.viewing !== null) moveList.view(null);
    wasMyTurn = mine;
  }

  function refresh() {
    followTheTurn();
    panel.render();
    opening.render();
    clocks.render();
    controller.update();
    title.update();
    abort.render();
    leave.update();
  }

  /** After the moves change: the list, and the hints for the new position. */
  function movesChanged() {
    moveList.render();
    hints.update();
  }

  const order = new EventOrder(join);
  const events = order.listenerOn(socket);

  function join() {
    session.emitWithAck("join_game", {game_id: gameId}, (err, ack) => {
      if (!err && ack && ack.ok) {
        notices.clearError();
        applyState(ack.state);
        return;
      }
      if (!err && ack && ack.error === "moved") {
        session.moveTo(ack.path);  // the game is played by another server process
        return;
      }
      if (!err && ack && ack.error === "conflict" && session.connected) {
        // The game is being handed to another process, or the database was busy: again soon.
        notices.showConnection(ack.message);
        setTimeout(() => session.connected && join(), 1000);
        return;
      }
      panel.showJoinFailure(Boolean(ack && ack.error === "not_found"));
      notices.showError(err ? t("The server did not answer. Reload the page to try again.") : ack && ack.message);
    });
  }

  function applyState(state) {
    order.reset(state.v);
    game.apply(state);
    soundTheStart();
    clocks.set(state.clocks);
    controller.showPosition(state.result ? state.result.line : null);
    panel.clearScoreChanges();
    if (state.result) panel.showScoreChanges(state.result);
    chat.showState(state);
    showSpectators(state.spectators || 0);
    abort.set(state.abort_seconds);
    movesChanged();
    refresh();
  }

  /** The start's sound, once a page, for a player of a game that has just begun: game_ready
      may reach the second player to join before its join answer, which then says "playing". */
  let startSounded = false;
  function soundTheStart() {
    if (startSounded || !game.isPlayer() || game.status !== "playing" || game.moves.length > 0) return;
    startSounded = true;
    sound.play("start");
  }

  function showSpectators(count) {
    $("spectators").textContent = count > 0 ? t("{count} watching", {count: count}) : "";
  }

  function onGameReady(data) {
    game.begin(data);
    soundTheStart();
    clocks.set(data.clocks);
    abort.set(data.abort_seconds);
    movesChanged();
    refresh();
  }

  function onStonePlaced(data) {
    if (!game.addMove(data)) {
      join();  // We missed something; the server's full state is the truth.
      return;
    }
    controller.addMove(data.row, data.col, data.color);
    clocks.set(data.clocks === undefined ? clocks.reading : data.clocks);
    abort.set(data.abort_seconds);
    sound.play();
    movesChanged();
    refresh();
  }

  function onGameOver(data) {
    game.finish(data.result);
    if (game.isPlayer()) sound.play("end");
    // The clocks as the game ended: a fallen flag reads 00:00, not its last reading.
    if (data.clocks) clocks.set(data.clocks);
    panel.setConfirmingResign(false);
    away.hide();
    abort.set(null);
    controller.setWinLine(data.result.line);
    panel.showScoreChanges(data.result);
    hints.update();
    chat.gameEnded();
    refresh();
  }

  function onUndone(data) {
    game.takeBack(data.moves);
    controller.showPosition();
    showNotice(t("A move was taken back."));
    movesChanged();
    refresh();
  }

  /** A colour chosen or fifth stones offered: the seats may have swapped, so the cards, the
      clocks and whose turn it is follow; the chooser's opponent hears of it. */
  function onOpeningActed(data) {
    game.openingActed(data);
    if (data.clocks !== undefined) clocks.set(data.clocks);
    if (data.option && data.player !== game.userId) showNotice(choiceNotice(data));
    hints.update();
    refresh();
  }

  function choiceNotice(data) {
    const name = opening.nameOf(data.player);
    if (data.option === "black") return t("{name} chose to play black.", {name: name});
    if (data.option === "white") return t("{name} chose to play white.", {name: name});
    return t("{name} chose to place two more stones.", {name: name});
  }

  events.on("game_ready", onGameReady);
  events.on("opening_chosen", onOpeningActed);
  events.on("fifth_offered", onOpeningActed);
  events.on("stone_placed", onStonePlaced);
  events.on("game_over", onGameOver);
  events.on("undone", onUndone);
  events.on("chat", (data) => chat.receive(data));
  events.on("chat_opened", (data) => { if (data.game_id === gameId) chat.opened(data); });
  events.on("spectators", (data) => showSpectators(data.count));
  events.on("players_in_room", (data) => {
    game.setInRoom(data.colors);
    panel.renderRematch();
  });
  away.listen(events);
  offers.listen(events);
  pause.listen(events);
  offers.bindButtons();
  pause.bindButtons();
  opening.bindButtons();
  clocks.tick();
}

function chatElements() {
  const channel = (name) => ({tab: $(`room-chat-tab-${name}`), panel: $(`room-chat-panel-${name}`),
    log: $(name === "players" ? "room-chat-log" : "room-spectator-chat-log"),
    unread: $(`room-chat-tab-${name}`).querySelector(".unread")});
  return {form: $("room-chat-form"), input: $("room-chat-input"), tabs: $("room-chat-tabs"),
    readOnly: $("room-chat-read-only"), option: $("spectator-chat-option"), toggle: $("spectator-chat-toggle"),
    closed: $("room-chat").dataset.closed,
    channels: {players: channel("players"), spectators: channel("spectators")}};
}
