/*
 * "Play the computer" in the hall (templates/play/_computer.html): level, colour, ruleset and
 * clock go out as play_computer; on success the page goes to the new game. Kept apart from
 * hall.js, which hands it the page's session (one /hall connection per page).
 */

import {followRuleset, offerOpenings} from "./opening_choice.js";
import {$} from "./page.js";

/** Sets a select to `value` when it offers it; says whether it did. */
function choose(select, value) {
  if (!Array.from(select.options).some((option) => option.value === value)) return false;
  select.value = value;
  return true;
}

/** /hall?computer=<level>&ruleset=<r>&clock=<name>&color=<c>[&opening=<o>] ("New opponent"
    after a game against the computer): start that game once, then drop the query so that a
    reload does not start another. Nothing happens for a choice the panel does not offer, or
    with a game of ours in play (`hello` is the server's greeting). */
function fromAddress(form, hello) {
  const params = new URLSearchParams(window.location.search);
  if (!params.has("computer")) return;
  window.history.replaceState(null, "", window.location.pathname);
  if (hello.current_game != null) return;
  const clock = params.get("clock") === "none" ? "" : (params.get("clock") || "").replace(/[+ ]/, ",");
  const ruleset = $("computer-ruleset");
  const chosen = choose($("computer-level"), params.get("computer"))
    && choose(ruleset, params.get("ruleset"))
    && choose($("computer-clock"), clock) && choose($("computer-color"), params.get("color"));
  offerOpenings(ruleset, $("computer-opening"));
  const opening = params.get("opening") || "none";
  if (chosen && !choose($("computer-opening"), opening)) return;
  if (chosen && $("computer-opening").selectedOptions[0].disabled) return;
  if (chosen) form.requestSubmit();
}

/** session: hall.js's PageSession; onBusy(gameId): a game of ours is already in play.
    Returns fromAddress(hello), for hall.js to call once greeted. */
export function startComputerPanel(session, onBusy) {
  const form = $("computer-form");
  if (!form) return () => {};
  followRuleset($("computer-ruleset"), $("computer-opening"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const payload = {
      level: Number($("computer-level").value),
      color: $("computer-color").value,
      ruleset: $("computer-ruleset").value,
      opening: $("computer-opening").value,
    };
    const clock = $("computer-clock").value;
    if (clock) payload.clock = clock.split(",").map(Number);
    session.request("play_computer", payload, (ack) => session.leave(`/game/${ack.game_id}`), (ack) => {
      if (ack.error === "busy" && ack.game_id != null) onBusy(ack.game_id);
    });
  });
  return (hello) => fromAddress(form, hello);
}
