/* What the room page knows of its game: what the server last said, plus the open offers that
   come with the state. Plain data and questions about it; no DOM, no socket. */

export const COLORS = ["black", "white"];

export function other(color) {
  return color === "black" ? "white" : "black";
}

export class RoomGame {
  /** userId: the page's own user, to find their seat again when an opening swaps the seats. */
  constructor(userId = null) {
    this.userId = userId;
    this.loaded = false;
    this.status = null;
    this.ruleset = null;
    this.clock = undefined;  // the time control, [initial, increment] or null; undefined: not said
    this.rated = true;  // false: casual, or against the computer (no score or rating moves)
    this.you = "spectator";
    this.players = {black: null, white: null};
    this.moves = [];
    this.toMove = null;
    this.result = null;
    this.drawOfferBy = null;
    this.undoRequestBy = null;
    this.rematchBy = null;
    this.rematchGameId = null;  // the rematch's game once it has started
    this.rematchWithdrawn = false;  // an open rematch offer lapsed: the opponent left
    this.inRoom = COLORS.slice();  // the colours of the players whose page is at the game
    this.paused = false;
    this.pauseRequestBy = null;
    this.resumeVotes = [];
    this.opening = null;  // the OpeningState (docs/protocol.md), or null: no opening rule
  }

  /** Takes join_game's whole state (docs/protocol.md, GameState). */
  apply(state) {
    this.loaded = true;
    this.status = state.status;
    this.ruleset = state.ruleset;
    this.clock = state.clock;
    this.rated = state.rated !== false;
    this.players = {black: state.black, white: state.white};
    this.you = state.you || "spectator";
    this.opening = state.opening || null;
    this.moves = (state.moves || []).slice();
    this.toMove = state.to_move;
    this.result = state.result;
    // Open offers come with the state, so a reload shows them again.
    this.drawOfferBy = state.draw_offer || null;
    this.undoRequestBy = state.undo_request || null;
    this.pauseRequestBy = state.pause_request || null;
    this.paused = Boolean(state.paused);
    this.resumeVotes = state.resume_votes || [];
    this.rematchBy = (state.rematch_offers || []).length === 1 ? state.rematch_offers[0] : null;
    this.rematchGameId = state.rematch_game_id || null;
    this.inRoom = (state.players_in_room || COLORS).slice();
  }

  /** Who of the players is at the game's page now (players_in_room after the end;
      opponent_left and opponent_back while it is played). A player leaving a finished game
      withdraws the open rematch offers. */
  setInRoom(colors) {
    this.inRoom = colors.slice();
    const gone = !this.opponentHere();
    this.rematchWithdrawn = gone && (this.rematchWithdrawn || this.rematchBy !== null);
    if (gone) this.rematchBy = null;
  }

  leftRoom(color) {
    this.setInRoom(this.inRoom.filter((each) => each !== color));
  }

  backInRoom(color) {
    if (!this.inRoom.includes(color)) this.setInRoom([...this.inRoom, color]);
  }

  /** Whether the opponent can hear an offer: their page is at the game (always true for a
      spectator, who offers nothing). */
  opponentHere() {
    return !this.isPlayer() || this.inRoom.includes(other(this.you));
  }

  /** A stone_placed that follows the moves we have; false when we missed one. */
  addMove(data) {
    if (data.move !== this.moves.length + 1) return false;
    this.moves.push([data.row, data.col]);
    this.toMove = data.to_move;
    if (data.opening !== undefined) this.opening = data.opening;
    // A standing offer or request is about the position it was made in.
    this.drawOfferBy = this.undoRequestBy = null;
    return true;
  }

  /** The second player came: the game starts. */
  begin(data) {
    this.status = "playing";
    this.inRoom = COLORS.slice();  // the game starts once both players are at it
    this.players = {black: data.black, white: data.white};
    this.toMove = data.to_move || "black";
    if (data.opening !== undefined) this.opening = data.opening;
  }

  /** An opening's step done without a stone (opening_chosen, fifth_offered): a colour choice
      may swap the seats, and with them the page's own colour. */
  openingActed(data) {
    if (data.black && data.white) {
      this.players = {black: data.black, white: data.white};
      this.you = this.seatOf(this.userId);
    }
    this.opening = data.opening || null;
    this.toMove = data.to_move;
    this.drawOfferBy = this.undoRequestBy = null;
  }

  /** The colour of the seat where user `id` sits, or "spectator". */
  seatOf(id) {
    return COLORS.find((color) => this.players[color] && this.players[color].id === id) || "spectator";
  }

  /** The colour to ask for in a new game on the same terms: with an opening, black means
      placing the first stone, which may not be the seat we ended in. */
  firstColor() {
    if (!this.opening || this.you === "spectator") return this.you;
    return this.opening.first === this.userId ? "black" : "white";
  }

  /** The opening's step while it is in progress (docs/protocol.md, OpeningState), else null. */
  openingStep() {
    return this.status === "playing" && this.opening ? this.opening.step : null;
  }

  /** The opening's step when it is ours to take, else null. */
  myOpeningStep() {
    const step = this.openingStep();
    return step && this.isMyTurn() && step.player === this.userId ? step : null;
  }

  /** The colour of the next stone: they alternate from black, whoever places them. */
  nextStoneColor() {
    return this.moves.length % 2 === 0 ? "black" : "white";
  }

  /** An accepted take-back: the moves that remain. */
  takeBack(moves) {
    this.moves = (moves || []).slice();
    this.toMove = this.moves.length % 2 === 0 ? "black" : "white";
    this.undoRequestBy = null;
  }

  finish(result) {
    this.status = "finished";
    this.result = result;
    this.toMove = null;
    this.drawOfferBy = this.undoRequestBy = null;
  }

  /** The colour the computer plays, or null in a game between people. */
  computerColor() {
    return COLORS.find((color) => this.players[color] && this.players[color].computer) || null;
  }

  /** Whether the computer is to move (its engine is thinking). */
  computerThinking() {
    const computer = this.computerColor();
    return computer !== null && this.status === "playing" && !this.paused && this.toMove === computer;
  }

  isPlayer() {
    return this.you === "black" || this.you === "white";
  }

  isMyTurn() {
    return this.isPlayer() && this.status === "playing" && !this.paused && this.toMove === this.you;
  }

  /** Whether our own stone is on the board, so a take-back has something to take; none is
      taken back during an opening. */
  haveMoved() {
    if (this.openingStep()) return false;
    return this.moves.length >= (this.you === "black" ? 1 : 2);
  }

  /** The colour whose clock runs: the server does not time black's first move (an opening's
      first step), nor anyone while the game is paused. */
  clockRunning(color) {
    const started = this.opening ? this.opening.log.length >= 1 : this.moves.length >= 1;
    return this.status === "playing" && !this.paused && this.toMove === color && started;
  }
}
