"""The player's app on a phone, and the trainer's gaps (issue #39 items 6, 7, 10), in headless Chromium.

Errors show where the player looks (a toast fixed to the viewport) and bad input takes the
old hand away; the suggestion and equilibrium tables stack as cards at 390 px with their
"use" buttons on screen; the hand and the five packets fit about one phone screen; a finger
drags a card (Pointer Events); no page scrolls sideways at 390 px.  The trainer gives a hint
before submitting, deals its queued reviews before a session ends, confirms an import,
labels its rating chart above 2 and explains the loss on the grade and the history table.
Screenshots go to ``$QUINTET_SCREENSHOTS`` (default ``tests/artifacts/``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from solver.game.rules import Rules
from tests.e2e.test_web_app import (
    _bad_and_good,
    check_state,
    fresh_page,
    hand,
    lay_out,
)
from tests.support.browser import (
    css,
    ready,
    script_errors,
    set_size,
    shot,
    until,
)

pytestmark = pytest.mark.e2e


def in_viewport(driver: Any, element_id: str) -> bool:
    """The element wholly inside the viewport (what the player sees without scrolling)."""
    return driver.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return r.height > 0 && r.top >= 0 && r.left >= 0"
        " && r.bottom <= innerHeight && r.right <= innerWidth;",
        element_id,
    )


def analysis_page(driver: Any, server: str, lang: str) -> None:
    driver.get(f"{server}/?view=analysis&lang={lang}&seed=1")
    ready(driver)
    until(driver, lambda d: len(hand(d)) == 25, "the deal")


# ======================================================================= 6. errors in view


@pytest.mark.parametrize(("size", "lang"), [("phone", "en"), ("phone", "ru"), ("desktop", "en")])
def test_bad_cards_show_an_error_in_view_and_take_the_old_hand_away(server, browser, size, lang):
    driver = browser
    set_size(driver, size)
    analysis_page(driver, server, lang)
    driver.find_element("id", "enter-cards").click()
    field = driver.find_element("id", "cards-input")
    field.clear()
    field.send_keys("As Kh Zz")
    button = driver.find_element("id", "deal-cards")
    # The player has scrolled down to the button: the page's top is off-screen on a phone.
    driver.execute_script("arguments[0].scrollIntoView({block: 'end'})", button)
    button.click()
    message = until(driver, lambda d: d.find_element("id", "message").text, "the error")
    assert "Zz" in message
    assert driver.find_element("id", "message").get_attribute("data-kind") == "error"
    assert in_viewport(driver, "message")
    # The old hand no longer looks accepted: the table (hand and packets) is gone.
    assert not driver.find_element("id", "table").is_displayed()
    assert driver.execute_script("return Quintet.state.holding.length") == 0
    check_state(driver, "50-bad-cards-toast", size, lang, "deal-cards")
    assert in_viewport(driver, "message")
    # A tap dismisses the toast; good cards bring the table back.
    driver.find_element("id", "message").click()
    assert driver.find_element("id", "message").text == ""
    driver.find_element("id", "seed").clear()
    driver.find_element("id", "seed").send_keys("2")
    driver.find_element("id", "deal-seed").click()
    until(driver, lambda d: len(hand(d)) == 25, "the new deal")
    assert driver.find_element("id", "table").is_displayed()
    assert not script_errors(driver)


# ======================================================================= 7. tables, layout, touch


def use_buttons_on_screen(driver: Any, selector: str) -> list[str]:
    """The buttons of ``selector`` that stick out sideways or sit in a box scrolled sideways."""
    return driver.execute_script(
        """
        const out = [];
        for (const b of document.querySelectorAll(arguments[0])) {
            const r = b.getBoundingClientRect();
            if (r.left < 0 || r.right > document.documentElement.clientWidth) out.push(b.textContent + " " + r.right);
        }
        for (const box of document.querySelectorAll(".scroll")) {
            if (box.scrollWidth > box.clientWidth + 1) out.push("scroll box " + box.scrollWidth + " > " + box.clientWidth);
        }
        return out;
        """,
        selector,
    )


# Desktop Russian: the suggestion's header "ожидаемые очки" was cut in its half panel.
@pytest.mark.parametrize(
    ("size", "lang"), [("phone", "ru"), ("phone", "en"), ("desktop", "en"), ("desktop", "ru")]
)
def test_suggest_and_equilibrium_tables_fit_the_screen(server, browser, size, lang):
    driver = browser
    set_size(driver, size)
    analysis_page(driver, server, lang)
    driver.find_element("id", "suggest-btn").click()
    until(driver, lambda d: css(d, "#suggest-table tbody tr"), "the suggestion")
    driver.find_element("id", "equilibrium-btn").click()
    until(driver, lambda d: css(d, "#eq-table .use-eq"), "the equilibrium")
    assert use_buttons_on_screen(driver, "#apply-suggestion, .use-eq") == []
    stacked = driver.execute_script(
        "return getComputedStyle(document.querySelector('#eq-table thead')).display === 'none'"
    )
    assert stacked == (size == "phone")  # cards on a phone, a table on a desktop
    if size == "phone":
        # Each stacked cell says what it is.
        labels = driver.execute_script(
            "return [...document.querySelectorAll('#suggest-table tbody tr:first-child td')]"
            ".map(c => getComputedStyle(c, '::before').content)"
        )
        assert all(label not in ("none", "normal", "") for label in labels), labels
    check_state(driver, "51-suggest-cards", size, lang, "suggest-panel")
    check_state(driver, "52-equilibrium-cards", size, lang, "eq-table")
    # A row's "use" lays its arrangement out.
    css(driver, ".use-eq")[0].click()
    until(driver, lambda d: len(hand(d)) == 0, "the arrangement laid out")
    assert not script_errors(driver)


def test_a_deal_is_laid_out_on_about_one_phone_screen(server, browser):
    driver = browser
    set_size(driver, "phone")
    analysis_page(driver, server, "en")
    span = driver.execute_script(
        "const top = document.getElementById('hand').getBoundingClientRect().top;"
        "const bottom = document.getElementById('packets').getBoundingClientRect().bottom;"
        "return bottom - top;"
    )
    # The hand (25 cards, 4 rows) and five empty packets: within one 844 px screen.
    assert span <= 844 - 100, span
    shot(driver, "53-compact-table-phone-en", "table")


def touch_drag(driver: Any, source: Any, target: Any) -> None:
    """A finger on ``source``, moved in steps onto ``target``, lifted (pointerType "touch")."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    start = source.rect
    end = target.rect
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    scroll_x, scroll_y = driver.execute_script("return [scrollX, scrollY]")
    actions.pointer_action.move_to_location(int(x0 - scroll_x), int(y0 - scroll_y))
    actions.pointer_action.pointer_down()
    for step in np.linspace(0.1, 1.0, 6):
        actions.pointer_action.move_to_location(
            int(x0 + (x1 - x0) * step - scroll_x), int(y0 + (y1 - y0) * step - scroll_y)
        )
    actions.pointer_action.pointer_up()
    actions.perform()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_finger_drags_a_card_into_a_packet_and_back(server, browser, size):
    driver = browser
    set_size(driver, size)
    analysis_page(driver, server, "en")
    driver.execute_script("document.getElementById('table').scrollIntoView()")
    card = css(driver, "#hand .card")[3]
    code = card.get_attribute("data-card")
    touch_drag(driver, card, driver.find_element("id", "packet-3"))
    until(driver, lambda d: code not in hand(d), "the card leaves the hand")
    packets = driver.execute_script("return Quintet.state.packets")
    assert packets[2] == [code]
    assert sum(map(len, packets)) == 1  # only the dragged card moved (no tap placed another)
    laid = css(driver, f"#packet-3 [data-card='{code}']")[0]
    touch_drag(driver, laid, driver.find_element("id", "hand"))
    until(driver, lambda d: code in hand(d), "the card back in the hand")
    assert driver.execute_script("return Quintet.state.packets.flat().length") == 0
    assert not script_errors(driver)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_page_scrolls_sideways_at_390_px(server, browser, lang):
    driver = browser
    set_size(driver, "phone")
    for path in (
        "/?view=play",
        "/?view=train",
        "/?view=analysis&seed=1",
        "/analyze.html",
        "/study.html",
    ):
        driver.get(f"{server}{path}{'&' if '?' in path else '?'}lang={lang}")
        until(
            driver, lambda d: d.find_element("tag name", "body").get_attribute("data-ready"), path
        )
        if path.startswith("/?"):
            until(driver, lambda d: len(hand(d)) == 25, "the deal on the table")
        wide = driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        assert wide[0] <= wide[1], (path, wide)
    assert not script_errors(driver)


