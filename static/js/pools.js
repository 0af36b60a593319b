/*
 * Time controls as the pages name them (docs/protocol.md, "pools"): a clock is [initial seconds,
 * increment seconds] or null for no clock; its name is "300+3" or "none", as in the counts'
 * pool names ("freestyle/300+3") and in /hall?match=<ruleset>&clock=<name>.
 */

import {t} from "./i18n.js";

/** What players call it: minutes + seconds a move, "5+3" for [300, 3]; under a minute in
    seconds, "20s+0" (gobang/services/pools.py clock_label says the same). */
export function clockLabel(clock) {
  if (clock === null) return t("No clock");
  const [initial, increment] = clock;
  if (initial < 60) return `${initial}s+${increment}`;
  return `${Number((initial / 60).toFixed(2))}+${increment}`;
}

export function clockName(clock) {
  return clock === null ? "none" : `${clock[0]}+${clock[1]}`;
}

/** The clock a name stands for, or undefined for a name that is none. A "+" in a query
    string reads as a space, so either is taken. */
export function parseClockName(name) {
  if (name === "none") return null;
  const match = /^(\d+)[+ ](\d+)$/.exec(name || "");
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** "freestyle/300+3"; "freestyle/600+5/swap2" for a pool with an opening. */
export function poolName(ruleset, clock, opening = "none") {
  const name = `${ruleset}/${clockName(clock)}`;
  return opening === "none" ? name : `${name}/${opening}`;
}

/** The rating category of a game of that ruleset and clock, "freestyle:blitz": the speed
    follows the initial seconds + 40 increments (gobang/services/ratings/categories.py). */
export function categoryOf(ruleset, clock) {
  if (clock === null) return `${ruleset}:untimed`;
  const estimate = clock[0] + 40 * clock[1];
  const speed = estimate < 180 ? "bullet" : estimate < 480 ? "blitz" : estimate < 1500 ? "rapid" : "classical";
  return `${ruleset}:${speed}`;
}

/** "New opponent" after a game against the computer: the hall, starting a new game against
    it at the same level, ruleset, clock, colour and opening rule (hall_computer.js
    fromAddress). */
export function computerAddress(hall, level, ruleset, clock, color, opening = "none") {
  const query = new URLSearchParams({computer: String(level), ruleset: ruleset || "",
    clock: clock === undefined ? "none" : clockName(clock), color: color || "random"});
  if (opening && opening !== "none") query.set("opening", opening);
  return `${hall}?${query}`;
}

/** "New opponent" after a game: the hall, matching in the same pool (its opening rule named
    when it has one: matching.js fromAddress). */
export function matchAddress(hall, ruleset, clock, opening = "none") {
  const query = `?match=${encodeURIComponent(ruleset || "")}`;
  const withOpening = opening && opening !== "none" ? `&opening=${encodeURIComponent(opening)}` : "";
  return hall + query + (clock === undefined ? "" : `&clock=${encodeURIComponent(clockName(clock))}`)
    + withOpening;
}
