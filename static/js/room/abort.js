/* Before each side's first move: how long until the game is aborted (the server's
   abort_seconds, counted down here between readings). */

import {t} from "../i18n.js";
import {show} from "../page.js";

const TICK_MS = 250;

export function formatCountdown(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

export class AbortCountdown {
  /** now() is a monotonic milliseconds clock. */
  constructor(node, game, now = () => performance.now()) {
    this.node = node;
    this.game = game;
    this.now = now;
    this.until = null;
    this.timer = null;
  }

  /** The server's abort_seconds: seconds left, or null when no countdown runs. */
  set(seconds) {
    this.until = seconds === null || seconds === undefined ? null : this.now() + seconds * 1000;
    clearInterval(this.timer);
    this.timer = this.until === null ? null : setInterval(() => this.render(), TICK_MS);
    this.render();
  }

  render() {
    const game = this.game;
    const running = this.until !== null && game.status === "playing" && !game.paused;
    show(this.node, running);
    if (!running) {
      clearInterval(this.timer);
      return;
    }
    const time = formatCountdown(Math.max(0, Math.ceil((this.until - this.now()) / 1000)));
    this.node.textContent = game.isMyTurn() ? t("Move within {time} or the game is aborted.", {time: time})
      : t("The game is aborted unless a move comes within {time}.", {time: time});
  }
}
