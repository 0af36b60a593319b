"""room/order.js in Chromium: the room page applies numbered events in order only, and asks for
the whole state once on a gap (docs/protocol.md, "Numbered events")."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.live]


@pytest.mark.parametrize(("state_v", "events", "admitted", "resyncs", "last"), [
    ("none yet", [9], [True], 0, None),          # before the state: taken, the state follows
    (5, [6], [True], 0, 6),                       # the next one: applied
    (5, [5], [False], 0, 5),                      # in the state already (or sent again)
    (5, [3], [False], 0, 5),                      # older than the state
    (5, [7, 8], [False, False], 1, 5),            # one missed: one resync, then wait for it
    (5, [None], [True], 0, 5),                    # not numbered (after the end): applied
    (None, [None, 4], [True, True], 0, None),     # a finished game's state has no number
])
def test_the_page_applies_events_in_order_only(browser_player, state_v, events, admitted,
                                               resyncs, last):
    page = browser_player("ann")
    result = page.evaluate("""async ([stateV, numbers]) => {
        const {EventOrder} = await import('/static/js/room/order.js');
        let resyncs = 0;
        const order = new EventOrder(() => { resyncs += 1; });
        if (stateV !== "none yet") order.reset(stateV === null ? undefined : stateV);
        const event = (v) => (v === null ? {game_id: 1} : {game_id: 1, v: v});
        const admitted = numbers.map((v) => order.admit(event(v)));
        return [admitted, resyncs, order.last];
    }""", [state_v, events])
    assert result == [admitted, resyncs, last]


def test_after_a_resync_the_states_number_is_where_order_resumes(browser_player):
    page = browser_player("ann")
    result = page.evaluate("""async () => {
        const {EventOrder} = await import('/static/js/room/order.js');
        const order = new EventOrder(() => {});
        order.reset(5);
        order.admit({v: 7});   // a gap: the page asks for the state
        order.reset(8);        // which comes with the number of its last event
        return [order.admit({v: 8}), order.admit({v: 9}), order.last];
    }""")
    assert result == [False, True, 9]
