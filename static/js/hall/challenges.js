/* Challenges in the hall: those we send, those we receive, and how each ends. */

import {t} from "../i18n.js";
import {button, el} from "../page.js";
import {gameKind, yourColor} from "./words.js";

export class Challenges {
  /** list: the <ul> of challenges. dialog asks a challenge's terms (ChallengeDialog);
      attention flashes the title and rings for a challenge received. */
  constructor(list, {request, attention, dialog}) {
    this.list = list;
    this.request = request;
    this.attention = attention;
    this.dialog = dialog;
    this.sent = new Map(); // challenge id -> username we challenged
  }

  listen(socket) {
    socket.on("challenge_received", (data) => this.received(data));
    socket.on("challenge_declined", (data) => this.declined(data));
    socket.on("challenge_cancelled", (data) => this.cancelled(data));
  }

  /** /hall?challenge=<name> (a profile's or a finished game's "Challenge ben"): the dialog for
      that player once, then the query is dropped so that a reload does not ask again. */
  fromAddress(hello) {
    const params = new URLSearchParams(window.location.search);
    const username = params.get("challenge");
    if (username === null) return;
    window.history.replaceState(null, "", window.location.pathname);
    if (hello.current_game != null || !username.trim() || username === (hello.me || {}).username) return;
    this.send(username);
  }

  /** Asks the terms, then sends the challenge. */
  send(username) {
    this.dialog.open(username, (terms) => this.sendTerms(username, terms));
  }

  sendTerms(username, terms) {
    this.request("challenge", {username: username, ...terms}, (ack) => {
      this.sent.set(ack.challenge_id, username);
      const li = this.item(ack.challenge_id, "outgoing");
      li.appendChild(el("span", "text", t("Challenge sent to {name} ({ruleset}); waiting for an answer…",
        {name: username, ruleset: gameKind(terms.ruleset, terms.clock, terms.rated, terms.color, terms.opening)})));
      this.list.appendChild(li);
    });
  }

  item(challengeId, kind) {
    this.find(challengeId)?.remove();
    const li = el("li", `challenge ${kind}`);
    li.dataset.challengeId = String(challengeId);
    li.dataset.testid = kind === "incoming" ? "challenge" : "challenge-sent";
    return li;
  }

  /** The title stops flashing once no challenge to us is left open. */
  settled() {
    if (!this.list.querySelector("[data-testid=challenge]")) this.attention.stopFlashing();
  }

  find(challengeId) {
    return Array.from(this.list.children).find((li) => li.dataset.challengeId === String(challengeId));
  }

  answer(challengeId, accept) {
    this.request("answer_challenge", {challenge_id: challengeId, accept: accept}, () => {
      this.find(challengeId)?.remove();
      this.settled();
    });
  }

  received(data) {
    const li = this.item(data.challenge_id, "incoming");
    const text = el("span", "text");
    text.appendChild(el("strong", "", data.from.username));
    text.appendChild(document.createTextNode(" " + t("({score}) challenges you · {ruleset}",
      {score: data.from.score,
        ruleset: gameKind(data.ruleset, data.clock, data.rated !== false, yourColor(data.color), data.opening)})));
    li.appendChild(text);
    const actions = el("span", "actions");
    actions.appendChild(button(t("Accept"), "challenge-accept", () => this.answer(data.challenge_id, true), "small primary"));
    actions.appendChild(button(t("Decline"), "challenge-decline", () => this.answer(data.challenge_id, false)));
    li.appendChild(actions);
    this.list.appendChild(li);
    li.dataset.sound = this.attention.challenge(data.from.username);
  }

  /** Replaces a challenge line with a short note that then fades out of the list. */
  end(challengeId, note) {
    const li = this.find(challengeId);
    this.sent.delete(challengeId);
    if (!li) return;
    if (!note) {
      li.remove();
      this.settled();
      return;
    }
    li.replaceChildren(el("span", "text muted", note));
    setTimeout(() => li.remove(), 6000);
  }

  declined(data) {
    const name = this.sent.get(data.challenge_id);
    this.end(data.challenge_id, name ? t("{name} declined your challenge.", {name: name})
      : t("Your challenge was declined."));
  }

  cancelled(data) {
    const name = this.sent.get(data.challenge_id);
    this.end(data.challenge_id, name ? t("Your challenge to {name} was cancelled.", {name: name}) : "");
  }
}
