/*
 * The hall's Following card: the players one follows who are online, from `following` (the
 * whole list, after hello) and `following_update` (who came, went, or started or ended a
 * game). Each has Challenge, which opens the challenge dialog as the online list's does, or
 * Watch while they play.
 */

import {t} from "../i18n.js";
import {button, el, renderKeyed, show} from "../page.js";
import {watchLink} from "./lists.js";
import {statusName} from "./words.js";

export class Following {
  /** ui: list, count, empty. challenge(username) asks the terms and challenges. */
  constructor(ui, {session, challenge}) {
    this.ui = ui;
    this.session = session;
    this.challenge = challenge;
    this.players = new Map(); // id -> {id, username, score, status, game_id}
  }

  listen(socket) {
    socket.on("following", (data) => this.reset(data.players || []));
    socket.on("following_update", (data) => this.update(data));
  }

  reset(players) {
    this.players = new Map(players.map((player) => [player.id, player]));
    this.render();
  }

  /** Each entry says where the player is now: applying one again changes nothing. */
  update(data) {
    for (const player of data.set || []) this.players.set(player.id, player);
    for (const id of data.removed || []) this.players.delete(id);
    this.render();
  }

  render() {
    const players = Array.from(this.players.values()).sort((a, b) =>
      a.username.localeCompare(b.username) || a.id - b.id);
    renderKeyed(this.ui.list, players, (player) => player.id, (player) => this.item(player));
    this.ui.count.textContent = `(${players.length})`;
    show(this.ui.empty, players.length === 0);
  }

  item(user) {
    const li = el("li");
    li.dataset.userId = String(user.id);
    li.dataset.status = user.status;
    li.dataset.testid = "followed-player";
    const who = el("span", "who");
    const name = el("a", "name", user.username);
    name.href = `/u/${encodeURIComponent(user.username)}`;
    who.appendChild(name);
    li.appendChild(who);
    const side = el("span", "actions");
    side.appendChild(el("span", `badge ${user.status}`, statusName(user.status)));
    if (user.status === "playing" && user.game_id != null) {
      side.appendChild(watchLink(user.game_id));
    } else if (!this.session.stopped) {
      const challenge = button(t("Challenge"), "following-challenge", () => this.challenge(user.username));
      challenge.setAttribute("aria-label", t("Challenge {name}", {name: user.username}));
      side.appendChild(challenge);
    }
    li.appendChild(side);
    return li;
  }
}
