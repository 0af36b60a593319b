/*
 * Between the board (board.js, which knows nothing of sockets) and the game: a pick becomes one
 * place_stone request at a time, and only on our turn; the move-number and confirm-move options;
 * every move read out in the live region. Arrow keys and Enter on the board are board.js's own.
 * Nothing is drawn until the server says it happened. While the player looks at an earlier
 * position (the move list), the board shows that one and takes no picks; the game goes on.
 * In an opening (room/opening.js) a pick places the step's stone, picks an offered fifth
 * stone (opening_pick), or, while the player marks fifth stones to offer, marks a point.
 */

import {GobangBoard, notation} from "../board.js";
import {t} from "../i18n.js";
import {readSetting, writeSetting} from "./settings.js";

const CONFIRM_KEY = "gobang.confirmMoves";

export class BoardController {
  /** elements: {board, announcer, numbers, confirm}; send(event, payload, onOk, onFail) makes a
      request about this game; connected() says whether the socket is up; marker, when set, is
      the opening's {marking(), toggle(row, col)} (room/opening.js). */
  constructor(elements, {game, send, connected}) {
    this.game = game;
    this.send = send;
    this.connected = connected;
    this.marker = null;
    this.decorations = {};  // the opening's {area, offered, chosen} on the live position
    this.announcer = elements.announcer;
    this.placing = false;
    this.viewing = null;  // the number of moves shown while looking back, or null: live
    this.winLine = null;
    this.marks = [];
    this.board = new GobangBoard(elements.board, {
      onPlay: (row, col) => this.place(row, col), confirm: readSetting(CONFIRM_KEY),
    });
    const {numbers, confirm} = elements;
    this.confirmBox = confirm;
    numbers.addEventListener("change", () => this.board.setShowNumbers(numbers.checked));
    confirm.addEventListener("change", () => {
      this.board.setConfirm(confirm.checked && !this.marking());
      writeSetting(CONFIRM_KEY, confirm.checked);
    });
    confirm.checked = this.board.confirm;
  }

  marking() {
    return this.marker !== null && this.marker.marking();
  }

  place(row, col) {
    if (!this.game.isMyTurn() || this.placing) return;
    if (this.marking()) {
      this.marker.toggle(row, col);
      return;
    }
    const step = this.game.myOpeningStep();
    const event = step && step.kind === "pick" ? "opening_pick" : "place_stone";
    this.placing = true;
    this.update();
    const done = () => {
      this.placing = false;
      this.update();
    };
    this.send(event, {row: row, col: col}, done, done);
  }

  /** The board takes picks only on our turn (not while we choose a colour), while connected,
      with no move on its way, and only when it shows the live position. A mark to offer is
      a single click; the hover shows the next stone's colour (an opening's stones alternate
      colours whoever places them). */
  update() {
    const live = this.viewing === null;
    const step = this.game.myOpeningStep();
    const picking = this.game.isMyTurn() && !(step && step.kind === "choose");
    const marking = this.marking();
    this.board.setConfirm(this.confirmBox.checked && !marking);
    const preview = marking ? null : step ? this.game.nextStoneColor() : this.game.you;
    this.board.setInteractive(live && picking && this.connected() && !this.placing, preview);
  }

  /** The opening's outline of the square a stone must go in, its offered fifth stones and
      the points marked to offer: {area, offered, chosen}, shown on the live position. */
  decorate(decorations) {
    this.decorations = decorations;
    if (this.viewing === null) this.paintDecorations();
  }

  paintDecorations() {
    const shown = this.viewing === null ? this.decorations : {};
    this.board.setArea(shown.area || null);
    this.board.setSpots(shown.offered || [], "offered");
    this.board.setSpots(shown.chosen || [], "chosen");
  }

  /** Draws the game's whole position (after a join or a take-back) and its winning line. */
  showPosition(line = null) {
    this.winLine = line;
    this.marks = [];
    if (this.viewing !== null && this.viewing >= this.game.moves.length) this.viewing = null;
    this.draw();
  }

  setWinLine(line) {
    this.winLine = line;
    if (this.viewing === null) this.board.setWinLine(line);
  }

  addMove(row, col, color) {
    this.marks = [];
    if (this.viewing === null) {
      this.board.setMarks([]);
      this.board.addMove(row, col, color);
    }
    this.announce(color, row, col);
  }

  /** Shows the position after the first `count` moves, or the live one when count is null. */
  view(count) {
    this.viewing = count === null || count >= this.game.moves.length ? null : count;
    this.draw();
    this.update();
  }

  /** Marks points on the live position (renju's forbidden points for black). */
  setMarks(points) {
    this.marks = points;
    if (this.viewing === null) this.board.setMarks(points);
  }

  draw() {
    const live = this.viewing === null;
    this.board.setMoves(live ? this.game.moves : this.game.moves.slice(0, this.viewing));
    this.board.setWinLine(live ? this.winLine : null);
    this.board.setMarks(live ? this.marks : []);
    this.paintDecorations();
  }

  /** Screen readers hear every move: "black h8". */
  announce(color, row, col) {
    const point = notation(row, col);
    this.announcer.textContent = color === "white" ? t("white {point}", {point: point})
      : t("black {point}", {point: point});
  }
}
