/* The challenge's terms, asked in a dialog when a Challenge button is pressed: ruleset, clock,
   the challenger's colour, rated or casual. It opens with the Play card's ruleset and clock. */

import {t} from "../i18n.js";
import {clockName, parseClockName} from "../pools.js";

export class ChallengeDialog {
  /** ui: dialog, form, title, ruleset, clock, color; choice() the Play card's [ruleset, clock]. */
  constructor(ui, choice) {
    this.ui = ui;
    this.choice = choice;
    this.onSend = null;
    ui.dialog.addEventListener("close", () => {
      if (ui.dialog.returnValue === "send" && this.onSend) this.onSend(this.terms());
      this.onSend = null;
    });
  }

  /** Asks for the terms of a challenge to `username`; onSend(terms) if they are sent. */
  open(username, onSend) {
    const [ruleset, clock] = this.choice();
    this.ui.title.textContent = t("Challenge {name}", {name: username});
    this.ui.ruleset.value = ruleset;
    this.ui.clock.value = clockName(clock);
    this.onSend = onSend;
    this.ui.dialog.returnValue = "";
    this.ui.dialog.showModal();
  }

  terms() {
    const casual = this.ui.form.querySelector("input[name=challenge-rated]:checked").value === "casual";
    return {ruleset: this.ui.ruleset.value, clock: parseClockName(this.ui.clock.value),
      color: this.ui.color.value, rated: !casual};
  }
}
