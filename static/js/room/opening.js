/* The opening's card in the room: the rule, what its step asks now and what was done, for
   players and spectators; the colour buttons for the player who chooses, and taraguchi's
   offer of fifth stones (marked on the board one click at a time, then sent). The stones of
   the opening are placed through the board as any move (board_controller.js). The server is
   the referee: a choice or an offer shows once its event comes. */

import {t} from "../i18n.js";
import {show} from "../page.js";
import {logLines, ruleName, stepText} from "../openings.js";
import {playerName} from "./panel.js";
import {COLORS} from "./state.js";

export class OpeningControls {
  /** elements: {box, rule, step, choices, fifth, offerMode, offerCount, offerSend, offerClear,
      log}; send(event, payload, onOk, onFail) makes a request about this game; decorate(view)
      shows {area, offered, chosen} on the live board; changed() redraws what depends on the
      marking mode (the board's picks). */
  constructor(elements, {game, send, decorate, changed}) {
    this.ui = elements;
    this.game = game;
    this.send = send;
    this.decorate = decorate;
    this.changed = changed;
    this.markingOn = false;  // taraguchi's fifth: the board's clicks mark points to offer
    this.marked = [];
    this.sending = false;
  }

  bindButtons() {
    for (const button of this.ui.choices.querySelectorAll("button[data-option]")) {
      button.addEventListener("click", () => this.choose(button.dataset.option));
    }
    this.ui.offerMode.addEventListener("click", () => this.setMarking(!this.markingOn));
    this.ui.offerClear.addEventListener("click", () => {
      this.marked = [];
      this.render();
    });
    this.ui.offerSend.addEventListener("click", () => this.offer());
  }

  /** Whether a click on the board marks a point to offer instead of placing a stone. */
  marking() {
    return this.markingOn && this.fifthStep() !== null;
  }

  /** Marks or unmarks a point to offer; the board calls it while marking. */
  toggle(row, col) {
    const at = this.marked.findIndex(([r, c]) => r === row && c === col);
    if (at >= 0) this.marked.splice(at, 1);
    else if (this.marked.length < this.fifthStep().count) this.marked.push([row, col]);
    this.render();
  }

  fifthStep() {
    const step = this.game.myOpeningStep();
    return step && step.kind === "fifth" ? step : null;
  }

  setMarking(on) {
    this.markingOn = on;
    if (!on) this.marked = [];
    this.render();
    this.changed();
  }

  choose(option) {
    if (this.sending) return;
    this.sending = true;
    this.render();
    const done = () => {
      this.sending = false;
      this.render();
    };
    this.send("opening_choose", {option: option}, done, done);
  }

  offer() {
    const step = this.fifthStep();
    if (!step || this.marked.length !== step.count || this.sending) return;
    this.sending = true;
    this.render();
    this.send("opening_offer", {points: this.marked.slice()}, () => {
      this.sending = false;
      this.setMarking(false);
    }, () => {
      this.sending = false;  // the marks stay, to be changed and sent again
      this.render();
    });
  }

  /** The name shown for a user id: a seated player's, or a plain placeholder. */
  nameOf(id) {
    const color = COLORS.find((c) => this.game.players[c] && this.game.players[c].id === id);
    return color ? playerName(this.game.players[color]) : "…";
  }

  render() {
    const {game, ui} = this;
    const opening = game.opening;
    show(ui.box, game.loaded && Boolean(opening));
    if (!opening) {
      this.decorate({});
      return;
    }
    const names = (id) => this.nameOf(id);
    const step = game.openingStep();
    ui.rule.textContent = t("Opening: {rule}", {rule: ruleName(opening.rule)});
    ui.step.textContent = this.stepLine(names);
    this.renderLog(logLines(opening, names));
    this.renderChoices();
    this.renderFifth();
    this.decorate({
      area: step && (step.kind === "place" || (step.kind === "fifth" && !this.marking())) ? step.area : null,
      offered: step && step.kind === "pick" ? step.offers : [],
      chosen: this.marking() ? this.marked : [],
    });
  }

  /** What comes now; nothing more once a game ended in its opening. */
  stepLine(names) {
    const {game} = this;
    const opening = game.opening;
    if (opening.step) return game.status === "finished" ? "" : stepText(opening, names, game.moves.length);
    return t("The opening is over: {black} plays black, {white} plays white.",
      {black: playerName(game.players.black), white: playerName(game.players.white)});
  }

  renderLog(lines) {
    const list = this.ui.log;
    list.textContent = "";
    for (const line of lines) {
      const item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    }
    show(list, lines.length > 0);
  }

  renderChoices() {
    const step = this.game.myOpeningStep();
    const choosing = Boolean(step) && step.kind === "choose";
    show(this.ui.choices, choosing);
    for (const button of this.ui.choices.querySelectorAll("button[data-option]")) {
      show(button, choosing && step.options.includes(button.dataset.option));
      button.disabled = this.sending;
    }
  }

  renderFifth() {
    const {ui} = this;
    const step = this.fifthStep();
    if (!step) {
      this.markingOn = false;
      this.marked = [];
    }
    show(ui.fifth, Boolean(step));
    if (!step) return;
    const marking = this.markingOn;
    ui.offerMode.setAttribute("aria-pressed", String(marking));
    ui.offerMode.textContent = marking ? t("Place the fifth stone instead")
      : t("Offer {count} fifth stones", {count: step.count});
    ui.offerCount.textContent = marking
      ? t("{marked} of {count} marked: click points on the board to mark or unmark them.",
        {marked: this.marked.length, count: step.count}) : "";
    show(ui.offerCount, marking);
    show(ui.offerSend, marking);
    show(ui.offerClear, marking);
    ui.offerSend.disabled = this.sending || this.marked.length !== step.count;
    ui.offerClear.disabled = this.sending || this.marked.length === 0;
  }
}
