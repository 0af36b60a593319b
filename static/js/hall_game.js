/*
 * The hall's word on the player's own game: "Return to your game" while one is in play, with
 * the seconds left before leaving it forfeits it (hello's and me's `away`), and, when a game of
 * theirs ends while they are here, which game it was, why it ended and what it did to their
 * rating in its category (`game_result`). The hall page hands it those events; it only draws.
 */

import {t} from "./i18n.js";
import {button, el, show} from "./page.js";

const REASONS = {
  five: t("five in a row"), resign: t("resignation"), timeout: t("out of time"),
  draw_agreed: t("draw agreed"), board_full: t("board full"), aborted: t("aborted"),
};

/** "Rating 1500 → 1662? (+162)", the provisional mark as elsewhere; an unrated game moved
    none: "Casual, no rating change" (against the computer "Unrated, ..."). */
function ratingChange(ratings, color, opponent) {
  const mine = ratings ? ratings[color] : null;
  if (!mine) return opponent.computer ? t("Unrated, no rating change.") : t("Casual, no rating change.");
  const change = mine.after - mine.before;
  return t("Rating {before} → {after} ({change})", {before: mine.before,
    after: `${mine.after}${mine.provisional ? "?" : ""}`,
    change: change > 0 ? `+${change}` : String(change).replace("-", "−")});
}

function formatSeconds(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

export class CurrentGame {
  constructor({notice, link, countdown, result}) {
    this.ui = {notice, link, countdown, result};
    this.gameId = null;
    this.deadline = null;  // Date.now() when the grace runs out, while away from the game
    this.timer = null;
  }

  /** current_game and away, from hello or me (away may be absent from me: then unchanged). */
  set(gameId, away) {
    this.gameId = gameId == null ? null : gameId;
    if (this.gameId !== null) this.ui.link.href = `/game/${this.gameId}`;
    show(this.ui.notice, this.gameId !== null);
    if (away !== undefined) this.countDown(this.gameId !== null ? away : null);
  }

  countDown(away) {
    clearInterval(this.timer);
    this.timer = null;
    this.deadline = away ? Date.now() + away.seconds_left * 1000 : null;
    show(this.ui.countdown, this.deadline !== null);
    if (this.deadline === null) return;
    this.renderCountdown();
    this.timer = setInterval(() => this.renderCountdown(), 250);
  }

  renderCountdown() {
    const left = (this.deadline - Date.now()) / 1000;
    this.ui.countdown.textContent = t("You left it: it is lost in {time} unless you go back.",
      {time: formatSeconds(left)});
  }

  /** A game of ours ended while we are here: say which, why, and the rating in the game's
      category it cost or won ("Casual" for a game that moved none). */
  showResult(data) {
    const result = data.result;
    const box = this.ui.result;
    const link = el("a", "", t("Game #{id} against {name}", {id: data.game_id, name: data.opponent.username}));
    link.href = `/game/${data.game_id}`;
    link.dataset.testid = "game-result-link";
    const score = el("span", "score-line", ratingChange(result.ratings, data.color, data.opponent));
    score.dataset.testid = "game-result-score";
    box.replaceChildren(link, document.createTextNode(": " + this.outcome(data) + " "));
    // An aborted game changes nothing: the outcome already says so.
    if (result.reason !== "aborted") box.append(score, " ");
    box.append(button(t("Dismiss"), "game-result-dismiss", () => show(box, false)));
    show(box, true);
  }

  outcome(data) {
    const result = data.result;
    const won = result.winner === data.color;
    if (result.reason === "aborted") return t("aborted, no score change.");
    if (result.winner === null) return t("a draw ({reason}).", {reason: REASONS[result.reason] || result.reason});
    if (result.reason === "disconnect") return won ? t("you won, your opponent left the game.") : t("you lost, you left the game.");
    const reason = REASONS[result.reason] || result.reason;
    return won ? t("you won ({reason}).", {reason: reason}) : t("you lost ({reason}).", {reason: reason});
  }
}
