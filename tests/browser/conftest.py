"""Helpers for driving the site in Chromium like a person would."""

from __future__ import annotations

import pytest

PASSWORD = "correct horse"


def register_in_browser(page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/register")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base_url}/hall")


def login_in_browser(page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/login")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base_url}/hall")


@pytest.fixture
def browser_player(live_server, new_page):
    """A registered player in a fresh browser context, standing in the hall."""

    def make(username: str, viewport: dict | None = None, **options):
        page = new_page(viewport, **options)
        register_in_browser(page, live_server.url, username)
        return page

    return make
