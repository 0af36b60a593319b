/*
 * An opening in words, for the room and the replay: the rule's name, what its step asks now
 * and what the players did (docs/protocol.md, OpeningState). Players are named by user id on
 * the wire; `names` maps an id to the name shown. No DOM, no socket.
 */

import {notation} from "./board.js";
import {t} from "./i18n.js";

const RULES = {swap: t("Swap"), swap2: t("Swap2"), "taraguchi-10": t("Taraguchi-10")};

export function ruleName(rule) {
  return RULES[rule] || rule;
}

/** The stones placed in a row by one player before the next choice: swap's and swap2's first
    three, swap2's two more. Null where stones come one by one (taraguchi). */
function placeRun(opening, moves) {
  if (opening.rule === "taraguchi-10") return null;
  return moves < 3 ? {n: moves + 1, total: 3} : {n: moves - 2, total: 2};
}

function placeText(opening, step, name, moves) {
  const black = moves % 2 === 0;
  const run = placeRun(opening, moves);
  if (run === null || step.area) {
    const args = {name: name, n: moves + 1, side: step.area || 15};
    return black ? t("{name} places stone {n} (black) within the central {side}×{side}.", args)
      : t("{name} places stone {n} (white) within the central {side}×{side}.", args);
  }
  const args = {name: name, ...run};
  return black ? t("{name} places stone {n} of {total} (black).", args)
    : t("{name} places stone {n} of {total} (white).", args);
}

/** What the opening's step asks now, naming who acts: "ann places stone 2 of 3 (white)." */
export function stepText(opening, names, moves) {
  const step = opening.step;
  const name = names(step.player);
  if (step.kind === "place") return placeText(opening, step, name, moves);
  if (step.kind === "choose") {
    return (step.options || []).includes("place_two")
      ? t("{name} chooses: play black, play white, or place two more stones.", {name: name})
      : t("{name} chooses a colour: play black or play white.", {name: name});
  }
  if (step.kind === "fifth") {
    return t("{name} places the fifth stone within the central {side}×{side}, or offers {count} fifth stones to choose from.",
      {name: name, side: step.area || 15, count: step.count});
  }
  return t("{name} picks one of the {count} offered fifth stones.",
    {name: name, count: (step.offers || []).length});
}

function chosenText(entry, name, stones) {
  const args = {name: name, n: stones};
  if (entry.option === "black") return t("After stone {n}, {name} chose to play black.", args);
  if (entry.option === "white") return t("After stone {n}, {name} chose to play white.", args);
  return t("After stone {n}, {name} chose to place two more stones.", args);
}

/** What the players did besides placing stones, in order: the colour choices, the offered
    fifth stones and the pick. */
export function logLines(opening, names) {
  const lines = [];
  let stones = 0;
  for (const entry of opening.log || []) {
    const name = names(entry.player);
    if (entry.kind === "place") stones += 1;
    else if (entry.kind === "choose") lines.push(chosenText(entry, name, stones));
    else if (entry.kind === "offer") {
      const points = entry.points.map(([row, col]) => notation(row, col)).join(", ");
      lines.push(t("{name} offered {count} fifth stones: {points}.",
        {name: name, count: entry.points.length, points: points}));
    } else if (entry.kind === "pick") {
      stones += 1;
      lines.push(t("{name} picked the fifth stone at {point}.",
        {name: name, point: notation(entry.row, entry.col)}));
    }
  }
  return lines;
}
