/*
 * The puzzles page: a position from a real game, the player to find the forced win. Each of
 * the player's moves goes to the server (POST /api/puzzles/<id>/move), which answers with the
 * defence's reply, the end, or the failure with the solution (docs/protocol.md, "Puzzles").
 * Every text from the server or the player goes in with textContent.
 */

import {GobangBoard, notation} from "./board.js";
import {t} from "./i18n.js";

const root = document.getElementById("puzzles");
const el = (id) => document.getElementById(id);
const task = el("puzzle-task");
const result = el("puzzle-result");
const solution = el("puzzle-solution");
const source = el("puzzle-source");
const nextButton = el("puzzle-next");
const ruleset = el("puzzle-ruleset");

let puzzle = null;  // as GET /api/puzzles/next sends it
let line = [];      // this try's moves so far: the player's and the replies
let busy = false;

const board = new GobangBoard(el("board"), {onPlay: play});

function withId(url, id) {
  return url.replace(/\/0(\/|$)/, `/${id}$1`);
}

function show(node, text) {
  node.textContent = text;
  node.hidden = !text;
}

function position() {
  return [...puzzle.moves, ...line];
}

function colourText(color) {
  return color === "black" ? t("Find the forced win: you play black")
    : t("Find the forced win: you play white");
}

function showRating(rating) {
  if (!rating) return;
  el("puzzle-rating-value").textContent = String(rating.rating) + (rating.provisional ? "?" : "");
  el("puzzle-solved").textContent = String(rating.solved);
  el("puzzle-failed").textContent = String(rating.failed);
}

async function load() {
  show(result, "");
  show(solution, "");
  source.hidden = true;
  nextButton.hidden = true;
  board.setWinLine([]);
  const url = `${root.dataset.nextUrl}?ruleset=${encodeURIComponent(ruleset.value)}`;
  let answer;
  try {
    const response = await fetch(url, {headers: {Accept: "application/json"}});
    answer = await response.json();
  } catch (e) {
    puzzle = null;
    board.setInteractive(false);
    show(task, t("The server did not answer. Try again."));
    nextButton.hidden = false;
    return;
  }
  if (answer.error) {
    puzzle = null;
    board.setMoves([]);
    board.setInteractive(false);
    show(task, answer.message || t("Something went wrong."));
    return;
  }
  puzzle = answer;
  line = answer.line || [];
  root.dataset.puzzleId = String(puzzle.id);
  board.setMoves(position());
  board.setInteractive(true, puzzle.to_move);
  show(task, colourText(puzzle.to_move));
  showRating(puzzle.player);
}

async function play(row, col) {
  if (!puzzle || busy) return;
  busy = true;
  board.setInteractive(false);
  let answer;
  try {
    const response = await fetch(withId(root.dataset.moveUrl, puzzle.id), {
      method: "POST",
      headers: {"Content-Type": "application/json", "X-CSRFToken": root.dataset.csrfToken},
      body: JSON.stringify({moves: line, move: [row, col]}),
    });
    answer = await response.json();
  } catch (e) {
    answer = {error: "unanswered", message: t("The server did not answer. Try again.")};
  } finally {
    busy = false;
  }
  if (answer.ok) {
    board.addMove(row, col, puzzle.to_move);
    line.push([row, col]);
    if (answer.solved) return finish(true, answer);
    board.addMove(answer.reply[0], answer.reply[1], puzzle.to_move === "black" ? "white" : "black");
    line.push(answer.reply);
    board.setInteractive(true, puzzle.to_move);
    return;
  }
  if (answer.error === "wrong_move") {
    board.addMove(row, col, puzzle.to_move);
    return finish(false, answer);
  }
  // Refused (a forbidden point, a try moved on elsewhere): nothing was recorded.
  show(result, answer.message || t("Something went wrong."));
  board.setInteractive(answer.error !== "conflict", puzzle.to_move);
  if (answer.error === "conflict") nextButton.hidden = false;
}

function finish(solved, answer) {
  board.setInteractive(false);
  show(result, solved ? t("Solved") : t("Failed"));
  result.dataset.outcome = solved ? "solved" : "failed";
  const names = (answer.solution || []).map(([row, col]) => notation(row, col)).join(" ");
  show(solution, t("The forced win: {line}", {line: names}));
  const replay = el("puzzle-replay");
  replay.href = `${withId(root.dataset.replayUrl, answer.game_id)}?move=${answer.move_number - 1}`;
  source.hidden = false;
  nextButton.hidden = false;
  showRating(answer.rating);
}

nextButton.addEventListener("click", load);
ruleset.addEventListener("change", load);
load();
