"""Agents by name: ``make_agent(name, env_name=..., seed=..., **kw)`` and the spec strings the
command-line tools use (``"random"``, ``"ismcts:iterations=300"``, ``"flat_search:rollouts=128"``,
``"rollout:worlds=64"``, ``"policy:runs/x/model.zip"``, ``"trained"``, ``"rllib:runs/x"``).
``search`` is the old name of ``flat_search`` and stays an alias."""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from tablezoo import envs
from tablezoo.agents.base import BaseAgent
from tablezoo.agents.games import heuristic_class
from tablezoo.agents.random_agent import RandomAgent
from tablezoo.agents.search.defaults import SearchSettings
from tablezoo.agents.search.flat import SearchAgent
from tablezoo.agents.search.ismcts import ISMCTSAgent
from tablezoo.agents.search.rollouts import RolloutAgent
from tablezoo.agents.strongest import StrongestAgent


def _policy(**kw: Any) -> BaseAgent:
    from tablezoo.agents.learned.policy import PolicyAgent

    return PolicyAgent(**kw)


def _policy_params() -> set[str]:
    from tablezoo.agents.learned.policy import PolicyAgent

    return _params(PolicyAgent)


def _params(cls: Callable[..., Any]) -> set[str]:
    return {n for n in inspect.signature(cls).parameters if n not in ("self", "seed")}


AGENTS: tuple[str, ...] = ("random", "heuristic", "ismcts", "rollout", "flat_search", "search",
                           "policy", "trained", "rllib", "strongest")
ALIASES: dict[str, str] = {"search": "flat_search"}  # old spec strings keep working
_PATH_AGENTS = ("policy", "trained", "rllib")  # "NAME:PATH" is short for path=PATH


def make_agent(
    name: str, env_name: str | None = None, seed: int | None = None, **kw: Any
) -> BaseAgent:
    """A fresh agent ``name`` (one of ``AGENTS``) for env ``env_name``, seeded with ``seed``.

    ``heuristic`` needs ``env_name`` (each game has its own); ``policy`` and ``rllib`` need
    ``path=``; ``trained`` plays the shipped numpy model for ``env_name`` (and ``num_players``),
    or ``path=``.
    Unknown names, envs or keyword arguments raise ``ValueError`` naming the allowed values; a
    model file that is not there, or no shipped model for the env and player count, raises
    ``FileNotFoundError`` naming what there is.
    """
    return agent_factory(name, env_name, **kw)(seed)


def agent_factory(
    name: str, env_name: str | None = None, **kw: Any
) -> Callable[[int | None], BaseAgent]:
    """Validate ``name``/``env_name``/``kw`` once and return ``seed -> fresh agent``.

    The opponent pool builds agents every episode; doing the checks here once keeps that cheap.
    """
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(AGENTS)}")
    if env_name is not None and env_name not in envs.ENVS:
        raise ValueError(f"unknown env {env_name!r}; known envs: {', '.join(envs.ENVS)}")
    # numpy scalars (from a sweep over np.linspace) as the Python values they equal
    kw = {k: v.item() if isinstance(v, np.generic) else v for k, v in kw.items()}
    if name not in ("heuristic", "strongest") or env_name is not None:
        _check_kinds(name, _signature_of(name, env_name), kw)
    if name == "strongest":
        if env_name is None:
            raise ValueError("agent 'strongest' is game-specific: pass env_name=")
        cls = functools.partial(StrongestAgent, env_name=env_name, make=agent_from_spec)
        allowed = set()
    elif name == "heuristic":
        if env_name is None:
            raise ValueError("agent 'heuristic' is game-specific: pass env_name=")
        cls: Callable[..., BaseAgent] = heuristic_class(env_name)
        allowed = _params(cls)
    elif name == "random":
        cls, allowed = RandomAgent, _params(RandomAgent)
    elif name == "ismcts":
        cls, allowed = ISMCTSAgent, _params(SearchSettings)  # its options are these fields
    elif ALIASES.get(name, name) == "flat_search":
        cls, allowed = SearchAgent, _params(SearchAgent)
    elif name == "rollout":
        cls, allowed = RolloutAgent, _params(RolloutAgent)
    elif name == "rllib":
        from tablezoo.agents.learned.rllib import RLlibAgent, load_module

        cls, allowed = RLlibAgent, _params(RLlibAgent)
        if "path" in kw and "module" not in kw:  # load the checkpoint once, not per agent
            kw = {**{k: v for k, v in kw.items() if k != "path"}, "module": load_module(kw["path"])}
    elif name == "trained":
        from tablezoo.agents.learned.policy import trained_constructor

        cls, kw, allowed = trained_constructor(env_name, kw)
    else:
        allowed = _policy_params()
        if "path" in kw and "model" not in kw:
            from tablezoo.agents.learned.policy import load_policy

            kw = {**{k: v for k, v in kw.items() if k != "path"},
                  "model": load_policy(kw["path"], env_name)}  # load the zip once, not per agent
        cls = _policy
    unknown = sorted(set(kw) - allowed)
    if unknown:
        raise ValueError(
            f"agent {name!r}: unknown argument(s) {', '.join(unknown)}; "
            f"allowed: {', '.join(sorted(allowed)) or '(none)'}"
        )
    probe = cls(seed=0, **kw)  # run the constructor's own checks (e.g. rollouts >= 1) now
    if name == "heuristic" and kw:
        _try_a_move(probe, str(env_name), kw)
    if isinstance(probe, ISMCTSAgent) and env_name is not None:
        check_search_options(probe, env_name)  # options no game of the env takes

    def make(seed: int | None) -> BaseAgent:
        return cls(seed=seed, **kw)

    return make


