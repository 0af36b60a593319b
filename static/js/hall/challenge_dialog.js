/* The challenge's terms, asked in a dialog when a Challenge button is pressed: ruleset, clock,
   opening rule (those the chosen ruleset allows), the challenger's colour, rated or casual. It
   opens with the Play card's ruleset and clock, and no opening rule. */

import {t} from "../i18n.js";
import {offerOpenings} from "../opening_choice.js";
import {clockName, parseClockName} from "../pools.js";

export class ChallengeDialog {
  /** ui: dialog, form, title, ruleset, clock, opening, color; choice() the Play card's
      [ruleset, clock]. Each opening's option lists the rulesets that allow it (data-rulesets). */
  constructor(ui, choice) {
    this.ui = ui;
    this.choice = choice;
    this.onSend = null;
    ui.ruleset.addEventListener("change", () => this.offerOpenings());
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
    this.ui.opening.value = "none";
    this.offerOpenings();
    this.onSend = onSend;
    this.ui.dialog.returnValue = "";
    this.ui.dialog.showModal();
  }

  /** Only the openings the chosen ruleset allows; a choice it does not allow goes back to none. */
  offerOpenings() {
    offerOpenings(this.ui.ruleset, this.ui.opening);
  }

  terms() {
    const casual = this.ui.form.querySelector("input[name=challenge-rated]:checked").value === "casual";
    return {ruleset: this.ui.ruleset.value, clock: parseClockName(this.ui.clock.value),
      opening: this.ui.opening.value, color: this.ui.color.value, rated: !casual};
  }
}
