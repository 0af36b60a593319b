/* The game's moves in notation, numbered, following the game live. Clicking a move shows the
   position after it (the board controller draws it; play goes on meanwhile), and "Back to the
   live position" returns to the game as it stands. */

import {notation} from "../board.js";
import {t} from "../i18n.js";
import {el, show} from "../page.js";

export class MoveList {
  /** elements: {list, live}; view(count) shows the position after `count` moves, or the live
      one for null. */
  constructor(elements, {game, view}) {
    this.list = elements.list;
    this.liveButton = elements.live;
    this.game = game;
    this.viewFn = view;
    this.viewing = null;
    this.list.addEventListener("click", (event) => this.pick(event));
    this.liveButton.addEventListener("click", () => this.view(null));
  }

  /** Redraws the list from the game's moves; a position looked at that no longer exists (a
      take-back) gives way to the live one. */
  render() {
    const moves = this.game.moves;
    if (this.viewing !== null && this.viewing >= moves.length) this.viewing = null;
    const follow = this.atBottom();
    this.list.textContent = "";
    moves.forEach(([row, col], index) => this.list.appendChild(this.item(row, col, index + 1)));
    this.mark();
    if (follow && this.viewing === null) this.list.scrollTop = this.list.scrollHeight;
  }

  item(row, col, number) {
    const color = number % 2 === 1 ? "black" : "white";
    const li = el("li", `move ${color}`);
    const button = el("button", "move-button");
    button.type = "button";
    button.dataset.move = String(number);
    button.setAttribute("data-testid", "move-item");
    // Named by what it shows, "1. black h8": the stone is an image of its colour.
    const stone = el("span", `stone-icon small ${color}`);
    stone.setAttribute("role", "img");
    stone.setAttribute("aria-label", color === "black" ? t("black") : t("white"));
    button.appendChild(el("span", "move-number", `${number}.`));
    button.appendChild(stone);
    button.appendChild(el("span", "move-point", notation(row, col)));
    li.appendChild(button);
    return li;
  }

  pick(event) {
    const button = event.target.closest(".move-button");
    if (button) this.view(Number(button.dataset.move));
  }

  view(count) {
    this.viewing = count === null || count >= this.game.moves.length ? null : count;
    this.viewFn(this.viewing);
    this.mark();
  }

  /** Highlights the move whose position the board shows, and offers the way back. */
  mark() {
    const shown = this.viewing === null ? this.game.moves.length : this.viewing;
    for (const button of this.list.querySelectorAll(".move-button")) {
      const current = Number(button.dataset.move) === shown;
      button.classList.toggle("current", current);
      if (current) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    }
    show(this.liveButton, this.viewing !== null);
    this.list.classList.toggle("looking-back", this.viewing !== null);
  }

  atBottom() {
    const list = this.list;
    return list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  }
}
