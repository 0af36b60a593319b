/* The room's chat: the shared chat panel, each line tagged with the sender's role in the game
   as a badge. The history comes with every join (state.chat) and replaces what the log shows,
   so a reload or a reconnect shows each message once, in order. */

import {ChatPanel} from "../chat.js";
import {t} from "../i18n.js";
import {el} from "../page.js";

const ROLES = {black: t("black"), white: t("white"), spectator: t("spectator")};

function tagRole(li, data) {
  li.className = `chat-${data.role}`;
  li.appendChild(el("span", `role-tag ${data.role}`, ROLES[data.role] || data.role));
  li.appendChild(document.createTextNode(" "));
}

function key(data) {
  return `${data.ts}|${data.from.id}|${data.text}`;
}

export class RoomChat {
  /** elements: {log, form, input}; send(event, payload, onOk) makes a request about this game. */
  constructor(elements, {send, showError}) {
    this.log = elements.log;
    this.seen = new Set();
    this.panel = new ChatPanel(elements, {
      showError: showError,
      send: (text, sent) => send("chat", {text: text}, sent),
      decorate: tagRole,
    });
  }

  /** The messages the server kept, oldest first, instead of whatever the log showed. */
  showHistory(messages) {
    this.log.textContent = "";
    this.seen.clear();
    for (const message of messages || []) this.receive(message);
  }

  /** A `chat` event; one that the history already showed is not shown twice. */
  receive(data) {
    const id = key(data);
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.panel.receive(data);
  }
}
