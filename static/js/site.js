/*
 * Every page of a logged-in player but the hall (which has its own): the /site connection,
 * on which challenges arrive. Each one shows a toast with Accept and Decline (a toast, not a
 * modal: a page under it, a game included, stays usable), chimes and flashes the title.
 * Accepting goes to the new game. All user text goes in through textContent.
 */

import {Attention} from "./attention.js";
import {t} from "./i18n.js";
import {button, connect, el, haveSocketIo} from "./page.js";
import {openingName} from "./hall/words.js";

const RULESETS = {freestyle: t("freestyle"), standard: t("standard"), renju: t("renju")};
const holder = document.getElementById("toasts");
if (holder && haveSocketIo()) startSite(holder);

function startSite(holder) {
  const socket = connect("/site");
  // Paired in an arena (docs/protocol.md, "Tournaments"): to the game, from any page.
  socket.on("tournament_game", (data) => window.location.assign(`/game/${data.game_id}`));
  const attention = new Attention();
  const open = new Map();  // challenge id -> toast

  function describe(data) {
    const ruleset = RULESETS[data.ruleset] || data.ruleset;
    const clock = data.clock ? ` · ${data.clock[0] / 60}+${data.clock[1]}` : "";
    const opening = data.opening && data.opening !== "none" ? ` · ${openingName(data.opening)}` : "";
    const casual = data.rated === false ? ` · ${t("Casual")}` : "";
    const color = {black: ` · ${t("you play white")}`, white: ` · ${t("you play black")}`}[data.color] || "";
    return t("({score}) challenges you · {ruleset}", {score: data.from.score, ruleset: ruleset}) + clock + opening + casual + color;
  }

  function onChallengeReceived(data) {
    close(data.challenge_id);
    const toast = el("div", "toast");
    toast.dataset.testid = "challenge-toast";
    toast.dataset.challengeId = data.challenge_id;
    toast.setAttribute("role", "alert");
    const text = el("p", "text");
    text.appendChild(el("strong", "", data.from.username));
    text.appendChild(document.createTextNode(" " + describe(data)));
    const error = el("p", "toast-error hidden");
    error.dataset.testid = "challenge-toast-error";
    const actions = el("div", "actions");
    actions.appendChild(button(t("Accept"), "challenge-accept", () => answer(data.challenge_id, true), "small primary"));
    actions.appendChild(button(t("Decline"), "challenge-decline", () => answer(data.challenge_id, false)));
    toast.append(text, error, actions);
    holder.appendChild(toast);
    open.set(data.challenge_id, toast);
    clearTheToasts();
    toast.dataset.sound = attention.challenge(data.from.username);
  }

  function answer(challengeId, accept) {
    const toast = open.get(challengeId);
    for (const control of toast.querySelectorAll("button")) control.disabled = true;
    socket.timeout(10000).emit("answer_challenge", {challenge_id: challengeId, accept: accept}, (err, ack) => {
      if (!err && ack && ack.ok) {
        close(challengeId);
        if (accept && ack.game_id != null) window.location.assign(`/game/${ack.game_id}`);
        return;
      }
      const message = toast.querySelector(".toast-error");
      message.textContent = err ? t("The server did not answer. Try again.") : ack.message;
      message.classList.remove("hidden");
      for (const control of toast.querySelectorAll("button")) control.disabled = false;
    });
  }

  function close(challengeId) {
    open.get(challengeId)?.remove();
    open.delete(challengeId);
    if (open.size === 0) attention.stopFlashing();
    clearTheToasts();
  }

  /** While toasts are open the page may scroll its end clear of them: they are fixed over the
      page's bottom corner, where a room's chat and a profile's last rows are. */
  function clearTheToasts() {
    document.body.classList.toggle("with-toasts", open.size > 0);
  }

  function closeAll() {
    for (const challengeId of Array.from(open.keys())) close(challengeId);
  }

  socket.on("challenge_received", onChallengeReceived);
  socket.on("challenge_cancelled", (data) => close(data.challenge_id));
  socket.on("session_ended", () => {
    closeAll();
    socket.disconnect();
  });
}
