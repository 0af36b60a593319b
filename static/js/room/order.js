/**
 * The room's events in the order the game's state changed (docs/protocol.md, "Numbered
 * events"). Each event of a game in play carries `v`, one more than the game's event before.
 * An event at or below the number we have is already in our state; a gap means we missed one,
 * and the page asks for the whole state instead of applying the rest on a stale game.
 */
export class EventOrder {
  /** `resync`: asks for the whole state (join_game); `reset` follows with its number. */
  constructor(resync) {
    this.resync = resync;
    this.last = null;  // no numbered state yet: events are taken as they come
    this.waiting = false;
  }

  /** The state from join_game; its `v` (a finished game's state has none). */
  reset(v) {
    this.last = typeof v === "number" ? v : null;
    this.waiting = false;
  }

  /** Whether to apply this event now. Events without a number (after the end) always are. */
  admit(data) {
    const v = data ? data.v : undefined;
    if (typeof v !== "number") return true;
    if (this.waiting) return false;  // the state asked for covers it
    if (this.last === null) return true;
    if (v <= this.last) return false;
    if (v !== this.last + 1) {
      this.waiting = true;
      this.resync();
      return false;
    }
    this.last = v;
    return true;
  }

  /** `socket` as the room's pieces listen to it, with every handler behind `admit`. */
  listenerOn(socket) {
    return {on: (name, handler) => socket.on(name, (data) => { if (this.admit(data)) handler(data); })};
  }
}
