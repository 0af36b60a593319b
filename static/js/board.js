/*
 * GobangBoard: draws a 15x15 gomoku board and reports which point the user picked.
 * It knows nothing of sockets or game rules; the page script decides what a pick means.
 *
 *   import {GobangBoard, notation} from "./board.js";
 *   const board = new GobangBoard(el, {onPlay(row, col) {...}});
 *   board.setMoves([[7, 7], [7, 8]]);     // colours alternate, black first
 *   board.addMove(8, 8, "black");
 *   board.setWinLine([[7, 3], [7, 4], ...]);
 *   board.setInteractive(true, "black");  // the colour drives the hover preview
 *   board.setConfirm(true);               // a first pick only previews; the same point again plays
 *   board.setMarks([[7, 7]]);             // marked empty points (renju's forbidden points)
 *   board.setArea(5);                     // outlines the central 5x5 square; null removes it
 *   board.setSpots([[6, 8]], "offered");  // an opening's offered ("offered") or marked ("chosen") points
 *   board.setSpots([[6, 8]], "best");     // the engine's best move (the replay's analysis and
 *                                         // the analysis board), named as such
 *   board.setLine([[7, 8], [7, 9]], "black");  // moves to come (the replay's missed win):
 *                                         // numbered ghost stones, colours alternating
 *
 * The grid and labels are one SVG with a viewBox (crisp at any size); the points are a CSS grid
 * of real <button>s laid over it, so clicks, focus and screen readers work without extra code.
 * Arrow keys move the focus over the points and Enter picks one. Words go through t
 * (static/js/i18n.js).
 */

import {t} from "./i18n.js";

const SIZE = 15;
const LETTERS = "abcdefghijklmno";
// h8, d4, l4, d12, l12 as [row, col]; row 0 is rank 15.
const STAR_POINTS = [[7, 7], [11, 3], [11, 11], [3, 3], [3, 11]];
const SVG_NS = "http://www.w3.org/2000/svg";
// Points sit at MARGIN..MARGIN+14 in the viewBox. A stone reaches .45 beyond its point, so the
// margin leaves the coordinate labels a strip of their own that no edge stone covers.
// site.css places the grid of points to match: left/top (MARGIN - .5) / VIEW, width 15 / VIEW.
const MARGIN = 1.3;
const VIEW = SIZE - 1 + 2 * MARGIN;
const LABEL_AT = 0.55;  // the labels' centre line, from the board's outer edge

// Spots on empty points, an opening's and the analysis's: their class and what a screen
// reader hears.
const SPOTS = {
  offered: () => t("offered fifth stone"),
  chosen: () => t("marked to offer"),
  best: () => t("the engine's best move"),
};
// Spots whose words are part of the point's name, not only its description: the replay's
// best move is what the point is there for, and a name is read first (and found by role).
const NAMED_SPOTS = new Set(["best"]);

function stoneDescription(stone) {
  return stone.color === "black" ? t("black stone, move {n}", {n: stone.n})
    : t("white stone, move {n}", {n: stone.n});
}

/** A point's name, as on the board's edges: column letter and rank, "h8". */
export function notation(row, col) {
  return LETTERS[col] + String(SIZE - row);
}

function svgEl(name, attrs) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
}

const at = (index) => MARGIN + index;

function gridLines() {
  const group = svgEl("g", {class: "board-lines"});
  const first = at(0);
  const last = at(SIZE - 1);
  for (let i = 0; i < SIZE; i++) {
    group.appendChild(svgEl("line", {x1: first, y1: at(i), x2: last, y2: at(i)}));
    group.appendChild(svgEl("line", {x1: at(i), y1: first, x2: at(i), y2: last}));
  }
  group.appendChild(svgEl("rect", {class: "board-edge", x: first, y: first, width: SIZE - 1, height: SIZE - 1}));
  return group;
}

function starPoints() {
  const group = svgEl("g", {class: "board-stars"});
  for (const [row, col] of STAR_POINTS) {
    group.appendChild(svgEl("circle", {cx: at(col), cy: at(row), r: 0.12}));
  }
  return group;
}

function label(text, x, y) {
  const el = svgEl("text", {x: x, y: y});
  el.textContent = text;
  return el;
}

function coordinateLabels() {
  const group = svgEl("g", {class: "board-labels", "aria-hidden": "true"});
  for (let i = 0; i < SIZE; i++) {
    group.appendChild(label(LETTERS[i], at(i), LABEL_AT));
    group.appendChild(label(LETTERS[i], at(i), VIEW - LABEL_AT));
    group.appendChild(label(String(SIZE - i), LABEL_AT, at(i)));
    group.appendChild(label(String(SIZE - i), VIEW - LABEL_AT, at(i)));
  }
  return group;
}

