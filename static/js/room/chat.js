/* The room's two chats (docs/protocol.md, "Two chats"), as two tabs: the players' channel and
   the spectators'. Players write in the first, spectators in the second (the form names no
   channel: the server puts a line in the sender's own). A player sees the spectators' tab while
   the game is played only with the setting "Show spectators' chat while I play" on; everyone
   sees both after the end. Each line is tagged with its sender's role as a badge. The histories
   come with every join (state.chat, state.spectator_chat). */

import {ChatForm, ChatPanel} from "../chat.js";
import {t} from "../i18n.js";
import {el, show} from "../page.js";
import {readSetting, writeSetting} from "./settings.js";

const ROLES = {black: t("black"), white: t("white"), spectator: t("spectator")};
const CHANNELS = ["players", "spectators"];
const SETTING = "gobang.spectatorChat";

function tagRole(li, data) {
  const role = ROLES[data.role] || data.role;
  li.className = `chat-${data.role}`;
  li.appendChild(el("span", `role-tag ${data.role}`, role));
  li.appendChild(document.createTextNode(" "));
  return role;
}

export class RoomChat {
  /**
   * elements: {form, input, tabs, readOnly, option, toggle, closed, channels: {players, spectators}},
   * closed: why this reader may not write ("" when they may),
   * each channel {tab, panel, log, unread}.
   * send(event, payload, onOk) makes a request about this game; game: the page's RoomGame;
   * report: where a line's Report link leads (chat.js reportLinks); rejoin(): asks for the
   * whole state again, which the server reads the setting for.
   */
  constructor(elements, {send, showError, game, report, rejoin}) {
    this.elements = elements;
    this.game = game;
    this.rejoin = rejoin;
    // Why this reader writes in neither chat (a guest, a visitor without an account), or "".
    this.closed = elements.closed;
    this.readable = false;  // whether this page may show the spectators' channel now
    this.selected = null;  // the tab chosen; null until the first state: the page's own channel
    this.unread = {players: 0, spectators: 0};
    this.form = new ChatForm(elements, {
      showError: showError,
      send: (text, sent) => send("chat", {text: text}, sent),
    });
    this.panels = {};
    for (const channel of CHANNELS) {
      this.panels[channel] = new ChatPanel({log: elements.channels[channel].log},
        {decorate: tagRole, report: report});
      elements.channels[channel].tab.addEventListener("click", () => this.select(channel));
    }
    elements.tabs.addEventListener("keydown", (event) => this.keydown(event));
    elements.toggle.checked = readSetting(SETTING);
    elements.toggle.addEventListener("change", () => this.toggled());
  }

  /** The state from join_game: both histories, and whether the spectators' may be shown. */
  showState(state) {
    this.panels.players.showHistory(state.chat);
    this.readable = Array.isArray(state.spectator_chat);
    this.panels.spectators.showHistory(this.readable ? state.spectator_chat : []);
    if (this.selected === null) this.selected = this.ownChannel();
    // A player's switch shows what the server now does for them.
    if (this.game.isPlayer() && this.game.status !== "finished") this.elements.toggle.checked = this.readable;
    this.render();
  }

  /** A `chat` event, into its channel's log. */
  receive(data) {
    const channel = data.channel === "spectators" ? "spectators" : "players";
    if (channel === "spectators" && !this.readable) return;
    if (this.panels[channel].receive(data) && channel !== this.shown()) this.unread[channel] += 1;
    this.render();
  }

  /** The end opened the spectators' chat (chat_opened): what they said, to read from now. */
  opened(data) {
    this.readable = true;
    this.panels.spectators.showHistory(data.chat);
    this.render();
  }

  /** The game ended: both channels are open to everyone, said in them or not. */
  gameEnded() {
    this.readable = true;
    this.render();
  }

  ownChannel() {
    return this.game.isPlayer() ? "players" : "spectators";
  }

  /** The tab on show: the one chosen, or the players' when there is only that one. */
  shown() {
    return this.readable ? this.selected || this.ownChannel() : "players";
  }

  select(channel) {
    this.selected = channel;
    this.render();
  }

  /** Left and right arrows, Home and End move between the tabs, as in any tab list. */
  keydown(event) {
    const index = CHANNELS.indexOf(this.shown());
    const moves = {ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: CHANNELS.length - 1};
    if (!(event.key in moves)) return;
    event.preventDefault();
    const channel = CHANNELS[(moves[event.key] + CHANNELS.length) % CHANNELS.length];
    this.select(channel);
    this.elements.channels[channel].tab.focus();
  }

  /** The setting is saved to the account, then the page joins again: the server reads it at a
      join. Turned on, the spectators' tab is the one shown. */
  toggled() {
    const on = this.elements.toggle.checked;
    if (on) this.selected = "spectators";
    writeSetting(SETTING, on).then(() => this.rejoin());
  }

  render() {
    const shown = this.shown();
    show(this.elements.tabs, this.readable);
    for (const channel of CHANNELS) {
      const {tab, panel, unread} = this.elements.channels[channel];
      const selected = channel === shown;
      if (selected) this.unread[channel] = 0;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
      show(panel, selected);
      unread.textContent = this.unread[channel] ? String(this.unread[channel]) : "";
      show(unread, this.unread[channel] > 0);
    }
    const writes = !this.closed && shown === this.ownChannel();
    show(this.elements.form, writes);
    // A reader who writes in neither chat has the page's own line saying why (room-chat-closed).
    const why = writes || this.closed ? "" : (shown === "players"
      ? t("Only the players write here.") : t("The spectators write here; you can read along."));
    this.elements.readOnly.textContent = why;
    show(this.elements.readOnly, why !== "");
    show(this.elements.option, this.game.isPlayer() && this.game.status !== "finished");
  }
}
