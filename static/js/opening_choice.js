/*
 * An opening-rule <select> that follows a ruleset <select>: each option lists the rulesets
 * that allow it (data-rulesets, from gobang.rules.openings.OPENINGS_OF), and only those of
 * the chosen ruleset are offered. The challenge dialog and the computer panel share it.
 */

/** Offers the openings `ruleset.value` allows; a choice it does not allow goes back to none. */
export function offerOpenings(ruleset, opening) {
  for (const option of opening.options) {
    const allowed = option.dataset.rulesets.split(" ").includes(ruleset.value);
    option.hidden = !allowed;
    option.disabled = !allowed;
  }
  if (opening.selectedOptions[0]?.disabled !== false) opening.value = "none";
}

/** Keeps `opening` following `ruleset` from now on. */
export function followRuleset(ruleset, opening) {
  ruleset.addEventListener("change", () => offerOpenings(ruleset, opening));
  offerOpenings(ruleset, opening);
}
