"""Two languages: the catalogues are complete and compiled, and each request gets its language
from the `lang` cookie or Accept-Language, English by default."""

from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from flask_babel import force_locale

from gobang.i18n import language_for_tag
from gobang.i18n.js_messages import JS_MESSAGES
from gobang.i18n.labels import color_label, outcome_label, reason_label, result_label
from tests.support.forms import logout, post_form, register
from tests.support.html import by_testid, text

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "gobang" / "translations"
PO = TRANSLATIONS / "zh_Hans" / "LC_MESSAGES" / "messages.po"
MO = PO.with_suffix(".mo")
# As the Makefile's `translations` target extracts them.
KEYWORDS = {**DEFAULT_KEYWORDS, "lazy_gettext": None, "_l": None}
# t("...") calls in the page scripts (i18n.js defines t, so "function t(" is not a call).
JS_CALL = re.compile(r'(?<![\w$.])(?<!function )t\(\s*("(?:[^"\\]|\\.)*")?')
PERCENT = re.compile(r"%\((\w+)\)[sdr]")
BRACES = re.compile(r"\{(\w+)\}")
CJK = re.compile(r"[\u4e00-\u9fff]")


def catalogue():
    with PO.open("rb") as f:
        return read_po(f, locale="zh_Hans")


def message_key(message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def message_strings(message) -> tuple[str, ...]:
    """A message's translation(s): one string, or one per plural form."""
    return (message.string,) if isinstance(message.string, str) else tuple(message.string)


def extracted() -> set[str]:
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS):
        found.add(message if isinstance(message, str) else message[0])
    return found


def js_keys() -> list[str]:
    keys = []
    scripts = ROOT / "static" / "js"
    for path in sorted(scripts.rglob("*.js")):
        if path.name == "i18n.js":
            continue
        for call in JS_CALL.finditer(path.read_text()):
            name = path.relative_to(scripts)
            assert call.group(1), f"t() needs a string literal key in {name}: {call.group(0)}"
            keys.append(json.loads(call.group(1)))
    return keys


# --- the catalogue ----------------------------------------------------------------------------


def test_every_message_is_translated_and_none_is_fuzzy():
    cat = catalogue()
    assert not cat.fuzzy
    problems = []
    for message in cat:
        if not message.id:
            continue
        if message.fuzzy or not all(message_strings(message)):
            problems.append(message_key(message))
    assert problems == []


def test_catalogue_holds_exactly_the_messages_in_the_code():
    """Run `make translations` when this fails: new text is missing, or old text lingers."""
    in_catalogue = {message_key(m) for m in catalogue() if m.id}
    in_code = extracted()
    assert sorted(in_code - in_catalogue) == []
    assert sorted(in_catalogue - in_code) == []


def test_translations_keep_every_placeholder():
    cat = catalogue()
    for message in cat:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for pattern in (PERCENT, BRACES):
            wanted = set(pattern.findall(ids[-1]))
            for string in message_strings(message):
                assert set(pattern.findall(string)) == wanted, message.id
    assert [error for _message, errors in cat.check() for error in errors] == []


def test_compiled_catalogue_matches_the_po_file():
    """The .mo is committed: after editing the .po, `make translations` compiles it."""
    with MO.open("rb") as f:
        compiled = {message_key(m): message_strings(m) for m in read_mo(f) if m.id}
    source = {message_key(m): message_strings(m) for m in catalogue() if m.id}
    assert compiled == source


def test_page_scripts_ask_only_for_listed_messages():
    """Every t("...") key in static/js is in gobang/i18n/js_messages.py, and nothing more."""
    assert set(js_keys()) == set(JS_MESSAGES)


def test_page_script_catalogue_is_chinese_for_every_key(app):
    from gobang.i18n import js_catalogue

    with app.test_request_context(headers={"Accept-Language": "zh-CN"}):
        words = js_catalogue()
    assert set(words) == set(JS_MESSAGES)
    assert [key for key, value in words.items() if not CJK.search(value)] == []
    with app.test_request_context():
        assert js_catalogue() == {}  # English pages use the keys themselves


@pytest.mark.parametrize(
    ("label", "code", "english", "chinese"),
    [
        (color_label, "black", "black", "黑方"),
        (outcome_label, "win", "win", "胜"),
        (reason_label, "draw_agreed", "draw agreed", "协议和棋"),
        (reason_label, "something_new", "something_new", "something_new"),
    ],
)
def test_labels_follow_the_language(app, label, code, english, chinese):
    with app.test_request_context():
        assert label(code) == english
        with force_locale("zh_Hans"):
            assert label(code) == chinese


def test_replay_headline_names_the_winner(app):
    with app.test_request_context(), force_locale("zh_Hans"):
        assert result_label("white", "five") == "白方胜"
        assert result_label(None, "draw_agreed") == "和"


# Refusals of events that arrive before Flask-SocketIO makes a request context: no language.
UNTRANSLATABLE = {("gobang/sockets/base.py", "trigger_event")}


def plain_text_refusals() -> list[str]:
    """ActionError, AccountError and flash messages written as bare text, not gettext(...)."""
    found = []
    for path in sorted((ROOT / "gobang").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text())
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if (name, function.name) in UNTRANSLATABLE:
                continue
            for call in ast.walk(function):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
                    continue
                index = {"ActionError": 1, "AccountError": 0, "flash": 0}.get(call.func.id)
                if index is not None and len(call.args) > index and isinstance(
                        call.args[index], ast.Constant | ast.JoinedStr):
                    found.append(f"{name}:{call.lineno}")
    return found


