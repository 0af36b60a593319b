"""The hall page tells players about maintenance and a ban."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.live.test_admin import flask

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_maintenance_banner_appears_and_matching_stops(browser_player, live_server):
    page = browser_player("ann")
    expect(page.get_by_test_id("maintenance-notice")).to_be_hidden()
    flask(live_server, "maintenance", "on")
    expect(page.get_by_test_id("maintenance-notice")).to_be_visible()
    expect(page.get_by_test_id("match-button")).to_be_disabled()
    flask(live_server, "maintenance", "off")
    expect(page.get_by_test_id("maintenance-notice")).to_be_hidden()
    expect(page.get_by_test_id("match-button")).to_be_enabled()


def test_banned_player_sees_the_session_end(browser_player, live_server):
    page = browser_player("ann")
    expect(page.get_by_test_id("online-list")).to_contain_text("ann")
    flask(live_server, "ban", "ann")
    expect(page.get_by_test_id("connection-notice")).to_contain_text("ended by the server")
