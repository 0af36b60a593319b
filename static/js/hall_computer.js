/*
 * "Play the computer" in the hall (templates/play/_computer.html): level, colour, ruleset and
 * clock go out as play_computer; on success the page goes to the new game. Kept apart from
 * hall.js, which hands it the page's session (one /hall connection per page).
 */

import {$} from "./page.js";

/** session: hall.js's PageSession; onBusy(gameId): a game of ours is already in play. */
export function startComputerPanel(session, onBusy) {
  const form = $("computer-form");
  if (!form) return;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const payload = {
      level: Number($("computer-level").value),
      color: $("computer-color").value,
      ruleset: $("computer-ruleset").value,
    };
    const clock = $("computer-clock").value;
    if (clock) payload.clock = clock.split(",").map(Number);
    session.request("play_computer", payload, (ack) => session.leave(`/game/${ack.game_id}`), (ack) => {
      if (ack.error === "busy" && ack.game_id != null) onBusy(ack.game_id);
    });
  });
}
