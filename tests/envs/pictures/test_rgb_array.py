"""``render_mode="rgb_array"`` on every env and variant (AEC and parallel): an H x W x 3 uint8
array of the all-seeing picture, the last move drawn in; a clear error naming the ``pictures``
extra when cairosvg is missing; positions written as GIF and MP4."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.envs.core.errors import ResetNeededError
from tablezoo.envs.pictures.moves import record_move
from tests.envcases import cases

pytest.importorskip("cairosvg")
from tablezoo.envs.pictures.animation import write_animation
from tablezoo.envs.pictures.raster import PicturesUnavailableError, svg_to_array


def size_of(svg: str) -> tuple[int, int]:
    root = ET.fromstring(svg)
    return round(float(root.get("height"))), round(float(root.get("width")))


@pytest.mark.parametrize(("name", "options"), cases())
def test_rgb_array_is_the_pictured_position(name, options):
    env = envs.make(name, render_mode="rgb_array", **options)
    with pytest.raises(ResetNeededError, match="reset"):
        env.render()
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(9):
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    image = env.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8 and image.ndim == 3
    assert image.shape == (*size_of(env.game_state.to_svg(None, env._last_move)), 3)
    assert env._last_move is not None and image.std() > 10  # a drawing, not a blank page
    par = envs.make_parallel(name, render_mode="rgb_array", **options)
    observations, _ = par.reset(seed=4)
    first = par.render()
    assert first.shape[2] == 3 and first.dtype == np.uint8
    actions = {}
    for agent in par.agents:
        mask = observations[agent]["action_mask"]
        actions[agent] = int(rng.choice(np.flatnonzero(mask)))
    par.step(actions)
    assert par.render().shape[2] == 3


def test_the_ansi_and_human_modes_are_unchanged():
    env = envs.make("bower_v0", render_mode="ansi")
    env.reset(seed=1)
    assert "player_0" in env.render()
    assert "rgb_array" in env.metadata["render_modes"]


def test_without_cairosvg_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import cairosvg now fails
    with pytest.raises(PicturesUnavailableError, match=r'pip install "tablezoo\[pictures\]"'):
        svg_to_array(envs.make_game("bower_v0").new_state(0).to_svg())
    env = envs.make("bower_v0", render_mode="rgb_array")  # making the env needs nothing
    env.reset(seed=0)
    with pytest.raises(ImportError, match="libcairo2"):
        env.render()


def game_frames(name: str, moves: int) -> list[str]:
    state = envs.make_game(name).new_state(1)
    frames = [state.to_svg()]
    for _ in range(moves):
        joint = {p: state.legal_actions(p)[0] for p in state.acting_players()}
        last = record_move(state, joint)
        state.apply(joint)
        frames.append(state.to_svg(0, last))
    return frames


@pytest.mark.parametrize("suffix", [".gif", ".mp4"])
def test_a_game_is_written_as_an_animation(tmp_path, suffix):
    if suffix == ".mp4":
        pytest.importorskip("imageio_ffmpeg")
    pytest.importorskip("imageio")
    path = write_animation(tmp_path / f"game{suffix}", game_frames("bower_v0", 4),
                           seconds_per_frame=0.5)
    assert path.stat().st_size > 1000
    import imageio.v3 as iio

    frames = iio.imread(path, index=None) if suffix == ".gif" else None
    if frames is not None:
        assert frames.shape[0] == 5 and frames.shape[-1] in (3, 4)
    with pytest.raises(ValueError, match="allowed: .gif, .mp4"):
        write_animation(tmp_path / "game.avi", game_frames("bower_v0", 1))
