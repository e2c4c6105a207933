"""The duel in two real browsers (two headless Chromium sessions, each its own profile).

One opens a room, the other joins by the link; a third browser tab with the
link is refused; both lay out (the guest by tapping its cards), each sees the
other lay down without reloading (the page waits on the server's answer), the
table turns over, and each sees the score from their side and the grade of
their own play, equal to the project's grading of it.  At 1280 px in English
(mirror mode) and at 390 px in Russian (independent mode): nothing scrolls
sideways on the phone, no serious axe-core violation, no English word left
on the Russian page.  The other pages' axe runs are at the end.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from solver.analysis.grade import grade
from solver.game.arrangement import Arrangement, score
from solver.game.cards import parse_cards
from solver.game.rules import DiscardMode, Rules
from tests.e2e.test_web_app import check_state, hand, lay_out_by_clicking
from tests.support.browser import (
    axe_violations,
    css,
    open_browser,
    ready,
    set_size,
    shot,
    sideways,
    until,
)

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def other_browser() -> Iterator[Any]:
    """The second player's browser: its own profile, its own storage."""
    with open_browser() as driver:
        yield driver


# The final score's points and each position's outcome, once the table is turned over.
BOARD = """
const final = document.getElementById("duel-final");
return final && [final.dataset.points,
    [...document.querySelectorAll(".duel-position")].map(c => c.dataset.outcome)];
"""


def status(driver: Any) -> tuple[str | None, str | None]:
    return tuple(  # type: ignore[return-value]
        driver.execute_script(
            "const l = document.getElementById('duel-status');"
            "return [l.dataset.phase || null, l.dataset.laid || null];"
        )
    )


def holding_of(driver: Any) -> tuple[int, ...]:
    return tuple(sorted(parse_cards(" ".join(hand(driver)))))


def lay_out_in_order(driver: Any) -> Arrangement:
    """The whole hand laid out by the page's own function (the desktop player)."""
    order = hand(driver)
    packets = [order[i : i + 5] for i in range(0, 25, 5)]
    driver.execute_script("Quintet.layout.setArrangement(arguments[0])", packets)
    until(driver, lambda d: len(hand(d)) == 0, "the arrangement laid out")
    return Arrangement.parse(" | ".join(" ".join(p) for p in packets))


@pytest.mark.parametrize(
    ("size", "lang", "mode"),
    [
        ("laptop", "en", "mirror"),
        ("phone", "ru", "independent"),
        ("laptop", "ru", "independent"),
        ("phone", "en", "mirror"),
    ],
)
def test_two_browsers_play_a_duel_to_the_grade(server, browser, other_browser, size, lang, mode):
    from selenium.webdriver.support.ui import Select

    host, guest = browser, other_browser
    for driver in (host, guest):
        set_size(driver, size)
    host.get(f"{server}/?view=duel&lang={lang}")
    ready(host)
    check_state(host, "duel-lobby", size, lang)
    Select(host.find_element("id", "duel-mode")).select_by_value(mode)
    host.find_element("id", "duel-open").click()
    until(host, lambda d: d.find_element("id", "duel-code").text, "the room's code")
    code = host.find_element("id", "duel-code").text
    link = host.find_element("id", "duel-link").get_attribute("value")
    assert link.endswith(f"?view=duel&room={code}")
    assert status(host) == ("waiting", "00")
    check_state(host, "duel-waiting", size, lang)

    guest.get(f"{link}&lang={lang}")
    ready(guest)
    until(guest, lambda d: status(d) == ("laying", "00"), "the guest in the room")
    # The host's page learns of it by itself (its waiting request answers).
    until(host, lambda d: status(d) == ("laying", "00"), "the host sees the guest")
    until(guest, lambda d: len(hand(d)) == 25, "the guest's cards")
    host_holding, guest_holding = holding_of(host), holding_of(guest)
    assert (host_holding == guest_holding) == (mode == "mirror")

    # A third browser (a fresh tab: no secret in its storage) with the link is refused.
    guest_tab = guest.current_window_handle
    guest.switch_to.new_window("tab")
    guest.get(f"{link}&lang={lang}")
    ready(guest)
    refusal = until(guest, lambda d: d.find_element("id", "message").text, "the refusal")
    words = {"en": "has two players already", "ru": "уже два игрока"}[lang]
    assert words in refusal and code in refusal
    assert not guest.find_element("id", "duel-lobby").get_attribute("hidden")
    assert guest.find_element("id", "table").get_attribute("hidden")
    guest.close()
    guest.switch_to.window(guest_tab)

    mine = lay_out_in_order(host)
    host.find_element("id", "duel-lay").click()
    until(host, lambda d: status(d) == ("laying", "10"), "the host laid down")
    until(guest, lambda d: status(d) == ("laying", "01"), "the guest sees the host laid down")
    assert not css(guest, "#duel-board .duel-position")  # nothing of the host's shown yet
    theirs = lay_out_by_clicking(guest)  # tapped card by card, as on a phone
    check_state(guest, "duel-laid-out", size, lang, "table")
    guest.find_element("id", "duel-lay").click()

    rules = Rules(discard_mode=DiscardMode(mode))
    outcome = score(mine, theirs, rules)
    for driver, points in ((host, outcome.points), (guest, outcome.points[::-1])):
        # Read at once: the board is drawn again when the grade arrives.
        shown, outcomes = until(driver, lambda d: d.execute_script(BOARD), "the table turned over")
        assert shown == f"{points[0]}:{points[1]}"
        assert len(outcomes) == 5 and all(outcomes)
        until(driver, lambda d: css(d, "#duel-grade-verdict"), "the grade of this play")
    # The guest's grade is the project's grade of the guest's play.
    expected = grade(theirs, host_holding, rules, "margin", holding=guest_holding)
    shown = float(
        guest.execute_script("return document.getElementById('duel-grade-verdict').dataset.loss")
    )
    assert shown == pytest.approx(expected.equilibrium_loss, abs=1e-9)
    check_state(guest, "duel-graded", size, lang, "duel-game")
    check_state(host, "duel-graded-host", size, lang, "duel-game")

    # The next deal: both pages get it, nobody laid out.
    host.find_element("id", "duel-next").click()
    for driver in (host, guest):
        until(driver, lambda d: status(d) == ("laying", "00") and len(hand(d)) == 25, "deal 2")
        assert not css(driver, "#duel-final")


