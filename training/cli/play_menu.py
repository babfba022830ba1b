"""The terminal player's menu: laying out the legal actions and reading one answer.

An answer is a listed id (the whole number, never a part of one), a full action name, a group key
(bower's ``h0``: a hand tile, whose placements are then listed), a card or tile the legend names
(``Jh``, ``E03``, ``T15``, ``blue Elf``; any case) for the one legal move that names it, ``?`` for
the legend, ``help ID`` for the full text of a listed action or of a card/tile code, or ``q`` to
quit. Anything else gets an answer naming what is allowed, and the question is asked again: a
card that no legal move names, or that several do, is answered with the legal choices.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

QUIT = ("q", "quit", "exit")
WIDTH = 100  # characters per menu line: lay long menus out in columns
WORD = r"[\w♣♠♥♦]+"  # a card or tile code: J♥, 10s, E03, NB2, Elf


@dataclass
class Menu:
    """The choices of one decision: single actions and (optionally) groups of actions."""

    labels: dict[int, str]  # action id -> label, every legal action
    groups: list[tuple[str, str, list[int]]] = field(default_factory=list)  # key, label, ids

    def top(self) -> list[tuple[str, str]]:
        """The first-level lines: ungrouped actions by id, then the group keys."""
        grouped = {a for _, _, ids in self.groups for a in ids}
        lines = [(str(a), label) for a, label in self.labels.items() if a not in grouped]
        return lines + [(key, label) for key, label, _ in self.groups]


def layout(entries: list[tuple[str, str]]) -> list[str]:
    """``id  label`` lines; short labels share a line so a long menu stays on one screen."""
    if not entries:
        return []
    keys = max(len(k) for k, _ in entries)
    cells = [f"{k:>{keys}}  {label}" for k, label in entries]
    width = max(len(c) for c in cells) + 3
    per_line = max(1, WIDTH // width) if len(cells) > 12 else 1
    rows = -(-len(cells) // per_line)
    return ["  " + "".join(cells[r + rows * c].ljust(width)
                           for c in range(per_line) if r + rows * c < len(cells)).rstrip()
            for r in range(rows)]


Reader = Callable[[str], str]
Writer = Callable[[str], None]


@dataclass
class Asker:
    """Reads answers for one game; ``legend`` and ``explain`` come from the game's render module,
    ``names`` are all the game's action names (a card name of two words, ethnos' ``blue Elf``,
    is one only where an action name holds it)."""

    read: Reader
    write: Writer
    legend: str
    explain: Callable[[str], str | None]
    names: list[str] = field(default_factory=list)

    def choose(self, menu: Menu) -> int | None:
        """The chosen action id, or ``None`` when the person quits (``q`` or end of input)."""
        for line in layout(menu.top()):
            self.write(line)
        while True:
            answer = self._ask("your move> ")
            if answer is None:
                return None
            key = next((g[0] for g in menu.groups if g[0].lower() == answer.lower()), None)
            picked = key if key is not None else self._parse(answer, menu.top(), menu)
            if isinstance(picked, str):  # a group, by its key or by the tile it holds
                group = next(g for g in menu.groups if g[0] == picked)
                chosen = self._choose_in_group(menu, group)
                if chosen == "back":
                    for line in layout(menu.top()):
                        self.write(line)
                    continue
                return chosen
            if picked is not None:
                return picked

    def pause(self, prompt: str) -> bool:
        """Wait for Enter (``False`` when the person quits)."""
        while True:
            answer = self._ask(prompt)
            if answer is None:
                return False
            if answer == "":
                return True
            self.write("  press Enter to go on, or q to quit")

    def _choose_in_group(self, menu: Menu, group: tuple[str, str, list[int]]) -> int | str | None:
        key, label, ids = group
        self.write(f"{key} {label}; b goes back")
        entries = [(str(a), menu.labels[a]) for a in ids]
        for line in layout(entries):
            self.write(line)
        while True:
            answer = self._ask(f"{key} placement> ")
            if answer is None:
                return None
            if answer.lower() in ("b", "back"):
                return "back"
            picked = self._parse(answer, entries, menu)
            if picked is not None:
                return picked

    def _ask(self, prompt: str) -> str | None:
        """One stripped line; ``None`` for quit or end of input. Help requests are answered
        here and asked again."""
        while True:
            try:
                answer = self.read(prompt).strip()
            except EOFError:
                self.write("\nend of input: quitting")
                return None
            if answer.lower() in QUIT:
                return None
            if answer == "?" or answer.lower() == "help":
                self.write(self.legend)
                self.write("answers: a listed id, a full action name, a card or tile name, "
                           "help ID, ? (legend), q (quit)")
                continue
            return answer

    def _parse(self, answer: str, entries: list[tuple[str, str]], menu: Menu
               ) -> int | str | None:
        """The action (or the group key) an answer names among ``entries`` (``None`` after
        explaining why not)."""
        ids = [k for k, _ in entries]
        words = answer.split(maxsplit=1)
        if words[:1] and words[0].lower() == "help" and len(words) == 2:
            self.write(self._help(words[1], menu))
            return None
        if answer.isdigit():
            if answer in ids or str(int(answer)) in ids:
                return int(answer)
            self.write(f"  {answer} is not a listed id; listed: {_short(ids)}")
            return None
        by_name = [k for k, label in entries if label.split("  ")[0].lower() == answer.lower()]
        if len(by_name) == 1 and by_name[0].isdigit():
            return int(by_name[0])
        card = self._card(answer)
        if card is not None:
            keys = self._naming(answer, card, entries)
            if len(keys) == 1:
                return int(keys[0]) if keys[0].isdigit() else keys[0]
            choices = [(k, lab) for k, lab in entries if k in keys] or entries
            listed = _short([f"{k} {lab.split('  ')[0]}" for k, lab in choices])
            if keys:
                self.write(f"  {answer!r} names {len(keys)} legal moves: {listed}; type its id")
            else:
                title = card.split(":")[0]
                known = "" if title.lower() == answer.lower() else f" ({title})"
                self.write(f"  {answer!r}{known} is not a legal move now; legal: {listed}")
            return None
        if answer == "":
            self.write(f"  type one of the listed ids ({_short(ids)}), ? for the legend, q quits")
        else:
            self.write(f"  {answer!r} is neither a listed id nor a full action name; listed ids: "
                       f"{_short(ids)} (? legend, help ID, q quits)")
        return None

    def _card(self, answer: str) -> str | None:
        """The full text of the card or tile ``answer`` names, or ``None`` for any other word."""
        words = answer.split()
        if not words or not all(re.fullmatch(WORD, w) for w in words):
            return None
        text = self.explain(answer)
        if text and len(words) > 1:  # ethnos' explain reads the last word: 'blue Elf', not 'a b'
            return text if any(_phrase(answer).search(n) for n in self.names) else None
        return text

    def _naming(self, answer: str, card: str, entries: list[tuple[str, str]]) -> list[str]:
        """The keys of the entries whose label names the card: by its very text (any case),
        else, for one word, by any code of the same card (``Jh`` is ``J♥``)."""
        keys = [k for k, label in entries if _phrase(answer).search(label)]
        if keys or " " in answer.strip():
            return keys
        return [k for k, label in entries
                if any(self.explain(w) == card for w in re.findall(WORD, label))]

    def _help(self, token: str, menu: Menu) -> str:
        token = token.strip()
        if token.isdigit() and int(token) in menu.labels:
            label = menu.labels[int(token)]
            texts = [t for t in (self.explain(w) for w in re.findall(r"[A-Za-z0-9♣♠♥♦]+", label))
                     if t]
            return "\n".join([f"{token}: {label}", *dict.fromkeys(texts)])
        for key, label, _ in menu.groups:
            if key.lower() == token.lower():
                return f"{key}: {label}"
        text = self.explain(token)
        return text if text else f"  no listed id, card or tile called {token!r}"


def _phrase(answer: str) -> re.Pattern[str]:
    """``answer`` as whole words (any case, any spacing): ``blue elf`` in ``LEADER[blue Elf]``,
    never ``elf`` in ``ELF_KEEP``."""
    body = r"\s+".join(re.escape(w) for w in answer.split())
    return re.compile(rf"(?<![\w♣♠♥♦]){body}(?![\w♣♠♥♦])", re.IGNORECASE)


def _short(ids: list[str], most: int = 12) -> str:
    return ", ".join(ids[:most]) + (f", ... ({len(ids)} in all)" if len(ids) > most else "")
