"""The Analyze and Study pages in a real headless Chromium, at desktop and phone size.

The server and the browser are the main page's (:mod:`tests.e2e.test_web_browser`).
The history is written by the training loop (``quintet train --history``'s lines)
on four standard deals, with its equilibria stored in a book first (untimed), so
the pages answer from the book; a bad line is appended.  Screenshots go to
``tests/artifacts/`` (``$QUINTET_SCREENSHOTS``).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import numpy as np
import pytest

from solver.app.analyze import AnalyzeRequest, analyze
from solver.app.requests import BookChoice
from solver.app.solving import source_of
from solver.app.study import StudyRequest, study
from solver.game.arrangement import Arrangement
from solver.game.cards import format_cards
from solver.game.deal import deal
from solver.game.payloads import arrangement_payload
from solver.game.rules import Rules
from solver.models.heuristics import greedy_arrangement
from solver.play.training import Series, train
from solver.web.app import STATIC
from tests.e2e.test_web_browser import (  # the desktop browser and helpers (the server: conftest)
    browser,  # noqa: F401 (a fixture)
    css,
    script_errors,
    shot,
    until,
)
from tests.support.browser import axe_violations, set_size, sideways

pytestmark = pytest.mark.e2e

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
SERIES = Series(deals=4, seed=1, rules=Rules())


def _laid(index: int) -> Arrangement:
    """Greedy arrangements, the last one shuffled (a blunder)."""
    mine = deal(SERIES.deal_seed(index)).holdings[0]
    if index < SERIES.deals - 1:
        return greedy_arrangement(mine)
    order = np.random.default_rng(index).permutation(np.array(mine))
    return Arrangement.from_array(order.reshape(5, 5))


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> dict[str, object]:
    """The cache home (its book filled by training), the history and its analysis."""
    cache = tmp_path_factory.mktemp("analysis-cache")
    book = BookChoice(str(cache / "quintet-solver" / "book.sqlite"))
    (cache / "quintet-solver").mkdir()
    history = cache / "history.jsonl"
    entries = iter(
        format_cards(p, ascii=True) for i in range(SERIES.deals) for p in _laid(i).packets
    )
    train(
        SERIES,
        lambda prompt: next(entries),
        lambda line: None,
        describe=lambda grade: [],
        history=history,
        solver=source_of(book),
    )
    with history.open("a", encoding="utf-8") as handle:
        handle.write("this line is not a deal\n")
    document = analyze(AnalyzeRequest(path=str(history), book=book)).document
    assert all(row["from_book"] for row in document["rows"])
    return {"cache": cache, "history": history, "document": document, "book": book}


@pytest.fixture(autouse=True)
def _shared_book(_private_cache, home, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(home["cache"]))


def _open(driver, url: str, size: str) -> None:
    set_size(driver, size)  # the viewport itself (the shared browser emulates devices)
    driver.get(url)
    until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-ready"), "page")


def _fits(driver, size: str) -> None:
    """Nothing scrolls sideways; every visible control is a tap target of 44 px or more
    (a checkbox through its label); axe-core finds nothing serious.

    On a phone the layout viewport widens to hold what sticks out (and the page is shown
    zoomed out, where a real tap lands beside its target), so ``innerWidth`` itself must
    stay the device's width.
    """
    width = driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth,"
        " window.innerWidth]"
    )
    assert width[0] <= width[1] and width[2] == SIZES[size][0], width
    assert not sideways(driver)
    assert not axe_violations(driver)  # contrast too: every verdict chip can be read
    small = driver.execute_script(
        """
        return [...document.querySelectorAll("a, button, select, input:not([type=file]):not([type=checkbox]), label.check")]
          .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden")
          .map((e) => [e.id || e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
          .filter(([, r]) => r.width > 0 && (r.width < 44 || r.height < 44))
          .map(([name, r]) => `${name} ${r.width.toFixed(0)}x${r.height.toFixed(0)}`);
        """
    )
    assert not small, small


def _shot(driver, name: str, size: str) -> None:
    """A screenshot of the whole page (the window made as tall as the page, then restored)."""
    width, height = SIZES[size]
    tall = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {
            "width": width,
            "height": max(height, min(int(tall) + 140, 6000)),
            "deviceScaleFactor": 1,
            "mobile": size == "phone",
        },
    )
    shot(driver, name)
    set_size(driver, size)


def _rows(driver) -> list[dict[str, str]]:
    return [
        {k: r.get_attribute(f"data-{k}") for k in ("line", "loss", "verdict")}
        for r in css(driver, "#deal-rows tr")
    ]


def _upload(driver, path: Path) -> None:
    css(driver, "#history-file")[0].send_keys(str(path))
    until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-state") in {
        "done", "failed"}, "the analysis")  # fmt: skip
    assert driver.find_element("tag name", "body").get_attribute("data-state") == "done", (
        driver.find_element("id", "message").text
    )


def _english_words(driver) -> set[str]:
    """Words of the pages' English phrases that their Russian phrases do not use."""
    tables = driver.execute_script(
        """
        const flat = (o) => Object.values(o).flatMap((v) => typeof v === "object" ? flat(v) : [v]);
        return [flat(ANALYSIS_I18N.en).join(" "), flat(ANALYSIS_I18N.ru).join(" ")];
        """
    )
    english, russian = (set(re.findall(r"[A-Za-z]{3,}", s.replace("\u00ad", ""))) for s in tables)
    return english - russian


def _russian_page_has_no_english(driver) -> None:
    shown = driver.execute_script(
        """
        const out = [];
        const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        while (walk.nextNode()) {
          const node = walk.currentNode;
          if (!node.parentElement.closest("[lang=en]")) out.push(node.textContent);
        }
        for (const e of document.querySelectorAll("[aria-label]")) {
          if (!e.closest("[lang=en]")) out.push(e.getAttribute("aria-label"));
        }
        return out.join(" ") + " " + document.title;
        """
    )
    found = set(re.findall(r"[A-Za-z]{3,}", shown.replace("\u00ad", ""))) & _english_words(driver)
    assert len(_english_words(driver)) > 100
    assert not found, found


@pytest.mark.parametrize("size", SIZES)
def test_analyze_upload_sort_filter_and_open_a_deal(server, browser, home, size):  # noqa: F811
    driver, document = browser, home["document"]
    _open(driver, server + "/analyze.html", size)
    _upload(driver, home["history"])
    summary = driver.find_element("id", "summary")
    assert driver.find_element("id", "deals-graded").get_attribute("data-deals") == "4"
    mean = float(driver.find_element("id", "mean-loss").get_attribute("data-mean"))
    assert mean == pytest.approx(document["summary"]["loss"]["mean"], abs=1e-12)
    low, high = document["summary"]["loss"]["interval"]
    assert f"[{low:.3f}, {high:.3f}]" in summary.text
    counts = {c.get_attribute("data-verdict"): int(c.get_attribute("data-count"))
              for c in css(driver, "#verdict-counts li")}  # fmt: skip
    assert counts == document["summary"]["verdicts"]
    assert [b.get_attribute("data-line") for b in css(driver, "#bad-lines li")] == ["5"]
    # Worst first, as the analysis sorts them.
    rows = _rows(driver)
    assert [r["line"] for r in rows] == [str(r["line"]) for r in document["worst"]]
    losses = [float(r["loss"]) for r in rows]
    assert losses == sorted(losses, reverse=True)
    _shot(driver, f"20-analyze-{size}", size)
    _fits(driver, size)

    # Sort by line (a header on the desktop, the select on a phone), both ways.
    if size == "desktop":
        css(driver, 'button[data-sort="line"]')[0].click()
        css(driver, 'button[data-sort="line"]')[0].click()
    else:
        from selenium.webdriver.support.ui import Select

        Select(driver.find_element("id", "sort-key")).select_by_value("line")
        Select(driver.find_element("id", "sort-order")).select_by_value("asc")
    assert [r["line"] for r in _rows(driver)] == ["1", "2", "3", "4"]
    if size == "desktop":
        header = css(driver, 'th[aria-sort="ascending"] button')[0]
        assert header.get_attribute("data-sort") == "line"
        css(driver, 'button[data-sort="loss"]')[0].send_keys("\n")  # the keyboard: Enter
        until(driver, lambda d: css(d, 'th[aria-sort="descending"] button[data-sort="loss"]'), "")
        assert [r["line"] for r in _rows(driver)] == [str(r["line"]) for r in document["worst"]]

    # Filter: a verdict off, then a loss threshold.
    worst = document["worst"][0]
    box = driver.find_element("id", f"show-{worst['verdict']}")
    label = css(driver, f'label[for="show-{worst["verdict"]}"]')[0]
    label.click()  # a real click (a tap on the phone) on the label, not the box
    until(driver, lambda d: not box.is_selected(), "the verdict unticked")
    until(driver, lambda d: all(r["verdict"] != worst["verdict"] for r in _rows(d)), "filtered")
    label.click()
    until(driver, lambda d: box.is_selected(), "the verdict ticked again")
    label.click()
    until(driver, lambda d: not box.is_selected(), "the verdict unticked again")
    driver.find_element("id", "reset-filters").click()  # the boxes are drawn again, all ticked
    box_id = f"show-{worst['verdict']}"
    until(driver, lambda d: d.find_element("id", box_id).is_selected(), "every verdict shown")
    threshold = round(sorted(r["loss"] for r in document["rows"])[-2], 1)
    driver.find_element("id", "min-loss").send_keys(str(threshold))
    kept = [r["line"] for r in _rows(driver)]
    expected = [r for r in document["rows"] if r["loss"] >= threshold]
    assert sorted(kept) == sorted(str(r["line"]) for r in expected) and len(kept) < 4
    assert driver.find_element("id", "showing").get_attribute("data-shown") == str(len(kept))
    driver.execute_script("document.getElementById('deals').scrollIntoView()")
    _shot(driver, f"21-analyze-filtered-{size}", size)
    _fits(driver, size)

    # Open the worst deal on the main page's table: laid out, and graded at once.
    driver.find_element("id", "reset-filters").click()
    link = css(driver, f'tr[data-line="{worst["line"]}"] a.deal-link')[0]
    query = parse_qs(urlparse(link.get_attribute("href")).query)
    assert query["seed"] == [str(worst["seed"])] and query["mode"] == ["mirror"]
    assert query["grade"] == ["1"] and query["lang"] == ["en"]
    packets = [sorted(re.findall("..", p)) for p in query["arr"][0].split("_")]
    assert packets == [sorted(p) for p in worst["arrangement"]]
    assert packets == [sorted(p) for p in arrangement_payload(_laid(worst["line"] - 1))]
    link.click()  # a real click (a tap on the phone)
    until(driver, lambda d: urlparse(d.current_url).path == "/", "the main page")
    until(driver, lambda d: len(css(d, "#packets [data-card]")) == 25, "the deal laid out")
    verdict = until(driver, lambda d: css(d, "#a-grade-verdict"), "the deal graded")[0]
    assert verdict.get_attribute("data-verdict") == worst["verdict"]
    assert float(verdict.get_attribute("data-loss")) == pytest.approx(worst["loss"], abs=1e-9)
    assert verdict.is_displayed()
    assert "grade" not in parse_qs(urlparse(driver.current_url).query)  # a reload does not regrade
    _shot(driver, f"24-analyze-opened-graded-{size}", size)
    assert not script_errors(driver)


def test_analyze_in_russian_and_the_session_history(server, browser, home):  # noqa: F811
    driver = browser
    _open(driver, server + "/analyze.html?lang=ru", "phone")
    css(driver, "#use-session")[0].click()
    until(driver, lambda d: d.find_element("id", "message").text, "the empty session's message")
    assert driver.find_element("id", "message").text.startswith("В этом браузере пока нет")
    lines = home["history"].read_text(encoding="utf-8").splitlines()[:2]
    # The main page's session (store.js), its graded deals the lines `quintet train` writes.
    driver.execute_script(
        """
        const lines = arguments[0].map((l) => JSON.parse(l));
        const session = {seed: lines[0].seed, deals: lines[0].deals, rules: lines[0].rules, next: 2,
            current: null, queue: [], match: null,
            records: lines.map((line) => ({line, review: false, game: null}))};
        localStorage.setItem("quintet.session.v1", JSON.stringify(session));
        """,
        lines,
    )
    css(driver, "#use-session")[0].click()
    until(
        driver,
        lambda d: d.find_element("tag name", "body").get_attribute("data-state") == "done",
        "",
    )
    assert driver.find_element("id", "deals-graded").get_attribute("data-deals") == "2"
    assert driver.find_element("tag name", "h1").text == "Анализ истории игры"
    _russian_page_has_no_english(driver)
    _shot(driver, "22-analyze-russian-phone", "phone")
    _fits(driver, "phone")
    _open(driver, server + "/analyze.html?lang=ru", "desktop")
    driver.execute_script(  # a file dropped on the drop zone (the events a drop makes)
        """
        const data = new DataTransfer();
        data.items.add(new File([arguments[0]], "dropped.jsonl"));
        const zone = document.getElementById("drop");
        zone.dispatchEvent(new DragEvent("dragover", {dataTransfer: data, bubbles: true, cancelable: true}));
        zone.dispatchEvent(new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
        """,
        home["history"].read_text(encoding="utf-8"),
    )
    until(
        driver,
        lambda d: d.find_element("tag name", "body").get_attribute("data-state") == "done",
        "",
    )
    assert driver.find_element("id", "deals-graded").get_attribute("data-deals") == "4"
    assert "dropped.jsonl" in driver.find_element("id", "summary").text
    _russian_page_has_no_english(driver)
    _shot(driver, "23-analyze-russian-desktop", "desktop")
    # A file that fails: the last file's results go, and the reason reads on after the colon.
    driver.execute_script(
        """
        const data = new DataTransfer();
        data.items.add(new File(["not a history\\n"], "broken.jsonl"));
        document.getElementById("drop").dispatchEvent(
            new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
        """
    )
    until(
        driver,
        lambda d: d.find_element("tag name", "body").get_attribute("data-state") == "failed",
        "the failed analysis",
    )
    failure = driver.find_element("id", "message").text
    assert re.match(r"Анализ не удался: [a-zа-яё]", failure), failure
    for section in ("summary", "deals", "leaks"):
        assert not driver.find_element("id", section).is_displayed(), section
    driver.execute_script(  # the good file again, for what follows
        """
        const data = new DataTransfer();
        data.items.add(new File([arguments[0]], "dropped.jsonl"));
        document.getElementById("drop").dispatchEvent(
            new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
        """,
        home["history"].read_text(encoding="utf-8"),
    )
    until(
        driver,
        lambda d: d.find_element("tag name", "body").get_attribute("data-state") == "done",
        "",
    )
    driver.find_element("id", "lang-en").click()
    assert driver.find_element("tag name", "h1").text == "Analyze a history of play"
    assert "lang=en" in css(driver, "a.deal-link")[0].get_attribute("href")
    driver.execute_script("localStorage.removeItem('quintet.session.v1')")
    assert not script_errors(driver)


def _charts_shown(driver) -> None:
    until(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-state") in {
        "done", "failed"}, "the report")  # fmt: skip
    for chart in ("concede", "combinations", "support", "top"):
        figure = css(driver, f"#chart-{chart}")[0]
        assert figure.find_elements("css selector", "svg.chart[role=img]")
        assert len(figure.find_elements("css selector", ".legend li")) >= 2, chart


@pytest.mark.parametrize("size", SIZES)
def test_study_charts_with_legends_and_filters(server, browser, home, size):  # noqa: F811
    driver = browser
    _open(driver, server + "/study.html", size)
    _charts_shown(driver)
    expected = study(StudyRequest(book=home["book"])).document
    sample = driver.find_element("id", "sample-text")
    assert sample.get_attribute("data-deals") == str(expected["sample"]["deals"]) == "4"
    warning = driver.find_element("id", "coverage-warning")  # four deals of billions
    assert expected["sample"]["coverage"] < 0.01 and warning.is_displayed()
    # The coverage as `quintet report` prints it (it was 10^9 off: "2.12e-1%" for 2.118e-10%).
    printed = re.search(r"covering (\S+)%", study(StudyRequest(book=home["book"])).text("en"))
    assert printed and f"{printed[1]}%" in sample.text and f"{printed[1]}%" in warning.text
    bars = [float(b.get_attribute("data-value")) for b in css(driver, "#chart-concede .bar")]
    assert bars == pytest.approx([p["concede"]["mean"] for p in expected["positions"]])
    whiskers = css(driver, "#chart-concede .whisker")
    assert [float(w.get_attribute("data-low")) for w in whiskers] == pytest.approx(
        [p["concede"]["interval"][0] for p in expected["positions"]]
    )
    _shot(driver, f"30-study-{size}", size)
    _fits(driver, size)

    # The filter: kept in the URL, the same deals as the report's; refused clearly.
    where = driver.find_element("id", "where")
    where.send_keys("aces >= 3")
    css(driver, "#run-report")[0].click()
    _charts_shown(driver)
    filtered = study(StudyRequest(book=home["book"], where="aces >= 3")).document
    until(
        driver,
        lambda d: (
            d.find_element("id", "sample-text").get_attribute("data-deals")
            == str(filtered["sample"]["deals"])
        ),
        "the filtered sample",
    )
    assert parse_qs(urlparse(driver.current_url).query)["where"] == ["aces >= 3"]
    where.clear()
    where.send_keys("kings > 1")
    css(driver, "#run-report")[0].click()
    until(driver, lambda d: "unknown name 'kings'" in d.find_element("id", "message").text, "")
    # Another mode: the book holds none of its deals, and says so.
    from selenium.webdriver.support.ui import Select

    where.clear()
    Select(driver.find_element("id", "mode")).select_by_value("independent")
    css(driver, "#run-report")[0].click()
    until(driver, lambda d: css(d, "#no-match"), "no deal matches")
    assert not script_errors(driver)


def test_study_in_russian(server, browser, home):  # noqa: F811
    driver = browser
    for size in SIZES:
        _open(driver, server + "/study.html?lang=ru", size)
        _charts_shown(driver)
        assert driver.find_element("tag name", "h1").text == "Изучение решений"
        _russian_page_has_no_english(driver)
        _shot(driver, f"31-study-russian-{size}", size)
        _fits(driver, size)
    assert not script_errors(driver)


def test_the_pages_load_nothing_from_elsewhere():
    for name in ("analyze.html", "study.html"):
        page = (STATIC / name).read_text(encoding="utf-8")
        assert "<script>" not in page and not re.search(r"<[^>]*\son[a-z]+=", page)
        sources = re.findall(r'(?:src|href)="([^"]+)"', page)
        assert len(sources) > 5 and not [s for s in sources if s.startswith(("http", "//"))]
