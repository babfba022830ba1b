"""List-valued env options (ethnos' ``band_glory``, ``tribes``) can be given on the command
line as JSON, and a config file's lists reach the game as lists. Before, the tools read
``band_glory=[0,1,3,6,10,16]`` as a string, which the game refused, so these options could not
be set from any tool."""

from __future__ import annotations

import json

import pytest

from tablezoo import envs
from tablezoo.training.cli.evaluation import evaluate
from tablezoo.training.cli.selfplay import train
from tablezoo.training.runs import env_options_for, option_item, parse_env_options

GLORY = [0, 1, 3, 6, 10, 16]
TRIBES = ["dwarves", "elves", "giants", "halflings", "merfolk"]


def test_a_json_list_on_the_command_line_is_a_list():
    given = parse_env_options([f"band_glory={json.dumps(GLORY)}", "num_players=3",
                               f"tribes={json.dumps(TRIBES)}"])
    assert given == {"band_glory": GLORY, "num_players": 3, "tribes": TRIBES}
    options = env_options_for("ethnos_v0", given)  # the game takes them
    assert envs.make_game("ethnos_v0", **options).options["band_glory"] == tuple(GLORY)


def test_a_malformed_list_names_the_json_form():
    with pytest.raises(ValueError, match="a list value must be JSON.*band_glory=\\[0,1,3\\]"):
        parse_env_options(["band_glory=[0,1,"])


@pytest.mark.parametrize("value", [GLORY, tuple(GLORY), TRIBES, 3, "deal", True, None])
def test_option_items_read_back_as_their_values(value):
    assert parse_env_options([option_item("key", value)]) == {
        "key": list(value) if isinstance(value, tuple) else value}


def test_a_config_files_lists_reach_the_game(tmp_path):
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"env": "ethnos_v0", "timesteps": 64, "env_option": {
        "num_players": 3, "band_glory": GLORY, "tribes": TRIBES}}))
    args = train.parse_args(train.build_parser(),
                            ["--config", str(config), "--out", str(tmp_path / "run")])
    given = parse_env_options(args.env_option)
    assert given == {"num_players": 3, "band_glory": GLORY, "tribes": TRIBES}
    game = envs.make_game("ethnos_v0", **env_options_for("ethnos_v0", given))
    assert game.options["band_glory"] == tuple(GLORY)
    assert [t.lower() for t in game.new_state(0).to_dict()["tribes"]] == TRIBES


def test_a_tool_plays_under_a_list_option(tmp_path):
    out = tmp_path / "eval.json"
    code = evaluate.main(["--env", "ethnos_v0", "--agent", "random", "--games", "3",
                          "--env-option", "num_players=3", "--env-option",
                          f"band_glory={json.dumps(GLORY)}", "--json", str(out),
                          "--no-progress"])
    assert code == 0 and out.is_file()
