"""A game State's fields, declared once: ``clone``, ``to_dict`` and the saved keys follow from it.

A State class lists every attribute it has as a ``Field`` in one ``Fields`` declaration and takes
its ``__slots__``, its ``clone`` and its ``to_dict`` from it::

    class MyState(State):
        FIELDS = Fields(
            Field("game", SHARED, None),
            Field("rng", RNG, "rng", encode=lambda s: rng_to_dict(s.rng)),
            Field("hands", ITEMS, "hands"),
            Field("_mask", RESET, None, reset=None),
        )
        __slots__ = FIELDS.slots
        clone = FIELDS.clone_method()
        to_dict = FIELDS.to_dict_method()

Because the class has slots and no ``__dict__``, nothing (a helper module included) can give a
state an attribute that is not declared; because ``clone`` is generated from the copy kinds, a
new list field is copied as soon as it is declared; because ``saved`` has no default, every field
says which saved key holds it (or that it is rebuilt on load), so the codec cannot forget one.
``check_clone`` (the conformance suite runs it) proves a clone shares nothing mutable.

The copy kinds (how ``clone`` copies a field):

- ``SHARED``: immutable (ints, strings, tuples, the ``Game``, read-only arrays): the same object;
- ``COPY``: ``value.copy()`` (a list, dict, deque, numpy array, or any object with ``copy``);
- ``ITEMS``: a list of mutable items: ``[item.copy() for item in value]``;
- ``NESTED``: a list of lists of mutable items: ``[[y.copy() for y in x] for x in value]``;
- ``RNG``: a ``numpy.random.Generator``: a new one at the same bit-generator state;
- ``RESET``: a cache: the clone gets ``reset`` (the field's declared fresh value);
- ``CALL``: ``copy(source_state)`` computes the clone's value (lazy or copy-on-use fields);
- ``AFTER``: set by the class's ``after`` hook, which ``clone`` calls last (views into copies).

A save also records its game's options (``options_record``); ``check_saved_options`` refuses to
load it into a game with other ones (the same position under other rules is another game).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from tablezoo.envs.core.game import Game, require, short

SHARED = "shared"
COPY = "copy"
ITEMS = "items"
NESTED = "nested"
RNG = "rng"
RESET = "reset"
CALL = "call"
AFTER = "after"
KINDS = (SHARED, COPY, ITEMS, NESTED, RNG, RESET, CALL, AFTER)
# A ``to_dict`` encoder returns this to leave its key out of the saved dict.
OMIT = object()
# The types a SHARED field may hold: nothing a caller could mutate in place.
IMMUTABLE = (int, float, str, bool, bytes, tuple, frozenset, type(None))


@dataclass(frozen=True, slots=True)
class Field:
    """One State attribute: its name, how ``clone`` copies it (``copy``, one of ``KINDS``), and
    ``saved``, the ``to_dict`` key that holds it (``None``: rebuilt on load, a cache or the game
    itself). ``encode(state)`` writes the key's JSON value (default: the value copied by its kind);
    several fields saved in one key give the encoder on the first of them. ``reset`` is a
    ``RESET`` field's fresh value, ``call`` a ``CALL`` field's ``copy(source) -> value``;
    ``optional`` marks a key a save may lack."""

    name: str
    copy: str
    saved: str | None
    encode: Callable[[Any], Any] | None = None
    reset: Any = None
    call: Callable[[Any], Any] | None = None
    optional: bool = False

    def __post_init__(self) -> None:
        if self.copy not in KINDS:
            raise ValueError(f"field {self.name}: copy kind {self.copy!r} not in {KINDS}")
        if (self.copy == CALL) != (self.call is not None):
            raise ValueError(f"field {self.name}: a CALL field (and only one) gives call=")


def _copy_rng(rng: np.random.Generator) -> np.random.Generator:
    new = np.random.Generator(np.random.PCG64())
    new.bit_generator.state = rng.bit_generator.state
    return new


def _default_encoder(field: Field) -> Callable[[Any], Any]:
    name = field.name
    if field.copy == COPY:
        return lambda s: list(getattr(s, name))
    if field.copy == ITEMS:
        return lambda s: [type(x)(x) for x in getattr(s, name)]
    if field.copy == NESTED:
        return lambda s: [[type(y)(y) for y in x] for x in getattr(s, name)]
    if field.copy == SHARED:
        return lambda s: getattr(s, name)
    raise ValueError(f"field {name}: a saved {field.copy} field needs encode=")


def game_header(state: Any) -> dict[str, Any]:
    """The default first keys of a save: the game's name and options."""
    return {"game": state.game.name, "options": dict(state.game.options)}


