/*
 * The replay's computer analysis (docs/protocol.md, "Analysis"): asks for it, shows its place
 * in the queue and its progress while it waits (polling the state: nothing is pushed), then
 * the evaluation graph under the board, each move's verdict, the engine's best move on the
 * board, the label marks in the move list and the players' summary.
 *
 *   import {ReplayAnalysis} from "./replay_analysis.js";
 *   const analysis = new ReplayAnalysis({gameId, moves, board, moveList, onPick, askNow});
 *   analysis.follow(shown);  // the replay shows the position after `shown` moves
 *
 * `askNow` (the page was opened with ?analyse=1, from the room's game-over panel) requests it
 * once the state says this reader may, so the room's link and the button share one path.
 */

import {EvaluationGraph} from "./analysis_graph.js";
import {notation} from "./board.js";
import {t} from "./i18n.js";

// How often the state is read while the analysis waits or runs.
const POLL_MS = 1500;
const WAITING = new Set(["queued", "running"]);
// The marks chess readers know, beside a labelled move.
const MARKS = {inaccuracy: "?!", mistake: "?", blunder: "??"};
const LABELS = {
  inaccuracy: () => t("Inaccuracy"),
  mistake: () => t("Mistake"),
  blunder: () => t("Blunder"),
};
const $ = (id) => document.getElementById(id);

/** Black's chance on -1..1 as the win percentage docs/engines.md's accuracy uses. */
function percent(chance) {
  return Math.round(50 + 50 * Math.max(-1, Math.min(1, Number(chance) || 0)));
}

function pointName(point) {
  return notation(point[0], point[1]);
}

function samePoint(a, b) {
  return Boolean(a && b) && a[0] === b[0] && a[1] === b[1];
}

export class ReplayAnalysis {
  constructor({gameId, moves, board, moveList, onPick, askNow}) {
    this.url = `/api/games/${gameId}/analysis`;
    this.total = moves.length;
    this.board = board;
    this.moveList = moveList;
    this.onPick = onPick;
    this.askNow = Boolean(askNow);
    this.shown = moves.length;
    this.analysis = null;
    this.graph = null;
    this.timer = null;
    this.ui = {
      box: $("analysis"),
      status: $("analysis-status"),
      error: $("analysis-error"),
      request: $("analysis-request"),
      whyNot: $("analysis-why-not"),
      result: $("analysis-result"),
      verdict: $("analysis-verdict"),
      best: $("analysis-best"),
      chances: $("analysis-chances"),
      missed: $("analysis-missed"),
      engine: $("analysis-engine"),
      graph: $("evaluation-graph"),
    };
    this.ui.request.addEventListener("click", () => this.request());
    this.load();
  }

  /** Reads the state; a failed read is tried again at the next poll. */
  load() {
    fetch(this.url, {headers: {Accept: "application/json"}})
      .then((response) => (response.ok ? response.json() : null))
      .then((state) => {
        if (state) this.render(state);
        else this.poll();
      })
      .catch(() => this.poll());
  }

