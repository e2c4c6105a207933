"""The mixture file format (``quintet-mixture/1``): round trips and malformed files."""

from __future__ import annotations

import json

import numpy as np
import pytest

from solver.errors import ArrangementError, MixtureError, QuintetError
from solver.game.arrangement import Arrangement
from solver.game.cards import format_cards
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.models.mixture import FORMAT, Mixture, read_mixture, write_mixture
from solver.models.opponents import Objective, Opponent, OpponentKind, expected_value

HOLDING = deal(seed=4).holdings[0]


def _arrangement(seed: int, cards=HOLDING) -> Arrangement:
    order = np.random.default_rng(seed).permutation(np.array(cards))
    return Arrangement.from_array(order.reshape(-1, 5))


A, B, C = _arrangement(1), _arrangement(2), _arrangement(3)


def _text(a: Arrangement) -> str:
    return a.format(ascii=True)


def _lists(a: Arrangement) -> list[list[str]]:
    return [format_cards(p, ascii=True).split() for p in a.packets]


def _write(tmp_path, payload, name="m.json"):
    path = tmp_path / name
    if isinstance(payload, str):
        path.write_text(payload, encoding="utf-8")
    else:
        path.write_text(json.dumps(payload), encoding="utf-8")
    return path


def _valid_payload():
    return {
        "format": FORMAT,
        "holding": format_cards(HOLDING, ascii=True).split(),
        "strategies": [
            {"probability": 0.75, "arrangement": _text(A)},
            {"probability": 0.25, "arrangement": _lists(B)},
        ],
    }


# ======================================================================= round trip


def test_write_read_round_trip(tmp_path):
    mixture = Mixture((A, B, C), (0.5, 0.3, 0.2), {"game_value": 1.25, "note": "x"})
    path = tmp_path / "mix.json"
    write_mixture(mixture, path)
    back = read_mixture(path)
    assert back == mixture
    assert back.arrangements == (A, B, C)
    assert back.probabilities == (0.5, 0.3, 0.2)
    assert back.metadata == {"game_value": 1.25, "note": "x"}
    assert back.cards == tuple(sorted(HOLDING))
    # writing again gives the same file
    again = tmp_path / "again.json"
    write_mixture(back, again)
    assert again.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_written_file_is_the_documented_format(tmp_path):
    path = tmp_path / "mix.json"
    write_mixture(Mixture((A, B), (0.6, 0.4)), path)
    payload = json.loads(path.read_text(encoding="utf-8"))
    assert payload["format"] == "quintet-mixture/1"
    assert sorted(payload["holding"]) == sorted(format_cards(HOLDING, ascii=True).split())
    assert [s["probability"] for s in payload["strategies"]] == [0.6, 0.4]
    first = payload["strategies"][0]["arrangement"]
    # ASCII codes, position 1 first
    assert first == _lists(A)
    assert all(code.isascii() for packet in first for code in packet)


def test_read_documented_format_string_and_lists(tmp_path):
    mixture = read_mixture(_write(tmp_path, _valid_payload()))
    assert mixture.arrangements == (A, B)
    assert mixture.probabilities == (0.75, 0.25)


def test_read_other_notations_and_metadata(tmp_path):
    # unicode suits, Russian ranks, 10 for ten; no format tag and no holding (both optional)
    russian = " | ".join(format_cards(p, lang="ru") for p in A.packets)
    payload = {
        "strategies": [{"probability": 1, "arrangement": russian}],
        "exploitability": 0.0,
    }
    mixture = read_mixture(_write(tmp_path, payload))
    assert mixture.arrangements == (A,)
    assert mixture.probabilities == (1.0,)
    assert mixture.metadata == {"exploitability": 0.0}


def test_mixture_opponent_matches_probabilities(tmp_path):
    mixture = read_mixture(_write(tmp_path, _valid_payload()))
    opponent = mixture.opponent(Rules(), holding=HOLDING)
    assert opponent.kind is OpponentKind.MIXTURE
    assert opponent.probabilities.tolist() == [0.75, 0.25]
    mine = _arrangement(9)
    from solver.game.arrangement import score

    expected = 0.75 * score(mine, A).margin + 0.25 * score(mine, B).margin
    value = float(expected_value(mine.strengths(), opponent, Objective.MARGIN))
    assert value == pytest.approx(expected)


def test_mixture_opponent_rejects_other_holding(tmp_path):
    mixture = read_mixture(_write(tmp_path, _valid_payload()))
    other = deal(seed=5).holdings[0]
    assert set(other) != set(HOLDING)
    with pytest.raises(QuintetError):
        mixture.opponent(Rules(), holding=other)


def test_mixture_opponent_equal_to_direct_construction():
    mixture = Mixture((A, B), (0.75, 0.25))
    direct = Opponent.mixture([A, B], [0.75, 0.25], Rules())
    via = mixture.opponent(Rules())
    assert (via.marginal == direct.marginal).all()
    assert (via.profiles == direct.profiles).all()


# ======================================================================= malformed files


