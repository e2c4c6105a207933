"""The page as a place to play, in a real headless Chromium at 1366 x 900 and at 390 x 844.

A match of three deals against the house player to the end; the trainer, whose
badly played deal enters the review queue and comes back after the scheduled
number of deals (and survives a reload); the session history exported (the
JSON Lines ``quintet train --history`` writes, which ``--resume`` continues)
and imported again; an old shared link opening the analysis view.  Every state
is checked: no sideways scroll at 390 px, tap targets of 44 px, no English word
of the page's phrase table on a Russian page, no serious or critical axe-core
violation; and a screenshot of it goes to the screenshot folder.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

import numpy as np
import pytest

from solver.analysis.grade import grade
from solver.analysis.payloads import likely_arrangements
from solver.game.arrangement import Arrangement, score
from solver.game.deal import deal
from solver.game.payloads import cards_payload
from solver.game.rules import Rules
from solver.models.house import house_arrangement
from solver.play.training import Series, train
from solver.play.variation import varied
from solver.util.language import Lang
from tests.support.browser import (
    axe_violations,
    css,
    script_errors,
    set_size,
    shot,
    sideways,
    small_targets,
    until,
)
from tests.support.phrases import leftovers

pytestmark = pytest.mark.e2e
SESSION_SEED = 40  # the session's deals are seeds 40, 41, ...
GOOD = ("best", "good")


def check_state(driver: Any, name: str, size: str, lang: str, at: str | None = None) -> None:
    """One page state: its screenshot (``at`` scrolled to the top), no sideways scroll on a
    phone, tap targets, axe, and on a Russian page no English word of the phrase table."""
    if at is None:
        driver.execute_script("window.scrollTo(0, 0)")
    shot(driver, f"{name}-{size}-{lang}", at)
    if size == "phone":
        assert sideways(driver) == [], name
        assert small_targets(driver) == [], name
    assert axe_violations(driver) == [], name
    if lang == "ru":
        text = driver.execute_script(
            "const c = document.body.cloneNode(true);"
            "for (const e of c.querySelectorAll('[lang=en], [hidden], script')) e.remove();"
            "return c.innerText + ' ' + [...document.querySelectorAll('[aria-label]')]"
            ".filter(e => !e.closest('[hidden]')).map(e => e.getAttribute('aria-label')).join(' ');"
        )
        assert leftovers(text) == [], name
    assert script_errors(driver) == [], name


def fresh_page(driver: Any, base: str, view: str, lang: str) -> None:
    driver.get(f"{base}/?view={view}&lang={lang}")
    until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-ready"), "page")
    driver.execute_script("localStorage.clear()")
    driver.get(f"{base}/?view={view}&lang={lang}")
    until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-ready"), "page")
    field = driver.find_element("id", "session-seed")
    field.clear()
    field.send_keys(str(SESSION_SEED))
    driver.find_element("id", "new-session").click()
    until(driver, lambda d: len(hand(d)) == 25, "a session's first deal")


def press(driver: Any, element_id: str) -> None:
    """Click a button even if the page's own timer has just hidden it (it then does nothing)."""
    driver.execute_script("document.getElementById(arguments[0]).click()", element_id)


def hand(driver: Any) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#hand .card')].map(c => c.dataset.card)"
    )


def lay_out_by_clicking(driver: Any) -> Arrangement:
    """Click the hand's first card 25 times: the packets fill in order."""
    order = hand(driver)
    for laid in range(25):
        css(driver, "#hand .card")[0].click()
        until(driver, lambda d, n=laid: len(hand(d)) == 24 - n, "a card leaves the hand")
    return Arrangement.parse(" | ".join(" ".join(order[i : i + 5]) for i in range(0, 25, 5)))


def lay_out(driver: Any, arrangement: Arrangement) -> None:
    packets = [cards_payload(p) for p in arrangement.packets]
    driver.execute_script("Quintet.layout.setArrangement(arguments[0])", packets)
    until(driver, lambda d: len(hand(d)) == 0, "the arrangement laid out")


