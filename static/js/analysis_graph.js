/*
 * The evaluation graph of an analysed game: black's win chance (-1..1) after each move, as
 * an inline SVG, with the zero line and the position shown marked.
 *
 *   import {EvaluationGraph} from "./analysis_graph.js";
 *   const graph = new EvaluationGraph(container, analysis.moves, {
 *     onPick(count) {...},            // a point was clicked: the position after `count` moves
 *     describe(count) { return "…"; },  // a point's accessible name
 *   });
 *   graph.mark(12);                   // the position after move 12 is shown
 *
 * Each position is a link (?move=N, as the move list's are) over the whole height of its
 * column, so a click near a point picks it; only the marked one is a tab stop, the move list
 * and the arrow keys being the way to step by keyboard.
 */

import {t} from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const WIDTH = 600;
const HEIGHT = 150;
const PAD = 8;  // room for a point's circle at the top and the bottom

function svgEl(name, attrs) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, String(value));
  return el;
}

/** Black's win chance in each position: before the first move, then after each move. */
export function chances(moves) {
  if (!moves.length) return [];
  return [moves[0].before, ...moves.map((move) => move.after)];
}

export class EvaluationGraph {
  constructor(container, moves, options = {}) {
    this.onPick = options.onPick || function () {};
    this.describe = options.describe || ((count) => String(count));
    this.values = chances(moves);
    this.labels = [null, ...moves.map((move) => move.label)];
    this.links = [];
    container.textContent = "";
    container.appendChild(this.draw());
  }

  x(count) {
    const steps = Math.max(1, this.values.length - 1);
    return PAD + (count * (WIDTH - 2 * PAD)) / steps;
  }

  y(value) {
    const clamped = Math.max(-1, Math.min(1, Number(value) || 0));
    return HEIGHT / 2 - clamped * (HEIGHT / 2 - PAD);
  }

  draw() {
    // A named group: a screen reader hears what the points it holds are.
    const svg = svgEl("svg", {class: "evaluation-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      role: "group", "aria-label": t("Black's chances, move by move"),
      "data-testid": "evaluation-chart"});
    const line = this.values.map((value, count) => `${this.x(count)},${this.y(value)}`);
    const zero = this.y(0);
    const last = this.values.length - 1;
    // Black's advantage fills towards the top, white's towards the bottom, from the zero line.
    svg.appendChild(svgEl("polygon", {class: "graph-area",
      points: [`${this.x(0)},${zero}`, ...line, `${this.x(last)},${zero}`].join(" ")}));
    svg.appendChild(svgEl("line", {class: "graph-zero", x1: 0, x2: WIDTH, y1: zero, y2: zero,
      "data-testid": "graph-zero"}));
    svg.appendChild(svgEl("polyline", {class: "graph-line", points: line.join(" ")}));
    this.cursor = svgEl("line", {class: "graph-current", y1: 0, y2: HEIGHT,
      "data-testid": "graph-current"});
    svg.appendChild(this.cursor);
    const column = (WIDTH - 2 * PAD) / Math.max(1, last);
    this.values.forEach((value, count) => svg.appendChild(this.point(count, value, column)));
    svg.addEventListener("click", (event) => this.picked(event));
    return svg;
  }

  point(count, value, column) {
    const label = this.labels[count];
    const link = svgEl("a", {href: `?move=${count}`, class: "graph-link", "data-move": count,
      "data-testid": `graph-point-${count}`, "aria-label": this.describe(count), tabindex: -1});
    // The column around the point, invisible, so a click need not hit the small circle.
    link.appendChild(svgEl("rect", {class: "graph-hit", x: this.x(count) - column / 2, y: 0,
      width: column, height: HEIGHT}));
    link.appendChild(svgEl("circle", {class: `graph-point${label ? ` ${label}` : ""}`,
      cx: this.x(count), cy: this.y(value), r: label ? 4.5 : 2.5}));
    this.links.push(link);
    return link;
  }

  picked(event) {
    const link = event.target.closest("a[data-move]");
    // A modified click opens the position elsewhere, as a link's does.
    if (!link || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    this.onPick(Number(link.dataset.move));
  }

  /** Marks the position after `count` moves: the cursor line, and the one point in tab order. */
  mark(count) {
    const x = this.x(count);
    this.cursor.setAttribute("x1", String(x));
    this.cursor.setAttribute("x2", String(x));
    this.links.forEach((link, index) => {
      link.setAttribute("tabindex", index === count ? "0" : "-1");
      link.classList.toggle("current", index === count);
      if (index === count) link.setAttribute("aria-current", "step");
      else link.removeAttribute("aria-current");
    });
  }
}
