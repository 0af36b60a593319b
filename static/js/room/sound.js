/* The room's sounds (a stone placed, the game starting, low time, the game's end) and the
   button that mutes them all (remembered across pages). The last sound asked for is written
   on the button as data-sound ("<kind>" or "muted"), for a test to read. */

import {t} from "../i18n.js";
import {readSetting, writeSetting} from "./settings.js";

const MUTE_KEY = "gobang.muted";

export class RoomSound {
  constructor(toggle) {
    this.toggle = toggle;
    this.muted = readSetting(MUTE_KEY);
    this.audio = null;
    toggle.addEventListener("click", () => this.setMuted(!this.muted));
    // Browsers only let audio start after a user gesture, so the context is made on the first one.
    document.addEventListener("pointerdown", () => this.unlock(), {once: true});
    document.addEventListener("keydown", () => this.unlock(), {once: true});
    this.render();
  }

  setMuted(muted) {
    this.muted = muted;
    writeSetting(MUTE_KEY, muted);
    this.render();
  }

  render() {
    this.toggle.setAttribute("aria-pressed", String(this.muted));
    this.toggle.textContent = this.muted ? t("Sound off") : t("Sound on");
  }

  unlock() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    if (!this.audio) this.audio = new Ctx();
    if (this.audio.state === "suspended") this.audio.resume();
  }

  /** Plays `kind`: "stone" (a short wooden clack), "start" (two rising notes), "low" (a
      soft double beep when your own clock passes ten seconds), "end" (two falling notes). */
  play(kind = "stone") {
    const ctx = this.audio;
    this.toggle.dataset.sound = this.muted ? "muted" : kind;
    if (this.muted || !ctx || ctx.state !== "running") return;
    for (const [delay, from, to, length, type] of SOUNDS[kind]) {
      tone(ctx, ctx.currentTime + delay, from, to, length, type);
    }
  }
}

// Each sound's tones: [start after (s), frequency from, to (Hz), length (s), wave].
const SOUNDS = {
  stone: [[0, 880, 220, 0.12, "triangle"]],
  start: [[0, 523, 523, 0.12, "sine"], [0.14, 784, 784, 0.18, "sine"]],
  low: [[0, 1047, 1047, 0.08, "square"], [0.16, 1047, 1047, 0.08, "square"]],
  end: [[0, 784, 784, 0.15, "sine"], [0.17, 523, 392, 0.3, "sine"]],
};

function tone(ctx, at, from, to, length, type) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(from, at);
  if (to !== from) osc.frequency.exponentialRampToValueAtTime(to, at + length * 0.7);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(0.3, at + 0.005);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.01);
}