def check_search_options(agent: ISMCTSAgent, env_name: str,
                         num_players: int | None = None) -> None:
    """Refuse an ``ismcts`` option the game cannot take (``evaluator="solver"`` outside
    bauer_trick, ...) now, not at the agent's first move, with a ``ValueError``. The search's
    defaults depend on the player count (bauer_draft pairs its root search only where a model
    is shipped), so with ``num_players`` unknown (an agent made for any game of the env) the
    options are refused only if no player count of the env takes them."""
    from tablezoo.agents.learned.policy import game_for, player_counts

    counts = [num_players] if num_players is not None else player_counts(env_name)
    refusals: list[Exception] = []
    for count in counts:
        try:
            agent.check_game(game_for(env_name, count))
            return
        except (ValueError, FileNotFoundError) as exc:  # no shipped model for a "trained" part
            refusals.append(exc)
    first = next((e for e in refusals if isinstance(e, ValueError)), refusals[0])
    raise first if isinstance(first, ValueError) else ValueError(str(first))


def _signature_of(name: str, env_name: str | None) -> Callable[..., Any]:
    """The class whose keyword defaults say what kind of value each option takes (ISMCTS's
    options are its ``SearchSettings`` fields)."""
    if name == "heuristic":
        return heuristic_class(str(env_name))
    if name in ("policy", "trained"):
        from tablezoo.agents.learned.policy import PolicyAgent, TrainedAgent

        return PolicyAgent if name == "policy" else TrainedAgent
    if name == "rllib":
        from tablezoo.agents.learned.rllib import RLlibAgent

        return RLlibAgent
    return {"random": RandomAgent, "ismcts": SearchSettings, "rollout": RolloutAgent,
            "strongest": StrongestAgent}.get(name, SearchAgent)


def _kind_of(param: inspect.Parameter) -> tuple[str | None, bool]:
    """``("bool" | "number" | None, takes None)`` of a keyword, read from its annotation (a
    string here: the modules use postponed annotations) or, without one, from its default."""
    tokens = {t.strip() for t in str(param.annotation).split("|")}
    nullable = "None" in tokens or param.default is None
    if param.annotation is not inspect.Parameter.empty and tokens - {"None"}:
        kinds = tokens - {"None"}
        if kinds == {"bool"}:
            return "bool", nullable
        if kinds <= {"int", "float"}:
            return "number", nullable
        return None, nullable
    if isinstance(param.default, bool):
        return "bool", nullable
    if isinstance(param.default, int | float):
        return "number", nullable
    return None, nullable


def _check_kinds(name: str, cls: Callable[..., Any], kw: dict[str, Any]) -> None:
    """A true/false option takes only true or false, a numeric one only a finite number, and
    None only where the option allows it ("maybe" was read as true; NaN passed every
    comparison, and ``ismcts:seconds=nan`` searched for ever)."""
    params = inspect.signature(cls).parameters
    for key, value in kw.items():
        if key not in params:
            continue  # an unknown option: refused by name with the allowed ones
        kind, nullable = _kind_of(params[key])
        if kind is None or (value is None and nullable):
            continue
        default = params[key].default
        also = ", none" if nullable else ""
        if kind == "bool" and not isinstance(value, bool):
            raise ValueError(f"agent {name!r}: {key}={value!r}; allowed: true, false{also}")
        if kind == "number" and not (isinstance(value, int | float)
                                     and not isinstance(value, bool) and math.isfinite(value)):
            raise ValueError(f"agent {name!r}: {key}={value!r}; expected a finite number"
                             f"{' or none' if nullable else ''} (default {default})")