# ======================================================================= a match


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ru")])
def test_a_match_of_three_deals_against_the_house_player(server, browser, size, lang):
    from selenium.webdriver.support.ui import Select

    driver = browser
    set_size(driver, size)
    fresh_page(driver, server, "play", lang)
    options = [o.get_attribute("value") for o in css(driver, "#player option")]
    assert options == ["random", "greedy", "house", "br-random", "br-greedy", "eq-margin", "eq-win"]
    assert (
        Select(driver.find_element("id", "player")).first_selected_option.get_attribute("value")
        == "house"
    )
    assert driver.find_element("id", "player-description").text
    Select(driver.find_element("id", "match-kind")).select_by_value("deals")
    target = driver.find_element("id", "match-target")
    target.clear()
    target.send_keys("3")
    driver.find_element("id", "new-match").click()
    match_seed = driver.execute_script("return Quintet.session.get().match.seed")
    check_state(driver, "10-table-dealt", size, lang)

    total = [0, 0]
    for game in range(3):
        mine = lay_out_by_clicking(driver)
        if game == 0:
            check_state(driver, "11-table-laid-out", size, lang, "packets")
        driver.find_element("id", "play-btn").click()
        until(driver, lambda d: css(d, "#duel .duel-position"), "the table's packets")
        if game == 0:  # one position shown by hand (the animation stops), checked
            press(driver, "reveal-next")  # (the timer may be one step ahead on a slow machine)
            until(driver, lambda d: css(d, "#reveal-1.shown"), "the first position shown")
            check_state(driver, "12-table-revealing", size, lang, "game")
        theirs_holding = deal(SESSION_SEED + game).holdings[1]
        # The house rule's layout, varied by the match's seed (game k: seed + k).
        rng = np.random.default_rng([SESSION_SEED + game, 2, match_seed + game])
        expected = score(mine, varied(house_arrangement(theirs_holding), rng))
        if game == 1:  # reveal step by step
            for position in range(1, 6):
                if not css(driver, f"#reveal-{position}.shown"):
                    press(driver, "reveal-next")
                until(driver, lambda d, p=position: css(d, f"#reveal-{p}.shown"), "a reveal")
        else:
            driver.find_element("id", "reveal-all").click()
        final = until(driver, lambda d: css(d, "#final-score"), "the final score")[0]
        assert final.get_attribute("data-points") == f"{expected.points[0]}:{expected.points[1]}"
        outcomes = [c.get_attribute("data-outcome") for c in css(driver, ".duel-position")]
        assert outcomes == [{1: "win", 0: "tie", -1: "loss"}[int(o)] for o in expected.outcomes]
        assert len(css(driver, "#final-score")) == 1 and not css(driver, "#running-score")
        total = [total[0] + int(expected.points[0]), total[1] + int(expected.points[1])]
        line = driver.find_element("id", "match-score")
        until(
            driver,
            lambda d, g=game: (
                d.find_element("id", "match-score").get_attribute("data-games") == str(g + 1)
            ),
            "the match score",
        )
        assert line.get_attribute("data-score") == f"{total[0]}:{total[1]}"
        if game == 0:
            check_state(driver, "13-table-final", size, lang, "game")
        if game < 2:
            assert not driver.find_element("id", "match-over").is_displayed()
            driver.find_element("id", "next-deal").click()
            until(
                driver,
                lambda d: css(d, "#hand .card") and not css(d, "#duel .duel-position"),
                "the next deal",
            )
    over = driver.find_element("id", "match-over")
    assert over.is_displayed()
    result = "win" if total[0] > total[1] else "loss" if total[0] < total[1] else "draw"
    assert over.get_attribute("data-result") == result
    rows = css(driver, "#history-table .history-row")
    assert len(rows) == 3  # every game graded into the session's history
    check_state(driver, "14-match-over", size, lang, "match-over")
    driver.execute_script("document.getElementById('session-panel').scrollIntoView()")
    shot(driver, f"15-session-history-{size}-{lang}")


# ======================================================================= the trainer


def _bad_and_good(seed: int) -> tuple[Arrangement, Arrangement]:
    """The hand's display order laid out in order (a bad arrangement), and an equilibrium one."""
    mine, theirs = deal(seed).holdings
    order = sorted(mine, reverse=True)
    bad = Arrangement(tuple(tuple(order[i : i + 5]) for i in range(0, 25, 5)))
    graded = grade(bad, theirs)
    assert graded.verdict.value not in GOOD  # the scenario needs a bad first deal
    best = likely_arrangements(graded.equilibrium.row, 1)[0][1]
    return bad, best


