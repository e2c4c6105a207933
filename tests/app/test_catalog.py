"""The computer players and verdict bands the page shows (solver.app.catalog)."""

from __future__ import annotations

import pytest

from solver.analysis.grade import VERDICT_THRESHOLDS, Verdict, verdict_for
from solver.app.catalog import RECOMMENDED_PLAYER, catalog, player_title
from solver.errors import QuintetError
from solver.play.players import PLAYER_NAMES, describe_player


def test_every_registry_player_has_a_title_and_descriptions_in_both_languages():
    doc = catalog().document
    assert [p["name"] for p in doc["players"]] == list(PLAYER_NAMES)
    for item in doc["players"]:
        for lang in ("en", "ru"):
            assert item["description"][lang] == describe_player(item["name"], lang)
            assert item["title"][lang]
        assert item["title"]["ru"] != item["name"]  # a Russian title, not the identifier
    assert doc["recommended"] == RECOMMENDED_PLAYER in PLAYER_NAMES


def test_the_bands_are_the_grade_thresholds():
    bands = catalog().document["verdicts"]
    assert [b["verdict"] for b in bands] == [v.value for v in Verdict]
    assert [b["below"] for b in bands[:-1]] == [limit for limit, _ in VERDICT_THRESHOLDS]
    assert bands[-1]["below"] is None
    for band in bands[1:-1]:  # just under each limit is that band's verdict
        assert verdict_for(band["below"] - 1e-9).value == band["verdict"]
    assert bands[2]["words"] == {"en": "inaccuracy", "ru": "неточность"}


def test_text_and_errors():
    assert "домашний" in catalog().text("ru")
    with pytest.raises(QuintetError, match="unknown player 'clever'"):
        player_title("clever")
