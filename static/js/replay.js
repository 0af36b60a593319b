/*
 * The replay page: steps a finished game's moves through GobangBoard (board.js).
 * The moves and winning line come from the page's data attributes; buttons and the keys
 * ArrowLeft, ArrowRight, Home and End move through them, and so do the move list's links. Opens on
 * the move the link names (?move=N, which the server read into data-start), else the final
 * position; the address, the share box and the picture's link follow the move shown.
 * A game played with an opening rule shows it, from the game's record (GET /api/games/<id>):
 * who placed the first stone, the choices in order and who ended with which colour.
 * The computer's analysis of the game, asked for and shown, is static/js/replay_analysis.js;
 * ?analyse=1 (the room's "Request analysis") asks for it once, and leaves the address.
 */

import {GobangBoard} from "./board.js";
import {t} from "./i18n.js";
import {logLines, ruleName} from "./openings.js";
import {ReplayAnalysis} from "./replay_analysis.js";
import {followSetting} from "./room/settings.js";

const root = document.getElementById("replay");
if (root) startReplay(root);

function startReplay(root) {
  const askNow = takeAnalyseRequest();
  const moves = JSON.parse(root.dataset.moves || "[]");
  const line = JSON.parse(root.dataset.line || "[]");
  const board = new GobangBoard(document.getElementById("board"));
  const counter = document.getElementById("move-counter");
  const buttons = {
    first: document.getElementById("replay-first"),
    back: document.getElementById("replay-back"),
    forward: document.getElementById("replay-forward"),
    last: document.getElementById("replay-last"),
  };
  const numbers = document.getElementById("numbers-toggle");
  const moveList = document.getElementById("move-list");
  const share = shareBox(root, moves.length);
  let shown = moves.length;
  let analysis = null;

  function show(count) {
    shown = Math.max(0, Math.min(moves.length, count));
    board.setMoves(moves.slice(0, shown));
    board.setWinLine(shown === moves.length ? line : []);
    counter.textContent = t("Move {n} of {total}", {n: shown, total: moves.length});
    root.dataset.shown = String(shown);
    buttons.first.disabled = buttons.back.disabled = shown === 0;
    buttons.forward.disabled = buttons.last.disabled = shown === moves.length;
    markCurrent(moveList, shown);
    share.follow(shown);
    if (analysis) analysis.follow(shown);
  }

  buttons.first.addEventListener("click", () => show(0));
  buttons.back.addEventListener("click", () => show(shown - 1));
  buttons.forward.addEventListener("click", () => show(shown + 1));
  buttons.last.addEventListener("click", () => show(moves.length));
  numbers.addEventListener("change", () => board.setShowNumbers(numbers.checked));
  moveList.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-move]");
    // A modified click opens the move's page elsewhere, as any link's does.
    if (!link || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    show(Number(link.dataset.move));
  });

  const KEYS = {
    ArrowLeft: () => shown - 1,
    ArrowRight: () => shown + 1,
    Home: () => 0,
    End: () => moves.length,
  };

  // The key hints are for keyboards: a touch screen shows them once a key is pressed.
  document.addEventListener("keydown", () => root.classList.add("keyboard-used"), {once: true});
  document.addEventListener("keydown", (event) => {
    const step = KEYS[event.key];
    // The board uses arrow keys to move focus between points, and form fields keep theirs.
    if (!step || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea, .board")) return;
    event.preventDefault();
    show(step());
  });

  board.setShowNumbers(numbers.checked);
  followSetting(numbers, "gobang.moveNumbers");
  analysis = new ReplayAnalysis({gameId: Number(root.dataset.gameId), moves, board, moveList,
    onPick: (count) => show(count), askNow});
  show(Number(root.dataset.start || moves.length));
  showOpening(Number(root.dataset.gameId));
}

/** Whether the page was opened to ask for the analysis (?analyse=1); the address loses the
    flag, so a reload or a shared link does not ask again. */
function takeAnalyseRequest() {
  const url = new URL(window.location.href);
  if (!url.searchParams.has("analyse")) return false;
  const asked = url.searchParams.get("analyse") === "1";
  url.searchParams.delete("analyse");
  window.history.replaceState(null, "", url.href);
  return asked;
}

/** Highlights the list's link to the move shown (none at the empty board), keeping it in view
    inside the list without scrolling the page. */
function markCurrent(list, shown) {
  const previous = list.querySelector("[aria-current]");
  if (previous) previous.removeAttribute("aria-current");
  const current = list.querySelector(`a[data-move="${shown}"]`);
  if (!current) return;
  current.setAttribute("aria-current", "step");
  const item = current.parentElement;
  if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop;
  const below = item.offsetTop + item.offsetHeight - list.clientHeight;
  if (below > list.scrollTop) list.scrollTop = below;
}

/** The share box: the link to the move shown, a button that copies it, and the picture's link.
    The address bar follows too, so reloading or copying it from there keeps the move. */
function shareBox(root, total) {
  const field = document.getElementById("share-link");
  const copy = document.getElementById("share-copy");
  const status = document.getElementById("share-status");
  const picture = document.getElementById("share-image");

  function at(base, shown) {
    const url = new URL(base, window.location.href);
    // The final position is the page itself: its link needs no move.
    if (shown === total) url.searchParams.delete("move");
    else url.searchParams.set("move", String(shown));
    return url.href;
  }

  copy.addEventListener("click", () => {
    const done = () => { status.textContent = t("Link copied."); };
    const byHand = () => {
      // No clipboard here (an insecure page, or permission refused): the link is selected instead.
      field.focus();
      field.select();
      status.textContent = t("Copy the selected link.");
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, byHand);
    } else {
      byHand();
    }
  });
  field.addEventListener("focus", () => field.select());

  return {
    follow(shown) {
      field.value = at(root.dataset.replayUrl, shown);
      field.scrollLeft = field.scrollWidth;  // the end of a long link shows, with its move
      picture.href = at(root.dataset.imageUrl, shown);
      status.textContent = "";
      const address = at(window.location.href, shown);
      if (address !== window.location.href) window.history.replaceState(null, "", address);
    },
  };
}

/** The opening's card, when the record has an opening; the page works without it. */
function showOpening(gameId) {
  fetch(`/api/games/${gameId}`, {headers: {Accept: "application/json"}})
    .then((response) => (response.ok ? response.json() : null))
    .then((record) => { if (record && record.opening) drawOpening(record); })
    .catch(() => {});
}

function drawOpening(record) {
  const opening = record.opening;
  const players = [record.black, record.white].filter(Boolean);
  const names = (id) => {
    const player = players.find((p) => p.id === id);
    return player ? player.username : "…";
  };
  document.getElementById("replay-opening-rule").textContent = t("Opening: {rule}", {rule: ruleName(opening.rule)});
  document.getElementById("replay-opening-first").textContent = t("{name} placed the first stone.",
    {name: names(opening.first)});
  const list = document.getElementById("replay-opening-log");
  for (const line of logLines(opening, names)) {
    const item = document.createElement("li");
    item.textContent = line;
    list.appendChild(item);
  }
  list.classList.toggle("hidden", list.children.length === 0);
  // A game that ended during its opening has no colours settled by it.
  document.getElementById("replay-opening-outcome").textContent = opening.step ? t("The game ended during the opening.")
    : t("After the opening, {black} played black and {white} played white.",
      {black: names(record.black && record.black.id), white: names(record.white && record.white.id)});
  document.getElementById("replay-opening").classList.remove("hidden");
}
