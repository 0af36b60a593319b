/* When a player leaves a game in play, the others see how long until the leaver loses; the
   game remembers who is away (state.js, inRoom). */

import {t} from "../i18n.js";
import {show} from "../page.js";

const TICK_MS = 250;

export class AwayNotice {
  /** now() is a monotonic milliseconds clock. */
  constructor(node, game, now = () => performance.now()) {
    this.node = node;
    this.game = game;
    this.now = now;
    this.until = 0;
    this.who = null;   // "opponent" for the players; the leaver's colour for spectators
    this.name = null;
    this.timer = null;
  }

  listen(events) {
    events.on("opponent_left", (data) => this.left(data));
    events.on("opponent_back", (data) => {
      this.game.backInRoom(data.color);
      if (data.color !== this.game.you) this.hide();
    });
  }

  left(data) {
    this.game.leftRoom(data.color);
    if (data.color === this.game.you) return;
    // Players hear of "your opponent"; spectators of the colour and the name.
    this.who = this.game.isPlayer() ? "opponent" : data.color;
    this.name = this.game.players[data.color]?.username || "?";
    this.until = this.now() + (data.grace_seconds || 0) * 1000;
    clearInterval(this.timer);
    this.timer = setInterval(() => this.render(), TICK_MS);
    this.render();
  }

  render() {
    const seconds = Math.max(0, Math.ceil((this.until - this.now()) / 1000));
    this.node.textContent = this.text(seconds);
    show(this.node, true);
    if (seconds === 0) clearInterval(this.timer);
  }

  text(seconds) {
    const params = {name: this.name, seconds: seconds};
    if (this.who === "opponent") {
      return t("Your opponent left. They lose in {seconds}s unless they come back.", params);
    }
    return this.who === "white" ? t("White ({name}) left. They lose in {seconds}s unless they come back.", params)
      : t("Black ({name}) left. They lose in {seconds}s unless they come back.", params);
  }

  hide() {
    clearInterval(this.timer);
    show(this.node, false);
  }
}
