/* The stone's sound and the button that mutes it (remembered across pages). */

import {t} from "../i18n.js";
import {readSetting, writeSetting} from "./settings.js";

const MUTE_KEY = "gobang.muted";

export class StoneSound {
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

  /** A short wooden "clack": a falling triangle tone with a fast decay. */
  play() {
    const ctx = this.audio;
    if (this.muted || !ctx || ctx.state !== "running") return;
    const now = ctx.currentTime;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "triangle";
    osc.frequency.setValueAtTime(880, now);
    osc.frequency.exponentialRampToValueAtTime(220, now + 0.08);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.35, now + 0.005);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.12);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now);
    osc.stop(now + 0.13);
  }
}