@pytest.mark.parametrize(("size", "lang"), [("desktop", "ru"), ("phone", "en")])
def test_the_trainer_reviews_a_bad_deal_after_the_scheduled_deals(server, browser, size, lang):
    driver = browser
    set_size(driver, size)
    fresh_page(driver, server, "train", lang)
    bad, best = _bad_and_good(SESSION_SEED)
    check_state(driver, "20-trainer-dealt", size, lang)
    deal_line = driver.find_element("id", "train-deal")
    assert deal_line.get_attribute("data-deal") == "0"

    # Deal 1, laid out badly by clicking: graded, and into the review queue (back after 1 deal).
    assert lay_out_by_clicking(driver).packets == bad.packets
    driver.find_element("id", "submit-btn").click()
    verdict = until(driver, lambda d: css(d, "#grade-verdict"), "the grade")[0]
    expected = grade(bad, deal(SESSION_SEED).holdings[1])
    assert verdict.get_attribute("data-verdict") == expected.verdict.value
    assert float(verdict.get_attribute("data-loss")) == pytest.approx(expected.equilibrium_loss)
    assert len(css(driver, "#eq-by-position tbody tr")) == 5
    queue = css(driver, "#review-queue .review-item")
    assert [(q.get_attribute("data-deal"), q.get_attribute("data-due")) for q in queue] == [
        ("0", "2")
    ]
    check_state(driver, "21-trainer-graded", size, lang, "train-grade")
    if expected.change is not None:  # "try it" lays the best single change out
        driver.find_element("id", "apply-change").click()
        laid = driver.execute_script(
            "return [1, 2, 3, 4, 5].map(p => [...document.querySelectorAll(`#packet-${p} .card`)]"
            ".map(c => c.dataset.card))"
        )
        assert [sorted(p) for p in laid] == [
            sorted(cards_payload(p)) for p in expected.change.arrangement.packets
        ]

    # Deal 2 (new): played well; the queue survives a reload; then deal 1 comes back.
    driver.find_element("id", "train-next").click()
    until(driver, lambda d: deal_line.get_attribute("data-deal") == "1", "deal 2")
    assert deal_line.get_attribute("data-review") == "false"
    second_best = _equilibrium_arrangement(SESSION_SEED + 1)
    lay_out(driver, second_best)
    driver.find_element("id", "submit-btn").click()
    until(driver, lambda d: css(d, "#grade-verdict"), "the second grade")
    driver.refresh()
    until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-ready"), "page")
    until(driver, lambda d: css(d, "#review-queue .review-item"), "the queue after a reload")
    deal_line = driver.find_element("id", "train-deal")
    until(
        driver,
        lambda d: d.find_element("id", "train-deal").get_attribute("data-deal") == "0",
        "the review",
    )
    assert driver.find_element("id", "train-deal").get_attribute("data-review") == "true"
    check_state(driver, "22-trainer-review", size, lang, "train-panel")

    # Played within good now: out of the queue.  The rating is the mean loss of all three.
    lay_out(driver, best)
    driver.find_element("id", "submit-btn").click()
    verdict = until(driver, lambda d: css(d, "#grade-verdict"), "the review's grade")[0]
    assert verdict.get_attribute("data-verdict") in GOOD
    until(driver, lambda d: not css(d, "#review-queue .review-item"), "the queue emptied")
    losses = [float(r.get_attribute("data-loss")) for r in css(driver, "#grade-verdict")]
    rating = float(driver.find_element("id", "rating").get_attribute("data-rating"))
    second = grade(second_best, deal(SESSION_SEED + 1).holdings[1]).equilibrium_loss
    assert rating == pytest.approx((expected.equilibrium_loss + second + losses[0]) / 3)
    assert css(driver, "#rating-chart .band") and css(driver, "#rating-legend li")
    check_state(driver, "23-trainer-rating", size, lang, "progress-panel")


def _equilibrium_arrangement(seed: int) -> Arrangement:
    mine, theirs = deal(seed).holdings
    graded = grade(
        Arrangement.parse(
            " | ".join(" ".join(cards_payload(sorted(mine)[i : i + 5])) for i in range(0, 25, 5))
        ),
        theirs,
    )
    return likely_arrangements(graded.equilibrium.row, 1)[0][1]


# ======================================================================= the history file


