"""A small SVG writer and the shapes every game's picture shares (cards, backs, panels, labels).

Plain SVG 1.1 text that browsers, cairosvg and ``xml.etree`` all read: no scripts, no external
fonts or images, every colour written out. Elements that stand for a move carry
``data-action="ID"`` (the web app makes them clickable); a card drawn face up carries
``data-card="CODE"`` so a test can tell exactly which cards a picture shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from xml.sax.saxutils import escape, quoteattr

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#1d2430"
MUTED = "#5b6472"
PAPER = "#fbfaf6"
TABLE = "#2f6b4f"
HIGHLIGHT = "#f2a900"  # the last move
TURN = "#d9480f"  # whose turn it is
CHOICE = "#1c7ed6"  # a legal move of the seat viewing
BACK = "#33507a"
SEAT_COLOURS = ("#c92a2a", "#1971c2", "#2b8a3e", "#e67700", "#862e9c", "#0b7285")


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


def _attrs(values: dict[str, Any]) -> str:
    out = []
    for key, value in values.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        text = _num(value) if isinstance(value, int | float) and value is not True else str(value)
        out.append(f" {name}={quoteattr(text)}")
    return "".join(out)


class Canvas:
    """An SVG document built element by element; ``str(canvas)`` is the finished text."""

    def __init__(self, width: float, height: float, title: str = "", background: str = PAPER):
        self.width = width
        self.height = height
        self.title = title
        self.background = background
        self.parts: list[str] = []

    # --- elements ---------------------------------------------------------------------------
    def element(self, tag: str, content: str | None = None, **attrs: Any) -> None:
        if content is None:
            self.parts.append(f"<{tag}{_attrs(attrs)}/>")
        else:
            self.parts.append(f"<{tag}{_attrs(attrs)}>{content}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none",
             stroke: str | None = None, width: float = 1.0, rx: float = 0, **attrs: Any) -> None:
        self.element("rect", x=x, y=y, width=w, height=h, rx=rx or None, fill=fill,
                     stroke=stroke, stroke_width=width if stroke else None, **attrs)

    def text(self, x: float, y: float, text: str, size: float = 12, fill: str = INK,
             anchor: str = "start", weight: str | None = None, **attrs: Any) -> None:
        self.element("text", escape(str(text)), x=x, y=y, font_size=size, fill=fill,
                     text_anchor=anchor if anchor != "start" else None,
                     font_weight=weight, **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK,
             width: float = 1.0, **attrs: Any) -> None:
        self.element("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=width,
                     **attrs)

    def circle(self, x: float, y: float, r: float, fill: str = "none", stroke: str | None = None,
               width: float = 1.0, **attrs: Any) -> None:
        self.element("circle", cx=x, cy=y, r=r, fill=fill, stroke=stroke,
                     stroke_width=width if stroke else None, **attrs)

    def ellipse(self, x: float, y: float, rx: float, ry: float, fill: str = "none",
                stroke: str | None = None, width: float = 1.0, **attrs: Any) -> None:
        self.element("ellipse", cx=x, cy=y, rx=rx, ry=ry, fill=fill, stroke=stroke,
                     stroke_width=width if stroke else None, **attrs)

    def polygon(self, points: list[tuple[float, float]], fill: str = "none",
                stroke: str | None = None, width: float = 1.0, **attrs: Any) -> None:
        text = " ".join(f"{_num(float(x))},{_num(float(y))}" for x, y in points)
        self.element("polygon", points=text, fill=fill, stroke=stroke,
                     stroke_width=width if stroke else None, **attrs)

    @contextmanager
    def group(self, **attrs: Any) -> Iterator[None]:
        """``<g ...>`` around what is drawn inside the ``with`` block."""
        self.parts.append(f"<g{_attrs(attrs)}>")
        yield
        self.parts.append("</g>")

    def __str__(self) -> str:
        w, h = _num(float(self.width)), _num(float(self.height))
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w} {h}" font-family="{FONT}">')
        title = f"<title>{escape(self.title)}</title>" if self.title else ""
        ground = f'<rect width="{w}" height="{h}" fill="{self.background}"/>'
        return head + title + ground + "".join(self.parts) + "</svg>"


# --- shared shapes -------------------------------------------------------------------------------
def frame(c: Canvas, x: float, y: float, w: float, h: float, *, last: bool = False,
          choice: bool = False, rx: float = 6) -> None:
    """The outline that marks a shape as the last move (gold) or a legal choice (blue)."""
    if last:
        c.rect(x - 3, y - 3, w + 6, h + 6, stroke=HIGHLIGHT, width=3.5, rx=rx + 2)
    if choice:
        c.rect(x - 1.5, y - 1.5, w + 3, h + 3, stroke=CHOICE, width=2, rx=rx + 1,
               stroke_dasharray="4 2")


def card_face(c: Canvas, x: float, y: float, w: float, h: float, *, corner: str,
              centre: str = "", colour: str = INK, fill: str = "#ffffff", code: str = "",
              lines: tuple[str, ...] = (), last: bool = False, action: int | None = None,
              border: str = "#8a8f98", corner_size: float = 13) -> None:
    """A face-up card: ``corner`` at the top left, a large ``centre`` symbol, small ``lines``
    below it; ``code`` names the card (``data-card``), ``action`` makes it a choice."""
    attrs: dict[str, Any] = {"data_card": code or None}
    if action is not None:
        attrs.update(data_action=action, cursor="pointer", class_="choice")
    with c.group(**attrs):
        c.rect(x, y, w, h, fill=fill, stroke=border, width=1, rx=5)
        c.text(x + 3, y + 2 + corner_size, corner, size=corner_size, fill=colour,
               weight="bold")
        if centre:
            c.text(x + w / 2, y + h / 2 + 10 - 5 * len(lines), centre, size=min(w, h) * 0.5,
                   fill=colour, anchor="middle")
        for i, line in enumerate(lines):
            c.text(x + w / 2, y + h - 6 - 11 * (len(lines) - 1 - i), line, size=9,
                   fill=MUTED, anchor="middle")
    frame(c, x, y, w, h, last=last, choice=action is not None, rx=5)


def card_back(c: Canvas, x: float, y: float, w: float, h: float, *, label: str = "",
              last: bool = False, colour: str = BACK) -> None:
    """A face-down card (no ``data-card``: nothing about it is shown)."""
    c.rect(x, y, w, h, fill=colour, stroke="#1c2c45", width=1, rx=5)
    c.rect(x + 4, y + 4, w - 8, h - 8, stroke="#9fb3d1", width=1, rx=3)
    if label:
        c.text(x + w / 2, y + h / 2 + 5, label, size=13, fill="#ffffff", anchor="middle",
               weight="bold")
    frame(c, x, y, w, h, last=last, rx=5)


def label_box(c: Canvas, x: float, y: float, text: str, *, fill: str = "#ffffff",
              colour: str = INK, size: float = 12, border: str | None = "#b8bcc4",
              weight: str | None = None) -> float:
    """A small rounded label; returns its width (for laying out a row of labels)."""
    w = 8 + 0.62 * size * len(text)
    c.rect(x, y, w, size + 8, fill=fill, stroke=border, rx=4)
    c.text(x + 4, y + size + 2, text, size=size, fill=colour, weight=weight)
    return w


def caption(c: Canvas, x: float, y: float, lines: list[str], *, title: str = "last move",
            width: float = 400) -> None:
    """The last move in words, in a gold-edged box (``lines`` as the viewing seat may read
    them)."""
    if not lines:
        return
    h = 20 + 15 * len(lines)
    c.rect(x, y, width, h, fill="#fff8e1", stroke=HIGHLIGHT, width=2, rx=6)
    c.text(x + 8, y + 15, title, size=11, fill=MUTED, weight="bold")
    for i, line in enumerate(lines):
        c.text(x + 8, y + 31 + 15 * i, clip(line, int(width / 7)), size=12)


def clip(text: str, most: int) -> str:
    """``text`` cut to ``most`` characters with an ellipsis."""
    return text if len(text) <= most else text[: max(1, most - 1)] + "…"


def seat_name(player: int, seat: int | None) -> str:
    return f"player_{player}" + (" (you)" if player == seat else "")
