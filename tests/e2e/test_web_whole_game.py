"""The Study page with no book: the whole game's summary shipped with the package.

A first run has no solution book; the page says so and shows the shipped
summary's figures (the same numbers as ``quintet report --summary``), at
1280 and 390 px, in English and Russian.
"""

from __future__ import annotations

import pytest

from solver.app.whole_game import WholeGameRequest, whole_game
from tests.e2e.test_web_analysis import _russian_page_has_no_english
from tests.support.browser import (
    SIZES,
    axe_violations,
    css,
    script_errors,
    shot,
    sideways,
    small_targets,
    until,
)

pytestmark = pytest.mark.e2e

WIDTHS = {"desktop": 1280, "phone": 390}


def _open(driver, url: str, size: str) -> None:
    width, height = WIDTHS[size], SIZES[size][1]
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"},
    )
    driver.get(url)
    until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-ready"), "page")
    until(driver, lambda d: d.find_element("id", "whole").is_displayed(), "the whole game")


def _fits(driver, size: str) -> None:
    """Nothing scrolls sideways at the device's width; tap targets of 44 px; axe finds nothing."""
    assert driver.execute_script("return window.innerWidth") == WIDTHS[size]
    assert not sideways(driver)
    assert not small_targets(driver)
    assert not axe_violations(driver)


def _shown_figures(driver, payoff: str) -> None:
    expected = whole_game(WholeGameRequest(payoff=payoff)).document["payoffs"][0]
    text = driver.find_element("id", "whole-text")
    assert text.get_attribute("data-payoff") == payoff
    assert text.get_attribute("data-classes") == str(expected["classes"])
    bars = [float(b.get_attribute("data-value")) for b in css(driver, "#whole-concede .bar")]
    assert bars == pytest.approx([p["concede"]["mean"] for p in expected["positions"]])
    whiskers = css(driver, "#whole-concede .whisker")
    assert [float(w.get_attribute("data-high")) for w in whiskers] == pytest.approx(
        [p["concede"]["interval"][1] for p in expected["positions"]]
    )
    assert len(css(driver, "#whole-combinations .segment")) >= 5
    hardest = expected["hardest"]
    rows = min(5, len(hardest["support"])) + min(5, len(hardest["slowest"]))
    assert len(css(driver, "#whole-hardest tbody tr")) == rows
    first = expected["hardest"]["support"][0]["removed"]
    assert first in driver.find_element("id", "whole-hardest").text


@pytest.mark.parametrize("size", WIDTHS)
def test_study_without_a_book_shows_the_shipped_summary(server, browser, size):
    driver = browser
    _open(driver, server + "/study.html?lang=en", size)
    until(driver, lambda d: "no solution book" in d.find_element("id", "message").text, "no book")
    _shown_figures(driver, "margin")
    assert not driver.find_element("id", "whole-warning").is_displayed()
    shot(driver, f"32-study-whole-game-{size}")
    _fits(driver, size)
    # The win payoff: its own figures.
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "payoff")).select_by_value("win")
    css(driver, "#run-report")[0].click()
    until(driver, lambda d: "payoff=win" in d.current_url, "the payoff in the URL")
    until(
        driver,
        lambda d: (
            d.find_element("id", "whole-text").get_attribute("data-classes")
            == str(whole_game(WholeGameRequest(payoff="win")).document["payoffs"][0]["classes"])
        ),
        "the win figures",
    )
    _shown_figures(driver, "win")
    assert not script_errors(driver)


@pytest.mark.parametrize("size", WIDTHS)
def test_study_without_a_book_in_russian(server, browser, size):
    driver = browser
    _open(driver, server + "/study.html?lang=ru", size)
    until(driver, lambda d: "нет книги" in d.find_element("id", "message").text, "no book")
    _shown_figures(driver, "margin")
    assert driver.find_element("id", "whole-title").text == "Вся игра"
    _russian_page_has_no_english(driver)
    shot(driver, f"33-study-whole-game-russian-{size}")
    _fits(driver, size)
    assert not script_errors(driver)
