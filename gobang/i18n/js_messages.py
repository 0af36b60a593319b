"""The words the page scripts (static/js) look up with t(key), keyed by their English text.

Marked with N_ so that `make translations` extracts them with the rest; the pages get them
translated in a JSON block (gobang.i18n.js_catalogue). tests/test_i18n.py checks that this
list and the scripts' t("...") calls agree."""

from __future__ import annotations


def N_(message: str) -> str:
    """Marks a message for extraction (Babel looks for `N_`) and returns it unchanged."""
    return message


_BOARD = (
    N_("black stone, move {n}"),
    N_("white stone, move {n}"),
    N_("Board"),
    N_("selected: press again to place your stone"),
)
_HALL = (
    N_("Challenge {name}"),
    N_("you play black"),
    N_("you play white"),
    N_("five or more in a row wins"),
    N_("exactly five wins; six or more does not"),
    N_("black: exactly five, no double-three, double-four or overline; white: five or more"),
    N_("freestyle"),
    N_("standard"),
    N_("renju"),
    N_("idle"),
    N_("queued"),
    N_("playing"),
    N_("Something went wrong."),
    N_("The server did not answer. Try again."),
    N_("Matching… (click to cancel)"),
    N_("Match"),
    N_("{count} waiting"),
    N_("No clock"),
    N_("you"),
    N_("Challenge"),
    N_("Showing {shown} of {online}; find anyone else by name."),
    N_("{online} online · {playing} playing · {waiting} waiting for a match"),
    N_("No one online has a name starting like that."),
    N_("Challenge sent to {name} ({ruleset}); waiting for an answer…"),
    N_("({score}) challenges you · {ruleset}"),
    N_("Accept"),
    N_("Decline"),
    N_("{name} declined your challenge."),
    N_("Your challenge was declined."),
    N_("Your challenge to {name} was cancelled."),
    N_("1 move"),
    N_("{count} moves"),
    N_("{black} vs {white}"),
    N_("Watch"),
    N_("Messages are at most 300 characters."),
    N_("This hall is open in another tab."),
    N_("Use this tab"),
    N_("Connection lost; reconnecting…"),
    N_("Can't reach the server; retrying…"),
    N_("Could not join the hall ({reason}). Reload the page to try again."),
)
_ROOM = (
    N_("Casual"),
    N_("Unrated"),
    N_("five in a row"),
    N_("resignation"),
    N_("player left"),
    N_("out of time"),
    N_("draw agreed"),
    N_("board full"),
    N_("aborted"),
    N_("freestyle"),
    N_("standard"),
    N_("renju"),
    N_("black"),
    N_("white"),
    N_("spectator"),
    N_("Something went wrong."),
    N_("The server did not answer. Try again."),
    N_("Waiting for opponent…"),
    N_("White to move"),
    N_("Black to move"),
    N_("Your turn"),
    N_("Opponent's turn"),
    N_("Draw"),
    N_("White won"),
    N_("Black won"),
    N_("You won!"),
    N_("You lost"),
    N_("Draw offered"),
    N_("Offer draw"),
    N_("Take-back requested"),
    N_("Take back"),
    N_("Accept rematch"),
    N_("Rematch"),
    N_("Rematch offered; waiting for your opponent."),
    N_("Your opponent offers a rematch."),
    N_("Your opponent left, so the rematch offer is withdrawn."),
    N_("Your opponent left the game."),
    N_("Black did not move in {seconds} s."),
    N_("White did not move in {seconds} s."),
    N_("Black did not come to the game in {seconds} s."),
    N_("White did not come to the game in {seconds} s."),
    N_("Neither player came to the game in {seconds} s."),
    N_("Both players left the game."),
    N_("The server's host aborted the game."),
    N_("The game could not be started."),
    N_("Game not found"),
    N_("Could not join the game"),
    N_("The server did not answer. Reload the page to try again."),
    N_("white {point}"),
    N_("black {point}"),
    N_("Your opponent left. They lose in {seconds}s unless they come back."),
    N_("White ({name}) left. They lose in {seconds}s unless they come back."),
    N_("Black ({name}) left. They lose in {seconds}s unless they come back."),
    N_("White offered a draw."),
    N_("Black offered a draw."),
    N_("White asked to take back a move."),
    N_("Black asked to take back a move."),
    N_("The draw offer was declined."),
    N_("The take-back was declined."),
    N_("A move was taken back."),
    N_("White offers a rematch."),
    N_("Black offers a rematch."),
    N_("Messages are at most 300 characters."),
    N_("This game is open in another tab."),
    N_("Use this tab"),
    N_("Sound off"),
    N_("Sound on"),
    N_("Your move"),
    N_("Connection lost; reconnecting…"),
    N_("Can't reach the server; retrying…"),
    N_("Could not connect ({reason}). Reload the page to try again."),
    N_("{count} watching"),
    N_("Paused"),
    N_("Pause"),
    N_("Resume"),
    N_("Pause requested"),
    N_("Waiting to resume"),
    N_("The pause was declined."),
    N_("Your opponent wants to resume."),
    N_("Your session was ended by the server's host."),
)
# The room's move list, abort countdown and renju hints (and the board's mark for them).
_ROOM_PLAY = (
    N_("Aborted"),
    N_("Move within {time} or the game is aborted."),
    N_("The game is aborted unless a move comes within {time}."),
    N_("forbidden for black"),
)
# Chat lines' Report link (hall and room) and the room's two chats (static/js/room/chat.js).
_CHAT = (
    N_("Report"),
    N_("Report {name}'s message"),
    N_("Only the players write here."),
    N_("The spectators write here; you can read along."),
)
# The hall's word on the player's own game (static/js/hall_game.js).
_HALL_GAME = (
    N_("You left it: it is lost in {time} unless you go back."),
    N_("Game #{id} against {name}"),
    N_("Rating {before} → {after} ({change})"),
    N_("Casual, no rating change."),
    N_("Unrated, no rating change."),
    N_("Dismiss"),
    N_("aborted, no score change."),
    N_("a draw ({reason})."),
    N_("you won, your opponent left the game."),
    N_("you lost, you left the game."),
    N_("you won ({reason})."),
    N_("you lost ({reason})."),
)
# Opening rules, as the hall's challenges and every page's toast name them
# (static/js/hall/words.js).
_OPENINGS = (
    N_("no opening rule"),
    N_("Swap"),
    N_("Swap2"),
    N_("Taraguchi-10"),
)
# Challenges on every page (static/js/site.js, static/js/attention.js).
_SITE = (
    N_("Challenge from {name}"),
    N_("({score}) challenges you · {ruleset}"),
    N_("Accept"),
    N_("Decline"),
    N_("freestyle"),
    N_("standard"),
    N_("renju"),
    N_("The server did not answer. Try again."),
)
_REPLAY = (
    N_("Move {n} of {total}"),
    N_("Link copied."),
    N_("Copy the selected link."),
)
# The replay's computer analysis (static/js/replay_analysis.js, static/js/analysis_graph.js)
# and the board's mark for the engine's best move.
_REPLAY_ANALYSIS = (
    N_("Queued: position {n}"),
    N_("Analysing: {done} of {total} positions"),
    N_("Analysing…"),
    N_("The analysis failed."),
    N_("Something went wrong."),
    N_("The server did not answer. Try again."),
    N_("Inaccuracy"),
    N_("Mistake"),
    N_("Blunder"),
    N_("Move {n}, {point}: {label} ({mark})"),
    N_("Move {n}, {point}: no mistake"),
    N_("Step to a move to see the engine's view of it."),
    N_("The engine's best move was {point}."),
    N_("The engine's choice too."),
    N_("Black's chances: {before}% → {after}%"),
    N_("Missed a VCF: {line}"),
    N_("Missed a VCT: {line}"),
    N_("move {n} of the missed win"),
    N_("Start: black's chances {chance}%"),
    N_("Move {n}, {point}: black's chances {chance}%"),
    N_("Move {n}, {point}: black's chances {chance}%, {label}"),
    N_("the engine's best move"),
    N_("Black's chances, move by move"),
)
# Playing the computer: its name in the room, and the hall's panel.
_COMPUTER = (
    N_("Computer · level {level}"),
)

