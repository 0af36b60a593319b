/* What a player offers the other during and after a game: a draw, a take-back, a rematch, and
   resigning (asked twice). The server is the referee: an offer shows as made once it answers. */

import {t} from "../i18n.js";
import {$} from "../page.js";

// Draw offers and take-back requests go the same way: make, hear, answer, maybe be declined.
const OFFERS = {
  draw: {
    field: "drawOfferBy", make: "offer_draw", answer: "answer_draw",
    offeredEvent: "draw_offered", declinedEvent: "draw_declined",
    heard: {white: t("White offered a draw."), black: t("Black offered a draw.")},
    declined: t("The draw offer was declined."),
  },
  undo: {
    field: "undoRequestBy", make: "request_undo", answer: "answer_undo",
    offeredEvent: "undo_requested", declinedEvent: "undo_declined",
    heard: {white: t("White asked to take back a move."), black: t("Black asked to take back a move.")},
    declined: t("The take-back was declined."),
  },
};

export class Offers {
  /** send(event, payload, onOk) makes a request about this game; showNotice(text) a passing note. */
  constructor({game, panel, send, showNotice, leave}) {
    this.game = game;
    this.panel = panel;
    this.send = send;
    this.showNotice = showNotice;
    this.leave = leave;
  }

  /** Binds the buttons: #draw-button, #draw-accept, #draw-decline, the same for undo, and so on. */
  bindButtons() {
    for (const kind of Object.keys(OFFERS)) {
      $(`${kind}-button`).addEventListener("click", () => this.make(kind));
      $(`${kind}-accept`).addEventListener("click", () => this.answer(kind, true));
      $(`${kind}-decline`).addEventListener("click", () => this.answer(kind, false));
    }
    $("resign-button").addEventListener("click", () => this.askResign());
    $("resign-confirm").addEventListener("click", () => this.answerResign(true));
    $("resign-cancel").addEventListener("click", () => this.answerResign(false));
    $("rematch-button").addEventListener("click", () => this.rematch());
  }

  listen(events) {
    for (const [kind, offer] of Object.entries(OFFERS)) {
      events.on(offer.offeredEvent, (data) => this.offered(kind, data));
      events.on(offer.declinedEvent, () => this.declined(kind));
    }
    events.on("rematch_offered", (data) => this.rematchOffered(data));
    // Spectators follow the players to the new game too.
    events.on("rematch_ready", (data) => this.leave(`/game/${data.game_id}`));
  }

  make(kind) {
    this.send(OFFERS[kind].make, {}, () => {
      this.game[OFFERS[kind].field] = this.game.you;
      this.panel.renderControls();
    });
  }

  answer(kind, accept) {
    this.game[OFFERS[kind].field] = null;
    this.panel.renderOffers();
    this.send(OFFERS[kind].answer, {accept: accept});
  }

  offered(kind, data) {
    this.game[OFFERS[kind].field] = data.by;
    // Players get an Accept/Decline prompt instead; spectators just hear about it.
    if (!this.game.isPlayer()) this.showNotice(OFFERS[kind].heard[data.by === "white" ? "white" : "black"]);
    this.panel.renderOffers();
  }

  declined(kind) {
    this.game[OFFERS[kind].field] = null;
    this.showNotice(OFFERS[kind].declined);
    this.panel.renderOffers();
  }

  askResign() {
    this.panel.setConfirmingResign(true);
    $("resign-cancel").focus();
  }

  answerResign(confirmed) {
    this.panel.setConfirmingResign(false);
    if (confirmed) this.send("resign", {});
  }

  rematch() {
    this.send("rematch", {}, () => {
      if (this.game.rematchBy === null) this.game.rematchBy = this.game.you;
      this.panel.renderRematch();
    }, (ack) => {
      // A rematch already played (this page missed rematch_ready): offer the way there.
      if (ack.error === "conflict" && ack.game_id) this.panel.showRematchGame(ack.game_id);
    });
  }

  rematchOffered(data) {
    this.game.rematchBy = data.by;
    if (!this.game.isPlayer()) {
      this.showNotice(data.by === "white" ? t("White offers a rematch.") : t("Black offers a rematch."));
    }
    this.panel.renderRematch();
  }
}
