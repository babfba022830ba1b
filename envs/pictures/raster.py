"""SVG to pixels: an ``H x W x 3`` uint8 array, as ``render_mode="rgb_array"`` returns it.

cairosvg draws the SVG into a PNG (it needs the Cairo library: Debian ``libcairo2``), Pillow
decodes it, numpy holds it. They are the ``pictures`` extra (``pip install
"tablezoo[pictures]"``), imported here only when a picture is asked for, so ``import
tablezoo.envs`` works without them.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

INSTALL = ('pip install "tablezoo[pictures]" (cairosvg, Pillow, imageio) and the Cairo library '
           "(Debian/Ubuntu: apt-get install libcairo2)")


class PicturesUnavailableError(ImportError):
    """A picture as pixels was asked for, but the ``pictures`` extra is not installed."""


def _cairosvg() -> Any:
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # cairocffi raises OSError without libcairo
        raise PicturesUnavailableError(f"pictures as pixels (render_mode='rgb_array', GIF/MP4) "
                                       f"need cairosvg: {INSTALL}; the import said: {exc}"
                                       ) from None
    return cairosvg


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """The PNG bytes of ``svg`` (``scale`` > 1 for a sharper image)."""
    return _cairosvg().svg2png(bytestring=svg.encode("utf-8"), scale=scale)


def svg_to_array(svg: str, scale: float = 1.0) -> np.ndarray:
    """The ``H x W x 3`` uint8 RGB pixels of ``svg``."""
    png = svg_to_png(svg, scale)
    try:
        from PIL import Image
    except ImportError as exc:
        raise PicturesUnavailableError(f"decoding the picture needs Pillow: {INSTALL}; "
                                       f"the import said: {exc}") from None
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8).copy()