def test_a_reload_keeps_the_seat_and_leaving_forgets_it(server, browser, other_browser):
    host, guest = browser, other_browser
    set_size(host, "laptop")
    host.get(f"{server}/?view=duel&lang=en")
    ready(host)
    host.find_element("id", "duel-open").click()
    until(host, lambda d: d.find_element("id", "duel-code").text, "the room's code")
    code = host.find_element("id", "duel-code").text
    guest.get(f"{server}/?view=duel&lang=en")
    ready(guest)
    field = guest.find_element("id", "duel-code-input")
    field.send_keys(f"{code[:3].lower()} {code[3:].lower()}")  # as typed on a phone
    guest.find_element("id", "duel-join").click()
    until(guest, lambda d: status(d) == ("laying", "00"), "joined by the typed code")
    until(guest, lambda d: len(hand(d)) == 25, "the room's deal")
    duel_hand = hand(guest)
    guest.refresh()  # the same tab: its secret is kept, its seat too
    ready(guest)
    until(guest, lambda d: status(d) == ("laying", "00"), "back in the room")
    assert not guest.find_element("id", "message").text
    # Another view has its own deal; back in the duel, the room's deal is on the table again.
    guest.find_element("css selector", "a[data-view=play]").click()
    until(guest, lambda d: len(hand(d)) == 25 and hand(d) != duel_hand, "the play view's deal")
    guest.find_element("css selector", "a[data-view=duel]").click()
    until(guest, lambda d: hand(d) == duel_hand, "the room's deal again")
    guest.find_element("id", "duel-leave").click()
    assert not guest.find_element("id", "duel-lobby").get_attribute("hidden")
    guest.get(f"{server}/?view=duel&room={code}&lang=en")
    ready(guest)
    until(guest, lambda d: "has two players already" in d.find_element("id", "message").text, "")


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("page", ["/?view=duel", "/?view=play", "/analyze.html", "/study.html"])
def test_every_page_passes_axe_and_is_installable(server, browser, size, page, lang):
    driver = browser
    set_size(driver, size)
    driver.get(f"{server}{page}&lang={lang}" if "?" in page else f"{server}{page}?lang={lang}")
    ready(driver)
    assert axe_violations(driver) == [], page
    if size == "phone":
        assert sideways(driver) == [], page
    manifest = driver.execute_script(
        "const l = document.querySelector('link[rel=manifest]');"
        "return l && fetch(l.href).then(r => r.ok && r.headers.get('content-type').includes('json')"
        " ? r.json() : null)"
    )
    assert manifest["theme_color"] == "#1f5f3f" and manifest["display"] == "standalone"
    sizes = driver.execute_script(
        "return Promise.all(arguments[0].map(i => new Promise(done => {"
        "const image = new Image(); image.onload = () => done(image.naturalWidth);"
        "image.onerror = () => done(0); image.src = i.src; })))",
        manifest["icons"],
    )
    assert sizes[:2] == [192, 512] and sizes[2] > 0
    shot(driver, f"axe-{page.strip('/?').replace('=', '-').replace('.html', '')}-{size}-{lang}")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_answers_without_a_message_are_in_the_pages_words(server, browser, lang):
    """A lost job (404 without a message) reads in the page's language, on both kinds of page."""
    driver = browser
    words = {"en": "no longer knows this job", "ru": "больше не знает эту задачу"}[lang]
    driver.get(f"{server}/?view=play&lang={lang}")
    ready(driver)
    shown = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Quintet.api('GET', '/api/jobs/nosuchjob').then(() => done('answered'), e => done(e.message));"
    )
    assert words in shown
    driver.get(f"{server}/analyze.html?lang={lang}")
    ready(driver)
    shown = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Analysis.job('analyze', {history: '{}'}, s => { s.id = 'nosuchjob'; })"
        ".then(() => done('answered'), e => done(e.message + ' ' + e.localized));"
    )
    assert words in shown and shown.endswith("true")
