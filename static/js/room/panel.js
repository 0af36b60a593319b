/* The room's side panel drawn from the game: the player cards, the status line, the controls
   and the prompts that answer an opponent's offer. It reads the game and never changes it. */

import {t} from "../i18n.js";
import {$, show} from "../page.js";
import {clockLabel, computerAddress, matchAddress} from "../pools.js";
import {COLORS, other} from "./state.js";

const REASONS = {
  five: t("five in a row"), resign: t("resignation"), disconnect: t("player left"),
  timeout: t("out of time"), draw_agreed: t("draw agreed"), board_full: t("board full"),
  aborted: t("aborted"),
};
const RULESETS = {freestyle: t("freestyle"), standard: t("standard"), renju: t("renju")};

function isAborted(result) {
  return Boolean(result) && result.reason === "aborted";
}

/** Why a game was aborted (the Result's `abort`, docs/protocol.md); "" when not known. */
export function abortText(abort) {
  if (!abort) return "";
  const params = {seconds: abort.seconds};
  if (abort.cause === "no_first_move") {
    return abort.color === "white" ? t("White did not move in {seconds} s.", params)
      : t("Black did not move in {seconds} s.", params);
  }
  if (abort.cause === "no_show") {
    if (!abort.color) return t("Neither player came to the game in {seconds} s.", params);
    return abort.color === "white" ? t("White did not come to the game in {seconds} s.", params)
      : t("Black did not come to the game in {seconds} s.", params);
  }
  if (abort.cause === "both_left") return t("Both players left the game.");
  if (abort.cause === "host") return t("The server's host aborted the game.");
  if (abort.cause === "not_started") return t("The game could not be started.");
  return "";
}

/** A player's name as shown: the computer's in the page's language. */
export function playerName(player) {
  if (!player) return "…";
  return player.computer ? t("Computer · level {level}", {level: player.computer}) : player.username;
}

function panelElements() {
  return {
    status: $("status"),
    reason: $("result-reason"),
    rulesetName: $("ruleset-name"),
    drawPrompt: $("draw-prompt"),
    undoPrompt: $("undo-prompt"),
    pausePrompt: $("pause-prompt"),
    controls: $("controls"),
    playControls: $("play-controls"),
    resignBox: $("resign-confirm-box"),
    drawButton: $("draw-button"),
    undoButton: $("undo-button"),
    pauseButton: $("pause-button"),
    endControls: $("end-controls"),
    rematchButton: $("rematch-button"),
    rematchStatus: $("rematch-status"),
    rematchLink: $("rematch-link"),
    newOpponent: $("new-opponent-link"),
    challengeOpponent: $("challenge-opponent-link"),
    replayLink: $("replay-link"),
    // Only for a registered player: guests and visitors may not ask (the page leaves it out).
    analyseLink: $("analyse-link"),
    root: $("room"),
    cards: {black: $("player-black"), white: $("player-white")},
  };
}

export class Panel {
  constructor(game, ui = panelElements()) {
    this.game = game;
    this.ui = ui;
    this.confirmingResign = false;
  }

  render() {
    this.ui.rulesetName.textContent = this.title();
    this.ui.root.classList.toggle("paused", this.game.status === "playing" && this.game.paused);
    for (const color of COLORS) this.renderCard(color);
    this.renderStatus();
    this.renderControls();
    this.renderPrompts();
  }

  /** "freestyle · 5+3 · Casual": the ruleset, the time control as the hall's grid names it,
   * and whether the game counts (a casual game, or the computer's, does not). */
  title() {
    const game = this.game;
    const parts = [RULESETS[game.ruleset] || game.ruleset || ""];
    if (game.clock !== undefined) parts.push(clockLabel(game.clock));
    if (!game.rated) {
      const computer = COLORS.some((color) => game.players[color] && game.players[color].computer);
      parts.push(computer ? t("Unrated") : t("Casual"));
    }
    return parts.join(" · ");
  }