function drawGrid() {
  const svg = svgEl("svg", {
    class: "board-grid", viewBox: `0 0 ${VIEW} ${VIEW}`, "aria-hidden": "true", focusable: "false",
  });
  svg.appendChild(svgEl("rect", {class: "board-wood", x: 0, y: 0, width: VIEW, height: VIEW}));
  svg.appendChild(gridLines());
  svg.appendChild(starPoints());
  svg.appendChild(coordinateLabels());
  return svg;
}

export class GobangBoard {
  constructor(container, options = {}) {
    this.container = container;
    this.onPlay = options.onPlay || function () {};
    this.showNumbers = Boolean(options.showNumbers);
    this.confirm = Boolean(options.confirm);
    this.interactive = false;
    this.pendingIndex = -1;  // the point a first pick previews, when confirming moves
    this.stones = new Array(SIZE * SIZE).fill(null);  // null or {color, n}
    this.moveCount = 0;
    this.lastIndex = -1;
    this.winIndexes = new Set();
    this.marks = new Set();
    this.spots = new Map();  // index -> a SPOTS kind
    this.line = new Map();  // index -> {n, color}: a line of moves to come, as ghost stones
    this.focusIndex = 7 * SIZE + 7;
    this.build();
  }

  build() {
    const c = this.container;
    c.textContent = "";
    c.classList.add("board");
    c.setAttribute("data-testid", "board");
    c.setAttribute("role", "group");
    c.setAttribute("aria-label", t("Board"));
    const grid = drawGrid();
    this.areaEl = svgEl("rect", {class: "board-area-outline hidden", "data-testid": "board-area"});
    grid.appendChild(this.areaEl);
    c.appendChild(grid);
    this.pointsEl = document.createElement("div");
    this.pointsEl.className = "board-points";
    this.points = [];
    for (let row = 0; row < SIZE; row++) {
      for (let col = 0; col < SIZE; col++) this.pointsEl.appendChild(this.makePoint(row, col));
    }
    c.appendChild(this.pointsEl);
    this.pointsEl.addEventListener("click", (e) => this.handleClick(e));
    this.pointsEl.addEventListener("keydown", (e) => this.handleKey(e));
    this.pointsEl.addEventListener("focusin", (e) => this.rememberFocus(e));
    this.refreshAll();
  }

  makePoint(row, col) {
    const btn = document.createElement("button");
    btn.type = "button";
    btn.className = "point";
    btn.dataset.row = String(row);
    btn.dataset.col = String(col);
    btn.setAttribute("aria-label", notation(row, col));
    // Roving tabindex: the board is one tab stop; arrow keys move between points.
    btn.tabIndex = row * SIZE + col === this.focusIndex ? 0 : -1;
    this.points.push(btn);
    return btn;
  }

  /* --- public API --- */

  setMoves(moves) {
    this.pendingIndex = -1;
    this.stones.fill(null);
    this.moveCount = 0;
    this.lastIndex = -1;
    this.winIndexes.clear();
    (moves || []).forEach(([row, col], i) => this.placeStone(row, col, i % 2 === 0 ? "black" : "white"));
    this.refreshAll();
  }

  addMove(row, col, color) {
    const previous = this.lastIndex;
    this.placeStone(row, col, color);
    if (previous >= 0) this.refreshPoint(previous);
    this.refreshPoint(this.lastIndex);
  }

  setWinLine(line) {
    this.winIndexes = new Set((line || []).map(([row, col]) => row * SIZE + col));
    this.refreshAll();
  }

  /** Marks empty points (renju's forbidden points for black); [] clears the marks. */
  setMarks(points) {
    this.marks = new Set((points || []).map(([row, col]) => row * SIZE + col));
    this.refreshAll();
  }

  /** Outlines the central square of side `side` (an odd number of points) where an opening's
      stone must go; null removes the outline. */
  setArea(side) {
    const on = Number.isInteger(side) && side > 0;
    this.areaEl.classList.toggle("hidden", !on);
    this.container.dataset.area = on ? String(side) : "";
    if (!on) return;
    const from = at((SIZE - side) / 2) - 0.5;
    for (const [key, value] of Object.entries({x: from, y: from, width: side, height: side})) {
      this.areaEl.setAttribute(key, String(value));
    }
  }

  /** Sets the empty points shown as `kind` (a key of SPOTS), replacing that kind's others. */
  setSpots(points, kind) {
    for (const [index, was] of this.spots) if (was === kind) this.spots.delete(index);
    for (const [row, col] of points || []) this.spots.set(row * SIZE + col, kind);
    this.refreshAll();
  }

  /** Numbered ghost stones on the line's empty points, the first of `firstColor`; a point a
   * stone holds already keeps its stone (the line is told in words beside the board too). */
  setLine(points, firstColor) {
    const second = firstColor === "black" ? "white" : "black";
    this.line = new Map((points || []).map(([row, col], i) => [
      row * SIZE + col, {n: i + 1, color: i % 2 === 0 ? firstColor : second}]));
    this.refreshAll();
  }

