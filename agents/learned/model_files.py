"""Reading a trained model's two files, its ``.npz`` arrays and its ``.json`` card, with errors
that name the file and what is wrong with it.

numpy and json fail on a damaged file with messages about their own internals (an empty file:
``EOFError``; random bytes: "use allow_pickle="; a card that is a list: ``AttributeError``), far
from the file that caused them. Both model kinds (``tablezoo.agents.learned.policy``'s networks and
``tablezoo.agents.learned.heuristic_weights``) read through here.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np


class ModelFileError(ValueError):
    """A model file or its card that cannot be read as one."""


class ModelMismatchError(ValueError):
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


def read_arrays(npz_path: str | Path) -> dict[str, np.ndarray]:
    """Every array of the ``.npz`` at ``npz_path``, read into memory (models are small)."""
    try:
        data = np.load(npz_path, allow_pickle=False)
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise ModelFileError(f"{npz_path}: a single array, not a model's .npz archive")
        with data:
            return {name: data[name] for name in data.files}
    except ModelFileError:
        raise
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        raise ModelFileError(f"{npz_path}: not a readable model .npz archive (numpy: {exc})"
                             ) from None
