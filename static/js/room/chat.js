/* The room's chat: the shared chat panel, each line tagged with the sender's role in the game
   as a badge. The history comes with every join (state.chat). */

import {ChatPanel} from "../chat.js";
import {t} from "../i18n.js";
import {el} from "../page.js";

const ROLES = {black: t("black"), white: t("white"), spectator: t("spectator")};

function tagRole(li, data) {
  const role = ROLES[data.role] || data.role;
  li.className = `chat-${data.role}`;
  li.appendChild(el("span", `role-tag ${data.role}`, role));
  li.appendChild(document.createTextNode(" "));
  return role;
}

export class RoomChat {
  /** elements: {log, form, input}; send(event, payload, onOk) makes a request about this game. */
  constructor(elements, {send, showError}) {
    this.panel = new ChatPanel(elements, {
      showError: showError,
      send: (text, sent) => send("chat", {text: text}, sent),
      decorate: tagRole,
    });
  }

  showHistory(messages) {
    this.panel.showHistory(messages);
  }

  receive(data) {
    this.panel.receive(data);
  }
}