  setInteractive(on, color) {
    this.interactive = Boolean(on);
    if (!this.interactive) this.pendingIndex = -1;
    this.container.classList.toggle("interactive", this.interactive);
    if (this.interactive && color) this.container.dataset.preview = color;
    else delete this.container.dataset.preview;
    this.refreshAll();
  }

  /** Confirm moves: a first pick shows a ghost stone; picking that point again plays it. */
  setConfirm(on) {
    this.confirm = Boolean(on);
    if (!this.confirm) this.setPending(-1);
  }

  setShowNumbers(on) {
    this.showNumbers = Boolean(on);
    this.container.classList.toggle("numbers", this.showNumbers);
    this.refreshAll();
  }

  /** Draws a whole position at once: {moves, line, interactive, color}. */
  render(state) {
    this.setMoves(state.moves);
    this.setWinLine(state.line);
    this.setInteractive(state.interactive, state.color);
  }

  /* --- internals --- */

  placeStone(row, col, color) {
    const index = row * SIZE + col;
    if (index === this.pendingIndex) this.pendingIndex = -1;
    this.moveCount += 1;
    this.stones[index] = {color: color, n: this.moveCount};
    this.lastIndex = index;
  }

  refreshAll() {
    for (let i = 0; i < this.points.length; i++) this.refreshPoint(i);
  }

  refreshPoint(index) {
    const btn = this.points[index];
    const stone = this.stones[index];
    const pending = index === this.pendingIndex && !stone;
    if (stone) {
      btn.dataset.stone = stone.color;
      btn.setAttribute("aria-description", stoneDescription(stone));
    } else if (pending) {
      delete btn.dataset.stone;
      btn.setAttribute("aria-description", t("selected: press again to place your stone"));
    } else if (this.spots.has(index) && NAMED_SPOTS.has(this.spots.get(index))) {
      delete btn.dataset.stone;
      btn.removeAttribute("aria-description");  // its name says it already
    } else if (this.spots.has(index)) {
      delete btn.dataset.stone;
      btn.setAttribute("aria-description", SPOTS[this.spots.get(index)]());
    } else if (this.marks.has(index)) {
      delete btn.dataset.stone;
      btn.setAttribute("aria-description", t("forbidden for black"));
    } else {
      delete btn.dataset.stone;
      btn.removeAttribute("aria-description");
    }
    btn.classList.toggle("pending", pending);
    btn.classList.toggle("last", index === this.lastIndex);
    btn.classList.toggle("win", this.winIndexes.has(index));
    btn.classList.toggle("marked", !stone && this.marks.has(index));
    for (const kind of Object.keys(SPOTS)) btn.classList.toggle(kind, !stone && this.spots.get(index) === kind);
    btn.setAttribute("aria-disabled", String(!this.interactive || Boolean(stone)));
    const ghost = stone ? null : this.line.get(index);
    btn.classList.toggle("line", Boolean(ghost));
    if (ghost) {
      btn.dataset.line = ghost.color;
      btn.setAttribute("aria-description", t("move {n} of the missed win", {n: ghost.n}));
    } else {
      delete btn.dataset.line;
    }
    const number = stone && this.showNumbers ? String(stone.n) : "";
    btn.textContent = number || (ghost ? String(ghost.n) : "");
    // The name holds what the point shows: its notation, and the move's number when shown.
    const name = notation(Number(btn.dataset.row), Number(btn.dataset.col));
    const spot = stone ? null : this.spots.get(index);
    if (number) btn.setAttribute("aria-label", `${name} ${number}`);
    else if (NAMED_SPOTS.has(spot)) btn.setAttribute("aria-label", `${name}, ${SPOTS[spot]()}`);
    else btn.setAttribute("aria-label", name);
  }

  handleClick(event) {
    const btn = event.target.closest(".point");
    if (!btn || !this.interactive) return;
    const row = Number(btn.dataset.row);
    const col = Number(btn.dataset.col);
    const index = row * SIZE + col;
    if (this.stones[index]) return;
    if (this.confirm && this.pendingIndex !== index) {
      this.setPending(index);
      return;
    }
    this.setPending(-1);
    this.onPlay(row, col);
  }

  setPending(index) {
    const previous = this.pendingIndex;
    this.pendingIndex = index;
    if (previous >= 0) this.refreshPoint(previous);
    if (index >= 0) this.refreshPoint(index);
  }

  handleKey(event) {
    const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
    const step = moves[event.key];
    if (!step) return;  // Enter and Space already click a focused <button>.
    event.preventDefault();
    const row = Math.min(SIZE - 1, Math.max(0, Math.floor(this.focusIndex / SIZE) + step[0]));
    const col = Math.min(SIZE - 1, Math.max(0, (this.focusIndex % SIZE) + step[1]));
    this.points[row * SIZE + col].focus();
  }

  rememberFocus(event) {
    const btn = event.target.closest(".point");
    if (!btn) return;
    this.points[this.focusIndex].tabIndex = -1;
    this.focusIndex = Number(btn.dataset.row) * SIZE + Number(btn.dataset.col);
    btn.tabIndex = 0;
  }
}