# Openings in the room and the replay (static/js/openings.js, static/js/room/opening.js) and
# the board's marks for them; the rules' names are the hall's (_OPENINGS).
_OPENING = (
    N_("Opening: {rule}"),
    N_("{name} places stone {n} of {total} (black)."),
    N_("{name} places stone {n} of {total} (white)."),
    N_("{name} places stone {n} (black) within the central {side}×{side}."),
    N_("{name} places stone {n} (white) within the central {side}×{side}."),
    N_("{name} chooses: play black, play white, or place two more stones."),
    N_("{name} chooses a colour: play black or play white."),
    N_("{name} places the fifth stone within the central {side}×{side}, or offers {count} "
       "fifth stones to choose from."),
    N_("{name} picks one of the {count} offered fifth stones."),
    N_("After stone {n}, {name} chose to play black."),
    N_("After stone {n}, {name} chose to play white."),
    N_("After stone {n}, {name} chose to place two more stones."),
    N_("{name} offered {count} fifth stones: {points}."),
    N_("{name} picked the fifth stone at {point}."),
    N_("The opening is over: {black} plays black, {white} plays white."),
    N_("Place the fifth stone instead"),
    N_("Offer {count} fifth stones"),
    N_("{marked} of {count} marked: click points on the board to mark or unmark them."),
    N_("{name} chose to play black."),
    N_("{name} chose to play white."),
    N_("{name} chose to place two more stones."),
    N_("offered fifth stone"),
    N_("marked to offer"),
    N_("{name} placed the first stone."),
    N_("The game ended during the opening."),
    N_("After the opening, {black} played black and {white} played white."),
)
_PUZZLES = (
    N_("Find the forced win: you play black"),
    N_("Find the forced win: you play white"),
    N_("Solved"),
    N_("Failed"),
    N_("The forced win: {line}"),
)

