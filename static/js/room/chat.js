/* The room's chat: the shared chat panel, each line tagged with the sender's role in the game. */

import {ChatPanel} from "../chat.js";
import {t} from "../i18n.js";
import {el} from "../page.js";

const ROLES = {black: t("black"), white: t("white"), spectator: t("spectator")};

function tagRole(li, data) {
  li.className = `chat-${data.role}`;
  li.appendChild(el("span", `role-tag ${data.role}`, `[${ROLES[data.role] || data.role}]`));
  li.appendChild(document.createTextNode(" "));
}

/** elements: {log, form, input}; send(event, payload, onOk) makes a request about this game. */
export function roomChat(elements, {send, showError}) {
  return new ChatPanel(elements, {
    showError: showError,
    send: (text, sent) => send("chat", {text: text}, sent),
    decorate: tagRole,
  });
}
