/*
 * Matching: the Match button, the ruleset and clock choice, the grid of pool buttons
 * showing who waits in each pool (a ruleset and a clock: pools.js) for the chosen ruleset, and
 * the buttons of the pools played with an opening rule (a ruleset, a clock and an opening).
 */

import {t} from "../i18n.js";
import {show} from "../page.js";
import {clockName, parseClockName, poolName} from "../pools.js";
import {isRuleset, rulesetHelp} from "./words.js";

function formatElapsed(ms) {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

export class Matching {
  /** ui: ruleset, clockChoice, pools (buttons), openingPools (buttons, each naming its pool,
      ruleset, clock and opening), rulesetHelp, matchButton, matchTimer. waiting(pool) is how
      many wait in a pool; onBusy(ack) hears a start_match refused because we have a game;
      onChoice() hears the ruleset or clock chosen change. */
  constructor(ui, {request, waiting, onBusy, onChoice}) {
    this.ui = ui;
    this.request = request;
    this.waiting = waiting;
    this.onBusy = onBusy;
    this.onChoice = onChoice;
    this.maintenance = false;
    this.on = false;
    this.pool = null; // the pool we queued in from this page; null when not known
    this.startedAt = 0;
    this.timer = null;
  }

  bind() {
    this.ui.matchButton.addEventListener("click", () => this.toggle());
    this.ui.ruleset.addEventListener("change", () => {
      this.rulesetChanged();
      this.onChoice();
    });
    this.ui.clockChoice.addEventListener("change", () => this.onChoice());
    for (const poolButton of this.ui.pools) poolButton.addEventListener("click", () => this.poolClicked(poolButton));
    for (const poolButton of this.ui.openingPools) {
      poolButton.addEventListener("click", () => this.openingPoolClicked(poolButton));
    }
    this.rulesetChanged();
  }

  /** `pool`: the pool we queued in, when this page knows it (the `me` that says "queued" can
      come before the answer to our start_match). */
  set(on, pool = null) {
    if (!on || pool !== null) this.pool = pool;
    if (on === this.on) {
      this.renderPools();
      return;
    }
    this.on = on;
    const ui = this.ui;
    ui.matchButton.textContent = on ? t("Matching… (click to cancel)") : t("Match");
    ui.matchButton.classList.toggle("primary", !on);
    ui.matchButton.setAttribute("aria-pressed", String(on));
    ui.ruleset.disabled = on;
    ui.clockChoice.disabled = on;
    this.renderPools();
    this.runTimer(on);
  }

  runTimer(on) {
    clearInterval(this.timer);
    show(this.ui.matchTimer, on);
    if (!on) return;
    this.startedAt = Date.now();
    this.ui.matchTimer.textContent = "0:00";
    this.timer = setInterval(() => {
      this.ui.matchTimer.textContent = formatElapsed(Date.now() - this.startedAt);
    }, 1000);
  }

  /** In maintenance the server starts no new games: Match and the pools are off. */
  setMaintenance(on) {
    this.maintenance = on;
    if (on) this.set(false);
    this.ui.matchButton.disabled = on;
    this.renderPools();
  }

  /** The pool the server says we wait in (`queue` in hello and me): after a reload or a
      reconnect this page did not queue us, so it shows that pool's ruleset and clock, and
      returns its name for the pressed button (null when not queued). */
  showQueue(queue) {
    if (queue && queue.opening && queue.opening !== "none") {
      const name = poolName(queue.ruleset, queue.clock, queue.opening);
      return this.ui.openingPools.some((b) => b.dataset.pool === name) ? name : null;
    }
    if (!queue || !isRuleset(queue.ruleset) || !this.offersClock(clockName(queue.clock))) return null;
    this.ui.ruleset.value = queue.ruleset;
    this.ui.clockChoice.value = clockName(queue.clock);
    this.ui.rulesetHelp.textContent = rulesetHelp(queue.ruleset);
    return poolName(queue.ruleset, queue.clock);
  }

  /** [ruleset, clock] as chosen on the page: for Match and for a challenge. */
  choice() {
    return [this.ui.ruleset.value, parseClockName(this.ui.clockChoice.value)];
  }

  toggle() {
    if (this.on) {
      this.request("cancel_match", {}, () => this.set(false));
      return;
    }
    const [ruleset, clock] = this.choice();
    this.request("start_match", {ruleset: ruleset, clock: clock},
      () => this.set(true, poolName(ruleset, clock)),
      (ack) => { if (ack.error === "busy") this.onBusy(ack); });
  }

  /** A pool button: queue in that pool, or leave the queue when it is the one we wait in. */
  poolClicked(poolButton) {
    if (this.on) {
      if (poolButton.getAttribute("aria-pressed") === "true") this.toggle();
      return;
    }
    this.ui.clockChoice.value = poolButton.dataset.clock;
    this.toggle();
  }

  /** A pool with an opening: queue there, or leave the queue when it is the one we wait in. */
  openingPoolClicked(poolButton) {
    if (this.on) {
      if (poolButton.getAttribute("aria-pressed") === "true") this.toggle();
      return;
    }
    const {ruleset, clock, opening, pool} = poolButton.dataset;
    this.request("start_match", {ruleset: ruleset, clock: parseClockName(clock), opening: opening},
      () => this.set(true, pool),
      (ack) => { if (ack.error === "busy") this.onBusy(ack); });
  }

  offersClock(name) {
    return Array.from(this.ui.clockChoice.options).some((option) => option.value === name);
  }

  /** /hall?match=<ruleset>&clock=<name>[&opening=<rule>] ("New opponent" after a game): start
      matching in that pool once (no clock named: the default one; an opening rule: the pool
      of its button, if the host offers it), then drop the query so that a reload does not
      queue again. `hello` is the server's greeting. */
  fromAddress(hello) {
    const params = new URLSearchParams(window.location.search);
    const ruleset = params.get("match");
    if (ruleset === null) return;
    window.history.replaceState(null, "", window.location.pathname);
    const clock = params.has("clock") ? parseClockName(params.get("clock")) : undefined;
    if (this.on || hello.current_game != null || !isRuleset(ruleset)) return;
    if (params.has("clock") && (clock === undefined || !this.offersClock(clockName(clock)))) return;
    if (params.has("opening")) {  // a pool with an opening rule: its own button
      const name = poolName(ruleset, clock === undefined ? hello.default_clock : clock, params.get("opening"));
      const button = this.ui.openingPools.find((b) => b.dataset.pool === name);
      if (button) this.openingPoolClicked(button);
      return;
    }
    this.ui.ruleset.value = ruleset;
    if (clock !== undefined) this.ui.clockChoice.value = clockName(clock);
    this.rulesetChanged();
    this.toggle();
  }

  rulesetChanged() {
    this.ui.rulesetHelp.textContent = rulesetHelp(this.ui.ruleset.value);
    this.renderPools();
  }

  /** The grid for the chosen ruleset: who waits in each pool; while we wait, our pool is the
      pressed one (pressing it cancels) and the others are off. */
  renderPools() {
    for (const poolButton of this.ui.pools) {
      const pool = poolName(this.ui.ruleset.value, parseClockName(poolButton.dataset.clock));
      poolButton.querySelector(".pool-count").textContent = t("{count} waiting", {count: this.waiting(pool)});
      const mine = this.on && this.pool === pool;
      poolButton.setAttribute("aria-pressed", String(mine));
      poolButton.disabled = (this.on && !mine) || this.maintenance;
      poolButton.title = mine ? t("Matching… (click to cancel)") : "";
    }
    for (const poolButton of this.ui.openingPools) {
      const pool = poolButton.dataset.pool;
      poolButton.querySelector(".pool-count").textContent = t("{count} waiting", {count: this.waiting(pool)});
      const mine = this.on && this.pool === pool;
      poolButton.setAttribute("aria-pressed", String(mine));
      poolButton.disabled = (this.on && !mine) || this.maintenance;
      poolButton.title = mine ? t("Matching… (click to cancel)") : "";
    }
  }
}
