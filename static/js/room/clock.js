/* The players' clocks: the server's last reading, counted down here between readings. */

import {show} from "../page.js";
import {COLORS} from "./state.js";

// Often enough for the tenths a clock shows under LOW_MS.
const TICK_MS = 100;
const LOW_MS = 10000;

/** "05:00"; under ten seconds with tenths, "00:09.4", as lichess shows it. Time left is
    rounded up (a clock reads 00:00 only once it has run out), tenths at most 9.9. */
export function formatClock(ms) {
  if (ms > 0 && ms < LOW_MS) {
    const tenths = Math.min(99, Math.ceil(ms / 100));
    return `00:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const seconds = Math.ceil(ms / 1000);
  return `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
}

export class Clocks {
  /** nodes: {black, white} clock elements; onLow(color) when a running clock passes under
      ten seconds (once, until it is back above); now() a monotonic milliseconds clock. */
  constructor(nodes, game, onLow = () => {}, now = () => performance.now()) {
    this.nodes = nodes;
    this.game = game;
    this.onLow = onLow;
    this.now = now;
    this.low = {black: false, white: false};
    this.reading = null;  // {black_ms, white_ms} as the server last sent it, or null: untimed
    this.readAt = 0;
  }

  set(reading) {
    this.reading = reading || null;
    this.readAt = this.now();
  }

  remainingMs(color) {
    const base = this.reading[`${color}_ms`];
    return Math.max(0, base - (this.game.clockRunning(color) ? this.now() - this.readAt : 0));
  }

  render() {
    for (const color of COLORS) {
      const clock = this.nodes[color];
      show(clock, this.reading !== null);
      if (this.reading === null) continue;
      const ms = this.remainingMs(color);
      clock.textContent = formatClock(ms);
      clock.classList.toggle("low", ms < LOW_MS);
      this.noticeLow(color, ms);
    }
  }

  noticeLow(color, ms) {
    const low = ms > 0 && ms < LOW_MS;
    if (low && !this.low[color] && this.game.clockRunning(color)) this.onLow(color);
    this.low[color] = low;
  }

  /** Redraws the running clock a few times a second. */
  tick() {
    setInterval(() => { if (this.reading && this.game.status === "playing") this.render(); }, TICK_MS);
  }
}