class Fields:
    """The ordered declaration of a State's fields (see the module docstring). ``to_dict`` writes
    ``header(state)`` first (keys ``header_keys``; default: the game's name and options), then
    each saved key in the order its first field is declared."""

    def __init__(self, *fields: Field, header: Callable[[Any], dict[str, Any]] = game_header,
                 header_keys: tuple[str, ...] = ("game", "options")):
        names = [f.name for f in fields]
        doubled = sorted({n for n in names if names.count(n) > 1})
        if doubled:
            raise ValueError(f"fields declared twice: {doubled}")
        self.fields = fields
        self.by_name = {f.name: f for f in fields}
        self.slots = tuple(names)
        keys: dict[str, Field] = {}
        for f in fields:
            if f.saved is not None and f.saved not in keys:
                keys[f.saved] = f
        self.header = header
        self.encoders = tuple((key, f.encode or _default_encoder(f)) for key, f in keys.items())
        self.keys = header_keys + tuple(keys)
        self.required_keys = tuple(k for k in self.keys
                                   if not (k in keys and keys[k].optional))
        self.unsaved = tuple(f.name for f in fields if f.saved is None)

    def names(self, *kinds: str) -> tuple[str, ...]:
        """The declared field names of the given copy kinds (all when none given)."""
        return tuple(f.name for f in self.fields if not kinds or f.copy in kinds)

    # --- clone ----------------------------------------------------------------------------------
    def clone_method(self, after: Callable[[Any, Any], None] | None = None) -> Callable[[Any], Any]:
        """A ``clone(self)`` generated from the declaration, as fast as a hand-written one: one
        assignment per field. ``after(source, clone)`` runs last, for ``AFTER`` fields."""
        if any(f.copy == AFTER for f in self.fields) and after is None:
            raise ValueError("AFTER fields need clone_method(after=...)")
        env: dict[str, Any] = {"_new": object.__new__, "_copy_rng": _copy_rng, "_after": after}
        lines = ["def clone(self):", "    new = _new(self.__class__)"]
        for i, f in enumerate(self.fields):
            n = f.name
            if f.copy == SHARED:
                lines.append(f"    new.{n} = self.{n}")
            elif f.copy == COPY:
                lines.append(f"    new.{n} = self.{n}.copy()")
            elif f.copy == ITEMS:
                lines.append(f"    new.{n} = [x.copy() for x in self.{n}]")
            elif f.copy == NESTED:
                lines.append(f"    new.{n} = [[y.copy() for y in x] for x in self.{n}]")
            elif f.copy == RNG:
                lines.append(f"    new.{n} = _copy_rng(self.{n})")
            elif f.copy == RESET:
                env[f"_reset{i}"] = f.reset
                lines.append(f"    new.{n} = _reset{i}")
            elif f.copy == CALL:
                env[f"_call{i}"] = f.call
                lines.append(f"    new.{n} = _call{i}(self)")
        if after is not None:
            lines.append("    _after(self, new)")
        lines.append("    return new")
        exec("\n".join(lines), env)  # code built only from the declared field names
        clone = env["clone"]
        clone.__doc__ = "A copy sharing no mutable field (generated from the declared fields)."
        return clone

    # --- to_dict --------------------------------------------------------------------------------
    def to_dict(self, state: Any) -> dict[str, Any]:
        """The JSON-safe dict of ``state``: the header, then every saved key's encoded value."""
        out = self.header(state)
        for key, encode in self.encoders:
            value = encode(state)
            if value is not OMIT:
                out[key] = value
        return out

    def to_dict_method(self) -> Callable[[Any], dict[str, Any]]:
        fields = self

        def to_dict(self: Any) -> dict[str, Any]:
            """The JSON-safe dict of this state (written from the declared fields)."""
            return fields.to_dict(self)

        return to_dict

    # --- loading --------------------------------------------------------------------------------
    def key_problem(self, data: Mapping[str, Any]) -> str | None:
        """What is wrong with the keys of a saved dict (missing or unexpected), or ``None``."""
        missing = [k for k in self.required_keys if k not in data]
        if missing:
            return f"missing keys {missing}"
        extra = [k for k in data if k not in self.keys]
        if extra:
            return f"unexpected keys {extra}"
        return None

    def check_types(self, state: Any, label: str) -> None:
        """After a load: raise ``StateFormatError`` (via ``require``) unless every declared field
        is set and holds what its copy kind needs (``SHARED``: immutable; ``COPY``: a mutable
        value with ``copy``; ``ITEMS``/``NESTED``: a list of such; ``RNG``: a generator), so a
        loaded state clones like a played one."""
        for f in self.fields:
            require(hasattr(state, f.name) or f.copy == AFTER, f"{label}: field {f.name} not set")
            if not hasattr(state, f.name):
                continue
            value = getattr(state, f.name)
            if f.copy == SHARED:
                ok = _immutable(value) or value is state.game.options
            elif f.copy == COPY:
                ok = _copyable(value)
            elif f.copy == ITEMS:
                ok = type(value) is list and all(_copyable(x) for x in value)
            elif f.copy == NESTED:
                ok = type(value) is list and all(
                    type(x) is list and all(_copyable(y) for y in x) for x in value)
            elif f.copy == RNG:
                ok = isinstance(value, np.random.Generator)
            else:
                ok = True
            require(ok, f"{label}: field {f.name} holds a {type(value).__name__}, which its copy "
                    f"kind {f.copy} cannot copy")

    # --- the guarantee --------------------------------------------------------------------------
    def check_clone(self, state: Any, clone: Any) -> list[str]:
        """The ways ``clone`` fails to be a separate copy of ``state`` (empty when it is one): a
        declared field unset, a copied field (or a copied list's item) shared, an array (a view
        included) sharing memory with the original's, a ``SHARED`` field holding something
        mutable."""
        problems = []
        for f in self.fields:
            if not hasattr(state, f.name) or not hasattr(clone, f.name):
                problems.append(f"{f.name} is not set")
                continue
            a, b = getattr(state, f.name), getattr(clone, f.name)
            if f.copy == SHARED:
                if not _immutable(a) and a is not state.game.options:  # options: read-only
                    problems.append(f"{f.name} is SHARED but holds a mutable {type(a).__name__}")
            elif isinstance(a, np.ndarray):
                if a.flags.writeable and np.shares_memory(a, b):
                    problems.append(f"{f.name} shares memory with the clone's")
            elif f.copy in (COPY, ITEMS, NESTED, RNG):
                if a is b:
                    problems.append(f"{f.name} is the same object in the clone")
                elif f.copy in (ITEMS, NESTED) and any(
                        x is y and not _immutable(x) for x, y in zip(a, b)):
                    problems.append(f"{f.name} shares an item with the clone")
                elif f.copy == NESTED and any(y is z and not _immutable(y)
                                              for x, w in zip(a, b) for y, z in zip(x, w)):
                    problems.append(f"{f.name} shares an inner item with the clone")
                elif f.copy == COPY and isinstance(a, list) and any(
                        x is y and not _immutable(x) for x, y in zip(a, b)):
                    problems.append(f"{f.name} is COPY but holds mutable items (use ITEMS)")
        return problems


