/* The hall's and the room's chat: the form sends a trimmed draft, and each message becomes a line
   in a log kept short. Message text is always inserted as text, never as HTML. The history the
   server keeps (hello's chat, the room state's chat) replaces what the log shows, so a reload or
   a reconnect shows each message once, in order. A line from someone else carries a Report
   link to the report form (/report), filled in with the line. */

import {t} from "./i18n.js";
import {el} from "./page.js";

const MAX_CHARS = 300;
const KEPT = 200;

/** The chat's form: elements {form, input}; send(text, sent) posts a message and calls sent()
    once the server took it. */
export class ChatForm {
  constructor(elements, {send, showError}) {
    this.input = elements.input;
    this.send = send;
    this.showError = showError;
    elements.form.addEventListener("submit", (event) => this.submit(event));
  }

  submit(event) {
    event.preventDefault();
    const text = this.draft();
    if (text === null) return;
    this.send(text, () => { this.input.value = ""; });
  }

  /** The trimmed draft, or null (after telling the user why) when it cannot be sent. */
  draft() {
    const text = this.input.value.trim();
    if (!text) return null;
    if (text.length > MAX_CHARS) {
      this.showError(t("Messages are at most 300 characters."));
      return null;
    }
    return text;
  }
}

/**
 * Where a line's Report link leads, or null for the page's own lines: the report form
 * (url, from the chat section's data-report-url) with the line's text, its author and, in a
 * room, the game.
 */
export function reportLinks({url, myId, gameId = null}) {
  return (data) => {
    if (!url || !data.from || data.from.id === myId) return null;
    const query = new URLSearchParams({chat_text: data.text, username: data.from.username});
    if (gameId !== null) query.set("game_id", String(gameId));
    return `${url}?${query}`;
  };
}

/**
 * elements: {log, form?, input?} (a log without a form only shows messages).
 * send(text, sent) posts a message and calls sent() once the server took it; decorate(li, data),
 * when given, adds what a page shows before the sender's name, and returns the word for the
 * sender's part there (the room's "black"), which the line's accessible name gives after the
 * name; report(data), when given, is
 * the address of a line's Report link, or null for none (reportLinks).
 */
export class ChatPanel {
  constructor(elements, {send = null, showError = null, decorate = null, report = null}) {
    this.log = elements.log;
    this.decorate = decorate;
    this.report = report;
    this.seen = new Set();
    if (elements.form) this.form = new ChatForm(elements, {send, showError});
  }

  /** The messages the server kept, oldest first, instead of whatever the log showed. */
  showHistory(messages) {
    this.log.textContent = "";
    this.seen.clear();
    for (const message of messages || []) this.receive(message);
  }

  /** Shows a `chat` event's message: {from: {id, username}, text, ts}; one that the history
      already showed is not shown twice. Whether it was shown. */
  receive(data) {
    // A stored line (an event's chat) has its own id; the hall's and the rooms' have none.
    const id = data.id != null ? `#${data.id}` : `${data.ts}|${data.from.id}|${data.text}`;
    if (this.seen.has(id)) return false;
    this.seen.add(id);
    const li = el("li");
    const part = this.decorate ? this.decorate(li, data) : null;
    const who = el("strong", "", data.from.username);
    // The time is the name's tooltip, not the line's: a line is named by who said what
    // ("ann: good luck", "ann (black): good luck"), not by when.
    if (data.ts) who.title = new Date(data.ts).toLocaleTimeString();
    li.appendChild(who);
    li.appendChild(document.createTextNode(`: ${data.text}`));
    const sender = part ? `${data.from.username} (${part})` : data.from.username;
    li.setAttribute("aria-label", `${sender}: ${data.text}`);
    this.addReport(li, data);
    this.append(li);
    return true;
  }

  /** The line's Report link: opens the report form in a new tab, so that a game in play stays
      open. */
  addReport(li, data) {
    const href = this.report ? this.report(data) : null;
    if (!href) return;
    const link = el("a", "chat-report", t("Report"));
    link.href = href;
    link.target = "_blank";
    link.rel = "noopener";
    link.dataset.testid = "chat-report";
    link.setAttribute("aria-label", t("Report {name}'s message", {name: data.from.username}));
    li.appendChild(document.createTextNode(" "));
    li.appendChild(link);
  }

  /** Appends a line, keeps the log short, and follows it down if the reader was at the bottom
      (someone scrolled up to read stays where they are). */
  append(li) {
    const log = this.log;
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    log.appendChild(li);
    while (log.children.length > KEPT) log.firstChild.remove();
    if (atBottom) log.scrollTop = log.scrollHeight;
  }
}
