"""PNG charts of ``quintet report --plot DIR`` (matplotlib, the notebooks extra).

Every chart's title states its sample (deals, or the book's coverage) and
the figures carry their 95% intervals (error bars) and a legend.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.app.study_text import sample_line
from solver.util.files import check_output_path

__all__ = ["write_plots"]


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
