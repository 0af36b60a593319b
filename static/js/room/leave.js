/* "Back to hall" in the middle of one's own game: leaving starts the forfeit countdown, so the
   link asks first (a prompt under it, not a modal, the way Resign asks). Anyone else, and a
   player once the game is over, just goes. */

import {show} from "../page.js";

export class LeaveGuard {
  constructor({link, box, stay}, game) {
    this.link = link;
    this.box = box;
    this.game = game;
    link.addEventListener("click", (event) => this.onLeave(event));
    stay.addEventListener("click", () => show(box, false));
  }

  /** Whether leaving now risks the game: ours, in play. */
  atStake() {
    return this.game.isPlayer() && this.game.status === "playing";
  }

  onLeave(event) {
    if (!this.atStake() || !this.box.classList.contains("hidden")) return;
    event.preventDefault();
    show(this.box, true);
    this.box.querySelector("a").focus();
  }

  /** The game ended while the question was open: nothing is at stake any more. */
  update() {
    if (!this.atStake()) show(this.box, false);
  }
}
