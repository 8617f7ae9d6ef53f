"""The page in Japanese and English: the first language follows the browser's, the picker switches and remembers
it, `lang` follows it, no visible text of the main views stays in English in Japanese, engine errors are said in
Japanese by their reason, numbers follow the language, and axe-core finds no serious violation in Japanese."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_accessibility import serious_violations

pytestmark = pytest.mark.browser

READY_TIMEOUT_MS = 120_000
EIGHT = "#puzzle=sliding&board=1,2,3/4,5,6/7,0,8&algorithm=idastar&heuristic=manhattan"
# What Japanese text may keep in Latin letters: the product's and tools' names, algorithm symbols, the variables of
# f = g + h, units, board shapes and the heuristic named "auto" (the name a link uses).
ALLOWED = {"Slide", "Lab", "IDA", "Python", "Pyodide", "Web", "Worker", "Korf", "auto", "MB", "GB", "M", "W"}


def english_words(page: Page) -> list[str]:
    """Words of Latin letters in the page's visible text, apart from ALLOWED, single letters (g, h, f, the shapes'
    x), code and keys (<code>, <kbd>, the heuristic editor), what is typed (inputs) and the language picker (each
    language named in itself)."""
    text = page.evaluate("""() => {
        const hidden = [...document.querySelectorAll('code, kbd, #language')];
        hidden.forEach(element => { element.dataset.shown = element.style.display; element.style.display = 'none'; });
        const text = document.body.innerText;
        hidden.forEach(element => { element.style.display = element.dataset.shown; });
        return text;
    }""")
    words = re.findall(r"[A-Za-z]+", text)
    return sorted({w for w in words if len(w) > 1 and w not in ALLOWED})


def open_page(browser, base_url: str, locale: str, fragment: str = EIGHT, **context_args):
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900}, **context_args)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base_url + fragment)
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    return context, page, errors


def test_a_japanese_browser_gets_the_page_in_japanese_with_no_english_left(browser, base_url):
    context, page, errors = open_page(browser, base_url, "ja-JP")
    assert page.evaluate("() => document.documentElement.lang") == "ja"
    expect(page.locator("#solve")).to_have_text("解く")
    expect(page.locator("#solver-status-text")).to_have_text("ソルバーの準備完了")
    page.select_option("#algorithm", "bfs")  # the engine's names, said in Japanese
    expect(page.locator("#algorithm option:checked")).to_have_text("幅優先探索")
    page.select_option("#algorithm", "idastar")
    expect(page.locator("#compare tbody th").first).not_to_have_text("bfs")  # every part has the engine's names
    assert english_words(page) == []
    page.click("#solve")
    expect(page.locator("#result-length")).to_have_text("1 手（最短）", timeout=60_000)
    page.click("#compare .start")
    expect(page.locator("#compare .message")).to_contain_text("件の実行が終わりました", timeout=120_000)
    page.click("#explore .start")
    expect(page.locator("#explore .explore-totals")).to_contain_text("181,440", timeout=120_000)  # digits grouped
    page.click("#watch .watch-start")
    expect(page.locator("#watch .watch-message")).to_contain_text("記録しました", timeout=60_000)
    assert english_words(page) == []
    page.select_option("#puzzle-type", "knights")
    expect(page.locator("#play-help")).to_contain_text("駒をクリック")
    assert english_words(page) == []
    assert errors == []
    context.close()


def test_an_engine_error_is_said_in_japanese_by_its_reason(browser, base_url):
    context, page, _ = open_page(browser, base_url, "ja-JP")
    page.click("details.edit[data-for='sliding'] summary")
    page.fill("#board-text", "2 1 3/4 5 6/7 8 0")
    page.click("#edit-form button[type='submit']")
    expect(page.locator("#solver-message")).to_contain_text("ゴールには決して到達できません", timeout=30_000)
    page.fill("#board-text", "1 2 3/4 5 6/7 8 8")  # the page's own parser: its message is in Japanese too
    page.click("#edit-form button[type='submit']")
    expect(page.locator("#edit-error")).to_have_text("局面が正しくありません: タイル 8 が 2 つ以上あります。")
    context.close()


def test_the_picker_switches_the_language_and_remembers_it(browser, base_url):
    context, page, _ = open_page(browser, base_url, "ja-JP")
    expect(page.locator("#language")).to_have_value("ja")
    with page.expect_navigation():
        page.select_option("#language", "en")
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    assert page.evaluate("() => document.documentElement.lang") == "en"
    assert page.url.endswith(EIGHT)  # the position stays: it is in the link
    expect(page.locator("#solve")).to_have_text("Solve")
    page.goto("about:blank")
    page.goto(base_url)  # a later visit in the same browser keeps the choice over the browser's language
    expect(page.locator("#language")).to_have_value("en")
    expect(page.locator("#reset")).to_have_text("Reset")
    context.close()


def test_an_english_browser_gets_english_and_a_browser_of_neither_language_too(browser, base_url):
    for locale in ("en-GB", "fr-FR"):
        context = browser.new_context(locale=locale)
        page = context.new_page()
        page.goto(base_url + EIGHT)
        expect(page.locator("#reset")).to_have_text("Reset")
        assert page.evaluate("() => document.documentElement.lang") == "en"
        context.close()


def test_the_japanese_views_have_no_serious_accessibility_violation(browser, base_url):
    context, page, _ = open_page(browser, base_url, "ja-JP", bypass_csp=True)
    problems = {"board": serious_violations(page)}
    page.click("#solve")
    expect(page.locator("#result")).to_be_visible(timeout=60_000)
    problems["result"] = serious_violations(page)
    page.select_option("#puzzle-type", "knights")
    expect(page.locator("#solve")).to_be_enabled(timeout=60_000)
    problems["knights"] = serious_violations(page)
    assert problems == {view: [] for view in problems}
    context.close()
