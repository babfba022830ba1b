"""The commands a model card records, written so that anyone can run them from a fresh clone.

A card's ``training_command`` is the whole recipe of its model: ``tablezoo train`` (or
``tablezoo evolve``), then ``tablezoo average`` where the model is a tail average, then
``tablezoo ship``, joined by ``&&``. The folders a user chose on their machine mean nothing on
another one, so each tool writes its own run folder as ``DIR`` (a folder inside it as
``DIR/NAME``, a sibling named after it as ``DIR_SUFFIX``, another folder as ``OUT``): the card of a
run in ``/home/me/runs/bd2`` says ``--out DIR``, and a user who names a folder of theirs for
``DIR`` rebuilds the model there.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

RUN = "DIR"  # the run folder in a card's commands
OTHER = "OUT"  # a folder neither inside nor beside the run


def _absolute(text: str | Path) -> str:
    return os.path.normpath(os.path.abspath(os.path.expanduser(str(text))))


def placeholder(path: str | Path, folders: dict[str, str]) -> str | None:
    """The card's name of ``path``: ``folders`` maps a real folder to its placeholder; a path
    inside one is ``PLACEHOLDER/REST``, a sibling whose name extends one's name is
    ``PLACEHOLDER + the extension`` (``runs/bd2_tail`` beside ``runs/bd2``: ``DIR_tail``);
    ``None`` when ``path`` is none of these."""
    target = _absolute(path)
    for folder, name in folders.items():
        base = _absolute(folder)
        if target == base:
            return name
        if target.startswith(base + os.sep):
            return name + "/" + Path(os.path.relpath(target, base)).as_posix()
        if (os.path.dirname(target) == os.path.dirname(base)
                and os.path.basename(target).startswith(os.path.basename(base))
                and os.path.basename(target)[len(os.path.basename(base))] in "_-."):
            return name + os.path.basename(target)[len(os.path.basename(base)):]
    return None


def portable(argv: list[str], folders: dict[str, str], *, other: str = OTHER) -> list[str]:
    """``argv`` with every argument that names one of ``folders`` (or a folder inside or beside
    one, see ``placeholder``) replaced by its placeholder; an ``--out`` elsewhere becomes
    ``other`` (a card names no folder of the machine it was made on). ``--flag=VALUE`` forms
    are handled like ``--flag VALUE``."""
    out: list[str] = []
    previous = ""
    for token in argv:
        flag, eq, value = token.partition("=") if token.startswith("--") else ("", "", token)
        if token.startswith("--") and not eq:
            out.append(token)
            previous = token
            continue
        name = placeholder(value, folders) if value else None
        if name is None and (flag or previous) == "--out":
            name = other
        out.append((f"{flag}={name}" if eq else name) if name is not None else token)
        previous = ""
    return out


def join(tool: str, argv: list[str]) -> str:
    """``tablezoo TOOL ARGS`` as one shell line (placeholders stay unquoted)."""
    return " ".join(["tablezoo", tool, *(shlex.quote(a) for a in argv)])


def portable_command(command: str, folders: dict[str, str]) -> str:
    """A recorded ``tablezoo ...`` line (one command, or several joined by ``&&``) with its
    folders replaced as ``portable`` does."""
    parts = []
    for part in command.split(" && "):
        tokens = shlex.split(part)
        if len(tokens) >= 2 and tokens[0] == "tablezoo":
            parts.append(join(tokens[1], portable(tokens[2:], folders)))
        else:
            parts.append(part)
    return " && ".join(parts)


def model_folder(command: str) -> str:
    """The card's name of the folder holding a card's ``model.npz``: the ``--out`` of the last
    command of its ``training_command`` (``tablezoo train``'s, ``tablezoo average``'s), the
    folder of ``tablezoo export``'s file; ``DIR`` when there is none."""
    last = shlex.split(command.split(" && ")[-1]) if command else []
    if last[:2] == ["tablezoo", "export"] and len(last) >= 4:
        return Path(last[3]).parent.as_posix()
    folder = RUN
    for i, token in enumerate(last):
        if token == "--out" and i + 1 < len(last):
            folder = last[i + 1]
        elif token.startswith("--out="):
            folder = token.partition("=")[2]
    return folder


def unsafe_paths(text: str) -> list[str]:
    """The words of a card's command (or any of its strings) that name a place on one machine:
    an absolute path, a home-relative one, or anything under ``/work/``."""
    found = []
    for word in text.split():
        for piece in [word, *word.replace(":", "=").split("=")[1:]]:
            if (len(piece) > 1 and piece[0] in "/~") or "/work/" in piece \
                    or piece[1:3] == ":\\":
                found.append(word)
                break
    return found
