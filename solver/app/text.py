"""Words the command line prints, in English and Russian.

The library returns numbers and enums; this module holds the words of the
reports as :class:`~solver.util.language.Phrase` values, and :func:`say` picks
one in the language asked for.  Card and combination names live with their
types (:mod:`solver.game.cards`, :class:`solver.game.rules.Category`).

>>> say("points", "ru")
'очки'
>>> say("no such key", "en")
Traceback (most recent call last):
    ...
KeyError: 'no such key'
"""

from __future__ import annotations

from solver.util.language import Lang, Phrase

__all__ = ["say"]

_WORDS: dict[str, Phrase] = {
    "strength": Phrase("strength", "сила"),
    "of": Phrase("of", "из"),
    "deal": Phrase("Deal", "Сдача"),
    "seed": Phrase("seed", "зерно"),
    "mode": Phrase("mode", "режим"),
    "mirror": Phrase("mirror mode", "зеркальный режим"),
    "independent": Phrase("independent mode", "независимый режим"),
    "dealer": Phrase("dealer", "сдающий"),
    "player": Phrase("player", "игрок"),
    "you": Phrase("you", "вы"),
    "opponent": Phrase("opponent", "противник"),
    "turned_up": Phrase("turned up", "открыты"),
    "holds": Phrase("holds", "на руках"),
    "position": Phrase("pos", "поз"),
    "points": Phrase("points", "очки"),
    "packet": Phrase("packet", "пакет"),
    "combination": Phrase("combination", "комбинация"),
    "result": Phrase("result", "итог"),
    "win": Phrase("win", "выигрыш"),
    "loss": Phrase("loss", "проигрыш"),
    "tie": Phrase("tie", "ничья"),
    "draw": Phrase("draw", "ничья"),
    "wins_by": Phrase("wins by", "выигрывает с перевесом"),
    "total": Phrase("total", "итого"),
    "expected_points": Phrase("expected points", "ожидаемые очки"),
    "status": Phrase("status", "статус"),
    "optimal": Phrase("proven optimal", "оптимальность доказана"),
    "feasible": Phrase(
        "best found, not proven optimal", "лучшая найденная, оптимальность не доказана"
    ),
    "optimal_rounded": Phrase(
        "proven optimal up to the rounding of the mixture's probabilities",
        "оптимальность доказана с точностью до округления вероятностей смеси",
    ),
    "bound": Phrase("bound", "граница"),
    "gap": Phrase("gap", "зазор"),
    "time": Phrase("time", "время"),
    "concedes": Phrase("concedes", "уступает"),
    "positions": Phrase("positions", "позиции"),
    "none": Phrase("none", "нет"),
    "value": Phrase("value", "значение"),
    "objective": Phrase("objective", "цель"),
    "against": Phrase("against", "против"),
    "engine": Phrase("engine", "движок"),
    "exploitability": Phrase("exploitability", "уязвимость"),
    "support": Phrase("support", "носитель"),
    "iterations": Phrase("iterations", "итераций"),
    "game_value": Phrase("game value", "цена игры"),
    "probability": Phrase("probability", "вероятность"),
    # quintet grade, play and train
    "arrangement": Phrase("arrangement", "раскладка"),
    "verdict": Phrase("verdict", "оценка"),
    "best": Phrase("best", "лучшая"),
    "good": Phrase("good", "хорошая"),
    "inaccuracy": Phrase("inaccuracy", "неточность"),
    "mistake": Phrase("mistake", "ошибка"),
    "blunder": Phrase("blunder", "грубая ошибка"),
    "equilibrium_loss": Phrase("equilibrium loss", "потеря против равновесия"),
    "margin_vs_equilibrium": Phrase("margin against the equilibrium", "перевес против равновесия"),
    "certified_gap": Phrase("certified gap", "гарантированный зазор"),
    "win_loss": Phrase("win probability lost", "потеря вероятности выигрыша"),
    "punished_by": Phrase("punished by", "наказывается раскладкой"),
    "against_random": Phrase("against a random arranger", "против случайной раскладки"),
    "against_greedy": Phrase("against greedy", "против жадной раскладки"),
    "best_response": Phrase("best response", "лучший ответ"),
    "dominated": Phrase("dominated", "доминируется"),
    "dominated_by": Phrase("dominated by", "доминируется раскладкой"),
    "not_dominated": Phrase("not dominated", "не доминируется"),
    "change": Phrase("suggested change", "предлагаемое изменение"),
    "no_change": Phrase("no single change helps", "ни одно изменение не помогает"),
    "swap_packets": Phrase("swap packets {i} and {j}", "поменять местами пакеты {i} и {j}"),
    "one_card": Phrase(
        "exchange {given} (packet {i}) for {taken} (packet {j})",
        "обменять {given} (пакет {i}) на {taken} (пакет {j})",
    ),
    "two_cards": Phrase(
        "exchange {given} (packet {i}) for {taken} (packet {j})",
        "обменять {given} (пакет {i}) на {taken} (пакет {j})",
    ),
    "candidates": Phrase("moves tried", "проверено ходов"),
    "new_loss": Phrase("new loss", "новая потеря"),
    "equilibrium_plays": Phrase("the equilibrium plays", "равновесие играет"),
    "points_unit": Phrase("points", "очк."),
    "house_rule": Phrase("house rule", "домашнее правило"),
    "engine_cpsat": Phrase("cpsat", "CP-SAT"),
    "engine_frontier": Phrase("frontier", "парето-фронт"),
    "engine_equilibrium": Phrase("equilibrium", "равновесие"),
    "fresh_samples": Phrase("on {n} fresh samples", "на {n} новых выборках"),
    # quintet equilibrium: the certificate, which equilibrium is shown, the strategies
    "payoff_line": Phrase("payoff: {name}: {text}", "платёж: {name} ({text})"),
    "payoff_margin": Phrase("margin", "перевес"),
    "payoff_win": Phrase("win", "победа"),
    "exact_by_symmetry": Phrase(" (exact, by symmetry)", " (точно, по симметрии)"),
    "certified_in": Phrase(
        " (certified in [{lower}, {upper}])", " (гарантированно в [{lower}, {upper}])"
    ),
    "certified_exploitability": Phrase(
        "certified exploitability: {gap} {unit} ({percent}% of {whole})",
        "гарантированная уязвимость: {gap} {unit} ({percent}% {whole})",
    ),
    "unit_points": Phrase("points", "очк."),
    "unit_probability": Phrase("probability", "вероятности"),
    "whole_points": Phrase("the 25 points", "от 25 очков"),
    "whole_game": Phrase("a game", "партии"),
    "converged": Phrase("converged", "сходимость достигнута"),
    "stopped": Phrase("stopped before convergence", "остановлено до сходимости"),
    "from_book_earlier": Phrase(
        "from the book, solved earlier ({work})", "из книги решений, решено ранее ({work})"
    ),
    "frontier_strategies": Phrase("frontier strategies", "стратегий на парето-фронте:"),
    "choice_found": Phrase(
        "equilibria need not be unique: shown, the one the solver found",
        "равновесие может быть не единственным: показано найденное решателем",
    ),
    "choice_canonical": Phrase(
        "equilibria need not be unique{unique}: shown, the canonical one, "
        "each player's optimal vertex of least hashed cost over the whole game",
        "равновесие может быть не единственным{unique}: показано каноническое, "
        "для каждого игрока оптимальная вершина наименьшей хеш-стоимости по всей игре",
    ),
    "choice_symmetrized": Phrase(
        "symmetrized: {n} relabellings of the suits leave this deal unchanged, so each "
        "strategy of the vertex is split equally over its images under them",
        "симметризовано: {n} перестановок мастей не меняют эту раздачу, поэтому каждая "
        "стратегия вершины поровну разделена между своими образами при них",
    ),
    "this_unique": Phrase(" (this one is)", " (это единственное)"),
    "this_not_unique": Phrase(" (this one is not)", " (это не единственное)"),
    "your_strategy": Phrase(
        "your strategy ({n} arrangements):", "ваша стратегия (раскладок: {n}):"
    ),
    "opponent_strategy": Phrase(
        "opponent's strategy ({n} arrangements):", "стратегия противника (раскладок: {n}):"
    ),
    "optimal_range": Phrase(
        "  (optimal: {low}-{high}%)", "  (в оптимальных стратегиях: {low}-{high}%)"
    ),
    "more": Phrase("({n} more)", "(ещё раскладок: {n})"),
    # quintet equilibrium --max-support K: the simple strategy
    "simple_heading": Phrase(
        "simple strategy (k = {k}): mixes {n} of at most {k} arrangements:",
        "простая стратегия (k = {k}): смешивает {n} из не более чем {k} раскладок:",
    ),
    "simple_loss": Phrase(
        "certified exploitability: {loss} {unit} ({percent}% of {whole}); "
        "it earns at least {guarantee} against any reply (game value {value})",
        "гарантированная уязвимость: {loss} {unit} ({percent}% {whole}); "
        "против любого ответа она получает не меньше {guarantee} (цена игры {value})",
    ),
    "simple_proven": Phrase(
        "proven the best: it concedes nothing (within the certified gap)",
        "доказано лучшая: ничего не уступает (в пределах гарантированного зазора)",
    ),
    "simple_found": Phrase(
        "best found by greedy selection and swap search over {pool} candidate arrangements "
        "(the equilibrium's and best responses), weights by linear program against every "
        "opponent arrangement; the exploitability is certified, but this is not proven the "
        "best {k}-arrangement strategy",
        "лучшая найденная жадным отбором и поиском замен среди {pool} раскладок-кандидатов "
        "(из равновесия и лучших ответов), веса найдены линейной программой против всех "
        "раскладок противника; уязвимость гарантирована, но не доказано, что это лучшая "
        "стратегия из {k} раскладок",
    ),
}


def say(key: str, lang: Lang | str = Lang.EN) -> str:
    """The word or phrase ``key`` in ``lang``."""
    return _WORDS[key].text(lang)
