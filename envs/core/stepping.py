"""Pieces shared by the AEC and parallel adapters: action coercion, reset seeds and options,
render modes."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import logger

from tablezoo.envs.core.errors import InvalidOptionError, ResetNeededError
from tablezoo.envs.core.game import Game, State, short
from tablezoo.envs.core.spec import spec_named

if TYPE_CHECKING:
    from tablezoo.envs.pictures.moves import LastMove

RENDER_MODES = ("human", "ansi", "rgb_array")
RESET_OPTIONS = ("state",)


def render_modes(game: Game) -> tuple[str, ...]:
    """The render modes of ``game``'s envs: ``"rgb_array"`` only where the game's record names a
    picture (PettingZoo's ``render_test`` tries every mode an env lists)."""
    record = spec_named(game.name)
    if record is not None and record.picture is not None:
        return RENDER_MODES
    return tuple(m for m in RENDER_MODES if m != "rgb_array")


def check_render_mode(env_name: str, render_mode: str | None,
                      modes: tuple[str, ...] = RENDER_MODES) -> None:
    if render_mode is not None and render_mode not in modes:
        why = " (its record names no picture)" if render_mode in RENDER_MODES else ""
        raise InvalidOptionError(
            f"{env_name}: render_mode={render_mode!r} is not supported{why}; "
            f"allowed values: None, {', '.join(repr(m) for m in modes)}"
        )


def as_action_id(state: State, player: int, action: Any) -> int:
    """An action as a plain ``int``; numpy integers pass, anything else is a clear error."""
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    raise state.illegal(player, action, "an action must be an integer action id")


def check_seed(env_name: str, seed: Any) -> int | None:
    """``reset``'s ``seed`` as a plain ``int`` (numpy integers count as ints), or ``None``.

    Anything else raises ``InvalidOptionError`` naming it: gymnasium's own check took ``True`` as
    seed 1 and answered ``-1``, ``1.5`` or ``"3"`` with its own ``Error``. Called before the env
    changes anything, so a refused reset leaves it as it was."""
    value = int(seed) if isinstance(seed, np.integer) else seed
    if value is not None and (type(value) is not int or value < 0):
        raise InvalidOptionError(f"{env_name}: reset(seed={short(seed)}) is not allowed; "
                                 "allowed: a non-negative int (numpy integers too) or None")
    return value


def initial_state(
    game: Game, np_random: np.random.Generator, options: dict[str, Any] | None, env_name: str
) -> State:
    """A new game seeded from the env's generator, or the saved state of ``options["state"]``.

    Unknown reset options are ignored with a warning (PettingZoo's API test passes one).
    """
    seed = int(np_random.integers(2**63 - 1))
    options = options or {}
    unknown = sorted(set(options) - set(RESET_OPTIONS))
    if unknown:
        warnings.warn(
            f"{env_name}: ignoring unknown reset option(s) {unknown}; "
            f"known reset options: {', '.join(RESET_OPTIONS)}",
            stacklevel=3,
        )
    if "state" in options:
        return game.state_from_dict(options["state"])
    return game.new_state(seed)


def render(state: State | None, render_mode: str | None, last: LastMove | None = None
           ) -> str | np.ndarray | None:
    """``"ansi"``: the position as text; ``"human"``: print it; ``"rgb_array"``: its all-seeing
    picture (``state.to_svg``, ``last`` highlighted) as H x W x 3 uint8 pixels (cairosvg, the
    ``pictures`` extra); no mode: warn, as gymnasium does."""
    if render_mode is None:
        logger.warn("render() called without a render_mode; pass render_mode='ansi'.")
        return None
    if render_mode == "rgb_array":
        from tablezoo.envs.pictures.raster import svg_to_array

        if state is None:
            raise ResetNeededError("render() before the first reset(); call reset() first")
        return svg_to_array(state.to_svg(None, last))
    text = str(state) if state is not None else "(not reset)"
    if render_mode == "human":
        print(text)
        return None
    return text
