"""Draw the web app's icons (solver/web/static/icon-192.png, icon-512.png) from nothing.

The icon is the felt table with a gold spade: the same drawing as icon.svg,
drawn here with Pillow so the PNGs a phone's home screen needs are made
offline and committed.  Run ``python tools/make_icons.py`` after changing it.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).resolve().parents[1] / "solver" / "web" / "static"
FELT, GOLD, PAPER = (31, 95, 63), (217, 164, 0), (251, 250, 245)


def icon(size: int) -> Image.Image:
    """The icon at ``size`` pixels square (drawn 4x larger, then reduced: smooth edges)."""
    big = size * 4
    image = Image.new("RGB", (big, big), FELT)
    draw = ImageDraw.Draw(image)
    u = big / 64  # the SVG's units
    # A card, and a spade on it (a heart upside down, and its stem).
    draw.rounded_rectangle([14 * u, 8 * u, 50 * u, 56 * u], radius=5 * u, fill=PAPER)
    draw.ellipse([20 * u, 24 * u, 33 * u, 37 * u], fill=FELT)
    draw.ellipse([31 * u, 24 * u, 44 * u, 37 * u], fill=FELT)
    draw.polygon([(20.6 * u, 28 * u), (43.4 * u, 28 * u), (32 * u, 14 * u)], fill=FELT)
    draw.polygon([(32 * u, 34 * u), (27 * u, 46 * u), (37 * u, 46 * u)], fill=FELT)
    draw.rectangle([14 * u, 50 * u, 50 * u, 52 * u], fill=GOLD)
    return image.resize((size, size), Image.Resampling.LANCZOS)


if __name__ == "__main__":
    for size in (192, 512):
        icon(size).save(STATIC / f"icon-{size}.png", optimize=True)
        print(f"wrote {STATIC / f'icon-{size}.png'}")
