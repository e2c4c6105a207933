"""The analysis view of ``quintet serve``'s page in a real headless Chromium.

One server and one browser for the module (tests/support/browser.py).  The
scenario: deal seed 1, lay out all 25 cards by clicking, check the combinations
shown against the library, grade the packets (the verdict and losses shown are
the library's), switch to Russian.  The table, the trainer and the session are
tests/e2e/test_web_app.py.  Screenshots go to ``$QUINTET_SCREENSHOTS`` (default
``tests/artifacts/``, not committed).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from solver.analysis.grade import grade
from solver.game.arrangement import Arrangement
from solver.game.deal import deal
from solver.game.evaluator import category
from solver.game.payloads import cards_payload
from solver.game.rules import Category, Rules
from tests.support.browser import css, open_browser, script_errors, set_size, shot, until

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with open_browser() as driver:
        set_size(driver, "desktop")
        yield driver


def hand_codes(driver) -> list[str]:
    return [card.get_attribute("data-card") for card in css(driver, "#hand .card")]


def packet_codes(driver, position: int) -> list[str]:
    return [c.get_attribute("data-card") for c in css(driver, f"#packet-{position} .card")]


def deal_seed(driver, base: str, seed: int) -> None:
    # lang=en: the page keeps a language chosen before (the scenario switches to Russian).
    driver.get(base + "/?view=analysis&lang=en")
    until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-ready"), "page")
    field = driver.find_element("id", "seed")
    field.clear()
    field.send_keys(str(seed))
    driver.find_element("id", "deal-seed").click()
    until(driver, lambda d: len(hand_codes(d)) == 25, "25 cards in the hand")


def combinations_shown(driver) -> list[str]:
    until(
        driver,
        lambda d: all(c.get_attribute("data-category") for c in css(d, ".packet .combo")),
        "every packet's combination",
    )
    return [c.get_attribute("data-category") for c in css(driver, ".packet .combo")]


# ======================================================================= the scenario


def test_deal_lay_out_by_clicking_play_and_switch_to_russian(server, browser):
    driver = browser
    deal_seed(driver, server, 1)
    assert hand_codes(driver) == cards_payload(sorted(deal(1).holdings[0], reverse=True))
    shot(driver, "01-dealt")

    # Click every card, always the hand's first: the packets fill in order.
    order = hand_codes(driver)
    for laid in range(25):
        css(driver, "#hand .card")[0].click()
        until(driver, lambda d, n=laid: len(hand_codes(d)) == 24 - n, "a card leaves the hand")
        if laid == 12:
            shot(driver, "02-half-laid")
    assert [packet_codes(driver, p) for p in range(1, 6)] == [
        order[i : i + 5] for i in range(0, 25, 5)
    ]

    # The combinations shown are the library's, and each packet shows its strength.
    mine = Arrangement.parse(" | ".join(" ".join(order[i : i + 5]) for i in range(0, 25, 5)))
    expected = [Category(int(k)).name.lower() for k in category(mine.array())]
    assert combinations_shown(driver) == expected
    strengths = [int(s.get_attribute("data-strength")) for s in css(driver, ".packet .strength")]
    assert strengths == [int(s) for s in mine.strengths()]
    assert css(driver, "#laid-count")[0].get_attribute("data-count") == "25"
    shot(driver, "03-laid-out")

    # Grade the packets: the verdict and the figures shown are the library's.
    driver.find_element("id", "grade-btn").click()
    shown = until(driver, lambda d: css(d, "#a-grade-verdict"), "the grade's verdict")[0]
    expected_grade = grade(mine, deal(1).holdings[1])
    assert shown.get_attribute("data-verdict") == expected_grade.verdict.value
    assert float(shown.get_attribute("data-loss")) == pytest.approx(
        expected_grade.equilibrium_loss, abs=1e-9
    )
    assert f"equilibrium loss {expected_grade.equilibrium_loss:.3f} points" in shown.text
    exploitability = css(driver, "#a-grade-exploitability")[0]
    assert float(exploitability.get_attribute("data-exploitability")) == pytest.approx(
        expected_grade.exploitability
    )
    if expected_grade.change is not None:
        change = css(driver, "#a-grade-change")[0]
        assert change.get_attribute("data-kind") == expected_grade.change.kind.value
        assert float(change.get_attribute("data-loss")) == pytest.approx(
            expected_grade.change.equilibrium_loss, abs=1e-9
        )
    driver.execute_script("document.getElementById('grade-panel').scrollIntoView()")
    shot(driver, "03b-graded")

    # Russian: every page string and the combinations change; the URL keeps the language.
    driver.find_element("id", "lang-ru").click()
    until(driver, lambda d: d.find_element("tag name", "h1").text == "Квинтет", "the Russian title")
    assert driver.find_element("id", "grade-btn").text == "Оценить"
    names = [c.text for c in css(driver, ".packet .combo")]
    assert names == [Category(int(k)).russian for k in category(mine.array())]
    russian = {"best": "лучшая", "good": "хорошая", "inaccuracy": "неточность"}
    russian |= {"mistake": "ошибка", "blunder": "грубая ошибка"}
    assert driver.find_element("id", "a-grade-verdict").text.startswith(
        f"Оценка: {russian[expected_grade.verdict.value]}; потеря против равновесия "
    )
    assert parse_qs(urlparse(driver.current_url).query)["lang"] == ["ru"]
    driver.execute_script("window.scrollTo(0, 0)")
    shot(driver, "06-russian")
    assert not script_errors(driver)


# ======================================================================= other ways in


def test_keyboard_and_drag_and_drop(server, browser):
    driver = browser
    deal_seed(driver, server, 2)
    first, second, third = hand_codes(driver)[:3]
    card = css(driver, f'#hand [data-card="{first}"]')[0]
    card.send_keys("3")  # keys 1-5 put the focused card into that packet
    until(driver, lambda d: packet_codes(d, 3) == [first], "the card in packet 3")
    css(driver, f'#hand [data-card="{second}"]')[0].send_keys("\n")  # Enter: the selected packet
    until(driver, lambda d: packet_codes(d, 1) == [second], "the card in packet 1")
    # HTML5 drag and drop, with the events a drag makes (Selenium cannot drag natively).
    driver.execute_script(
        """
        const [code, target] = arguments;
        const data = new DataTransfer();
        const card = document.querySelector(`#hand [data-card="${code}"]`);
        card.dispatchEvent(new DragEvent("dragstart", {dataTransfer: data, bubbles: true}));
        const zone = document.getElementById(target);
        zone.dispatchEvent(new DragEvent("dragover", {dataTransfer: data, bubbles: true, cancelable: true}));
        zone.dispatchEvent(new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
        """,
        third,
        "packet-5",
    )
    until(driver, lambda d: packet_codes(d, 5) == [third], "the dragged card in packet 5")
    # A laid card clicked goes back to the hand.
    css(driver, f'#packet-3 [data-card="{first}"]')[0].click()
    until(driver, lambda d: first in hand_codes(d), "the card back in the hand")
    assert not script_errors(driver)


def test_the_url_restores_the_position(server, browser):
    driver = browser
    deal_seed(driver, server, 3)
    for _ in range(7):
        css(driver, "#hand .card")[0].click()
    until(driver, lambda d: len(hand_codes(d)) == 18, "seven cards laid")
    laid = [packet_codes(driver, p) for p in (1, 2)]
    url = driver.current_url
    query = parse_qs(urlparse(url).query)
    assert query["seed"] == ["3"] and query["mode"] == ["mirror"]
    driver.get(server + "/?view=analysis")
    driver.get(url)
    until(driver, lambda d: len(hand_codes(d)) == 18, "the shared position")
    assert [packet_codes(driver, p) for p in (1, 2)] == laid


def test_entered_cards_independent_mode_and_errors(server, browser):
    from selenium.webdriver.support.ui import Select

    driver = browser
    driver.get(server + "/?view=analysis&lang=en")
    until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-ready"), "page")
    independent = deal(4, Rules(discard_mode="independent"))
    driver.find_element("tag name", "summary").click()
    Select(driver.find_element("id", "mode")).select_by_value("independent")
    driver.find_element("id", "cards-input").send_keys(
        " ".join(cards_payload(independent.holdings[0]))
    )
    driver.find_element("id", "deal-cards").click()
    message = until(driver, lambda d: d.find_element("id", "message").text, "an error line")
    assert message == "The opponent's cards are needed in independent mode"  # the page's words
    driver.find_element("id", "opponent-input").send_keys(
        " ".join(cards_payload(independent.holdings[1]))
    )
    driver.find_element("id", "deal-cards").click()
    until(driver, lambda d: len(hand_codes(d)) == 25, "the entered cards")
    shown = [c.get_attribute("data-card") for c in css(driver, "#opponent-hand .card")]
    assert sorted(shown) == sorted(cards_payload(independent.holdings[1]))
    assert sorted(hand_codes(driver)) == sorted(cards_payload(independent.holdings[0]))
    assert independent.holdings[0] != independent.holdings[1]


def test_suggest_and_equilibrium(server, browser):
    driver = browser
    deal_seed(driver, server, 1)
    driver.find_element("id", "suggest-btn").click()
    until(driver, lambda d: css(d, "#apply-suggestion"), "the suggestion")
    assert len(css(driver, "#suggest-table tr[data-position]")) == 5
    css(driver, "#apply-suggestion")[0].click()
    until(driver, lambda d: len(hand_codes(d)) == 0, "the suggestion laid out")
    # Seed 1's best arrangement against a random opponent: full houses, then fours.
    assert combinations_shown(driver) == ["full_house"] * 3 + ["four_of_a_kind"] * 2

    driver.find_element("id", "equilibrium-btn").click()
    until(driver, lambda d: css(d, "#eq-chart polyline"), "the equilibrium chart")
    rows = css(driver, "#eq-table .eq-row")
    assert len(rows) == len(css(driver, "#eq-chart polyline")) >= 1
    total = sum(float(r.get_attribute("data-probability")) for r in rows)
    assert total <= 1 + 1e-9
    driver.execute_script("document.getElementById('equilibrium-panel').scrollIntoView()")
    shot(driver, "07-equilibrium")
    assert not script_errors(driver)


def test_a_running_solve_shows_progress_and_cancels(server, browser):
    driver = browser
    deal_seed(driver, server, 5)
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "payoff")).select_by_value("win")
    driver.find_element("id", "equilibrium-btn").click()
    until(driver, lambda d: d.find_element("id", "progress").is_displayed(), "the progress box")
    assert not driver.find_element("id", "equilibrium-btn").is_enabled()
    shot(driver, "08-progress")
    driver.find_element("id", "cancel").click()
    until(driver, lambda d: not d.find_element("id", "progress").is_displayed(), "progress gone")
    assert driver.find_element("id", "message").text == "Cancelled."
    assert driver.find_element("id", "equilibrium-btn").is_enabled()


def test_every_page_string_is_in_both_languages(server, browser):
    import re

    from solver.web.app import STATIC

    driver = browser
    driver.get(server + "/?view=analysis")
    until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-ready"), "page")
    keys = driver.execute_script(
        """
        const keys = (o, p) => Object.entries(o).flatMap(([k, v]) =>
            typeof v === "object" ? keys(v, p + k + ".") : [p + k]).sort();
        return {en: keys(I18N.en, ""), ru: keys(I18N.ru, ""),
                used: [...document.querySelectorAll("[data-i18n], [data-i18n-label]")].map(e => e.dataset.i18n || e.dataset.i18nLabel)};
        """
    )
    assert keys["en"] == keys["ru"]
    # The main page's scripts (the analysis pages' own, analysis-*.js, analyze.js and
    # study.js, have their own phrase table, checked by tests/e2e/test_web_analysis.py).
    own = {"analyze.js", "study.js", "i18n.js"}
    script = "".join(
        p.read_text(encoding="utf-8")
        for p in STATIC.glob("*.js")
        if p.name not in own and not p.name.startswith("analysis-")
    )
    used = set(keys["used"]) | set(re.findall(r'\bt\("(\w+)"', script))
    used |= set(re.findall(r'button\([^,]+, "(\w+)"', script))
    assert used <= set(keys["en"]), used - set(keys["en"])
    assert len(used) > 40
