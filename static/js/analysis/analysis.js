/*
 * The analysis board's page (templates/analysis/board.html): a board to play both colours on,
 * the variations kept as a tree (tree.js), the engine's view of a position on request.
 *
 * The server is the referee: each new position is sent to GET /api/analysis/position, which
 * answers whose move it is, a five's line and renju's forbidden points; until it has answered
 * the board takes no click. The address follows the line shown (?ruleset=&moves=h8,i9), with
 * history.replaceState, so that it can be copied and reopened; so does the .psq link.
 * Words go through t (static/js/i18n.js) and into the page as textContent.
 */

import {GobangBoard, notation} from "../board.js";
import {t} from "../i18n.js";
import {VariationTree} from "./tree.js";

const pointsText = (moves) => moves.map(([row, col]) => notation(row, col)).join(",");

function start(root) {
  const first = JSON.parse(root.dataset.position);
  const ruleset = first.ruleset;
  const tree = VariationTree.fromLine(first.moves);
  const positions = new Map([[tree.current, first]]);  // node -> the server's word on it
  const answers = new Map();  // node -> the engine's answer there
  const board = new GobangBoard(document.getElementById("board"), {onPlay: playAt});
  const $ = (id) => document.getElementById(id);
  const status = $("analysis-status");
  const buttons = {start: $("analysis-start"), back: $("analysis-back"),
    forward: $("analysis-forward"), end: $("analysis-end")};
  const engineButton = $("analysis-engine");
  const engineStatus = $("analysis-engine-status");

  function show() {
    const node = tree.current;
    const info = positions.get(node);
    board.setMoves(tree.line());
    board.setWinLine(info && info.line ? info.line : []);
    board.setMarks(info ? info.forbidden : []);
    board.setInteractive(Boolean(info && info.to_move), info ? info.to_move : null);
    status.textContent = statusText(info);
    buttons.start.disabled = buttons.back.disabled = node === tree.root;
    buttons.forward.disabled = buttons.end.disabled = node.children.length === 0;
    if (engineButton) engineButton.disabled = !info || !info.to_move;
    if (engineStatus) engineStatus.textContent = "";  // it spoke of another position
    drawVariations();
    drawLine();
    follow();
    drawAnswer(answers.get(node));
    if (!info) load(node);
  }

  /** Asks the server about the position at `node`; a move it refuses is taken back. */
  function load(node) {
    const path = [];
    for (let at = node; at.parent; at = at.parent) path.unshift(at.move);
    const query = new URLSearchParams({ruleset: ruleset, moves: pointsText(path)});
    fetch(`/api/analysis/position?${query}`, {headers: {Accept: "application/json"}})
      .then((response) => response.json().then((body) => ({ok: response.ok, body: body})))
      .then(({ok, body}) => {
        if (ok) {
          positions.set(node, body);
        } else {
          dropNode(node);
          status.textContent = body.message || t("Something went wrong.");
        }
        if (ok && tree.current === node) show();
      })
      .catch(() => { status.textContent = t("The server did not answer. Try again."); });
  }

  function dropNode(node) {
    const parent = node.parent;
    parent.children.splice(parent.children.indexOf(node), 1);
    if (tree.path().includes(node)) tree.goTo(parent);
    show();
  }

  function playAt(row, col) {
    const info = positions.get(tree.current);
    if (!info || !info.to_move) return;
    if (info.forbidden.some(([r, c]) => r === row && c === col)) {
      status.textContent = t("{point} is forbidden for black.", {point: notation(row, col)});
      return;
    }
    tree.play([row, col]);
    show();
  }

  function drawVariations() {
    const list = $("analysis-variations");
    list.textContent = "";
    const moves = tree.variations();
    $("analysis-no-variations").classList.toggle("hidden", moves.length > 0);
    moves.forEach((move, index) => {
      const item = document.createElement("li");
      const choose = document.createElement("button");
      choose.type = "button";
      choose.className = "variation-choose";
      choose.dataset.testid = "variation-choose";
      choose.textContent = index === 0 ? t("{move} (main line)", {move: notation(...move)})
        : notation(...move);
      choose.addEventListener("click", () => { tree.choose(index); show(); });
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "variation-delete";
      remove.dataset.testid = "variation-delete";
      remove.textContent = "✕";
      remove.setAttribute("aria-label", t("Delete the variation from {move}", {move: notation(...move)}));
      remove.title = remove.getAttribute("aria-label");
      remove.addEventListener("click", () => { tree.remove(index); show(); });
      item.append(choose, remove);
      list.appendChild(item);
    });
  }

  /** The line played to here, then (greyed) the main continuation; each move goes there. */
  function drawLine() {
    const list = $("analysis-line");
    list.textContent = "";
    const here = tree.path();
    const nodes = here.concat(tree.continuation());
    nodes.forEach((node, index) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = index < here.length ? "move" : "move ahead";
      button.dataset.testid = "line-move";
      // As the replay's list: the colour for screen readers, inside the visible name.
      const number = document.createElement("span");
      number.className = "move-number";
      number.textContent = `${index + 1}.`;
      const color = document.createElement("span");
      color.className = "visually-hidden";
      color.textContent = index % 2 === 0 ? t("black") : t("white");
      button.append(number, " ", color, ` ${notation(...node.move)}`);
      if (node === tree.current) button.setAttribute("aria-current", "step");
      button.addEventListener("click", () => { tree.goTo(node); show(); });
      item.appendChild(button);
      list.appendChild(item);
    });
  }

  /** The address and the .psq link carry the line to the position shown. */
  function follow() {
    const moves = pointsText(tree.line());
    const url = new URL(window.location.href);
    url.searchParams.delete("game");
    url.searchParams.delete("move");
    url.searchParams.set("ruleset", ruleset);
    if (moves) url.searchParams.set("moves", moves);
    else url.searchParams.delete("moves");
    if (url.href !== window.location.href) window.history.replaceState(null, "", url.href);
    const query = new URLSearchParams({ruleset: ruleset});
    if (moves) query.set("moves", moves);
    $("analysis-psq").href = `${root.dataset.psqUrl}?${query}`;
  }

  function askEngine() {
    const node = tree.current;
    engineButton.disabled = true;
    engineStatus.textContent = t("The engine is thinking…");
    fetch("/api/analysis/engine", {
      method: "POST",
      headers: {"Content-Type": "application/json", Accept: "application/json",
        "X-CSRFToken": root.dataset.csrfToken},
      body: JSON.stringify({ruleset: ruleset, moves: tree.line()}),
    })
      .then((response) => response.json().then((body) => ({ok: response.ok, body: body})))
      .then(({ok, body}) => {
        if (ok) answers.set(node, body);
        if (tree.current !== node) return;
        engineButton.disabled = false;
        engineStatus.textContent = ok ? "" : body.message || t("Something went wrong.");
        if (ok) drawAnswer(body);
      })
      .catch(() => {
        engineButton.disabled = false;
        engineStatus.textContent = t("The server did not answer. Try again.");
      });
  }

  function drawAnswer(answer) {
    const box = $("analysis-engine-answer");
    box.classList.toggle("hidden", !answer);
    board.setSpots(answer && answer.best ? [answer.best] : [], "best");
    if (!answer) return;
    const black = Math.round(50 + 50 * answer.win_chance);
    $("analysis-chance-black").style.width = `${black}%`;
    $("analysis-chance").textContent = t("Black {black}% · White {white}%", {black: black, white: 100 - black});
    $("analysis-add-line").classList.toggle("hidden", !answer.line.length);
    $("analysis-best").textContent = answer.best
      ? t("Best move: {move}. Line: {line}", {move: notation(...answer.best),
        line: answer.line.map(([row, col]) => notation(row, col)).join(" ")})
      : t("No move to suggest: the game is over.");
  }

  const go = {
    start: () => tree.toStart(), back: () => tree.back(),
    forward: () => tree.forward(), end: () => tree.toEnd(),
  };
  for (const [name, button] of Object.entries(buttons)) {
    button.addEventListener("click", () => { go[name](); show(); });
  }
  if (engineButton) engineButton.addEventListener("click", askEngine);
  // The engine's line becomes a branch from here, to step through as any other.
  $("analysis-add-line").addEventListener("click", () => {
    const answer = answers.get(tree.current);
    if (!answer || !answer.line.length) return;
    tree.addLine(answer.line);
    show();
  });

  const KEYS = {ArrowLeft: go.back, ArrowRight: go.forward, Home: go.start, End: go.end};
  document.addEventListener("keydown", () => root.classList.add("keyboard-used"), {once: true});
  document.addEventListener("keydown", (event) => {
    const step = KEYS[event.key];
    // The board moves its focus with the arrows, and form fields keep their keys.
    if (!step || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea, .board")) return;
    event.preventDefault();
    step();
    show();
  });

  show();
}

function statusText(info) {
  if (!info) return t("Checking the position…");
  if (info.winner === "black") return t("Black wins: five in a row.");
  if (info.winner === "white") return t("White wins: five in a row.");
  if (!info.to_move) return t("The board is full: a draw.");
  return info.to_move === "black" ? t("Black to move") : t("White to move");
}

const page = document.getElementById("analysis");
if (page && page.dataset.position) start(page);
