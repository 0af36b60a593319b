/* The hall's words for the codes the server sends: rulesets, statuses, a challenge's game. */

import {t} from "../i18n.js";
import {clockLabel} from "../pools.js";

const RULESETS = () => ({freestyle: t("freestyle"), standard: t("standard"), renju: t("renju")});
const RULESET_HELP = () => ({
  freestyle: t("five or more in a row wins"),
  standard: t("exactly five wins; six or more does not"),
  renju: t("black: exactly five, no double-three, double-four or overline; white: five or more"),
});
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

export function statusName(status) {
  return STATUSES()[status] || status;
}

/** "freestyle · 5+3": how a challenge names its game. */
/** "renju · 5+3", and " · Casual" after it for a game that is not rated. */
export function gameKind(ruleset, clock, rated = true) {
  return `${rulesetName(ruleset)} · ${clockLabel(clock)}` + (rated ? "" : ` · ${t("Casual")}`);
}