def _try_a_move(agent: BaseAgent, env_name: str, kw: dict[str, Any]) -> None:
    """Play the heuristic's first move of a seeded game: its parameters are read only when it
    plays, so a value out of its range (``journey_rate=-1``) would otherwise fail mid-game."""
    game = envs.make_game(env_name)
    state = game.new_state(seed=0)
    player = state.acting_players()[0]
    try:
        agent.act(state.observe(player), state.legal_mask(player), state=state, player=player)
    except Exception as exc:  # any failure here is the parameters': name them, not the code
        given = ", ".join(f"{k}={v!r}" for k, v in kw.items())
        raise ValueError(f"agent 'heuristic' for {env_name}: {given} fails on a first move "
                         f"({type(exc).__name__}: {exc}); leave them out for the defaults"
                         ) from None


def parse_value(text: str) -> Any:
    """``"3"`` -> 3, ``"0.5"`` -> 0.5, ``"true"``/``"false"`` -> bool, ``"none"`` -> None,
    anything else stays a string (for ``key=value`` flags of the command-line tools)."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"name"`` or ``"name:key=value,key=value"``; ``"policy:PATH"``, ``"trained:PATH"`` and
    ``"rllib:DIR"`` are short for path=PATH."""
    name, _, rest = spec.partition(":")
    kw: dict[str, Any] = {}
    if name in _PATH_AGENTS and rest and "=" not in rest.split(",")[0]:
        path, _, rest = rest.partition(",")
        kw["path"] = path
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"agent spec {spec!r}: expected key=value after ':', got {item!r}")
        kw[key.strip()] = parse_value(value)
    return name, kw


def agent_from_spec(spec: str, env_name: str | None = None, seed: int | None = None) -> BaseAgent:
    """``make_agent`` from a spec string such as ``"search:rollouts=32"``."""
    name, kw = parse_agent_spec(spec)
    return make_agent(name, env_name=env_name, seed=seed, **kw)


def factory_from_spec(spec: str, env_name: str | None = None,
                      num_players: int | None = None) -> Callable[[int | None], BaseAgent]:
    """``agent_factory`` from a spec string. ``num_players``, the game's player count, picks a
    ``trained`` agent's model unless the spec names the count itself, so a count without a
    shipped model (or a ``path=`` model for another count) is refused here, naming the models
    there are, and not at the agent's first move."""
    name, kw = parse_agent_spec(spec)
    wanted = num_players if name == "trained" else None
    if wanted is not None and kw.setdefault("num_players", wanted) != wanted:
        raise ValueError(f"agent {spec!r}: num_players={kw['num_players']}, but the game has "
                         f"{wanted} players (allowed: {wanted}, or leave it out)")
    if name == "ismcts" and num_players is not None:
        _check_search_models(spec, kw, env_name, num_players)
    if name == "policy" and "path" in kw and env_name is not None and num_players is not None:
        # a zip away from its run's config.json names no env: check its input size against
        # the game's here, not at its first move (a shape error from inside torch)
        from tablezoo.agents.learned.policy import load_policy, observation_size

        kw["model"] = load_policy(kw.pop("path"), env_name,
                                  observation_size(env_name, num_players))
    make = agent_factory(name, env_name=env_name, **kw)
    if name == "ismcts" and env_name is not None and num_players is not None:
        check_search_options(make(0), env_name, num_players)  # this player count's defaults
    return make


def _check_search_models(spec: str, kw: dict[str, Any], env_name: str | None,
                         num_players: int) -> None:
    """An ``ismcts`` spec naming ``playout=trained`` or ``prior=trained`` needs a shipped model
    for the game's player count; the search learns the count only at its first move, so without
    this check such a tool run would stop there with a traceback."""
    from tablezoo.agents.learned.policy import load_trained

    for label in ("playout", "prior"):
        if kw.get(label) == "trained":
            try:
                load_trained(env_name, None, num_players)
            except FileNotFoundError as err:
                raise ValueError(f"agent {spec!r}: {label}=trained: {err} (or name another "
                                 f"{label}: random, heuristic)") from None