def shape(value: Any) -> Any:
    """The kinds of ``value``'s fields: its keys, and int / float / str ... for each scalar."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(v) for v in value[:1]]
    return type(value).__name__


def typed(value: Any, key: str = "") -> Any:
    """``value`` with its numbers tagged int or float, each packet's cards sorted, and the
    equilibrium's likely arrangements by probability only (with the holding in another order
    the solver may pick another of equivalent arrangements, aces of two suits exchanged)."""
    if key == "equilibrium":
        return [typed(item["probability"]) for item in value]
    if isinstance(value, dict):
        return {k: typed(v, k) for k, v in value.items()}
    if isinstance(value, list):
        if key == "arrangement" or (key in ("punishing", "dominating") and value):
            return [sorted(packet) for packet in value]
        return [typed(v, key) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    return (type(value).__name__, round(value, 9))


def test_the_history_exports_as_quintet_train_writes_it_and_imports_again(
    server, browser, tmp_path, monkeypatch
):
    driver = browser
    set_size(driver, "desktop")
    fresh_page(driver, server, "train", "en")
    bad, _ = _bad_and_good(SESSION_SEED)
    played = [bad, _equilibrium_arrangement(SESSION_SEED + 1)]
    for k, arrangement in enumerate(played):
        lay_out(driver, arrangement)
        driver.find_element("id", "submit-btn").click()
        until(driver, lambda d: css(d, "#grade-verdict"), "a grade")
        driver.find_element("id", "train-next").click()
        until(
            driver,
            lambda d, k=k: (
                d.find_element("id", "train-deal").get_attribute("data-deal")
                == ("1" if k == 0 else "0")
            ),
            "the next deal (then the review)",
        )
    deals = int(driver.find_element("id", "session-deals").get_attribute("value"))
    driver.find_element("id", "export-history").click()
    href = driver.find_element("id", "history-download").get_attribute("href")
    prefix = "data:application/x-ndjson;charset=utf-8,"
    assert href.startswith(prefix)
    text = unquote(href[len(prefix) :])
    exported = tmp_path / "exported.jsonl"
    exported.write_text(text, encoding="utf-8")

    # What `quintet train --history` writes for the same two deals, laid out the same way.
    written = tmp_path / "written.jsonl"
    answers = iter([a.format() for a in played] + ["quit"])
    series = Series(deals=deals, seed=SESSION_SEED, rules=Rules())
    train(
        series,
        lambda prompt: next(answers),
        lambda line: None,
        Lang.EN,
        describe=lambda g: [],
        history=written,
    )
    # The same records, ints as ints and floats as floats, in Python's own spelling; the
    # cards inside a packet may come in another order (the page's holding is sorted, see typed).
    ours, theirs = text.splitlines(), written.read_text(encoding="utf-8").splitlines()
    # Two exact equilibria of a deal can differ (the page's comes from the solution book,
    # solved in the deal's canonical suits): the figures that depend on which one
    # was found are compared by kind, everything the arrangement decides by value.
    assert [shape(json.loads(line)) for line in ours] == [
        shape(json.loads(line)) for line in theirs
    ]
    for mine, train_line in zip(ours, theirs, strict=True):
        a, b = typed(json.loads(mine)), typed(json.loads(train_line))
        assert {k: v for k, v in a.items() if k != "grade"} == {
            k: v for k, v in b.items() if k != "grade"
        }
        for key in ("arrangement", "strengths", "verdict"):
            assert a["grade"][key] == b["grade"][key], key
    assert [line.split('"grade"')[0] for line in ours] == [
        line.split('"grade"')[0] for line in theirs
    ]
    assert ours == [json.dumps(json.loads(line), ensure_ascii=True) for line in ours]

    # `quintet train --resume` continues the exported file after its two deals.
    lines: list[str] = []
    resumed = iter(["quit"])
    train(
        series,
        lambda prompt: next(resumed),
        lines.append,
        Lang.EN,
        describe=lambda g: [],
        history=exported,
        resume=True,
    )
    assert any("Resuming: 2 of" in line for line in lines)

    # Imported into a fresh browser store: the history, the session and the queue come back.
    driver.execute_script("localStorage.clear()")
    driver.refresh()
    until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-ready"), "page")
    driver.find_element("id", "import-history").send_keys(str(exported))
    until(driver, lambda d: len(css(d, "#history-table .history-row")) == 2, "the imported rows")
    assert driver.find_element("id", "session-seed").get_attribute("value") == str(SESSION_SEED)
    assert [q.get_attribute("data-deal") for q in css(driver, "#review-queue .review-item")] == [
        "0"
    ]
    check_state(driver, "30-history-imported", "desktop", "en", "session-panel")


# ======================================================================= old links, analysis


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ru")])
def test_an_old_shared_link_opens_the_position_and_the_equilibrium_reads_well(
    server, browser, size, lang
):
    driver = browser
    set_size(driver, size)
    mine = sorted(deal(1).holdings[0], reverse=True)
    codes = cards_payload(mine)
    arr = "_".join("".join(codes[i : i + 5]) for i in range(0, 10, 5))
    driver.get(f"{server}/?seed=1&arr={arr}&lang={lang}&mode=mirror")
    until(driver, lambda d: len(hand(d)) == 15, "the shared position")
    assert [c.get_attribute("data-card") for c in css(driver, "#packet-1 .card")] == codes[:5]
    check_state(driver, "40-analysis-link", size, lang)
    driver.find_element("id", "suggest-btn").click()
    until(driver, lambda d: css(d, "#suggest-table tbody tr .combo[data-category]"), "suggest")
    assert len(css(driver, "#suggest-table tbody tr")) == 5
    driver.find_element("id", "equilibrium-btn").click()
    until(driver, lambda d: not css(d, "#eq-table"), "the old results cleared")
    until(driver, lambda d: css(d, "#eq-chart polyline"), "the equilibrium chart")
    rows = css(driver, "#eq-table .eq-row")
    assert len(rows) == len(css(driver, "#eq-chart polyline")) >= 1
    assert "0.00000" not in driver.find_element("id", "eq-summary").text
    assert all(css(r, ".swatch") for r in rows)
    check_state(driver, "41-analysis-equilibrium", size, lang, "equilibrium-panel")
