"""A position of a finished game as a PNG picture, for links shared outside the site (a chat
app's preview shows it): the board as static/js/board.js draws it, with its grid, star points,
coordinates, the stones, the last move's red dot and, on the final position, the winning line.

Pillow draws it; nothing here knows of requests, so the picture and its ETag depend only on
the stones shown.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from gobang.rules import SIZE

Point = tuple[int, int]

# Bumped whenever the drawing changes: the ETag carries it, so a cached picture of the old
# drawing is not taken for the new one.
DRAWING = "1"
PIXELS = 600
# Pillow draws circles without anti-aliasing: the picture is drawn this many times larger and
# shrunk, which smooths the stones' edges.
SUPERSAMPLE = 3
# The board's geometry in board.js's units (one unit between two lines): a margin around the
# grid that holds the coordinate labels, the stone's radius, and so on.
MARGIN = 1.3
VIEW = SIZE - 1 + 2 * MARGIN
LABEL_AT = 0.55
STONE_RADIUS = 0.45
STAR_RADIUS = 0.12
LAST_RADIUS = 0.13
LINE_WIDTH = 0.035
EDGE_WIDTH = 0.07
LABEL_SIZE = 0.36
STAR_POINTS = ((7, 7), (11, 3), (11, 11), (3, 3), (3, 11))
LETTERS = "abcdefghijklmno"

# The wood theme's colours (static/css/site.css, "board").
WOOD = (220, 176, 107)
INK = (90, 61, 26)
EDGE = (74, 49, 20)
STAR = (59, 38, 16)
BLACK_STONE = (29, 29, 31)
WHITE_STONE = (250, 250, 250)
WHITE_RIM = (120, 120, 120)
RED = (229, 57, 53)


@dataclass(frozen=True)
class Position:
    """The stones shown, in the order they were played (black first), and the winning line,
    which only the final position of a game won by five shows."""

    moves: tuple[Point, ...]
    line: tuple[Point, ...] = ()


def position_after(moves: Sequence[Sequence[int]], line: Sequence[Sequence[int]] | None,
                   shown: int) -> Position:
    """The position after the first `shown` moves (0 <= shown <= len(moves)); `line` is the
    game's winning line as stored, [[row, col], ...]."""
    stones = tuple((int(row), int(col)) for row, col in moves[:shown])
    final = shown == len(moves)
    return Position(stones, tuple((int(row), int(col)) for row, col in line or ()) if final else ())


def etag(position: Position) -> str:
    """A strong validator: the same stones drawn the same way give the same bytes."""
    text = f"{DRAWING}|{position.moves}|{position.line}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class _Canvas:
    """Board units to pixels on the enlarged picture."""

    def __init__(self) -> None:
        self.size = PIXELS * SUPERSAMPLE
        self.unit = self.size / VIEW
        self.image = Image.new("RGB", (self.size, self.size), WOOD)
        self.draw = ImageDraw.Draw(self.image)

    def px(self, units: float) -> float:
        return units * self.unit

    def at(self, index: int) -> float:
        return self.px(MARGIN + index)

    def disc(self, row: int, col: int, radius: float, fill: tuple[int, int, int],
             outline: tuple[int, int, int] | None = None, width: float = 0) -> None:
        x, y, r = self.at(col), self.at(row), self.px(radius)
        self.draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline,
                          width=max(1, round(self.px(width))) if outline else 0)


def _grid(canvas: _Canvas) -> None:
    first, last = canvas.at(0), canvas.at(SIZE - 1)
    width = max(1, round(canvas.px(LINE_WIDTH)))
    for i in range(SIZE):
        canvas.draw.line((first, canvas.at(i), last, canvas.at(i)), fill=INK, width=width)
        canvas.draw.line((canvas.at(i), first, canvas.at(i), last), fill=INK, width=width)
    canvas.draw.rectangle((first, first, last, last), outline=EDGE,
                          width=max(1, round(canvas.px(EDGE_WIDTH))))
    for row, col in STAR_POINTS:
        canvas.disc(row, col, STAR_RADIUS, STAR)


@lru_cache(maxsize=1)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    # Pillow's own font (no system font is needed); its bitmap font where FreeType is missing.
    try:
        return ImageFont.load_default(size=size)
    except (ImportError, OSError):
        return ImageFont.load_default()


def _labels(canvas: _Canvas) -> None:
    font = _font(round(canvas.px(LABEL_SIZE)))
    near, far = canvas.px(LABEL_AT), canvas.px(VIEW - LABEL_AT)
    for i in range(SIZE):
        for text, x, y in ((LETTERS[i], canvas.at(i), near), (LETTERS[i], canvas.at(i), far),
                           (str(SIZE - i), near, canvas.at(i)), (str(SIZE - i), far, canvas.at(i))):
            canvas.draw.text((x, y), text, fill=INK, font=font, anchor="mm")


def _stones(canvas: _Canvas, position: Position) -> None:
    black = {move: number % 2 == 0 for number, move in enumerate(position.moves)}
    for (row, col), is_black in black.items():
        if is_black:
            canvas.disc(row, col, STONE_RADIUS, BLACK_STONE)
        else:
            canvas.disc(row, col, STONE_RADIUS, WHITE_STONE, WHITE_RIM, 0.03)
    for row, col in (point for point in position.line if point in black):
        # A red ring, the stone drawn again inside it, as the page's glow around the five.
        canvas.disc(row, col, STONE_RADIUS + 0.04, RED)
        stone = BLACK_STONE if black[(row, col)] else WHITE_STONE
        canvas.disc(row, col, STONE_RADIUS - 0.04, stone)
    if position.moves:
        row, col = position.moves[-1]
        canvas.disc(row, col, LAST_RADIUS, RED)


# The server runs on eventlet, where drawing holds up every other request for its time (some
# 30-50 ms): the pictures asked for most, a shared link's, are kept (about 30-70 kB each).
@lru_cache(maxsize=64)
def render_png(position: Position) -> bytes:
    canvas = _Canvas()
    _grid(canvas)
    _labels(canvas)
    _stones(canvas, position)
    picture = canvas.image.resize((PIXELS, PIXELS), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    # Without `optimize`: it took four times as long as the rest for 1% fewer bytes.
    picture.save(out, format="PNG")
    return out.getvalue()
