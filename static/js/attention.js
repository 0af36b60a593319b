/*
 * Getting a player's attention for a challenge, on any page: a short chime made with WebAudio
 * (no sound file; silent when the player turned sound off in their preferences) and the tab's
 * title flashing until the page gets focus or the challenge is settled.
 */

import {t} from "./i18n.js";
import {readSetting} from "./room/settings.js";

const FLASH_MS = 1000;

export class Attention {
  constructor() {
    this.audio = null;
    this.baseTitle = document.title;
    this.flashText = null;
    this.timer = null;
    // Browsers let audio start only after a gesture on the page, so the context is made then.
    for (const name of ["pointerdown", "keydown"]) {
      document.addEventListener(name, () => this.unlock(), {once: true, capture: true});
    }
    window.addEventListener("focus", () => this.stopFlashing());
  }

  unlock() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    if (!this.audio) this.audio = new Ctx();
    if (this.audio.state === "suspended") this.audio.resume();
  }

  /** Chimes and flashes for a challenge from `name`; says whether the chime sounded
      ("played"), was turned off ("muted") or was not allowed yet ("blocked"). */
  challenge(name) {
    this.flash(t("Challenge from {name}", {name: name}));
    return this.chime();
  }

  /** Two rising sine notes, a fifth apart: noticeable, and quieter than the stones' clack. */
  chime() {
    if (readSetting("gobang.muted")) return "muted";
    const ctx = this.audio;
    if (!ctx || ctx.state !== "running") return "blocked";
    const start = ctx.currentTime;
    [[660, 0], [990, 0.14]].forEach(([frequency, delay]) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      const at = start + delay;
      osc.type = "sine";
      osc.frequency.setValueAtTime(frequency, at);
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.25, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.22);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + 0.23);
    });
    return "played";
  }

  flash(text) {
    if (!this.timer) this.baseTitle = document.title;
    this.flashText = text;
    clearInterval(this.timer);
    document.title = text;
    this.timer = setInterval(() => {
      document.title = document.title === this.flashText ? this.baseTitle : this.flashText;
    }, FLASH_MS);
  }

  stopFlashing() {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    document.title = this.baseTitle;
  }
}