# static/js/analysis/analysis.js, and the engine's best move as board.js describes it.
_ANALYSIS_BOARD = (
    N_("the engine's best move"),
    N_("{point} is forbidden for black."),
    N_("{move} (main line)"),
    N_("Delete the variation from {move}"),
    N_("black"),
    N_("white"),
    N_("The engine is thinking…"),
    N_("Something went wrong."),
    N_("The server did not answer. Try again."),
    N_("Black {black}% · White {white}%"),
    N_("Best move: {move}. Line: {line}"),
    N_("No move to suggest: the game is over."),
    N_("Checking the position…"),
    N_("Black wins: five in a row."),
    N_("White wins: five in a row."),
    N_("The board is full: a draw."),
    N_("Black to move"),
    N_("White to move"),
)

_TOURNAMENT = (
    N_("Starts in"),
    N_("Ends in"),
    N_("Starts soon"),
    N_("Running"),
    N_("Finished"),
    N_("Cancelled"),
    N_("On a streak: the next game counts double"),
    N_("withdrawn"),
    N_("Watch"),
    N_("Not sent: try again in a moment."),
    N_("Next round in"),
    N_("{round} of {rounds}"),
    N_("bye"),
    N_("Game"),
)

JS_MESSAGES: tuple[str, ...] = tuple(dict.fromkeys(
    _BOARD + _HALL + _ROOM + _ROOM_PLAY + _CHAT + _HALL_GAME + _OPENINGS + _SITE + _REPLAY
    + _COMPUTER + _OPENING + _PUZZLES + _REPLAY_ANALYSIS + _ANALYSIS_BOARD
    + _TOURNAMENT))