  renderCard(color) {
    const game = this.game;
    const card = this.ui.cards[color];
    const player = game.players[color];
    card.querySelector(".name").textContent = playerName(player);
    const score = card.querySelector(".score");
    // The rating in the game's category where the server sends one; the score before it did.
    if (player && !score.dataset.final) score.textContent = String(player.rating ?? player.score);
    show(card.querySelector(".you-tag"), game.you === color);
    // A paused game has nobody's clock running, so nobody's turn is highlighted.
    const turn = game.status === "playing" && !game.paused && game.toMove === color;
    card.classList.toggle("turn", turn);
    show(card.querySelector(".thinking"), turn && Boolean(player && player.computer));
    if (turn) card.setAttribute("aria-current", "true");
    else card.removeAttribute("aria-current");
  }

  statusText() {
    const game = this.game;
    if (game.status === "waiting") return t("Waiting for opponent…");
    if (game.status === "playing" && game.paused) return t("Paused");
    if (game.status === "playing") {
      if (!game.isPlayer()) return game.toMove === "white" ? t("White to move") : t("Black to move");
      return game.toMove === game.you ? t("Your turn") : t("Opponent's turn");
    }
    if (isAborted(game.result)) return t("Aborted");
    const winner = game.result ? game.result.winner : null;
    if (!winner) return t("Draw");
    if (!game.isPlayer()) return winner === "white" ? t("White won") : t("Black won");
    return winner === game.you ? t("You won!") : t("You lost");
  }

  renderStatus() {
    const {game, ui} = this;
    if (!game.loaded) return;
    ui.status.textContent = this.statusText();
    ui.status.dataset.state = game.status;
    ui.reason.textContent = this.reasonText();
    show(ui.reason, ui.reason.textContent !== "");
  }

  /** The end's line under the status: how the game was won or drawn, or why it was aborted
      ("Aborted" alone when the server did not say why). */
  reasonText() {
    const {result, status} = this.game;
    if (status !== "finished" || !result) return "";
    if (isAborted(result)) return abortText(result.abort);
    return REASONS[result.reason] || result.reason;
  }

  /** The status line when the game could not be loaded at all. */
  showJoinFailure(notFound) {
    this.ui.status.textContent = notFound ? t("Game not found") : t("Could not join the game");
  }

  renderControls() {
    const {game, ui} = this;
    const live = game.status === "waiting" || game.status === "playing";
    const playing = game.status === "playing";
    const offering = playing && !game.paused;
    show(ui.controls, game.loaded && game.isPlayer());
    show(ui.playControls, live && !this.confirmingResign);
    show(ui.resignBox, live && this.confirmingResign);
    show(ui.endControls, game.status === "finished");
    // The computer takes no draw offers and no pauses; its take-backs are instant.
    const computer = game.computerColor() !== null;
    show(ui.drawButton, !computer);
    show(ui.pauseButton, !computer);
    // Draws wait for the end of an opening (the take-back button asks haveMoved, which says so too).
    ui.drawButton.disabled = !offering || game.drawOfferBy !== null || game.openingStep() !== null;
    ui.drawButton.textContent = game.drawOfferBy === game.you ? t("Draw offered") : t("Offer draw");
    ui.undoButton.disabled = !offering || game.undoRequestBy !== null || !game.haveMoved();
    ui.undoButton.textContent = game.undoRequestBy === game.you ? t("Take-back requested") : t("Take back");
    this.renderPauseButton(playing);
    this.renderRematch();
    show(ui.replayLink, game.moves.length > 0);  // a game without moves has nothing to replay
    if (ui.analyseLink) show(ui.analyseLink, game.moves.length > 0);  // nor anything to analyse
    const level = computer ? game.players[game.computerColor()].computer : null;
    const opening = game.opening ? game.opening.rule : "none";
    ui.newOpponent.href = level
      ? computerAddress(ui.newOpponent.dataset.hall, level, game.ruleset, game.clock,
        game.firstColor(), opening)
      : matchAddress(ui.newOpponent.dataset.hall, game.ruleset, game.clock, opening);
    this.renderChallengeOpponent(computer);
  }