def _copyable(value: Any) -> bool:
    """True for a mutable value whose ``copy()`` makes an independent one (a list, dict, deque,
    writeable array, event log)."""
    if isinstance(value, np.ndarray):
        return value.flags.writeable
    return not _immutable(value) and callable(getattr(value, "copy", None))


def _immutable(value: Any) -> bool:
    """True for values a shared reference cannot change: immutables, read-only arrays, a game."""
    if isinstance(value, IMMUTABLE):
        return not isinstance(value, tuple) or all(_immutable(x) for x in value)
    if isinstance(value, np.ndarray):
        return not value.flags.writeable
    return isinstance(value, Game)


# --- a save's options ---------------------------------------------------------------------------
def options_record(options: Mapping[str, Any]) -> dict[str, Any]:
    """A game's options as a saved state records them: JSON's own types (tuples as lists)."""
    return json.loads(json.dumps(dict(options)))


def check_saved_options(game: Game, data: Mapping[str, Any], label: str) -> None:
    """A saved state's ``"options"`` (optional: states saved before games recorded them have
    none) must be the loading game's own: the same position under other rules is another game,
    and loading it silently would play it by the wrong rules."""
    if "options" not in data:
        return
    saved = data["options"]
    require(isinstance(saved, dict), f"{label}: options must be a dict, got {short(saved)}")
    own = options_record(game.options)
    differ = sorted(k for k in set(saved) | set(own) if saved.get(k) != own.get(k))
    require(not differ, f"{label}: saved under other options ({', '.join(differ)}: "
            f"{short({k: saved.get(k) for k in differ})}) than this game's "
            f"({short({k: own.get(k) for k in differ})}); make the game with the saved options")