  poll() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.load(), POLL_MS);
  }

  request() {
    this.askNow = false;
    this.ui.request.disabled = true;
    this.ui.error.textContent = "";
    fetch(this.url, {method: "POST", headers: {Accept: "application/json",
      "X-CSRFToken": document.body.dataset.csrfToken || ""}})
      .then((response) => response.json().then((body) => ({ok: response.ok, body})))
      .then(({ok, body}) => {
        this.ui.request.disabled = false;
        if (ok) {
          this.render(body);
          return;
        }
        // The server's own words, in the reader's language; then the state as it is now.
        this.ui.error.textContent = body.message || t("Something went wrong.");
        this.load();
      })
      .catch(() => {
        this.ui.request.disabled = false;
        this.ui.error.textContent = t("The server did not answer. Try again.");
      });
  }

  render(state) {
    const {ui} = this;
    const offer = state.can_request && (state.status === "none" || state.status === "failed");
    if (offer && this.askNow) {
      this.request();  // once: askNow is spent by the request
      return;
    }
    this.askNow = false;
    ui.box.dataset.status = state.status;  // the state last read, for styles and tests
    ui.request.hidden = !offer;
    // Why this reader may not ask (a visitor or a guest: the page says which); nothing when
    // the reason is another (a spectator, a request of theirs waiting elsewhere).
    if (ui.whyNot) ui.whyNot.hidden = state.can_request || !["none", "failed"].includes(state.status);
    ui.status.textContent = this.statusText(state);
    if (state.status === "done" && state.analysis) this.show(state.analysis);
    if (WAITING.has(state.status)) this.poll();
    ui.box.hidden = !(offer || ui.status.textContent || ui.error.textContent || this.analysis
      || (ui.whyNot && !ui.whyNot.hidden));
  }

  statusText(state) {
    if (state.status === "queued") return t("Queued: position {n}", {n: state.position || 1});
    if (state.status === "running") {
      const progress = state.progress;
      return progress ? t("Analysing: {done} of {total} positions",
        {done: progress.done, total: progress.total}) : t("Analysing…");
    }
    if (state.status === "failed") return t("The analysis failed.");
    return "";
  }

  /** The finished analysis: drawn once, then followed move by move. */
  show(analysis) {
    if (this.analysis) return;
    this.analysis = analysis;
    const {ui} = this;
    ui.engine.textContent = analysis.engine;
    this.fillSummary(analysis.players);
    this.markMoves(analysis.moves);
    this.graph = new EvaluationGraph(ui.graph, analysis.moves, {
      onPick: (count) => this.onPick(count),
      describe: (count) => this.describe(count),
    });
    ui.graph.hidden = false;
    ui.result.hidden = false;
    this.follow(this.shown);
  }

  fillSummary(players) {
    for (const color of ["black", "white"]) {
      const counts = players[color] || {};
      for (const field of ["inaccuracy", "mistake", "blunder"]) {
        this.cell(color, field).textContent = String(counts[field] ?? 0);
      }
      const accuracy = counts.accuracy;
      this.cell(color, "accuracy").textContent = accuracy === null || accuracy === undefined
        ? "–" : `${Number(accuracy).toFixed(1)}%`;
    }
  }

  cell(color, field) {
    return this.ui.box.querySelector(`[data-cell="${color}-${field}"]`);
  }

  /** ?!, ? and ?? after the labelled moves in the move list, each with its word for readers. */
  markMoves(moves) {
    this.moveList.classList.add("analysed");
    for (const move of moves) {
      const link = this.moveList.querySelector(`a[data-move="${move.number}"]`);
      if (!link || !move.label || link.querySelector(".move-mark")) continue;
      const mark = document.createElement("span");
      mark.className = `move-mark ${move.label}`;
      mark.dataset.testid = `mark-${move.number}`;
      mark.title = LABELS[move.label]();
      const sign = document.createElement("span");
      sign.setAttribute("aria-hidden", "true");
      sign.textContent = MARKS[move.label];
      const word = document.createElement("span");
      word.className = "visually-hidden";
      word.textContent = LABELS[move.label]();
      mark.append(sign, word);
      link.appendChild(mark);
    }
  }

  describe(count) {
    const chance = percent(count === 0 ? this.analysis.moves[0].before
      : this.analysis.moves[count - 1].after);
    if (count === 0) return t("Start: black's chances {chance}%", {chance});
    const move = this.analysis.moves[count - 1];
    const params = {n: count, point: pointName(move.move), chance};
    return move.label
      ? t("Move {n}, {point}: black's chances {chance}%, {label}", {...params, label: LABELS[move.label]()})
      : t("Move {n}, {point}: black's chances {chance}%", params);
  }

  /** The replay shows the position after `shown` moves: that move's verdict and best move. */
  follow(shown) {
    this.shown = shown;
    if (!this.analysis) return;
    this.graph.mark(shown);
    const move = shown > 0 ? this.analysis.moves[shown - 1] : null;
    const {ui} = this;
    // The engine's move in the position before this one, drawn where it differs.
    this.board.setSpots(move && move.best && !samePoint(move.best, move.move) ? [move.best] : [],
      "best");
    ui.verdict.className = `analysis-verdict${move && move.label ? ` ${move.label}` : ""}`;
    ui.verdict.textContent = move ? this.verdict(move) : t("Step to a move to see the engine's view of it.");
    ui.best.textContent = !move || !move.best ? ""
      : samePoint(move.best, move.move) ? t("The engine's choice too.")
        : t("The engine's best move was {point}.", {point: pointName(move.best)});
    ui.chances.textContent = move ? t("Black's chances: {before}% → {after}%",
      {before: percent(move.before), after: percent(move.after)}) : "";
    ui.missed.textContent = move && move.missed_win ? this.missed(move.missed_win) : "";
    // The missed win's line on the board too, from the mover's colour.
    this.board.setLine(move && move.missed_win ? move.missed_win.line : [],
      move ? move.color : "black");
  }

  verdict(move) {
    const params = {n: move.number, point: pointName(move.move)};
    return move.label
      ? t("Move {n}, {point}: {label} ({mark})", {...params, label: LABELS[move.label](),
        mark: MARKS[move.label]})
      : t("Move {n}, {point}: no mistake", params);
  }

  missed(win) {
    const line = win.line.map(pointName).join(" ");
    return win.kind === "vcf" ? t("Missed a VCF: {line}", {line})
      : t("Missed a VCT: {line}", {line});
  }
}
