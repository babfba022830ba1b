"""Who may play a seat of a web game: the registry's agents that read no file (random,
heuristic, the search agents within the server's budgets, the shipped ``trained`` models) and
the user's own models, offered by name from the folders ``tablezoo serve --models DIR`` was
given. A request never names a path: ``policy:PATH``, ``trained:PATH`` and ``rllib:DIR`` are
refused, and nothing of a model file is echoed in an answer.

The folders of ``--models`` are trusted as code is: a MaskablePPO ``.zip`` is a pickle, and
loading it runs what it holds. Only the person starting the server names them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tablezoo.agents.base import Agent
from tablezoo.agents.registry import factory_from_spec, parse_agent_spec
from tablezoo.training.web.errors import bad
from tablezoo.training.web.limits import Limits

HUMAN = "human"
MODEL = "model"  # "model:NAME": a model offered by tablezoo serve --models DIR
WEB_AGENTS = ("random", "heuristic", "ismcts", "flat_search", "search", "trained")
FILE_OPTIONS = ("path", "model", "module", "models", "weights")  # name or hold a file
MODEL_FILES = {".zip": "policy", ".npz": "trained"}  # a model file's suffix -> its agent
MAX_MODELS = 1000  # model files offered at most (the first found, by name)

AgentFactory = Callable[[int | None], Agent]


class ModelShelf:
    """The user's models by name: every ``*.zip`` (a MaskablePPO run's model, played as
    ``policy``) and ``*.npz`` (a ``trained`` model) under the given folders, named by their path
    below the folder without the suffix (``run1/model``)."""

    def __init__(self, folders: Sequence[str | Path] = ()):
        self.files: dict[str, Path] = {}
        for folder in map(Path, folders):
            if not folder.is_dir():
                raise ValueError(f"--models {folder}: not a folder")
            for path in sorted(folder.rglob("*")):
                if len(self.files) >= MAX_MODELS:
                    break
                if path.suffix in MODEL_FILES and path.is_file():
                    name = path.relative_to(folder).with_suffix("").as_posix()
                    self.files.setdefault(name, path.resolve())

    def names(self) -> list[str]:
        return sorted(self.files)

    def spec(self, name: str) -> str:
        """The registry spec that plays model ``name`` (a 400 naming the offered ones else)."""
        path = self.files.get(name)
        if path is None:
            offered = ", ".join(self.names()[:30]) or "none (start tablezoo serve --models DIR)"
            raise bad(f"no model {name[:60]!r} on this server; offered: {offered}")
        return f"{MODEL_FILES[path.suffix]}:{path}"


def allowed_text(shelf: ModelShelf) -> str:
    models = [f"{MODEL}:{n}" for n in shelf.names()[:10]]
    return ("human, random, heuristic[:k=v], ismcts[:k=v], flat_search[:k=v], trained (the "
            "shipped models)" + (f", {MODEL}:NAME ({', '.join(models)})" if models else ""))


def seat_factory(spec: str, env: str, num_players: int, num_actions: int, limits: Limits,
                 shelf: ModelShelf) -> AgentFactory:
    """``seed -> agent`` for the seat spec ``spec`` of a request, or a 400 naming what is
    allowed; no path of the request is opened."""
    name, _, rest = spec.partition(":")
    model = None
    if name == MODEL:
        model, _, rest = rest.partition(",")
        path_spec = shelf.spec(model.strip())  # "policy:PATH" or "trained:PATH"
    elif name not in WEB_AGENTS:
        raise bad(f"seat agent {spec!r}: not an agent this server plays; a request names no "
                  f"file; allowed: {allowed_text(shelf)}")
    try:
        _, kw = parse_agent_spec(f"{name}:{rest}" if rest else name)
    except ValueError as exc:
        raise bad(f"seat agent {spec!r}: {exc}") from None
    check_options(spec, name, kw, limits, shelf)
    per_node = 24 * num_actions + 200  # three float arrays of num_actions and the node
    nodes = max(1000, limits.node_bytes // per_node)
    if name == "ismcts" and "max_nodes" not in kw:
        rest = ",".join(filter(None, [rest, f"max_nodes={nodes}"]))
    elif name == "ismcts" and isinstance(kw["max_nodes"], int | float) and kw["max_nodes"] > nodes:
        raise bad(f"seat agent {spec!r}: max_nodes={kw['max_nodes']} is over this server's "
                  f"limit of {nodes} for {env} (about {limits.node_bytes / 1e6:g} MB of search "
                  "statistics an agent)")
    if model is not None:
        full = f"{path_spec},{rest}" if rest else path_spec
    else:
        full = f"{name}:{rest}" if rest else name
    try:
        return factory_from_spec(full, env, num_players)
    except (ValueError, TypeError, FileNotFoundError, ImportError, OSError) as exc:
        if model is None:
            raise bad(f"seat agent {spec!r}: {without_paths(str(exc))}") from None
        print(f"tablezoo serve: model {model!r} for {env}: {exc}", file=sys.stderr)
        raise bad(f"model {model!r} cannot play {env} with {num_players} players "
                  f"({type(exc).__name__}; the server's log says why)") from None


def without_paths(message: str) -> str:
    """``message`` naming the shipped models' folder by what it is, not where this server
    keeps it (an answer shows no path of the server's machine)."""
    from tablezoo.agents.learned.policy import PRETRAINED_DIR

    return message.replace(str(PRETRAINED_DIR), "the shipped models")


def check_options(spec: str, name: str, kw: dict[str, Any], limits: Limits,
                  shelf: ModelShelf) -> None:
    """No option naming a file, and every budget within the server's limits."""
    for key, value in kw.items():
        if key in FILE_OPTIONS:
            raise bad(f"seat agent {spec!r}: a request names no file ({key}=...); allowed: "
                      f"{allowed_text(shelf)}")
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        cap = limits.budgets.get(key)
        if cap is not None and value > cap:
            raise bad(f"seat agent {spec!r}: {key}={value} is over this server's limit of "
                      f"{cap:g} a move")
        if abs(value) > limits.agent_number:
            raise bad(f"seat agent {spec!r}: {key}={value} is out of range (at most "
                      f"{limits.agent_number:g} in size)")
