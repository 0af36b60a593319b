/* Renju hints: with "Show forbidden points" on, black's forbidden points are marked while black
   is to move. The server's rules engine finds them, only when asked (forbidden_points), so the
   page asks once per position and only in renju games. The switch is the account's
   "forbidden" preference, the one Settings shows: ticked here, it is ticked there too. */

import {readSetting, writeSetting} from "./settings.js";

const SHOW_KEY = "gobang.forbidden";

export class ForbiddenHints {
  /** elements: {toggle (a checkbox), option (what holds it)}; send(event, payload, onOk) makes
      a request about this game; mark(points) marks the live board. */
  constructor(elements, {game, send, mark}) {
    this.toggle = elements.toggle;
    this.option = elements.option;
    this.game = game;
    this.send = send;
    this.mark = mark;
    this.toggle.checked = readSetting(SHOW_KEY);
    this.toggle.addEventListener("change", () => {
      writeSetting(SHOW_KEY, this.toggle.checked);
      this.update();
    });
  }

  wanted() {
    const game = this.game;
    // In an opening the side to act is not always the colour of the next stone: no marks.
    return this.toggle.checked && game.ruleset === "renju" && game.status === "playing"
      && !game.paused && game.toMove === "black" && !game.openingStep();
  }

  /** After anything that changes the position: ask for the new marks, or clear them. */
  update() {
    this.option.classList.toggle("hidden", this.game.ruleset !== "renju");
    this.mark([]);
    if (!this.wanted()) return;
    const asked = this.game.moves.length;
    this.send("forbidden_points", {}, (ack) => {
      // An answer about a position that has since changed is dropped.
      if (ack.move === asked && this.game.moves.length === asked && this.wanted()) this.mark(ack.points);
    });
  }
}
