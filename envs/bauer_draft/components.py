"""The 55 Bauer cards, loaded from ``cards.json`` and checked against the spec's totals.

The published card list is not public; ``cards.json`` holds the spec's own composition (§8,
assumed). Everything the engine needs is derived from the file (card order = card id order, the
card of each effect and prize is found by its ``effect``/``prize`` key), so the real list can
replace the file without code changes as long as it keeps one card per effect and per prize.

Also the cards the engine finds by their effect key (Uggel-Guggel, the Witch, ..., the three
copiers) and the Day/Night column every other module reads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

DATA_FILE = Path(__file__).with_name("cards.json")

THEMES = ("W", "K", "T", "P", "B")
THEME_NAMES = ("Witch", "Knight", "Troll", "Princess", "Beast")
EVENT, JOURNEY, DANGER, CHARACTER = 0, 1, 2, 3
KIND_NAMES = ("event", "journey", "danger", "character")
# Day-character effects and Night-character prizes; each must appear on exactly one card.
EFFECTS = ("uggel", "witch", "martin", "olle", "daga", "yule", "ville", "toyvik", "bella",
           "adventure_boy", "humpe")
PRIZES = ("skutt", "wing_mother", "silver_knight", "king_death", "big_jock", "tuvstarr",
          "skogsra")
COPIERS = ("bella", "adventure_boy", "humpe")


class CardDataError(ValueError):
    """The card file breaks a structural rule or does not match its declared totals."""


@dataclass(frozen=True)
class Card:
    """One printed card. ``tags`` and ``quest`` are counts per theme in ``THEMES`` order."""

    index: int
    code: str
    name: str
    kind: int
    night: bool
    points: int
    swords: int
    tags: tuple[int, ...]
    effect: str | None
    prize: str | None
    quest: tuple[int, ...] | None
    quest_points: int
    quest_per_set: bool

    @property
    def day(self) -> bool:
        return not self.night


class CardSet:
    """All cards plus numpy columns for fast scoring and encoding."""

    def __init__(self, cards: list[Card], totals: dict[str, int]):
        self.cards: tuple[Card, ...] = tuple(cards)
        self.totals = dict(totals)
        self.size = len(cards)
        self.codes = tuple(c.code for c in cards)
        self.index_of_code = {c.code: c.index for c in cards}
        self.effect_card = {c.effect: c.index for c in cards if c.effect}
        self.prize_card = {c.prize: c.index for c in cards if c.prize}
        self.night = np.array([c.night for c in cards], dtype=bool)
        self.kind = np.array([c.kind for c in cards], dtype=np.int8)
        self.points = np.array([c.points for c in cards], dtype=np.int16)
        self.swords = np.array([c.swords for c in cards], dtype=np.int16)
        self.tags = np.array([c.tags for c in cards], dtype=np.int16)
        self.effect_of: tuple[str | None, ...] = tuple(c.effect for c in cards)
        self.night_list: tuple[bool, ...] = tuple(c.night for c in cards)

    def __getitem__(self, index: int) -> Card:
        return self.cards[index]


def _tag_counts(text: str, where: str) -> tuple[int, ...]:
    bad = [t for t in text if t not in THEMES]
    if bad:
        raise CardDataError(f"{where}: unknown theme tag(s) {bad}; allowed: {', '.join(THEMES)}")
    return tuple(text.count(t) for t in THEMES)


def _parse_card(index: int, raw: dict[str, Any]) -> Card:
    code = raw.get("id")
    where = f"card #{index} ({code})"
    if not isinstance(code, str) or not code:
        raise CardDataError(f"{where}: missing string 'id'")
    if raw.get("type") not in KIND_NAMES:
        raise CardDataError(f"{where}: type {raw.get('type')!r}; allowed: {KIND_NAMES}")
    if raw.get("time") not in ("day", "night"):
        raise CardDataError(f"{where}: time {raw.get('time')!r}; allowed: 'day', 'night'")
    kind = KIND_NAMES.index(raw["type"])
    night = raw["time"] == "night"
    tags = _tag_counts(raw.get("tags", ""), where)
    points, swords = int(raw.get("points", 0)), int(raw.get("swords", 0))
    effect, prize = raw.get("effect"), raw.get("prize")
    quest = _tag_counts(raw["quest"], where) if raw.get("quest") else None
    if kind == CHARACTER:
        if sum(tags):
            raise CardDataError(f"{where}: characters carry no tags")
        if night and (prize not in PRIZES or effect or quest):
            raise CardDataError(f"{where}: a Night character needs one prize of {PRIZES}, "
                                "and no effect or quest")
        if not night and (effect not in EFFECTS or prize):
            raise CardDataError(f"{where}: a Day character needs one effect of {EFFECTS}")
    else:
        if effect or prize or quest:
            raise CardDataError(f"{where}: only characters have effects, prizes or quests")
        if night and sum(tags):
            raise CardDataError(f"{where}: Night cards carry no tags")
        if not night and not 1 <= sum(tags) <= 3:
            raise CardDataError(f"{where}: a Day {raw['type']} carries 1-3 tags")
    if kind == EVENT and not 1 <= points <= 4:
        raise CardDataError(f"{where}: an Event shows 1-4 points, not {points}")
    if kind != EVENT and points:
        raise CardDataError(f"{where}: only Events show points")
    if kind == DANGER and not 1 <= swords <= 3:
        raise CardDataError(f"{where}: a Danger shows 1-3 swords, not {swords}")
    if kind != DANGER and swords:
        raise CardDataError(f"{where}: only Dangers show swords")
    return Card(
        index=index, code=code, name=str(raw.get("name", code)), kind=kind, night=night,
        points=points, swords=swords, tags=tags, effect=effect, prize=prize, quest=quest,
        quest_points=int(raw.get("quest_points", 0)),
        quest_per_set=bool(raw.get("quest_per_set", False)),
    )


def _check_totals(cards: list[Card], totals: dict[str, int]) -> None:
    measured = {
        "cards": len(cards),
        "day": sum(not c.night for c in cards),
        "night": sum(c.night for c in cards),
        "characters": sum(c.kind == CHARACTER for c in cards),
        "events": sum(c.kind == EVENT for c in cards),
        "journeys": sum(c.kind == JOURNEY for c in cards),
        "dangers": sum(c.kind == DANGER for c in cards),
        "tags": sum(sum(c.tags) for c in cards),
        "swords": sum(c.swords for c in cards),
        "event_points": sum(c.points for c in cards),
    }
    for name, value in measured.items():
        if name in totals and totals[name] != value:
            raise CardDataError(f"card file: {name} = {value}, but its totals say {totals[name]}")
    if "tags_per_theme" in totals:
        for t, theme in enumerate(THEMES):
            n = sum(c.tags[t] for c in cards)
            if n != totals["tags_per_theme"]:
                raise CardDataError(f"card file: theme {theme} has {n} tags, "
                                    f"but its totals say {totals['tags_per_theme']} per theme")
    for key, names in (("effect", EFFECTS), ("prize", PRIZES)):
        for name in names:
            n = sum(getattr(c, key) == name for c in cards)
            if n != 1:
                raise CardDataError(f"card file: {n} cards have {key} {name!r}; need exactly 1")
    codes = [c.code for c in cards]
    if len(set(codes)) != len(codes):
        raise CardDataError("card file: card ids are not unique")


def load_cards(path: str | Path = DATA_FILE) -> CardSet:
    """Read and check a card file; raise ``CardDataError`` naming the first problem."""
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise CardDataError(f"{path}: expected an object with a 'cards' list")
    totals = data.get("totals", {})
    cards = [_parse_card(i, raw) for i, raw in enumerate(data["cards"])]
    _check_totals(cards, totals)
    return CardSet(cards, totals)


CARDS = load_cards()
NUM_CARDS = CARDS.size

# Cards with a rule of their own, found by effect key so a replaced card list still works.
UGGEL, WITCH_CARD, MARTIN_CARD, OLLE_CARD, DAGA_CARD, YULE_CARD, VILLE = (
    CARDS.effect_card[e] for e in ("uggel", "witch", "martin", "olle", "daga", "yule", "ville"))
COPIER_CARDS = tuple(CARDS.effect_card[e] for e in COPIERS)
COPIER_INDEX = {card: k for k, card in enumerate(COPIER_CARDS)}
NIGHT = CARDS.night_list


def card_codes(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(CARDS[c].code for c in cards) or "-"
