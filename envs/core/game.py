"""The engine protocol every tablezoo game implements (pure Python + numpy, no RL imports).

A ``Game`` is immutable: its options, player count, action count, observation spec and decision
bound. A ``State`` is one mutable position. The generic PettingZoo adapters in
``tablezoo.envs.core`` and
the agents only ever talk to these two classes, so a new game needs no adapter code of its own.

Conventions every engine follows:
- all randomness comes from the state's own ``numpy.random.Generator`` (``self.rng``), never from
  the global ``random`` or ``numpy.random`` modules, so seeded runs are reproducible;
- ``apply`` validates first and mutates after, so an illegal action leaves the state unchanged;
- ``observe`` depends only on what that seat has seen (checked by re-sampling with
  ``determinize`` and comparing bit for bit).
"""

from __future__ import annotations

import math
import reprlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from tablezoo.envs.core.errors import IllegalActionError, StateFormatError
from tablezoo.envs.core.obs_spec import EventTable, ObsPiece, ObsSpec
from tablezoo.envs.core.options import Option, resolve_options
from tablezoo.envs.core.symmetry import Symmetries

if TYPE_CHECKING:
    from tablezoo.envs.core.views import TextViews
    from tablezoo.envs.pictures.moves import LastMove


class Game(ABC):
    """Immutable description of one configured game (rules + options)."""

    name: ClassVar[str]
    OPTIONS: ClassVar[tuple[Option, ...]] = ()

    num_players: int
    num_actions: int
    obs_spec: ObsSpec
    max_decisions: int
    # Seats that share one result (partnership games); ``None``: every seat plays for itself.
    teams: tuple[tuple[int, ...], ...] | None = None
    # The kinds of event whose rows a game's information state ends with (its README's table);
    # ``None`` for a game whose information state is laid out otherwise (or has none).
    event_table: EventTable | None = None
    # True only for a game in which every decision is a joint move of *all* seats (every
    # non-terminal state has ``acting_players() == (0, ..., n-1)``): the one turn structure under
    # which PettingZoo's ``aec_to_parallel`` works (it needs every agent to step once per cycle,
    # in seat order, and all to finish together). The AEC env's ``metadata["is_parallelizable"]``
    # is this flag; ``tests/envs/test_pettingzoo_api.py`` checks it against the conversion itself.
    all_seats_move_together: ClassVar[bool] = False

    def __init__(self, **options: Any):
        self.options: dict[str, Any] = resolve_options(self.name, self.OPTIONS, options)

    @abstractmethod
    def new_state(self, seed: int | np.random.Generator | None = None) -> State:
        """A fresh position (after setup and any initial chance events)."""

    @abstractmethod
    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state saved with ``State.to_dict``; raise ``StateFormatError`` if malformed."""

    @abstractmethod
    def action_name(self, action: int) -> str:
        """A short human-readable name of action id ``action`` (used in errors and menus)."""

    def text_views(self) -> TextViews:
        """What the game shows a person (its record's ``views``): the terminal player's views."""
        from tablezoo.envs.core.spec import spec_of

        views = spec_of(self).views
        if views is None:
            raise NotImplementedError(f"{self.name}: no text views (envs.core.views.TextViews)")
        return views

    @cached_property
    def state_spec(self) -> ObsSpec:
        """Layout of ``State.global_state``: the global state for centralised critics.

        The generic default, which every game has: each seat's observation in absolute seat order
        (pieces named ``"<player_name>.<piece>"``, each seat-relative to that seat as in the
        observation table), then ``acting`` (1 for each seat that must decide now). A game with a
        true full-information encoding overrides this property *and* ``State.global_state``
        together (see ``State.global_state``).
        """
        return default_state_spec(self)

    @cached_property
    def information_state_spec(self) -> ObsSpec:
        """Layout of ``State.information_state``: the seat's perfect-recall information state.

        A game that offers one assigns it in ``__init__`` (as it does ``obs_spec``) and overrides
        ``State.information_state``; the env option ``observation="information_state"`` hands
        it out instead of the default observation. This default raises ``NotImplementedError``.
        """
        raise NotImplementedError(
            f"{self.name}: no information state (a game offers one by setting "
            "Game.information_state_spec and overriding State.information_state)")

    @property
    def information_state_size(self) -> int:
        """Length of the flat float32 ``State.information_state`` vector."""
        return self.information_state_spec.size

    def observation_spec(self, kind: str = "default") -> ObsSpec:
        """The layout of observation ``kind``: ``"default"`` (``obs_spec``) or
        ``"information_state"`` (``information_state_spec``)."""
        if kind == "default":
            return self.obs_spec
        if kind == "information_state":
            return self.information_state_spec
        raise ValueError(f"{self.name}: observation kind {kind!r}; allowed: "
                         f"{', '.join(repr(k) for k in OBSERVATION_KINDS)}")

    def action_names(self) -> list[str]:
        return [self.action_name(a) for a in range(self.num_actions)]

    def symmetries(self) -> Symmetries | None:
        """Relabellings that map every position to an equivalent one (``envs.core.symmetry``),
        for data augmentation in training; ``None`` (the default) where the game declares none."""
        return None

    def player_name(self, player: int) -> str:
        return f"player_{player}"

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != _default(self.OPTIONS, k)}
        args = ", ".join(f"{k}={v!r}" for k, v in changed.items())
        return f"{type(self).__name__}({args})"


# What an env may hand out as ``"observation"`` (the env option ``observation``).
OBSERVATION_KINDS = ("default", "information_state")


def default_state_spec(game: Game) -> ObsSpec:
    """The generic global-state layout: every seat's observation, then the acting seats."""
    pieces = [
        ObsPiece(f"{game.player_name(p)}.{piece.name}", piece.shape,
                 f"{game.player_name(p)}'s `{piece.name}`: {piece.doc}", piece.high, piece.low)
        for p in range(game.num_players)
        for piece in game.obs_spec.pieces
    ]
    pieces.append(ObsPiece("acting", (game.num_players,),
                           "1 for each seat that must decide now, in absolute seat order"))
    return ObsSpec(pieces)


def _default(options: Sequence[Option], name: str) -> Any:
    return next(o.default for o in options if o.name == name)


class State(ABC):
    """A mutable game position. Subclasses keep ``self.game`` and ``self.rng``.

    A game's State declares its fields once (``envs.core.fields``) and takes its ``__slots__``,
    ``clone`` and ``to_dict`` from that declaration; the empty slots here keep that possible.
    """

    __slots__ = ()
    game: Game
    rng: np.random.Generator

    # --- who decides and what is legal -------------------------------------------------------
    @abstractmethod
    def acting_players(self) -> tuple[int, ...]:
        """Seats that must decide now (several for simultaneous moves); empty when over."""

    @abstractmethod
    def legal_mask(self, player: int) -> np.ndarray:
        """Bool array ``[num_actions]``; never all False for an acting player.

        The caller cannot corrupt it and it stays valid: a game returns either a fresh array or
        a read-only one (``flags.writeable`` False; possibly cached per seat and decision, or a
        shared constant), and never writes into an array it has handed out, so asking for
        another seat or applying a move leaves an earlier mask as it was. Copy it to edit it.
        """

    def legal_actions(self, player: int) -> list[int]:
        return np.flatnonzero(self.legal_mask(player)).tolist()

    @abstractmethod
    def apply(self, actions: Mapping[int, int]) -> None:
        """Apply one decision per acting player; raise ``IllegalActionError`` and change nothing
        if any action is illegal or the set of players is not exactly ``acting_players()``."""

    def step(self, action: int) -> None:
        """Convenience for turn-based play: apply ``action`` for the single acting player."""
        acting = self.acting_players()
        if len(acting) != 1:
            raise IllegalActionError(
                f"{self.game.name}: step() needs exactly one acting player, "
                f"but acting players are {list(acting)}; use apply({{player: action}})"
            )
        self.apply({acting[0]: action})

    # --- outcome -----------------------------------------------------------------------------
    @abstractmethod
    def is_terminal(self) -> bool:
        """The game ended by its rules."""

    def is_truncated(self) -> bool:
        """The game was cut at its documented bound (``max_*`` option) before a natural end."""
        return False

    def is_over(self) -> bool:
        return self.is_terminal() or self.is_truncated()

    @abstractmethod
    def returns(self) -> list[float]:
        """Cumulative reward per seat so far (the reward option decides what counts)."""

    @abstractmethod
    def scores(self) -> list[float]:
        """Game points per seat so far (higher is better)."""

    @abstractmethod
    def score_breakdown(self) -> list[dict[str, float]]:
        """Per seat, the scoring categories whose values sum to ``scores()``."""

    # --- information -------------------------------------------------------------------------
    @abstractmethod
    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """The flat float32 observation of ``player``, written into ``out`` when given (every
        entry overwritten), else a new array the caller owns (never an internal buffer)."""

    def information_state(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """The flat float32 perfect-recall information state of ``player`` (layout
        ``game.information_state_spec``), written into ``out`` when given (every entry
        overwritten), else a new array the caller owns.

        Unlike ``observe``, which summarises the position, it holds the seat's private
        information and the sequence of what the seat has seen (public events and its own
        actions, in order), so two histories the seat can tell apart give two different vectors,
        and two it cannot give the same one. It depends only on what ``player`` has seen (tested
        with ``determinize``, as ``observe``), and it is a function of the seat's
        action-observation history. Each game's README says what it holds and the bound of its
        history. This default raises ``NotImplementedError``.
        """
        raise NotImplementedError(
            f"{self.game.name}: no information state (State.information_state)")

    def observation(self, player: int, kind: str = "default",
                    out: np.ndarray | None = None) -> np.ndarray:
        """``observe`` (``kind="default"``) or ``information_state`` (``"information_state"``)."""
        if kind == "default":
            return self.observe(player, out)
        if kind == "information_state":
            return self.information_state(player, out)
        raise ValueError(f"{self.game.name}: observation kind {kind!r}; allowed: "
                         f"{', '.join(repr(k) for k in OBSERVATION_KINDS)}")

    def global_state(self, out: np.ndarray | None = None) -> np.ndarray:
        """The global state (layout ``game.state_spec``), written into ``out`` when given.

        This generic default concatenates every seat's observation in absolute seat order and a
        one-hot of the acting seats: every seat's private information, so a centralised critic
        sees all hands, but not what no seat has seen (a deck's order). A game with a true
        full-information encoding overrides ``Game.state_spec`` (the layout, its bounds and docs)
        and this method together; ``tests/envs/test_pettingzoo_api.py`` checks the two agree.
        """
        game = self.game
        spec = game.state_spec
        if out is None:
            out = spec.zeros()
        size = game.obs_spec.size
        n = game.num_players
        if spec.size != n * size + n:
            raise TypeError(f"{game.name}: state_spec is overridden but global_state is not; "
                            "a game overrides both together")
        for p in range(n):
            self.observe(p, out=out[p * size:(p + 1) * size])
        acting = out[n * size:]
        acting[:] = 0
        for p in self.acting_players():
            acting[p] = 1
        return out

    @abstractmethod
    def determinize(self, player: int, rng: np.random.Generator) -> State:
        """A new state consistent with all ``player`` has seen, every hidden thing re-sampled."""

    # --- copying and saving ------------------------------------------------------------------
    @abstractmethod
    def clone(self) -> State:
        """An independent copy (cheap: search agents call it often)."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict; ``game.state_from_dict`` restores it exactly (RNG included)."""

    @abstractmethod
    def __str__(self) -> str:
        """A readable (ANSI) table of the position."""

    def to_svg(self, seat: int | None = None, last: LastMove | None = None,
               choices: Sequence[int] = ()) -> str:
        """A picture of the position (SVG text, drawn by the game's ``picture`` module): all of
        it (``seat=None``) or only what ``seat`` may see; ``last`` (``envs.pictures.moves``)
        highlighted, ``choices`` (legal actions of ``seat``) marked ``data-action``."""
        from tablezoo.envs.pictures import to_svg

        return to_svg(self, seat, last, choices)

    def _repr_svg_(self) -> str:
        """Notebooks show a state as its all-seeing picture."""
        return self.to_svg()

    # --- invariants --------------------------------------------------------------------------
    def check(self) -> None:
        """Raise ``StateFormatError`` naming the first broken invariant of this position.

        ``state_from_dict`` runs it on every loaded state and the random-simulation tests run it
        along random games, so a saved state that no game could reach is refused instead of being
        played on. This base version checks what every game shares (finite returns and scores,
        a breakdown that adds up, a non-empty mask for every acting seat); games extend it with
        their own conservation and consistency rules and call ``super().check()``.
        """
        game = self.game
        n = game.num_players
        returns = list(self.returns())
        require(len(returns) == n and all(math.isfinite(r) for r in returns),
                f"{game.name}: returns must be {n} finite numbers, got {short(returns)}")
        scores = list(self.scores())
        require(len(scores) == n and all(math.isfinite(s) for s in scores),
                f"{game.name}: scores must be {n} finite numbers, got {short(scores)}")
        for player, (score, parts) in enumerate(zip(scores, self.score_breakdown())):
            total = sum(parts.values())
            require(math.isclose(total, score, abs_tol=1e-6),
                    f"{game.name}: {game.player_name(player)}'s score breakdown adds up to "
                    f"{total}, but the score is {score}")
        acting = self.acting_players()
        if self.is_over():
            require(not acting, f"{game.name}: the game is over but seats {list(acting)} act")
            return
        require(bool(acting), f"{game.name}: the game is not over but no seat acts")
        for player in acting:
            require(isinstance(player, int) and 0 <= player < n,
                    f"{game.name}: acting seat {short(player)} is not in 0..{n - 1}")
            mask = self.legal_mask(player)
            require(mask.shape == (game.num_actions,) and bool(mask.any()),
                    f"{game.name}: acting {game.player_name(player)} has no legal action")

    # --- helpers for engines -----------------------------------------------------------------
    def illegal(self, player: int, action: Any, why: str = "") -> IllegalActionError:
        """Build the standard error: game, player, action name and the legal action names."""
        game = self.game
        if isinstance(action, (int, np.integer)) and 0 <= int(action) < game.num_actions:
            shown = f"{int(action)} ({game.action_name(int(action))})"
        elif isinstance(action, (int, np.integer)) and int(action) == game.num_actions:
            shown = (f"{int(action)} (the PettingZoo envs' NOOP, for an agent with nothing "
                     "to decide)")
        else:
            shown = repr(action)
        if player in self.acting_players():
            legal = ", ".join(
                f"{a} ({game.action_name(a)})" for a in self.legal_actions(player)
            )
        else:
            legal = "none: this player is not acting now"
        reason = f" ({why})" if why else ""
        return IllegalActionError(
            f"{game.name}: action {shown} is illegal for {game.player_name(player)}{reason}; "
            f"legal actions: {legal}"
        )

    def check_actions(self, actions: Mapping[int, int]) -> dict[int, int]:
        """Validate a joint action against ``acting_players`` and ``legal_mask``.

        Returns the actions as plain ints. Engines call this first in ``apply`` unless they have
        a faster equivalent check.
        """
        acting = self.acting_players()
        if len(actions) != len(acting) or any(p not in actions for p in acting):
            raise IllegalActionError(
                f"{self.game.name}: expected one action for each acting player {list(acting)}, "
                f"got actions for {sorted(actions)}"
            )
        checked: dict[int, int] = {}
        n = self.game.num_actions
        for player, action in actions.items():
            if not isinstance(action, (int, np.integer)) or isinstance(action, bool):
                raise self.illegal(player, action, "not an integer action id")
            a = int(action)
            if not 0 <= a < n or not self.legal_mask(player)[a]:
                raise self.illegal(player, action)
            checked[player] = a
        return checked


def rng_from(seed: int | np.random.Generator | None) -> np.random.Generator:
    """The state's own generator from a seed, an existing generator, or fresh entropy."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def rng_to_dict(rng: np.random.Generator) -> dict[str, Any]:
    """JSON-safe snapshot of a PCG64 generator (its exact position in the stream)."""
    return rng.bit_generator.state


_RNG_FIELDS = {"state": 2**128, "inc": 2**128}


def rng_from_dict(data: Any) -> np.random.Generator:
    """Rebuild a generator saved by ``rng_to_dict``; ``StateFormatError`` for anything else.

    Every field is checked before numpy sees it: numpy accepts some out-of-range integers
    silently and answers others with ``OverflowError``.
    """
    shown = short(data)
    require(isinstance(data, Mapping) and data.get("bit_generator") == "PCG64",
            f"malformed rng state {shown}: expected a dict with bit_generator 'PCG64'")
    inner = data.get("state")
    require(isinstance(inner, Mapping) and set(inner) == set(_RNG_FIELDS),
            f"malformed rng state {shown}: 'state' must be a dict with keys 'state' and 'inc'")
    for key, bound in _RNG_FIELDS.items():
        value = inner[key]
        require(_is_int(value) and 0 <= value < bound,
                f"malformed rng state {shown}: state.{key} must be an integer in [0, 2**128)")
    require(data.get("has_uint32") in (0, 1) and not isinstance(data.get("has_uint32"), bool),
            f"malformed rng state {shown}: has_uint32 must be 0 or 1")
    uinteger = data.get("uinteger")
    require(_is_int(uinteger) and 0 <= uinteger < 2**32,
            f"malformed rng state {shown}: uinteger must be an integer in [0, 2**32)")
    require(set(data) == {"bit_generator", "state", "has_uint32", "uinteger"},
            f"malformed rng state {shown}: unexpected keys {sorted(map(str, data))}")
    bitgen = np.random.PCG64()
    bitgen.state = {"bit_generator": "PCG64", "state": dict(inner),
                    "has_uint32": data["has_uint32"], "uinteger": uinteger}
    return np.random.Generator(bitgen)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_SHORT = reprlib.Repr()
_SHORT.maxlevel = 3
_SHORT.maxlist = _SHORT.maxdict = 6
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlong = 40


def short(value: Any) -> str:
    """A bounded ``repr`` for error messages: safe on huge or deeply nested input."""
    return _SHORT.repr(value)


def rank_rewards(scores: Sequence[float]) -> list[float]:
    """The collection's zero-sum rank reward.

    Two players: +1/-1 (0 each on a draw). More: first +1, last -1, linear in between; tied
    players share the average of the places they occupy.
    """
    n = len(scores)
    if n < 2:
        return [0.0] * n
    place_value = [1.0 - 2.0 * i / (n - 1) for i in range(n)]
    order = sorted(range(n), key=lambda p: -scores[p])
    out = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        shared = sum(place_value[i : j + 1]) / (j - i + 1)
        for k in range(i, j + 1):
            out[order[k]] = shared
        i = j + 1
    return out


def margin_rewards(scores: Sequence[float]) -> list[float]:
    """Own score minus the best other score, per seat."""
    out = []
    for p, s in enumerate(scores):
        best_other = max(x for q, x in enumerate(scores) if q != p)
        out.append(float(s - best_other))
    return out


def require(condition: bool, message: str) -> None:
    """Raise ``StateFormatError(message)`` unless ``condition``; for ``state_from_dict``."""
    if not condition:
        raise StateFormatError(message)