def test_missing_file(tmp_path):
    path = tmp_path / "nope.json"
    with pytest.raises(MixtureError, match="no such file") as info:
        read_mixture(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("text", ["", "{", "{'format': 1}", "[1, 2,]", "not json"])
def test_invalid_json(tmp_path, text):
    with pytest.raises(MixtureError, match="not valid JSON") as info:
        read_mixture(_write(tmp_path, text))
    assert "line" in str(info.value)


def test_not_utf8(tmp_path):
    path = tmp_path / "m.json"
    path.write_bytes(b'{"strategies": "\xff\xfe"}')
    with pytest.raises(MixtureError, match="cannot read"):
        read_mixture(path)


def test_directory_instead_of_file(tmp_path):
    with pytest.raises(MixtureError):
        read_mixture(tmp_path)


def _mutated(**changes):
    payload = _valid_payload()
    for key, value in changes.items():
        if value is _DELETE:
            del payload[key]
        else:
            payload[key] = value
    return payload


_DELETE = object()


def _strategy(index, **changes):
    payload = _valid_payload()
    for key, value in changes.items():
        if value is _DELETE:
            del payload["strategies"][index][key]
        else:
            payload["strategies"][index][key] = value
    return payload


BAD_PAYLOADS = {
    "top-level list": ([1, 2], "top level must be a JSON object"),
    "top-level string": ('"x"', "top level must be a JSON object"),
    "wrong format tag": (_mutated(format="quintet-mixture/2"), "format 'quintet-mixture/2'"),
    "format not a string": (_mutated(format=1), "format 1 is not"),
    "empty strategies": (_mutated(strategies=[]), '"strategies" must be a non-empty list'),
    "no strategies": (_mutated(strategies=_DELETE), '"strategies" must be a non-empty list'),
    "strategies not a list": (_mutated(strategies={"a": 1}), '"strategies" must be'),
    "strategy not an object": (_mutated(strategies=["As Ks"]), "strategy 1: needs"),
    "missing arrangement": (_strategy(1, arrangement=_DELETE), 'strategy 2: needs "arrangement"'),
    "missing probability": (_strategy(0, probability=_DELETE), 'strategy 1: needs "arrangement"'),
    "probability a string": (_strategy(1, probability="0.25"), "strategy 2: probability must be"),
    "probability a bool": (_strategy(0, probability=True), "strategy 1: probability must be"),
    "bad card code": (
        _strategy(1, arrangement=_text(B).replace(_text(B).split()[0], "5s", 1)),
        "strategy 2: packet 1: card '5s'",
    ),
    "bad card code in lists": (
        _strategy(
            0, arrangement=[["Xs", *p[1:]] if i == 0 else p for i, p in enumerate(_lists(A))]
        ),
        "strategy 1: card 'Xs'",
    ),
    "card code not a string": (
        _strategy(1, arrangement=[[31, *p[1:]] if i == 0 else p for i, p in enumerate(_lists(B))]),
        "strategy 2: card codes must be strings",
    ),
    "arrangement a number": (_strategy(0, arrangement=5), "strategy 1: an arrangement is"),
    "short packet": (
        _strategy(1, arrangement=_text(B).rsplit(" ", 1)[0]),
        "strategy 2: packet 5",
    ),
    "repeated card": (
        _strategy(0, arrangement=[_lists(A)[0], *_lists(A)[:4]]),
        "strategy 1: .*(twice|duplicate)",
    ),
    "negative probability": (
        {
            "strategies": [
                {"probability": 1.25, "arrangement": _text(A)},
                {"probability": -0.25, "arrangement": _text(B)},
            ]
        },
        "non-negative",
    ),
    "probabilities sum to 0.9": (_strategy(0, probability=0.65), "sum to 0.9, not 1"),
    "probabilities sum to 1.1": (_strategy(0, probability=0.85), "sum to 1.1, not 1"),
    "probability NaN": (
        {"strategies": [{"probability": float("nan"), "arrangement": _text(A)}]},
        "finite",
    ),
    "different cards": (
        {
            "strategies": [
                {"probability": 0.5, "arrangement": _text(A)},
                {
                    "probability": 0.5,
                    "arrangement": _text(_arrangement(7, deal(seed=5).holdings[0])),
                },
            ]
        },
        "strategy 2 uses other cards than strategy 1",
    ),
    "holding mismatch": (
        _mutated(holding=format_cards(deal(seed=5).holdings[0], ascii=True).split()),
        'do not use the cards of "holding"',
    ),
    "holding not a list": (_mutated(holding="As Ks"), '"holding" must be a list'),
    "holding bad card": (_mutated(holding=["5s"] * 25), "holding: card '5s'"),
}


@pytest.mark.parametrize("payload, fragment", list(BAD_PAYLOADS.values()), ids=list(BAD_PAYLOADS))
def test_malformed_mixture_raises_clear_error(tmp_path, payload, fragment):
    path = _write(tmp_path, payload)
    with pytest.raises(MixtureError, match=fragment) as info:
        read_mixture(path)
    message = str(info.value)
    assert message.startswith(str(path)), message  # names the file
    assert "\n" not in message
    assert isinstance(info.value, QuintetError)


def test_probabilities_within_tolerance_accepted(tmp_path):
    payload = _strategy(0, probability=0.75 + 5e-7)
    assert read_mixture(_write(tmp_path, payload)).probabilities[0] == 0.75 + 5e-7


def test_mixture_constructor_validates():
    with pytest.raises(MixtureError):
        Mixture((), ())
    with pytest.raises(MixtureError):
        Mixture((A, B), (1.0,))
    with pytest.raises(MixtureError, match="sum to"):
        Mixture((A, B), (0.5, 0.6))
    with pytest.raises(MixtureError, match="other cards"):
        Mixture((A, _arrangement(1, deal(seed=5).holdings[0])), (0.5, 0.5))
    with pytest.raises(ArrangementError):
        Arrangement.parse("As Ks Qs Js")


def test_sample_follows_probabilities():
    mixture = Mixture((A, B), (0.8, 0.2))
    rng = np.random.default_rng(0)
    draws = [mixture.sample(rng) for _ in range(2000)]
    share = sum(d == A for d in draws) / len(draws)
    assert abs(share - 0.8) < 0.04
    assert set(draws) <= {A, B}
