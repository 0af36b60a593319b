/* The hall's words for the codes the server sends: rulesets, statuses, a challenge's game. */

import {t} from "../i18n.js";
import {clockLabel} from "../pools.js";

const RULESETS = () => ({freestyle: t("freestyle"), standard: t("standard"), renju: t("renju")});
const RULESET_HELP = () => ({
  freestyle: t("five or more in a row wins"),
  standard: t("exactly five wins; six or more does not"),
  renju: t("black: exactly five, no double-three, double-four or overline; white: five or more"),
});
const OPENINGS = () => ({none: t("no opening rule"), swap: t("Swap"), swap2: t("Swap2"),
  "taraguchi-10": t("Taraguchi-10")});
const STATUSES = () => ({idle: t("idle"), queued: t("queued"), playing: t("playing")});

export function isRuleset(ruleset) {
  return ruleset in RULESETS();
}

export function rulesetName(ruleset) {
  return RULESETS()[ruleset] || ruleset;
}

export function rulesetHelp(ruleset) {
  return RULESET_HELP()[ruleset] || "";
}

export function openingName(opening) {
  return OPENINGS()[opening] || opening;
}

export function statusName(status) {
  return STATUSES()[status] || status;
}

/** How a challenge names its game: "renju · 5+3", then the opening rule when there is one
    (" · Taraguchi-10"), " · Casual" for a game that is not rated and " · you play black"
    when `color`, the reader's colour, is chosen (not "random"). */
export function gameKind(ruleset, clock, rated = true, color = "random", opening = "none") {
  const parts = [rulesetName(ruleset), clockLabel(clock)];
  if (opening && opening !== "none") parts.push(openingName(opening));
  if (!rated) parts.push(t("Casual"));
  if (color === "black") parts.push(t("you play black"));
  if (color === "white") parts.push(t("you play white"));
  return parts.join(" · ");
}

/** The colour a challenged player gets from the challenger's choice. */
export function yourColor(challengers) {
  return {black: "white", white: "black"}[challengers] || "random";
}
