"""Registry names and option validation: bad names and values fail with the allowed values."""

from __future__ import annotations

import pytest

from tablezoo import envs
from tablezoo.envs.core import InvalidOptionError
from tests.envcases import shipped_envs


def test_env_names():
    builtin = ("bauer_trick_v0", "bauer_draft_v0", "bower_v0", "ethnos_v0")
    assert envs.ENVS[:4] == builtin and shipped_envs() == list(builtin)  # then the tests' own
    with pytest.raises(InvalidOptionError, match="known envs: bauer_trick_v0"):
        envs.make("bauer_trik_v0")


@pytest.mark.parametrize("name", envs.ENVS)
def test_unknown_option_names_the_known_ones(name):
    with pytest.raises(InvalidOptionError, match="known options"):
        envs.make(name, no_such_option=1)
    with pytest.raises(InvalidOptionError, match="render_mode"):
        envs.make(name, render_mode="rgb")


def test_bad_option_value_names_allowed_values():
    with pytest.raises(InvalidOptionError, match="allowed values: 'game', 'deal'"):
        envs.make("bauer_trick_v0", episode="hand")
    with pytest.raises(InvalidOptionError, match="int >= 1"):
        envs.make("bauer_trick_v0", start_score=0)
    with pytest.raises(InvalidOptionError, match="allowed values: False, True"):
        envs.make("bauer_trick_v0", defenders_score_on_fail=1)


def test_installed_game_plugins_register_and_a_broken_one_is_skipped_by_name(monkeypatch,
                                                                            tmp_path):
    """Packages declare their games under the entry-point group ``tablezoo.games``: each module
    is imported (registering its record); one that fails is skipped with a warning naming it."""
    import importlib.metadata
    import sys

    from tablezoo.envs import registry

    (tmp_path / "plugin_game_ok.py").write_text("LOADED = True\n")
    (tmp_path / "plugin_game_broken.py").write_text("raise RuntimeError('no cards')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    points = [importlib.metadata.EntryPoint("ok", "plugin_game_ok", registry.PLUGIN_GROUP),
              importlib.metadata.EntryPoint("broken", "plugin_game_broken",
                                            registry.PLUGIN_GROUP)]
    asked = []

    def entry_points(group):
        asked.append(group)
        return points

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    try:
        with pytest.warns(UserWarning, match="'broken' .*plugin_game_broken.*no cards"):
            assert registry.load_plugins() == ["ok"]
        assert asked == ["tablezoo.games"] and sys.modules["plugin_game_ok"].LOADED
    finally:
        for name in ("plugin_game_ok", "plugin_game_broken"):
            sys.modules.pop(name, None)
    assert envs.ENVS[:4] == ("bauer_trick_v0", "bauer_draft_v0", "bower_v0", "ethnos_v0")
