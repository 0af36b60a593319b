"""Two languages, English and Simplified Chinese.

A request's language is the `lang` cookie set by the switcher (`/lang/<code>`), else the first
language of the browser's Accept-Language that we have, else English. Socket.IO events run in a
request context made from the connection's handshake, so they get the same answer and their
error messages follow the page's language too. Catalogues live in gobang/translations/
(`make translations` extracts, updates and compiles them).
"""

from __future__ import annotations

from flask import Flask, has_request_context, request, url_for
from flask_babel import get_locale, gettext

from gobang.extensions import babel
from gobang.i18n.js_messages import JS_MESSAGES
from gobang.i18n.labels import (
    category_label,
    color_label,
    opening_label,
    outcome_label,
    reason_label,
    ruleset_label,
    time_control_label,
)

DEFAULT_LANGUAGE = "en"
# Locale id -> the language's name in itself, as the switcher shows it.
LANGUAGES = {"en": "English", "zh_Hans": "中文"}
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600
# Chinese regions and scripts read as Simplified Chinese; Traditional ones (zh-TW, zh-Hant)
# are not, and fall through to the next language the browser asks for.
_SIMPLIFIED = {"hans", "cn", "sg", "my"}


def language_for_tag(tag: str) -> str | None:
    """One of LANGUAGES for a BCP 47 tag such as `zh-CN` or `en-GB`, or None."""
    parts = tag.strip().replace("_", "-").lower().split("-")
    if parts[0] == "en":
        return "en"
    if parts[0] == "zh" and (len(parts) == 1 or parts[1] in _SIMPLIFIED):
        return "zh_Hans"
    return None


def select_language() -> str | None:
    """The locale selector: the cookie, then Accept-Language (best quality first)."""
    if not has_request_context():
        return None  # background work and commands speak English
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    for tag, quality in request.accept_languages:
        found = language_for_tag(tag) if quality > 0 else None  # q=0: "not this one"
        if found:
            return found
    return None


def current_language() -> str:
    locale = get_locale()
    return str(locale) if locale is not None and str(locale) in LANGUAGES else DEFAULT_LANGUAGE


def html_lang(language: str) -> str:
    """The BCP 47 form for `<html lang>` and `hreflang`: zh_Hans -> zh-Hans."""
    return language.replace("_", "-")


def language_switch_url(language: str) -> str:
    """The switcher's link: back to this page afterwards (a page that answered a POST has no
    address to come back to, so that one goes to the start page)."""
    here = request.full_path.rstrip("?") if request.method == "GET" else None
    return url_for("i18n.switch", language=language, next=here)


def js_catalogue() -> dict[str, str]:
    """The page scripts' strings in the current language, keyed by their English text (the
    scripts fall back to the key, so English needs no catalogue at all)."""
    if current_language() == DEFAULT_LANGUAGE:
        return {}
    return {message: gettext(message) for message in JS_MESSAGES}


def init_app(app: Flask) -> None:
    babel.init_app(app, default_locale=DEFAULT_LANGUAGE, locale_selector=select_language)

    @app.context_processor
    def language_context() -> dict[str, object]:
        language = current_language()
        return {
            "current_language": language,
            "html_lang": html_lang(language),
            "languages": LANGUAGES,
            "js_catalogue": js_catalogue,
            "language_switch_url": language_switch_url,
            "category_label": category_label,
            "color_label": color_label,
            "opening_label": opening_label,
            "outcome_label": outcome_label,
            "reason_label": reason_label,
            "ruleset_label": ruleset_label,
            "time_control_label": time_control_label,
        }