# ======================================================================= 10. the trainer


@pytest.mark.parametrize(("size", "lang"), [("phone", "ru"), ("desktop", "en")])
def test_the_trainer_hints_reviews_before_the_end_and_explains_the_loss(
    server, browser, tmp_path, size, lang
):
    driver = browser
    set_size(driver, size)
    fresh_page(driver, server, "train", lang)
    # A session of one deal: its bad play queues a review that must still be dealt.
    deals = driver.find_element("id", "session-deals")
    deals.clear()
    deals.send_keys("1")
    driver.find_element("id", "new-session").click()
    until(driver, lambda d: len(hand(d)) == 25, "the session's deal")
    bad, best = _bad_and_good(40)

    # The hint: where the equilibrium's most likely arrangement puts its strongest packet.
    driver.find_element("id", "hint-btn").click()
    line = until(
        driver, lambda d: d.find_element("id", "hint-text").get_attribute("data-position"), "hint"
    )
    assert int(line) == int(np.argmax(best.strengths(Rules()))) + 1
    assert in_viewport(driver, "hint-text") or size == "desktop"
    check_state(driver, "54-trainer-hint", size, lang, "hint-btn")

    lay_out(driver, bad)
    driver.find_element("id", "submit-btn").click()
    until(driver, lambda d: css(d, "#grade-verdict"), "the grade")
    explained = driver.find_element("id", "grade-explained").text
    assert ("points per deal" in explained) == (lang == "en")
    assert ("очках за сдачу" in explained) == (lang == "ru")
    assert driver.find_element("id", "history-loss-explained").is_displayed()
    # The rating chart's scale goes on above 2.
    ticks = [float(t.get_attribute("data-value")) for t in css(driver, "#rating-chart .tick")]
    assert any(v > 2 for v in ticks), ticks
    check_state(driver, "55-trainer-grade-explained", size, lang, "train-grade")

    # One deal, played badly: the next is its review, not the session's end.
    driver.find_element("id", "train-next").click()
    until(
        driver,
        lambda d: d.find_element("id", "train-deal").get_attribute("data-review") == "true",
        "the review",
    )
    assert driver.find_element("id", "message").text == ""
    assert driver.execute_script("return Quintet.session.get().current.deal") == 0

    # An import is confirmed where the player looks.
    exported = tmp_path / "history.jsonl"
    exported.write_text(driver.execute_script("return Quintet.session.historyText()"), "utf-8")
    assert json.loads(Path(exported).read_text("utf-8").splitlines()[0])["deal"] == 0
    driver.execute_script("document.getElementById('session-panel').scrollIntoView()")
    driver.find_element("id", "import-history").send_keys(str(exported))
    message = until(driver, lambda d: d.find_element("id", "message").text, "the confirmation")
    assert driver.find_element("id", "message").get_attribute("data-kind") == "ok"
    assert "1" in message
    assert in_viewport(driver, "message")
    check_state(driver, "56-import-confirmed", size, lang, "session-panel")
    assert not script_errors(driver)
