/*
 * The hall view on the page: the counts, the online players and the live games, kept by
 * HallViewModel (hall_view.js) from hello and hall_update; and finding a player by name.
 */

import {HallViewModel} from "../hall_view.js";
import {t} from "../i18n.js";
import {button, el, renderKeyed, show} from "../page.js";
import {clockLabel} from "../pools.js";
import {rulesetName, statusName} from "./words.js";

export function watchLink(gameId) {
  const watch = el("a", "button-link", t("Watch"));
  watch.href = `/game/${gameId}`;
  watch.dataset.testid = "watch-link";
  return watch;
}

/** "ann (1612)": a player of a live game with their rating in its category, where sent. */
function named(player) {
  return player.rating === undefined ? player.username : `${player.username} (${player.rating})`;
}

/** A live game's line: its players with their ratings, its moves, ruleset and clock. A game
    without `clock` plays the default one (hello's default_clock). */
function gameItem(game, defaultClock) {
  const li = el("li");
  li.dataset.gameId = String(game.game_id);
  const moves = game.moves === 1 ? t("1 move") : t("{count} moves", {count: game.moves});
  const players = t("{black} vs {white}", {black: named(game.black), white: named(game.white)});
  // Only an unrated game carries `rated` (false): casual, or against the computer.
  const unrated = game.rated === false
    ? ` · ${[game.black, game.white].some((p) => p.computer) ? t("Unrated") : t("Casual")}` : "";
  const clock = clockLabel(game.clock === undefined ? defaultClock : game.clock);
  li.appendChild(el("span", "text", `${players} · ${moves} · ${rulesetName(game.ruleset)} · ${clock}${unrated}`));
  li.appendChild(watchLink(game.game_id));
  return li;
}

export class HallLists {
  /** ui: onlineList, onlineCount, onlineMore, counts, gamesList, gamesEmpty, findForm,
      findInput, findResults. challenge(username) challenges; rendered() runs after each
      render (the pool grid shows the view's counts); category() is the rating category the
      Play card's ruleset and clock play in, whose rating each player is shown with. */
  constructor(ui, {myId, session, challenge, rendered, category}) {
    this.ui = ui;
    this.myId = myId;
    this.session = session;
    this.challenge = challenge;
    this.rendered = rendered;
    this.category = category;
    this.categories = []; // hello's rating_categories: the order of a player's `ratings`
    this.defaultClock = null; // hello's default_clock: a live game's that says none
    this.view = new HallViewModel();
    this.resyncing = false;
  }

  bind() {
    this.ui.findForm.addEventListener("submit", (event) => this.find(event));
  }

  /** How many wait in a pool, as the view last said. */
  waiting(pool) {
    return (this.view.counts.waiting || {})[pool] || 0;
  }

  /** The whole view, from hello. */
  reset(view) {
    this.resyncing = false;
    this.view.reset(view);
    this.render();
  }

  update(update) {
    if (this.resyncing) return;
    if (this.view.apply(update)) {
      this.render();
      return;
    }
    // An update went missing: take the whole view again rather than show a wrong one.
    this.resyncing = true;
    this.session.emitWithAck("hall_view", {}, (err, ack) => {
      this.resyncing = false;
      if (err || !ack || !ack.ok) return; // the next gap or reconnect tries again
      this.view.reset(ack.view);
      this.render();
    });
  }

  render() {
    const [ui, view] = [this.ui, this.view];
    const players = view.sortedPlayers();
    renderKeyed(ui.onlineList, players, (user) => user.id, (user) => this.playerItem(user));
    ui.onlineCount.textContent = `(${view.counts.online})`;
    const more = view.counts.online > players.length;
    ui.onlineMore.textContent = more ? t("Showing {shown} of {online}; find anyone else by name.",
      {shown: players.length, online: view.counts.online}) : "";
    show(ui.onlineMore, more);
    ui.counts.textContent = t("{online} online · {playing} playing · {waiting} waiting for a match",
      {online: view.counts.online, playing: view.counts.playing, waiting: view.waiting()});
    const games = view.sortedGames();
    renderKeyed(ui.gamesList, games, (game) => game.game_id,
      (game) => gameItem(game, this.defaultClock));
    show(ui.gamesEmpty, games.length === 0);
    this.rendered();
  }

  playerItem(user) {
    const li = el("li");
    li.dataset.userId = String(user.id);
    li.dataset.status = user.status;
    const who = el("span", "who");
    who.appendChild(el("span", "name", user.username));
    if (user.id === this.myId) who.appendChild(el("span", "you-tag", t("you")));
    const rating = el("span", "score", this.ratingOf(user));
    rating.dataset.testid = "player-rating";
    who.appendChild(rating);
    li.appendChild(who);
    const side = el("span", "actions");
    side.appendChild(el("span", `badge ${user.status}`, statusName(user.status)));
    if (user.id !== this.myId && user.status === "idle" && !this.session.stopped) {
      const challenge = button(t("Challenge"), "challenge-button", () => this.challenge(user.username));
      challenge.setAttribute("aria-label", t("Challenge {name}", {name: user.username}));
      side.appendChild(challenge);
    }
    if (user.id !== this.myId && user.status === "playing" && user.game_id != null) {
      side.appendChild(watchLink(user.game_id));
    }
    li.appendChild(side);
    return li;
  }

  /** "1612", or "1500?" while provisional: the player's rating in the Play card's category
      (where they have none, they stand at the start). */
  ratingOf(user) {
    const place = this.categories.indexOf(this.category());
    if (place < 0) return String(user.score);  // a category nothing on offer plays in
    const [rating, provisional] = (user.ratings || [])[place] || [1500, 1];
    return provisional ? `${rating}?` : String(rating);
  }

  find(event) {
    event.preventDefault();
    const prefix = this.ui.findInput.value.trim();
    if (!prefix) return;
    this.session.request("find_players", {prefix: prefix}, (ack) => {
      const items = ack.players.map((user) => this.playerItem(user));
      if (items.length === 0) items.push(el("li", "muted", t("No one online has a name starting like that.")));
      this.ui.findResults.replaceChildren(...items);
    });
  }
}
