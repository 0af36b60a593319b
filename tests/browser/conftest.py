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


def enter_hall(page, server, username: str) -> None:
    """`username` registered over HTTP and its session cookie handed to `page`'s context, which
    then opens the hall. The form itself has its own tests (test_accounts.py); filling it for
    every player took 0.45 s against about 0.2 s this way (the hall's load is in both)."""
    http = server.user(username)
    page.context.add_cookies(
        [{"name": c.name, "value": c.value, "url": server.url} for c in http.cookies])
    page.goto(f"{server.url}/hall")


@pytest.fixture
def browser_player(live_server, new_page):
    """A registered player in a fresh browser context, standing in the hall."""

    def make(username: str, viewport: dict | None = None, **options):
        page = new_page(viewport, **options)
        enter_hall(page, live_server, username)
        return page

    return make
