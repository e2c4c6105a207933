"""PNG charts of ``quintet report --plot DIR`` (matplotlib, the notebooks extra).

Every chart's title states its sample (deals, or the book's coverage) and
the figures carry their 95% intervals (error bars) and a legend.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.app.study_text import sample_line
from solver.util.files import check_output_path

__all__ = ["write_plots", "write_whole_plot"]


def _save(figure: Any, path: Path) -> str:
    check_output_path(path)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    return str(path)


def _positions(doc: dict[str, Any], plt: Any, folder: Path) -> list[str]:
    sample = sample_line(doc["sample"], "en")
    positions = [p["position"] for p in doc["positions"]]
    means = [100 * p["concede"]["mean"] for p in doc["positions"]]
    errors = [
        [100 * (p["concede"]["mean"] - p["concede"]["interval"][0]) for p in doc["positions"]],
        [100 * (p["concede"]["interval"][1] - p["concede"]["mean"]) for p in doc["positions"]],
    ]
    figure, axis = plt.subplots(figsize=(7, 4))
    axis.bar(positions, means, yerr=errors, capsize=4, label="concedes (95% interval)")
    axis.set(xlabel="position", ylabel="% of games", title=f"Equilibrium concedes\n{sample}")
    axis.legend()
    written = [_save(figure, folder / "concede.png")]
    plt.close(figure)
    names = sorted({n for p in doc["positions"] for n in p["combinations"]})
    figure, axis = plt.subplots(figsize=(7, 4))
    bottom = [0.0] * len(positions)
    for name in names:
        shares = [100 * p["combinations"].get(name, 0.0) for p in doc["positions"]]
        axis.bar(positions, shares, bottom=bottom, label=name)
        bottom = [b + s for b, s in zip(bottom, shares, strict=True)]
    axis.set(
        xlabel="position", ylabel="% of equilibrium packets", title=f"Combinations laid\n{sample}"
    )
    axis.legend(fontsize="small", loc="center left", bbox_to_anchor=(1, 0.5))
    written.append(_save(figure, folder / "combinations.png"))
    plt.close(figure)
    return written


def _histogram(doc: dict[str, Any], key: str, label: str, plt: Any, folder: Path) -> str:
    block = doc[key]
    sample = sample_line(doc["sample"], "en")
    lows = [b["low"] for b in block["histogram"]]
    widths = [b["high"] - b["low"] for b in block["histogram"]]
    figure, axis = plt.subplots(figsize=(7, 4))
    axis.bar(
        lows,
        [100 * b["share"] for b in block["histogram"]],
        width=widths,
        align="edge",
        label="share of deals",
    )
    low, high = block["interval"]
    axis.axvline(
        block["mean"], color="black", label=f"mean {block['mean']:.3g} [{low:.3g}, {high:.3g}]"
    )
    axis.set(xlabel=label, ylabel="% of deals", title=f"{label}\n{sample}")
    axis.legend()
    path = _save(figure, folder / f"{key}.png")
    plt.close(figure)
    return path


def write_plots(doc: dict[str, Any], folder: Path) -> list[str]:
    """Write the report's charts into ``folder``; the paths written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = _positions(doc, plt, folder)
    written.append(_histogram(doc, "support", "support size", plt, folder))
    written.append(_histogram(doc, "top_probability", "top arrangement's probability", plt, folder))
    if doc["value"] is not None:
        written.append(_histogram(doc, "value", "game value", plt, folder))
    return written


def _errors(figures: list[dict[str, Any]], scale: float = 100.0) -> list[list[float]]:
    return [
        [scale * (f["mean"] - f["interval"][0]) for f in figures],
        [scale * (f["interval"][1] - f["mean"]) for f in figures],
    ]


def write_whole_plot(doc: dict[str, Any], folder: Path) -> str:
    """The whole game's summary (every payoff it holds) as one PNG, ``whole_game.png``:
    the concession rate by position, the combinations laid (the first payoff) and the
    support sizes, each figure with its 95% interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    blocks = doc["payoffs"]
    sample = doc["sample"]
    classes = ", ".join(f"{b['payoff']} {b['classes']:,}" for b in blocks)
    figure, axes = plt.subplots(1, 3, figsize=(15, 4.6))
    width = 0.8 / len(blocks)
    for i, block in enumerate(blocks):
        x = [p["position"] + (i - (len(blocks) - 1) / 2) * width for p in block["positions"]]
        concede = [p["concede"] for p in block["positions"]]
        axes[0].bar(x, [100 * f["mean"] for f in concede], width=width, label=block["payoff"],
                    yerr=_errors(concede), capsize=3)  # fmt: skip
        bins = block["support"]["histogram"]
        xs = [j + (i - (len(blocks) - 1) / 2) * width for j in range(len(bins))]
        axes[2].bar(xs, [100 * b["mean"] for b in bins], width=width, label=block["payoff"],
                    yerr=_errors(bins), capsize=3)  # fmt: skip
    axes[0].set(xlabel="position (3 to 7 points)", ylabel="% of games",
                title="Player 1's equilibrium concedes the position")  # fmt: skip
    axes[0].set_ylim(0, 65)
    axes[0].legend(title="payoff (95% intervals)", loc="upper right", ncol=2)
    first = blocks[0]
    names = list(dict.fromkeys(n for p in first["positions"] for n in p["combinations"]))
    bottom = [0.0] * len(first["positions"])
    positions = [p["position"] for p in first["positions"]]
    for name in names:
        shares = [
            100 * p["combinations"].get(name, {"mean": 0.0})["mean"] for p in first["positions"]
        ]
        axes[1].bar(positions, shares, bottom=bottom, label=name)
        bottom = [b + v for b, v in zip(bottom, shares, strict=True)]
    axes[1].set(xlabel="position", ylabel="% of equilibrium packets",
                title=f"Combinations laid ({first['payoff']} payoff)")  # fmt: skip
    axes[1].legend(fontsize="small", loc="center left", bbox_to_anchor=(1, 0.5))
    labels = [
        f"{b['low']}" if b["low"] == b["high"] else f"{b['low']}-{b['high']}"
        for b in first["support"]["histogram"]
    ]
    axes[2].set_xticks(range(len(labels)), labels, rotation=45)
    axes[2].set(xlabel="support size (arrangements)", ylabel="% of deals",
                title="Equilibrium support sizes")  # fmt: skip
    axes[2].legend(title="payoff (95% intervals)")
    figure.suptitle(
        f"The whole game: {classes} mirror classes drawn uniformly (seed {sample['seed']}) "
        f"of {sample['classes_total']:,}, weighted by orbit size"
    )
    path = _save(figure, folder / "whole_game.png")
    plt.close(figure)
    return path
