"""A person registers, sees the hall, logs out and back in."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import login_in_browser, register_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_register_see_hall_log_out_and_log_in_again(live_server, new_page):
    page = new_page()
    register_in_browser(page, live_server.url, "alice")
    expect(page.get_by_test_id("me-username")).to_have_text("alice")
    expect(page.get_by_test_id("me-score")).to_have_text("1000")
    expect(page.get_by_test_id("nav-username")).to_have_text("alice")
    page.get_by_test_id("logout").click()
    page.wait_for_url(f"{live_server.url}/login")
    page.goto(f"{live_server.url}/hall")
    page.wait_for_url(f"{live_server.url}/login?next=/hall")
    login_in_browser(page, live_server.url, "alice")
    expect(page.get_by_test_id("me-score")).to_have_text("1000")


def test_bad_registration_shows_the_reason(live_server, new_page):
    page = new_page()
    page.goto(f"{live_server.url}/register")
    page.fill("#username", "al")
    page.fill("#password", "correct horse")
    page.fill("#confirm", "correct horse")
    page.click("button[type=submit]")
    expect(page.locator(".flash.error")).to_contain_text("3 to 20 characters")
