/*
 * Between the board (board.js, which knows nothing of sockets) and the game: a pick becomes one
 * place_stone request at a time, and only on our turn; the move-number and confirm-move options;
 * every move read out in the live region. Arrow keys and Enter on the board are board.js's own.
 * Nothing is drawn until the server says it happened.
 */

import {GobangBoard, notation} from "../board.js";
import {t} from "../i18n.js";
import {readSetting, writeSetting} from "./settings.js";

const CONFIRM_KEY = "gobang.confirmMoves";

export class BoardController {
  /** elements: {board, announcer, numbers, confirm}; send(event, payload, onOk, onFail) makes a
      request about this game; connected() says whether the socket is up. */
  constructor(elements, {game, send, connected}) {
    this.game = game;
    this.send = send;
    this.connected = connected;
    this.announcer = elements.announcer;
    this.placing = false;
    this.board = new GobangBoard(elements.board, {
      onPlay: (row, col) => this.place(row, col), confirm: readSetting(CONFIRM_KEY),
    });
    const {numbers, confirm} = elements;
    numbers.addEventListener("change", () => this.board.setShowNumbers(numbers.checked));
    confirm.addEventListener("change", () => {
      this.board.setConfirm(confirm.checked);
      writeSetting(CONFIRM_KEY, confirm.checked);
    });
    confirm.checked = this.board.confirm;
  }

  place(row, col) {
    if (!this.game.isMyTurn() || this.placing) return;
    this.placing = true;
    this.update();
    const done = () => {
      this.placing = false;
      this.update();
    };
    this.send("place_stone", {row: row, col: col}, done, done);
  }

  /** The board takes picks only on our turn, while connected, with no move on its way. */
  update() {
    this.board.setInteractive(this.game.isMyTurn() && this.connected() && !this.placing, this.game.you);
  }

  /** Draws the game's whole position (after a join or a take-back) and its winning line. */
  showPosition(line = null) {
    this.board.setMoves(this.game.moves);
    this.board.setWinLine(line);
  }

  setWinLine(line) {
    this.board.setWinLine(line);
  }

  addMove(row, col, color) {
    this.board.addMove(row, col, color);
    this.announce(color, row, col);
  }

  /** Screen readers hear every move: "black h8". */
  announce(color, row, col) {
    const point = notation(row, col);
    this.announcer.textContent = color === "white" ? t("white {point}", {point: point})
      : t("black {point}", {point: point});
  }
}
