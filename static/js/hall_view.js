/*
 * The hall view as the page keeps it (docs/protocol.md, "HallView"): no DOM, no socket.
 * `reset` takes a whole view (hello, hall_view); `apply` takes a hall_update and refuses one
 * whose seq does not follow, so that the page asks for the whole view instead of drifting.
 */

export class HallViewModel {
  constructor() {
    this.seq = null;
    this.counts = {online: 0, playing: 0, waiting: {}};
    this.players = new Map(); // user id -> {id, username, score, status, game_id}
    this.games = new Map();   // game id -> LiveGame
  }

  reset(view) {
    this.seq = view.seq;
    this.counts = view.counts;
    this.players = new Map(view.players.map((p) => [p.id, p]));
    this.games = new Map(view.games.map((g) => [g.game_id, g]));
  }

  /** False (and nothing changed) when updates are missing between the view held and this one;
      an update the view already includes (a late one, after a resync) is skipped, and so is
      one before hello, whose view follows it (or the next update shows the gap). */
  apply(update) {
    if (this.seq === null) return true;
    if (update.seq > this.seq + 1) return false;
    if (update.seq <= this.seq) return true;
    this.seq = update.seq;
    if (update.counts) this.counts = update.counts;
    applyPart(this.players, update.players, (p) => p.id);
    applyPart(this.games, update.games, (g) => g.game_id);
    return true;
  }

  /** The server's order: the highest score first, then the lowest id. */
  sortedPlayers() {
    return Array.from(this.players.values()).sort((a, b) => b.score - a.score || a.id - b.id);
  }

  /** The highest-rated games first (both scores together), then the oldest. */
  sortedGames() {
    const rating = (g) => g.black.score + g.white.score;
    return Array.from(this.games.values()).sort((a, b) => rating(b) - rating(a) || a.game_id - b.game_id);
  }

  waiting() {
    return Object.values(this.counts.waiting || {}).reduce((sum, n) => sum + n, 0);
  }
}

function applyPart(entries, change, keyOf) {
  if (!change) return;
  for (const gone of change.removed || []) entries.delete(gone);
  for (const entry of change.set || []) entries.set(keyOf(entry), entry);
}
