"""Chromium through Playwright; browser tests fail, not skip, when GOBANG_REQUIRE_BROWSER=1."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.required import missing

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        missing(f"{CHROMIUM} is not installed", "GOBANG_REQUIRE_BROWSER")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser, request: pytest.FixtureRequest) -> Iterator:
    """Make pages in fresh contexts (one per player); screenshots of each on failure."""
    contexts = []

    def make(viewport: dict | None = None, **options):
        """`options` go to Playwright's new_context: has_touch, is_mobile, locale..."""
        context = browser.new_context(
            viewport=viewport or {"width": 1280, "height": 900}, **options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    failed = getattr(request.node, "rep_call", None)
    if failed is not None and failed.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        for index, context in enumerate(contexts):
            for number, page in enumerate(context.pages):
                page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{index}-{number}.png"))
    for context in contexts:
        context.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
