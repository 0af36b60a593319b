/* Pausing takes both players: one asks, the other accepts; resuming takes both votes. The clocks
   stop while the game is paused. */

import {t} from "../i18n.js";
import {$} from "../page.js";

export class PauseVotes {
  /** send(event, payload) makes a request about this game; refresh() redraws the whole room. */
  constructor({game, panel, clocks, send, showNotice, refresh, abort}) {
    this.game = game;
    this.panel = panel;
    this.clocks = clocks;
    this.send = send;
    this.showNotice = showNotice;
    this.refresh = refresh;
    this.abort = abort;
  }

  bindButtons() {
    $("pause-button").addEventListener("click", () => this.press());
    $("pause-accept").addEventListener("click", () => this.send("answer_pause", {accept: true}));
    $("pause-decline").addEventListener("click", () => this.send("answer_pause", {accept: false}));
  }

  listen(events) {
    events.on("pause_requested", (data) => this.requested(data));
    events.on("pause_declined", () => this.declined());
    events.on("paused", (data) => this.paused(data));
    events.on("resume_requested", (data) => this.resumeRequested(data));
    events.on("resumed", (data) => this.resumed(data));
  }

  /** The one pause button asks for a pause, or votes to resume a paused game. */
  press() {
    this.send(this.game.paused ? "resume" : "request_pause", {});
  }

  requested(data) {
    this.game.pauseRequestBy = data.by;
    this.panel.renderOffers();
  }

  declined() {
    this.game.pauseRequestBy = null;
    this.showNotice(t("The pause was declined."));
    this.panel.renderOffers();
  }

  paused(data) {
    this.game.paused = true;
    this.game.pauseRequestBy = null;
    this.game.resumeVotes = [];
    this.clocks.set(data.clocks);
    this.refresh();
  }

  resumeRequested(data) {
    this.game.resumeVotes = [data.by];
    if (this.game.isPlayer() && data.by !== this.game.you) this.showNotice(t("Your opponent wants to resume."));
    this.panel.renderControls();
  }

  resumed(data) {
    this.game.paused = false;
    this.game.resumeVotes = [];
    this.clocks.set(data.clocks);
    this.abort.set(data.abort_seconds);
    this.refresh();
  }
}
