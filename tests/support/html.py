"""Find elements by `data-testid` in a page, with the standard library's HTML parser."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
         "track", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join("".join(self.parts).split())


class _Finder(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.open: list[Element] = []
        self.found: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})
        if "data-testid" in element.attrs:
            self.found.append(element)
        if tag not in _VOID:
            self.open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})
        if "data-testid" in element.attrs:
            self.found.append(element)

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index].tag == tag:
                del self.open[index:]
                return

    def handle_data(self, data: str) -> None:
        for element in self.open:
            element.parts.append(data)


def by_testid(page: str, testid: str) -> list[Element]:
    finder = _Finder()
    finder.feed(page)
    finder.close()
    return [e for e in finder.found if e.attrs["data-testid"] == testid]


def texts(page: str, testid: str) -> list[str]:
    return [element.text for element in by_testid(page, testid)]


def text(page: str, testid: str) -> str:
    found = texts(page, testid)
    assert len(found) == 1, f"{len(found)} elements with data-testid={testid!r}"
    return found[0]


def section(page: str, section_id: str) -> str:
    """The markup of the page's <section id=...>, up to its first </section> (so not for one
    that holds another)."""
    found = re.search(rf'<section[^>]*id="{section_id}".*?</section>', page, re.S)
    assert found is not None, f"no <section id={section_id!r}>"
    return found.group(0)


class _Metas(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        key = values.get("property") or values.get("name")
        if tag == "meta" and key:
            assert key not in self.found, f"two <meta> for {key!r}"
            self.found[key] = values.get("content", "")


def metas(page: str) -> dict[str, str]:
    """The page's <meta> tags, {property or name: content} (Open Graph uses `property`)."""
    parser = _Metas()
    parser.feed(page)
    parser.close()
    return parser.found