def test_refusal_messages_go_through_gettext():
    """Socket refusals, account errors and flashes reach people: wrap them in gettext()."""
    assert plain_text_refusals() == []


# --- picking the language -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "language"),
    [("zh", "zh_Hans"), ("zh-CN", "zh_Hans"), ("zh-Hans", "zh_Hans"), ("zh-Hans-CN", "zh_Hans"),
     ("zh_CN", "zh_Hans"), ("ZH-cn", "zh_Hans"), ("zh-SG", "zh_Hans"), ("zh-TW", None),
     ("zh-Hant", None), ("en", "en"), ("en-GB", "en"), ("fr", None), ("*", None)],
)
def test_language_for_tag(tag, language):
    assert language_for_tag(tag) == language


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.get_data(as_text=True)).group(1)


@pytest.mark.parametrize(
    ("accept", "lang", "heading"),
    [
        (None, "en", "Log in"),
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh-Hans", "登录"),
        ("zh", "zh-Hans", "登录"),
        ("en-US,en;q=0.9,zh-CN;q=0.8", "en", "Log in"),
        ("fr-FR, zh-Hans;q=0.5", "zh-Hans", "登录"),
        ("zh-TW", "en", "Log in"),
        ("zh;q=0, de", "en", "Log in"),
        ("de", "en", "Log in"),
    ],
)
def test_page_language_follows_accept_language(client, accept, lang, heading):
    headers = {"Accept-Language": accept} if accept else {}
    response = client.get("/login", headers=headers)
    assert html_lang(response) == lang
    assert f"<h1>{heading}</h1>" in response.get_data(as_text=True)


def test_cookie_outranks_accept_language(client):
    client.set_cookie("lang", "zh_Hans")
    response = client.get("/login", headers={"Accept-Language": "en"})
    assert html_lang(response) == "zh-Hans"
    client.set_cookie("lang", "en")
    assert html_lang(client.get("/login", headers={"Accept-Language": "zh-CN"})) == "en"


def test_unknown_cookie_value_is_ignored(client):
    client.set_cookie("lang", "xx")
    assert html_lang(client.get("/login", headers={"Accept-Language": "zh-CN"})) == "zh-Hans"


def test_switcher_sets_a_cookie_for_a_year_and_goes_back(client):
    response = client.get("/lang/zh_Hans?next=/leaderboard?page=2")
    assert response.status_code == 302
    assert response.headers["Location"] == "/leaderboard?page=2"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=zh_Hans;")
    assert "Max-Age=31536000" in cookie and "SameSite=Lax" in cookie and "HttpOnly" in cookie
    page = client.get("/leaderboard")
    assert html_lang(page) == "zh-Hans"
    assert "排行榜" in page.get_data(as_text=True)
    client.get("/lang/en?next=/leaderboard")
    assert html_lang(client.get("/leaderboard")) == "en"


@pytest.mark.parametrize(
    "target",
    ["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)",
     "evil.example", ""],
)
def test_switcher_goes_back_only_to_this_site(client, target):
    response = client.get("/lang/zh_Hans", query_string={"next": target})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


def test_switcher_refuses_unknown_languages(client):
    response = client.get("/lang/fr")
    assert response.status_code == 404
    assert "Set-Cookie" not in response.headers


def test_header_links_to_the_other_language_and_back_here(client):
    page = client.get("/leaderboard?page=1").get_data(as_text=True)
    [link] = by_testid(page, "lang-zh_Hans")
    assert link.attrs["href"] == "/lang/zh_Hans?next=/leaderboard?page%3D1"
    assert link.attrs["lang"] == "zh-Hans"
    assert by_testid(page, "lang-en") == []  # the current language is not a link


def test_flash_messages_and_form_errors_are_translated(client):
    headers = {"Accept-Language": "zh-CN"}
    register(client, "alice")
    logout(client)
    page = post_form(client, "/login", {"username": "alice", "password": "wrong password"},
                     headers=headers).get_data(as_text=True)
    assert "用户名或密码错误。" in page
    page = post_form(client, "/login", {"username": "", "password": ""},
                     headers=headers).get_data(as_text=True)
    assert "请输入用户名。" in page and "请输入密码。" in page
    page = post_form(client, "/register", {"username": "al", "password": "x", "confirm": "x"},
                     headers=headers).get_data(as_text=True)
    assert "用户名长度须为 3 到 20 个字符。" in page


def test_error_pages_are_translated(client):
    response = client.get("/no/such/page", headers={"Accept-Language": "zh-CN"})
    assert response.status_code == 404
    assert "页面不存在" in response.get_data(as_text=True)
    api = client.get("/api/games/999999", headers={"Accept-Language": "zh-CN"})
    assert api.get_json() == {"error": "page_not_found"}  # codes stay English


def script_words(page: str) -> dict[str, str]:
    holder = re.search(r"<div id=\"i18n\" data-i18n='([^']*)' hidden>", page)
    return json.loads(html.unescape(holder.group(1)))


def test_hall_carries_the_script_words_in_a_data_attribute(client):
    register(client, "alice")
    assert script_words(client.get("/hall").get_data(as_text=True)) == {}
    client.set_cookie("lang", "zh_Hans")
    chinese = client.get("/hall").get_data(as_text=True)
    words = script_words(chinese)
    assert words["Your turn"] == "轮到你了"
    assert words["Opponent's turn"] == "轮到对手"  # the quote is escaped in the attribute
    assert text(chinese, "me-username") == "alice"
    assert "<dt>积分</dt>" in chinese
