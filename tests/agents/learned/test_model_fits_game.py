"""A model file that does not fit the game it is asked to play is refused before any game, with
a message that names the mismatch: an output layer of another action count (it used to be
reported as an observation-size mismatch: an advised model's input holds its action count), or
a card of another player count (it used to be accepted)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from tablezoo import envs
from tablezoo.agents.learned.policy import PRETRAINED_DIR, ModelMismatchError
from tablezoo.agents.registry import factory_from_spec


def _copy(name: str, tmp_path: Path) -> Path:
    source = PRETRAINED_DIR / name
    target = tmp_path / source.name
    shutil.copy(source, target)
    shutil.copy(source.with_suffix(".json"), target.with_suffix(".json"))
    return target


def _set_card(path: Path, **changes: object) -> None:
    card = json.loads(path.with_suffix(".json").read_text())
    path.with_suffix(".json").write_text(json.dumps({**card, **changes}))


def test_another_action_count_is_named_as_such(tmp_path):
    path = _copy("ethnos_2p.npz", tmp_path)  # advised: its input is obs + its action count
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    last = max(int(k[1:]) for k in arrays if k.startswith("w"))
    arrays[f"w{last}"] = arrays[f"w{last}"][:, :-1]
    arrays[f"b{last}"] = arrays[f"b{last}"][:-1]
    np.savez(path, **arrays)
    actions = envs.make_game("ethnos_v0", num_players=2).num_actions
    _set_card(path, num_actions=actions - 1)  # the card gives the sizes its arrays must have
    with pytest.raises(ModelMismatchError,
                       match=f"among {actions - 1} actions.*ethnos_v0 has {actions} actions"):
        factory_from_spec(f"trained:path={path}", "ethnos_v0", 2)


@pytest.mark.parametrize("name", ["bower_2p.npz", "alternatives/bower_2p_clone.npz"])
def test_a_card_of_another_player_count_is_refused(tmp_path, name):
    """Both model kinds: heuristic weights and a network."""
    path = _copy(name, tmp_path)
    factory_from_spec(f"trained:path={path}", "bower_v0", 2)  # the undamaged copy fits
    _set_card(path, num_players=4)
    with pytest.raises(ModelMismatchError, match="trained for 4 players.*bower_v0 has 2"):
        factory_from_spec(f"trained:path={path}", "bower_v0", 2)


def test_another_player_count_is_named_before_the_observation_size():
    """A 2-player model in a 4-player game: its card says so, which tells more than the sizes."""
    path = PRETRAINED_DIR / "ethnos_2p.npz"
    with pytest.raises(ModelMismatchError, match="trained for 2 players.*ethnos_v0 has 4"):
        factory_from_spec(f"trained:path={path}", "ethnos_v0", 4)