  /** After a game against a person: "Challenge ben", the hall's dialog for them. */
  renderChallengeOpponent(computer) {
    const {game, ui} = this;
    const opponent = game.isPlayer() ? game.players[other(game.you)] : null;
    show(ui.challengeOpponent, Boolean(opponent) && !computer);
    if (!opponent || computer) return;
    ui.challengeOpponent.textContent = t("Challenge {name}", {name: opponent.username});
    ui.challengeOpponent.href = `${ui.challengeOpponent.dataset.hall}?challenge=${encodeURIComponent(opponent.username)}`;
  }

  renderPauseButton(playing) {
    const {game, ui} = this;
    const myVote = game.resumeVotes.includes(game.you);
    ui.pauseButton.disabled = !playing || (!game.paused && game.pauseRequestBy !== null)
      || (game.paused && myVote);
    if (game.paused) ui.pauseButton.textContent = myVote ? t("Waiting to resume") : t("Resume");
    else ui.pauseButton.textContent = game.pauseRequestBy === game.you ? t("Pause requested") : t("Pause");
  }

  /** Rematch, or Accept rematch; nothing to offer while the opponent is away from the game,
      and once the rematch has started, a link to it instead. */
  renderRematch() {
    const {game, ui} = this;
    if (game.rematchGameId !== null) {
      this.showRematchGame(game.rematchGameId);
      return;
    }
    const mine = game.rematchBy === game.you;
    const theirs = game.rematchBy !== null && !mine;
    const gone = !game.opponentHere();
    ui.rematchButton.disabled = mine || gone;
    ui.rematchButton.textContent = theirs ? t("Accept rematch") : t("Rematch");
    ui.rematchStatus.textContent = gone ? this.goneText()
      : mine ? t("Rematch offered; waiting for your opponent.")
        : theirs ? t("Your opponent offers a rematch.") : "";
  }

  goneText() {
    return this.game.rematchWithdrawn ? t("Your opponent left, so the rematch offer is withdrawn.")
      : t("Your opponent left the game.");
  }

  /** The rematch was already played: the button gives way to a link to that game. */
  showRematchGame(gameId) {
    this.game.rematchGameId = gameId;
    this.ui.rematchLink.href = `/game/${gameId}`;
    show(this.ui.rematchLink, true);
    show(this.ui.rematchButton, false);
    this.ui.rematchStatus.textContent = "";
  }

  renderPrompts() {
    const {game, ui} = this;
    const answering = game.isPlayer() && game.status === "playing";
    const opponent = other(game.you);
    show(ui.drawPrompt, answering && game.drawOfferBy === opponent);
    show(ui.undoPrompt, answering && game.undoRequestBy === opponent);
    show(ui.pausePrompt, answering && !game.paused && game.pauseRequestBy === opponent);
  }

  /** Resigning is asked twice: while asking, the resign prompt stands in for the play buttons. */
  setConfirmingResign(on) {
    this.confirmingResign = on;
    this.renderControls();
  }

  /** After an offer changes: its prompt and the buttons that make or answer offers. */
  renderOffers() {
    this.renderPrompts();
    this.renderControls();
  }

  clearScoreChanges() {
    for (const color of COLORS) {
      const card = this.ui.cards[color];
      const score = card.querySelector(".score");
      show(card.querySelector(".score-change"), false);
      show(score, true);
      delete score.dataset.final;
    }
  }

  showScoreChanges(result) {
    // An aborted game changes no score: a "+0" line would read as a result. The category's
    // rating where the game moved one, "1500 → 1662? (+162)", else the score.
    const changes = result.ratings || result.scores;
    if (!changes || isAborted(result)) return;
    for (const color of COLORS) {
      const change = changes[color];
      if (!change) continue;
      const diff = change.after - change.before;
      const card = this.ui.cards[color];
      const node = card.querySelector(".score-change");
      const mark = change.provisional ? "?" : "";
      node.textContent = `${change.before} → ${change.after}${mark} (${diff >= 0 ? "+" : ""}${diff})`;
      node.classList.toggle("up", diff > 0);
      node.classList.toggle("down", diff < 0);
      show(node, true);
      // The change line already reads "before → after", so the plain score steps aside.
      const score = card.querySelector(".score");
      score.textContent = String(change.after);
      score.dataset.final = "1";
      show(score, false);
    }
  }
}
