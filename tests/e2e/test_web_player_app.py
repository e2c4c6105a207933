"""The player's app in a real headless Chromium: matches, history, language, units.

Each test is one defect a new player met, checked as the player meets it:
a match deals fresh deals (never the trainer's review queue) and the house
player's layout varies with the match's seed; "use this browser's session
history" sees the trainer's deals; errors on a Russian page are Russian, in
the page's words; a setting that can only fail is not offered; the language
comes from the browser, is kept across a reload and across links; the win
payoff's value reads as a probability; Play, Submit and Grade wait for 25
cards; the Study page without a book says so in the page's words.
Screenshots go to ``$QUINTET_SCREENSHOTS`` (default ``tests/artifacts/``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from solver.game.arrangement import score
from solver.game.deal import deal
from solver.models.house import house_arrangement
from solver.play.variation import varied
from tests.e2e.test_web_app import (
    SESSION_SEED,
    _bad_and_good,
    check_state,
    fresh_page,
    hand,
    lay_out,
    press,
)
from tests.support.browser import (
    css,
    ready,
    script_errors,
    set_size,
    shot,
    until,
)
from tests.support.phrases import leftovers

pytestmark = pytest.mark.e2e


def page_language(driver: Any) -> str:
    return driver.execute_script("return document.documentElement.lang")


# ======================================================================= 1. fresh deals


def test_a_match_deals_fresh_deals_and_the_house_player_varies(server, browser):
    driver = browser
    set_size(driver, "desktop")
    fresh_page(driver, server, "play", "en")
    driver.find_element("id", "match-target").clear()
    driver.find_element("id", "match-target").send_keys("3")
    driver.find_element("id", "new-match").click()
    match_seed = driver.execute_script("return Quintet.session.get().match.seed")
    assert isinstance(match_seed, int)
    for game in range(3):
        # Every deal laid out badly: each enters the review queue, which the match never deals.
        deal_seed = SESSION_SEED + game
        bad, _ = _bad_and_good(deal_seed)
        lay_out(driver, bad)
        driver.find_element("id", "play-btn").click()
        until(driver, lambda d: css(d, "#duel .duel-position"), "the table's packets")
        press(driver, "reveal-all")
        final = until(driver, lambda d: css(d, "#final-score"), "the final score")[0]
        theirs = varied(
            house_arrangement(deal(deal_seed).holdings[1]),
            np.random.default_rng([deal_seed, 2, match_seed + game]),
        )
        expected = score(bad, theirs)
        assert final.get_attribute("data-points") == "{}:{}".format(*expected.points)
        if game < 2:
            press(driver, "next-deal")
            until(driver, lambda d: len(hand(d)) == 25 and not css(d, "#duel .duel-position"), "")
    session = driver.execute_script("return Quintet.session.get()")
    assert [g["deal"] for g in session["match"]["games"]] == [0, 1, 2]  # no deal twice
    assert sorted(e["deal"] for e in session["queue"]) == [0, 1, 2]  # left to the trainer
    shot(driver, "40-match-fresh-deals-desktop-en", "game")
    assert not script_errors(driver)


# ======================================================================= 2. one history


def test_the_analyze_page_reads_the_trainers_session(server, browser):
    driver = browser
    set_size(driver, "phone")
    fresh_page(driver, server, "train", "ru")
    bad, _ = _bad_and_good(SESSION_SEED)
    lay_out(driver, bad)
    driver.find_element("id", "submit-btn").click()
    until(driver, lambda d: css(d, "#grade-verdict"), "the grade")
    # The main page's link opens the Analyze page in Russian (the language goes along).
    link = css(driver, "nav a[data-page='/analyze.html']")[0]
    assert link.get_attribute("href").endswith("/analyze.html?lang=ru")
    driver.get(link.get_attribute("href"))
    ready(driver)
    assert page_language(driver) == "ru"
    driver.find_element("id", "use-session").click()
    until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-state") in (
        "done", "failed"), "the analysis")  # fmt: skip
    assert driver.find_element("id", "message").text == ""
    assert driver.find_element("id", "deals-graded").get_attribute("data-deals") == "1"
    shot(driver, "41-analyze-session-phone-ru")
    # A file without a deal: the server's reason, in Russian.
    driver.execute_script(
        """
        const data = new DataTransfer();
        data.items.add(new File([arguments[0]], "bad.jsonl"));
        const zone = document.getElementById("drop");
        zone.dispatchEvent(new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
        """,
        '{"seed": 1}\n',
    )
    text = until(driver, lambda d: d.find_element("id", "message").text, "the error")
    assert "нет сдач для оценки (пропущено строк: 1; первая — строка 1: нет раскладки)" in text
    assert not driver.find_elements("css selector", "#message [lang=en]")
    shot(driver, "46-analyze-error-phone-ru")
    assert not script_errors(driver)


# ======================================================================= 3, 4, 9. the analysis view


def test_russian_errors_settings_and_units_in_the_analysis_view(server, browser):
    from selenium.webdriver.support.ui import Select

    driver = browser
    for size in ("phone", "desktop"):
        set_size(driver, size)
        driver.get(f"{server}/?view=analysis&lang=ru&seed=1")
        ready(driver)
        until(driver, lambda d: len(hand(d)) == 25, "the deal")
        # Independent mode, your cards but not the opponent's: a Russian line, the page's words.
        Select(driver.find_element("id", "mode")).select_by_value("independent")
        driver.find_element("id", "enter-cards").click()
        field = driver.find_element("id", "cards-input")
        field.clear()
        field.send_keys(" ".join(hand(driver)))
        driver.find_element("id", "deal-cards").click()
        message = until(driver, lambda d: d.find_element("id", "message").text, "the error")
        assert message == "В независимом режиме нужны карты противника"
        assert leftovers(message) == []
        check_state(driver, "42-error-russian", size, "ru", "message")
        Select(driver.find_element("id", "mode")).select_by_value("mirror")
        driver.get(f"{server}/?view=analysis&lang=ru&seed=1")
        ready(driver)
        until(driver, lambda d: len(hand(d)) == 25, "the deal")

        # Opponent "equilibrium": the objective is not offered (it could only fail).
        Select(driver.find_element("id", "against")).select_by_value("equilibrium")
        assert not driver.find_element("id", "objective").is_enabled()
        assert driver.find_element("id", "objective-note").is_displayed()
        Select(driver.find_element("id", "payoff")).select_by_value("win")
        driver.find_element("id", "suggest-btn").click()
        summary = until(driver, lambda d: css(d, "#suggest-summary"), "the suggestion")[0]
        assert driver.find_element("id", "message").text == ""
        assert "вероятность, не очки" in summary.text
        # After a job, with no card laid, Grade waits for the 25 cards.
        assert len(hand(driver)) == 25
        assert not driver.find_element("id", "grade-btn").is_enabled()
        check_state(driver, "43-suggest-equilibrium", size, "ru", "suggest-panel")
        if size == "desktop":
            # The win payoff's game value: a probability, not points.
            driver.find_element("id", "equilibrium-btn").click()
            line = until(driver, lambda d: css(d, "#eq-summary"), "the equilibrium")[0]
            assert line.get_attribute("data-payoff") == "win"
            value = line.text.split(":")[0]
            assert "очк" not in value and "вероятность, не очки" in line.text
            check_state(driver, "44-equilibrium-win", size, "ru", "equilibrium-panel")
    assert not script_errors(driver)


# ======================================================================= 5. the language


def test_the_language_comes_from_the_browser_and_is_kept(server, browser):
    driver = browser
    set_size(driver, "desktop")
    driver.get(server + "/study.html")
    driver.execute_script("localStorage.clear()")
    agent = driver.execute_script("return navigator.userAgent")
    driver.execute_cdp_cmd(
        "Network.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": "ru-RU,ru,en"}
    )
    try:
        driver.get(server + "/")
        ready(driver)
        assert driver.execute_script("return navigator.languages[0]") == "ru-RU"
        assert page_language(driver) == "ru"  # a Russian browser's first visit
        driver.find_element("id", "lang-en").click()
        driver.get(server + "/")  # a new visit, no lang= in the link
        ready(driver)
        assert page_language(driver) == "en"  # the choice is kept
        driver.get(server + "/study.html")
        until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-ready"), "")
        assert page_language(driver) == "en"
        driver.find_element("id", "lang-ru").click()
        home = css(driver, "nav a[data-page='/']")[0].get_attribute("href")
        driver.get(server + "/analyze.html")
        until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-ready"), "")
        assert page_language(driver) == "ru"
        driver.get(home)
        ready(driver)
        assert page_language(driver) == "ru"
        driver.refresh()
        ready(driver)
        assert page_language(driver) == "ru"
    finally:
        driver.execute_script("localStorage.clear()")
        driver.execute_cdp_cmd(
            "Network.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": "en-US,en"}
        )
    assert not script_errors(driver)


# ======================================================================= 8. study without a book


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ru")])
def test_study_without_a_book_speaks_the_pages_words(server, browser, size, lang):
    driver = browser
    set_size(driver, size)
    driver.get(f"{server}/study.html?lang={lang}")
    until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-state") in (
        "done", "failed"), "the report")  # fmt: skip
    text = until(driver, lambda d: d.find_element("id", "message").text, "the message")
    assert "quintet book build" in text
    assert "/" not in text.replace("quintet book build", "") and "give deals" not in text
    assert ("книги решений" in text) == (lang == "ru")
    if lang == "ru":
        assert leftovers(text.replace("quintet book build", "")) == []
    shot(driver, f"45-study-no-book-{size}-{lang}")
    assert not script_errors(driver)
