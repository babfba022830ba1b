"""Exceptions shared by every tablezoo game.

All of them derive from ``ValueError`` so callers that already guard against bad values keep
working, and from ``TablezooError`` so a caller can catch everything the library raises on purpose.
"""

from __future__ import annotations


class TablezooError(Exception):
    """Base class of the errors tablezoo raises on purpose."""


class IllegalActionError(TablezooError, ValueError):
    """An action that is not legal for that player now; the state is left unchanged."""


class InvalidOptionError(TablezooError, ValueError):
    """An unknown option name or a value outside the option's allowed values."""


class StateFormatError(TablezooError, ValueError):
    """A saved state (``to_dict`` output) that is malformed or inconsistent."""


class ResetNeededError(TablezooError, RuntimeError):
    """An env method called before the first ``reset()`` or after the episode ended, where the
    PettingZoo API expects no call; the message says to call ``reset()`` first."""


class UnknownAgentError(TablezooError, KeyError, ValueError):
    """An agent name the env does not have (a ``KeyError`` too, as a dict lookup would be)."""

    def __str__(self) -> str:  # KeyError would print the message quoted, as a repr
        return str(self.args[0]) if self.args else ""
