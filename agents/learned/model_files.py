"""Reading a trained model's two files, its ``.npz`` arrays and its ``.json`` card, with errors
that name the file and what is wrong with it.

numpy and json fail on a damaged file with messages about their own internals (an empty file:
``EOFError``; random bytes: "use allow_pickle="; a card that is a list: ``AttributeError``), far
from the file that caused them. Both model kinds (``tablezoo.agents.learned.policy``'s networks and
``tablezoo.agents.learned.heuristic_weights``) read through here.

A model file is not trusted: ``read_arrays`` takes the arrays the format expects (``ArraySpec``:
name, dtype, shape, derived by the loader from the card and the env) and checks the archive's
member names and every ``.npy`` header against them before it reads any data, so a small file
cannot make it decompress more than the model the card describes (an extra 200 MB array of
zeros compresses to well under a megabyte).
"""

from __future__ import annotations

import json
import math
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tablezoo.envs.core.errors import TablezooError


class ModelFileError(TablezooError, ValueError):
    """A model file or its card that cannot be read as one."""


class ModelMismatchError(TablezooError, ValueError):
    """A model file used for an env or observation size it was not trained for."""


def read_card(npz_path: str | Path) -> dict[str, Any]:
    """The card (``.json``) next to ``npz_path``, or ``{}`` when there is none."""
    card_path = Path(npz_path).with_suffix(".json")
    if not card_path.is_file():
        return {}
    try:
        card = json.loads(card_path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ModelFileError(f"{card_path}: the model's card is not JSON ({exc})") from None
    if not isinstance(card, dict):
        raise ModelFileError(f"{card_path}: the model's card must be a JSON object (keys env, "
                             f"num_players, architecture, ...), got a {type(card).__name__}")
    if not isinstance(card.get("architecture", {}), dict):
        raise ModelFileError(f"{card_path}: 'architecture' must be an object such as "
                             f"{{\"activation\": \"relu\"}}, got {card['architecture']!r}")
    return card


@dataclass(frozen=True)
class ArraySpec:
    """One array a model file must hold: its ``dtype`` (any byte order) and ``shape``; with
    ``at_most``, every dimension and a string dtype's length are upper bounds instead. The bound
    on what reading it can cost follows: ``nbytes`` at most."""

    shape: tuple[int, ...]
    dtype: np.dtype
    at_most: bool = False
    note: str = ""

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * self.dtype.itemsize

    def fits(self, shape: tuple[int, ...], dtype: np.dtype) -> bool:
        if dtype.kind != self.dtype.kind or dtype.hasobject or dtype.subdtype is not None:
            return False
        if len(shape) != len(self.shape):
            return False
        if self.at_most:
            return (dtype.itemsize <= self.dtype.itemsize
                    and all(0 <= n <= m for n, m in zip(shape, self.shape)))
        return dtype.itemsize == self.dtype.itemsize and tuple(shape) == self.shape

    def __str__(self) -> str:
        if self.dtype.kind == "U":
            kind = f"unicode strings of at most {self.dtype.itemsize // 4} characters"
        else:
            kind = self.dtype.name
        shape = (f"shape at most {self.shape}" if self.at_most else f"shape {self.shape}")
        return f"{kind}, {shape}" + (f" ({self.note})" if self.note else "")


def read_arrays(npz_path: str | Path, expected: Mapping[str, ArraySpec],
                what: str = "model .npz archive") -> dict[str, np.ndarray]:
    """The arrays of the ``.npz`` at ``npz_path``, which must be exactly those of ``expected``
    (name -> ``ArraySpec``). The member names and each ``.npy`` header (numpy's own reader) are
    checked first; only then is any array read, so at most the expected sizes are decompressed.
    ``what`` names the format in the messages."""
    path = Path(npz_path)
    try:
        with path.open("rb") as f:
            if f.read(len(np.lib.format.MAGIC_PREFIX)) == np.lib.format.MAGIC_PREFIX:
                raise ModelFileError(f"{path}: a single array, not a model's .npz archive")
        with zipfile.ZipFile(path) as archive:
            members = archive.namelist()
            names = [m.removesuffix(".npy") for m in members]
            if (len(set(names)) != len(names) or set(names) != set(expected)
                    or not all(m.endswith(".npy") for m in members)):
                raise ModelFileError(
                    f"{path}: not a {what} (arrays {sorted(names)}; expected "
                    f"{', '.join(expected)})")
            for member, name in zip(members, names):
                with archive.open(member) as fp:
                    shape, dtype = _array_header(fp)
                if not expected[name].fits(shape, dtype):
                    raise ModelFileError(
                        f"{path}: array {name!r} is {dtype.str} of shape {tuple(shape)}; "
                        f"expected {expected[name]}")
            arrays = {}
            for member, name in zip(members, names):
                with archive.open(member) as fp:
                    arrays[name] = np.lib.format.read_array(fp, allow_pickle=False)
            return arrays
    except ModelFileError:
        raise
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, KeyError, zlib.error,
            NotImplementedError, RuntimeError) as exc:
        raise ModelFileError(f"{path}: not a readable model .npz archive (numpy: {exc})"
                             ) from None


def _array_header(fp: Any) -> tuple[tuple[int, ...], np.dtype]:
    """Shape and dtype from a ``.npy`` header, read without the data. Only version 1.0, which
    ``np.savez`` writes for any array a model holds: a 2.0 header's length is read before
    numpy checks it against its limit, so it could ask for gigabytes."""
    version = np.lib.format.read_magic(fp)
    if version != (1, 0):
        raise ValueError(f".npy format version {version}; allowed: (1, 0) as np.savez writes")
    shape, _fortran, dtype = np.lib.format.read_array_header_1_0(fp)
    return tuple(shape), np.dtype(dtype)


def card_game(npz_path: str | Path, card: Mapping[str, Any]) -> Any:
    """The ``Game`` that ``card`` (of the model at ``npz_path``) was trained in: its env, with its
    ``env_options`` and ``num_players``. A card that names no known env, options the env does not
    take, or a player count the env is not played by is refused (``ModelFileError``), so a model
    is refused when it is loaded, not at its first move."""
    from tablezoo import envs

    card_path = Path(npz_path).with_suffix(".json")
    env = card.get("env")
    if env not in envs.ENVS:
        named = "names no env" if env is None else f"names env {env!r}"
        raise ModelFileError(f"{card_path}: the model's card {named}; allowed: "
                             f"{', '.join(envs.ENVS)}")
    options = card.get("env_options") or {}
    players = card.get("num_players")
    if not isinstance(options, dict):
        raise ModelFileError(f"{card_path}: 'env_options' must be an object of {env} options, "
                             f"got {options!r}")
    if players is not None and type(players) is not int:
        raise ModelFileError(f"{card_path}: num_players={players!r}; expected an int or null")
    try:
        game = envs.make_game(env, **options)
        if (players is not None and players != game.num_players and "num_players" not in options
                and any(o.name == "num_players" for o in game.OPTIONS)):
            game = envs.make_game(env, **options, num_players=players)
    except TablezooError as exc:
        raise ModelFileError(f"{card_path}: the card's env_options {options}: {exc}") from None
    if players is not None and players != game.num_players:
        raise ModelFileError(
            f"{card_path}: num_players={players}, but {env} with the card's options {options} "
            f"is played by {game.num_players} players; allowed: {game.num_players}")
    return game
