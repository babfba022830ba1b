"""Declared, validated game options.

Every game lists its options once as ``Option`` records; ``resolve_options`` fills defaults and
rejects unknown names or bad values with an error that names the allowed values, so a typo in an
experiment config fails loudly instead of silently running the default rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tablezoo.envs.core.errors import InvalidOptionError


@dataclass(frozen=True)
class Option:
    """One game option: its default, and either a tuple of allowed values or a check.

    ``check`` returns ``None`` for a good value, or a short text describing what is allowed.
    """

    name: str
    default: Any
    doc: str
    allowed: tuple[Any, ...] | None = None
    check: Callable[[Any], str | None] | None = None

    def validate(self, game_name: str, value: Any) -> Any:
        if isinstance(value, np.generic):  # np.int64(3) from a sweep's np.arange: its int 3
            value = value.item()
        if isinstance(value, list) and isinstance(self.default, tuple):
            value = tuple(value)  # as JSON gives it back (a saved state's options, a config)
        if self.allowed is not None:
            # bool is an int subclass: 1 must not pass for True, nor True for 1.
            ok = any(value == a and type(value) is type(a) for a in self.allowed)
            if not ok:
                raise InvalidOptionError(
                    f"{game_name}: option {self.name}={value!r} is not allowed; "
                    f"allowed values: {', '.join(repr(a) for a in self.allowed)}"
                )
        if self.check is not None:
            problem = self.check(value)
            if problem is not None:
                raise InvalidOptionError(
                    f"{game_name}: option {self.name}={value!r} is not allowed; {problem}"
                )
        return value


def int_range(low: int, high: int | None = None) -> Callable[[Any], str | None]:
    """A check for an ``int`` option in ``[low, high]`` (``high=None``: no upper bound)."""

    def check(value: Any) -> str | None:
        if type(value) is not int or value < low or (high is not None and value > high):
            upper = "" if high is None else f" and <= {high}"
            return f"expected an int >= {low}{upper}"
        return None

    return check


def resolve_options(
    game_name: str, declared: Sequence[Option], given: Mapping[str, Any]
) -> dict[str, Any]:
    """Return every declared option's value: ``given`` where set, else the default."""
    by_name = {opt.name: opt for opt in declared}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise InvalidOptionError(
            f"{game_name}: unknown option(s) {', '.join(unknown)}; "
            f"known options: {', '.join(by_name) or '(none)'}"
        )
    return {
        opt.name: opt.validate(game_name, given[opt.name]) if opt.name in given else opt.default
        for opt in declared
    }


def options_markdown(declared: Sequence[Option]) -> str:
    """A markdown table of the options, for module docstrings and the README."""
    rows = ["| option | default | allowed | meaning |", "|---|---|---|---|"]
    for opt in declared:
        allowed = ", ".join(f"`{a!r}`" for a in opt.allowed) if opt.allowed else "see meaning"
        rows.append(f"| `{opt.name}` | `{opt.default!r}` | {allowed} | {opt.doc} |")
    return "\n".join(rows)
