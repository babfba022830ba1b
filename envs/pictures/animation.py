"""A game as a moving picture: a list of positions written as an animated GIF or an MP4.

``write_animation(path, frames)`` takes the positions' SVG texts (``state.to_svg(...)``) or
``(state, last_move)`` pairs, draws each with ``raster.svg_to_array``, pads them to one size
(a picture grows as bands and tableaus do) and writes them with imageio: ``.gif`` through
Pillow, ``.mp4`` through imageio-ffmpeg (the ``pictures`` extra). The training side's
``tablezoo.training.web.replay`` builds the frames of a seeded game between agents or of a
recorded evaluation or tournament game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from tablezoo.envs.pictures.raster import INSTALL, PicturesUnavailableError, svg_to_array

if TYPE_CHECKING:
    from tablezoo.envs.core.game import State
    from tablezoo.envs.pictures.moves import LastMove

FORMATS = (".gif", ".mp4")


def frames_of(history: Iterable[tuple[State, LastMove | None]], seat: int | None = None
              ) -> list[str]:
    """The SVG of each ``(state, last_move)`` of a game, as ``seat`` sees it."""
    return [state.to_svg(seat, last) for state, last in history]


def pad(images: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Every image on a white canvas of the largest height and width (top left aligned);
    MP4 also wants even sizes."""
    h = max(img.shape[0] for img in images)
    w = max(img.shape[1] for img in images)
    h, w = h + h % 2, w + w % 2
    out = []
    for img in images:
        canvas = np.full((h, w, 3), 255, np.uint8)
        canvas[: img.shape[0], : img.shape[1]] = img
        out.append(canvas)
    return out


def write_animation(path: str | Path, frames: Sequence[str], seconds_per_frame: float = 1.0,
                    scale: float = 1.0) -> Path:
    """Write the SVG ``frames`` as ``path`` (``.gif`` or ``.mp4``); returns the path."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ValueError(f"{path}: unknown animation format {path.suffix!r}; allowed: "
                         f"{', '.join(FORMATS)}")
    if not frames:
        raise ValueError(f"{path}: no frames to write")
    if seconds_per_frame <= 0:
        raise ValueError(f"seconds_per_frame={seconds_per_frame}: must be > 0")
    images = pad([svg_to_array(svg, scale) for svg in frames])
    try:
        import imageio.v3 as iio
    except ImportError as exc:
        raise PicturesUnavailableError(f"animations need imageio: {INSTALL}; the import said: "
                                       f"{exc}") from None
    path.parent.mkdir(parents=True, exist_ok=True)
    options: dict[str, Any]
    if path.suffix.lower() == ".gif":
        options = {"duration": int(seconds_per_frame * 1000), "loop": 0}
        iio.imwrite(path, np.stack(images), extension=".gif", **options)
    else:
        try:
            _write_mp4(path, images, seconds_per_frame)
        except ImportError as exc:
            raise PicturesUnavailableError(f"MP4 needs imageio-ffmpeg: {INSTALL}; the import "
                                           f"said: {exc}") from None
    return path


def _write_mp4(path: Path, images: list[np.ndarray], seconds_per_frame: float) -> None:
    import imageio.v2 as iio2
    import imageio_ffmpeg  # noqa: F401  (the extra's MP4 writer; a clear error if missing)

    fps = 1.0 / seconds_per_frame
    with iio2.get_writer(path, format="FFMPEG", fps=fps, codec="libx264",  # type: ignore[call-arg]
                         macro_block_size=1, ffmpeg_log_level="error") as writer:
        for img in images:
            writer.append_data(img)
