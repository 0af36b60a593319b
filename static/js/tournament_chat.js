/*
 * An event's chat on its page (docs/protocol.md, "Tournaments"): the page's poll of
 * GET /api/tournaments/<id> brings the lines (the newest at first, then those after the
 * cursor it was given), and a line written here is posted to /api/tournaments/<id>/chat.
 * chat.js draws the lines, as text, with a Report link on other players' lines.
 */

import {$, show} from "./page.js";
import {t} from "./i18n.js";
import {ChatPanel, reportLinks} from "./chat.js";

/** The chat of the event at `address` (its API address), or null on a page without one:
    {query(): the poll's query string, show(chat): what a poll brought}. */
export function eventChat(address) {
  const box = $("event-chat-box");
  if (!box) return null;
  let after = null;
  const error = $("event-chat-error");

  function showError(message) {
    error.textContent = message || "";
    show(error, Boolean(message));
  }

  const panel = new ChatPanel(
    {log: $("event-chat-log"), form: $("event-chat-form"), input: $("event-chat-input")},
    {send, showError, report: reportLinks({url: $("event-chat").dataset.reportUrl, myId: Number(box.dataset.userId)})});

  async function send(text, sent) {
    try {
      const response = await fetch(`${address}/chat`, {
        method: "POST", credentials: "same-origin", body: JSON.stringify({text}),
        headers: {"Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": box.dataset.csrfToken}});
      const body = await response.json();
      if (!response.ok) {
        showError(body.message || t("Not sent: try again in a moment."));
        return;
      }
      showError("");
      sent();
      panel.receive(body.line);
    } catch (e) {
      showError(t("Not sent: try again in a moment."));
    }
  }

  /** Writing has closed (the event ended a while ago, or was cancelled): the form goes. */
  function close() {
    const form = $("event-chat-form");
    if (form.classList.contains("hidden")) return;
    form.classList.add("hidden");
    const note = document.createElement("p");
    note.className = "muted";
    note.dataset.testid = "event-chat-closed";
    note.textContent = box.dataset.closedText;
    form.before(note);
  }

  return {
    query: () => (after == null ? "" : `?chat_after=${after}`),
    show(chat) {
      if (!chat) return;
      if (after == null) panel.showHistory(chat.lines);
      else for (const line of chat.lines) panel.receive(line);
      if (chat.last_id != null) after = chat.last_id;
      if (!chat.open) close();
    },
  };
}
