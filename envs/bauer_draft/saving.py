"""JSON-safe save/load of ``bauer_draft`` positions (cards by their printed id, e.g. ``"E09"``).

``state_from_dict`` is strict about what it needs and fills documented defaults for the rest, so
tests and notebooks can build a position from a few fields::

    {"round": 3, "hands": [["E09", "J01", "C09"], ...], "piles": [[...], ...],
     "central": [...], "discards": [...], "tableau": [["E01", {"card": "C07", "round": 1}], ...]}

A complete save (one naming its ``game`` or ``rng``, as ``to_dict`` writes) must have every key
(``options`` may be left out), every tableau entry and every copy all its fields. Defaults
otherwise: ``kind`` "select"; tableau entries played in list order (seat 0 first) in round -1
("an earlier round") by the select (``"by"``); no copies, Daga unused (ready if in a tableau),
empty queue and memories. Every card must appear exactly once in hands, piles, central deck,
discards and tableaux.

Every given field is type-checked before it is used (any input gives ``StateFormatError`` with a
shortened value, never another exception; lists are measured before they are scanned, and every
scan is linear), then the position goes through ``BauerDraftState.check``, whose game part is
``invariants.check_state``. ``to_dict`` is written from the State's declared fields
(``BauerDraftState.FIELDS``, with the encoders here).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tablezoo.envs.bauer_draft import information_state
from tablezoo.envs.bauer_draft.actions import (
    KINDS,
    OVER,
    SELECT,
)
from tablezoo.envs.bauer_draft.components import (
    CARDS,
    COPIER_CARDS,
    DAGA_CARD,
    NUM_CARDS,
)
from tablezoo.envs.bauer_draft.effects import (
    PLAYED_BY,
    TASK_NAMES,
)
from tablezoo.envs.bauer_draft.invariants import bad, shown
from tablezoo.envs.core.fields import OMIT
from tablezoo.envs.core.game import rng_from_dict

if TYPE_CHECKING:
    from tablezoo.envs.bauer_draft.rules import BauerDraftGame, BauerDraftState

COPY_MODES = ("none", "later", "copied")
TRACK_NAMES = ("none", "exact", "pile")


# --- to_dict's encoders (named by ``BauerDraftState.FIELDS``) ---------------------------------
def _codes(cards: list[int]) -> list[str]:
    code = CARDS.codes
    return [code[c] for c in cards]


def save_kind(s: BauerDraftState) -> str:
    return KINDS[s.kind]


def save_card(name: str) -> Callable[[BauerDraftState], str | None]:
    """The encoder of a card field ``name`` (``-1``: none)."""
    code = CARDS.codes
    return lambda s: code[c] if (c := getattr(s, name)) >= 0 else None


def save_first(s: BauerDraftState) -> list[Any] | None:
    return [CARDS.codes[s.first[0]], s.first[1]] if s.first is not None else None


def save_selected(s: BauerDraftState) -> list[list[list[Any]]]:
    code = CARDS.codes
    return [[[code[c], via] for c, via in picks] for picks in s.sel]


def save_card_lists(name: str) -> Callable[[BauerDraftState], list[list[str]]]:
    """The encoder of a per-seat card list field ``name``."""
    return lambda s: [_codes(x) for x in getattr(s, name)]


def save_cards(name: str) -> Callable[[BauerDraftState], list[str]]:
    """The encoder of a card list field ``name``."""
    return lambda s: _codes(getattr(s, name))


def save_tableau(s: BauerDraftState) -> list[list[dict[str, Any]]]:
    code = CARDS.codes
    return [[{"card": code[c], "seq": s.seq[c], "round": s.played_round[c],
              "by": PLAYED_BY[s.played_by[c]]} for c in t] for t in s.tableau]


def save_copies(s: BauerDraftState) -> list[dict[str, Any]]:
    code = CARDS.codes
    return [{"copier": code[copier], "mode": COPY_MODES[s.copy_mode[k]],
             "target": code[s.copy_target[k]] if s.copy_target[k] >= 0 else None,
             "since": s.copy_since[k]} for k, copier in enumerate(COPIER_CARDS)]


def save_queue(s: BauerDraftState) -> list[list[Any]]:
    code = CARDS.codes
    return [[TASK_NAMES[t], code[c] if c >= 0 else None, p] for t, c, p in s.queue]


def save_memory(s: BauerDraftState) -> list[dict[str, int]]:
    code = CARDS.codes
    return [{code[c]: m for c, m in sorted(row.items())} for row in s.memory]


def save_tracked(s: BauerDraftState) -> list[dict[str, str]]:
    code = CARDS.codes
    return [{code[c]: TRACK_NAMES[t] for c, t in sorted(row.items())} for row in s.tracked]


def save_rng(s: BauerDraftState) -> dict[str, Any]:
    return copy.deepcopy(s.rng_state())


def save_history(s: BauerDraftState) -> Any:
    """Every event of the game, for the information state; left out when unknown."""
    rows = information_state.to_list(s)
    return OMIT if rows is None else rows


ENTRY_KEYS = ("card", "seq", "round", "by")
COPY_KEYS = ("copier", "mode", "target", "since")
MAX_COUNT = 10**6  # bound of play counters (far above any game's ~100 plays)
MAX_QUEUE = 4 * NUM_CARDS




def _card(value: Any, where: str) -> int:
    if type(value) is not str or value not in CARDS.index_of_code:
        bad(f"{where}: unknown card {shown(value)}; card ids are {', '.join(CARDS.codes)}")
    return CARDS.index_of_code[value]


def _list(value: Any, where: str, length: int | None = None, most: int | None = None) -> list:
    """``value`` as a list of exactly ``length`` (or at most ``most``) items, measured before any
    item is looked at."""
    if type(value) is not list:
        bad(f"{where} must be a list, got {shown(value)}")
    if length is not None and len(value) != length:
        bad(f"{where} must have {length} entries, got {len(value)}")
    if most is not None and len(value) > most:
        bad(f"{where} has {len(value)} entries, at most {most} allowed")
    return value


def _cards(value: Any, where: str) -> list[int]:
    return [_card(v, where) for v in _list(value, where, most=NUM_CARDS)]


def _per_seat(data: Mapping[str, Any], key: str, n: int, default: Any = None) -> list[Any]:
    value = data.get(key, default)
    if type(value) is not list or len(value) != n:
        bad(f"{key!r} must be a list with one entry per seat ({n}), got {shown(value)}")
    return value


def _int(value: Any, where: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        bad(f"{where} must be an int in {low}..{high}, got {shown(value)}")
    return value


def _bool(value: Any, where: str) -> bool:
    if type(value) is not bool:
        bad(f"{where} must be true or false, got {shown(value)}")
    return value


def _name(value: Any, where: str, allowed: tuple[str, ...]) -> int:
    if type(value) is not str or value not in allowed:
        bad(f"{where} {shown(value)}; allowed: {', '.join(allowed)}")
    return allowed.index(value)


def _dict(value: Any, where: str, keys: tuple[str, ...] | None = None) -> Mapping[str, Any]:
    if not isinstance(value, Mapping) or len(value) > NUM_CARDS:
        bad(f"{where} must be a dict, got {shown(value)}")
    if keys is not None and any(type(k) is not str or k not in keys for k in value):
        bad(f"{where} has keys {shown(list(value))}; allowed: {', '.join(keys)}")
    return value


def _pick(value: Any, where: str) -> tuple[int, bool]:
    """A selection ``[card id, via Daga]``."""
    pair = _list(value, where, length=2)
    return _card(pair[0], where), _bool(pair[1], f"{where} (via Daga)")


def state_from_dict(game: BauerDraftGame, data: Mapping[str, Any],
                    state_class: type[BauerDraftState]) -> BauerDraftState:
    """Load a position; ``state_class`` (``BauerDraftState``, passed by ``rules``) builds it."""
    if not isinstance(data, Mapping):
        bad(f"expected a dict, got {type(data).__name__}")
    keys = state_class.FIELDS.keys  # the declared fields' keys
    unknown = [k for k in data if k not in keys]
    if unknown:
        bad(f"unknown keys {shown(unknown)}; allowed: {', '.join(keys)}")
    complete = "game" in data or "rng" in data
    missing = [k for k in state_class.FIELDS.required_keys if k not in data and k != "options"]
    if complete and missing:  # options may be left out to load a save into other options
        bad(f"a complete save has every key; missing {missing}")
    state = _load(game, data, state_class, complete)
    # the game's events (information_state); a save without them: rebuilt or unknown
    information_state.from_list(state, data.get("history", information_state.NOT_SAVED))
    state_class.FIELDS.check_types(state, "bauer_draft state")  # what each declared field holds
    state.check()
    return state


def _load(game: BauerDraftGame, data: Mapping[str, Any], state_class: type[BauerDraftState],
          complete: bool) -> BauerDraftState:
    n = game.num_players
    if "game" in data and (type(data["game"]) is not str or data["game"] != "bauer_draft"):
        bad(f"game is {shown(data['game'])}")
    if "options" in data and (type(data["options"]) is not dict
                              or data["options"] != game.options):
        bad(f"saved with options {shown(data['options'])}, but this game has {game.options}")
    rng = rng_from_dict(data["rng"]) if "rng" in data else np.random.default_rng(0)
    st = state_class(game, rng)
    st.round = _int(data.get("round", 0), "round", 0, game.num_rounds)
    st.kind = _name(data.get("kind", "select"), "kind", KINDS)
    hands = _per_seat(data, "hands", n)
    piles = _per_seat(data, "piles", n)
    tableau = _per_seat(data, "tableau", n)
    central = _list(data.get("central", []), "central", most=NUM_CARDS)
    discards = _list(data.get("discards", []), "discards", most=NUM_CARDS)
    sizes = [len(_list(x, f"a hand, pile or tableau of seat {i % n}"))
             for i, x in enumerate(hands + piles + tableau)]
    listed = sum(sizes) + len(central) + len(discards)
    if listed > NUM_CARDS:  # measured before any scan: a 20,000-card list stops here
        bad(f"hands, piles, central, discards and tableaux list {listed} cards; each of the "
             f"{NUM_CARDS} cards must be in exactly one place")
    st.hands = [_cards(h, f"hands[{s}]") for s, h in enumerate(hands)]
    st.piles = [_cards(p, f"piles[{s}]") for s, p in enumerate(piles)]
    st.central = _cards(central, "central")
    st.discards = _cards(discards, "discards")
    pile_ids = _list(data.get("pile_ids", list(range(n))), "pile_ids", length=n)
    if sorted(_int(i, "a pile id", 0, n - 1) for i in pile_ids) != list(range(n)):
        bad(f"pile_ids {shown(pile_ids)} must be a permutation of 0..{n - 1}")
    st.pile_ids = list(pile_ids)
    _load_tableau(st, tableau, game.num_rounds, complete)
    max_seq = max((st.seq[c] for t in st.tableau for c in t), default=-1)
    st.next_seq = _int(data.get("next_seq", max_seq + 1), "next_seq", max_seq + 1, MAX_COUNT)
    _load_copies(st, _list(data.get("copies", [{}] * 3), "copies", length=3), complete)
    st.daga_used = _bool(data.get("daga_used", False), "daga_used")
    st.daga_ready = _bool(data.get("daga_ready", st.owner[DAGA_CARD] >= 0), "daga_ready")
    for i, item in enumerate(_list(data.get("queue", []), "queue", most=MAX_QUEUE)):
        task, card, seat = _list(item, f"queue[{i}]", length=3)
        st.queue.append((_name(task, f"queue[{i}] task", TASK_NAMES),
                         -1 if card is None else _card(card, f"queue[{i}]"),
                         _int(seat, f"queue[{i}] seat", 0, n - 1)))
    plays = data.get("plays", [len(t) for t in st.tableau])
    st.plays = [_int(v, "plays", 0, MAX_COUNT) for v in _list(plays, "plays", length=n)]
    for key, table, names in (("memory", st.memory, None), ("tracked", st.tracked, TRACK_NAMES)):
        for s, row in enumerate(_per_seat(data, key, n, [{}] * n)):
            for code, value in _dict(row, f"{key}[{s}]").items():
                card = _card(code, f"{key}[{s}]")
                if names is None:
                    table[s][card] = _int(value, f"{key}[{s}][{code}]", 0, n - 1)
                else:
                    table[s][card] = _name(value, f"{key}[{s}][{code}]", names[1:]) + 1
    st.rebuild_views()
    _load_decision(st, data, n)
    return st


def _load_tableau(st: BauerDraftState, tableau: list[Any], num_rounds: int,
                  complete: bool) -> None:
    seq_counter = 0
    for s, entries in enumerate(tableau):
        for e in entries:
            entry = _dict(e, f"tableau[{s}] entry", ENTRY_KEYS) if not isinstance(e, str) \
                else {"card": e}
            if complete and len(entry) != len(ENTRY_KEYS):
                bad(f"a complete save lists {', '.join(ENTRY_KEYS)} of every tableau card, got "
                     f"{shown(e)}")
            c = _card(entry.get("card"), f"tableau[{s}]")
            where = CARDS.codes[c]
            st.tableau[s].append(c)
            st.owner[c] = s
            st.seq[c] = _int(entry.get("seq", seq_counter), f"seq of {where}", 0, MAX_COUNT)
            st.played_round[c] = _int(entry.get("round", -1), f"round of {where}", -1,
                                      num_rounds)
            st.played_by[c] = _name(entry.get("by", "select"), f"'by' of {where}", PLAYED_BY)
            seq_counter += 1
    for s in range(st.n):
        st.tableau[s].sort(key=lambda c: st.seq[c])


def _load_copies(st: BauerDraftState, copies: list[Any], complete: bool) -> None:
    for k, raw in enumerate(copies):
        entry = _dict(raw, f"copies[{k}]", COPY_KEYS)
        if complete and len(entry) != len(COPY_KEYS):
            bad(f"a complete save lists {', '.join(COPY_KEYS)} of every copy, got {shown(raw)}")
        if "copier" in entry and _card(entry["copier"], "copier") != COPIER_CARDS[k]:
            bad(f"copies[{k}] is the copy of {CARDS.codes[COPIER_CARDS[k]]}, not "
                 f"{shown(entry['copier'])}")
        st.copy_mode[k] = _name(entry.get("mode", "none"), "copy mode", COPY_MODES)
        target = entry.get("target")
        st.copy_target[k] = _card(target, "copy target") if target is not None else -1
        st.copy_since[k] = _int(entry.get("since", 0), "copy since", 0, MAX_COUNT)


def _load_decision(st: BauerDraftState, data: Mapping[str, Any], n: int) -> None:
    selected = _per_seat(data, "selected", n, [[] for _ in range(n)])
    st.sel = [[_pick(x, f"selected[{s}]") for x in _list(picks, f"selected[{s}]", most=2)]
              for s, picks in enumerate(selected)]
    kind = st.kind
    if kind in (SELECT, OVER):
        given = (data.get("decider", -1), data.get("source"), data.get("offer"),
                 data.get("first"))
        if given != (-1, None, None, None):
            bad(f"no decider, source, offer or first pick during a {KINDS[kind]}, got "
                 f"{shown(given)}")
        st.acting = tuple(range(n)) if kind == SELECT else ()
        if kind == OVER:
            st._final = st._compute_breakdown()
        return
    st.decider = _int(data.get("decider"), "decider", 0, n - 1)
    st.acting = (st.decider,)
    source = data.get("source")
    st.source = _card(source, "source") if source is not None else -1
    offer = data.get("offer")
    st.offer = _card(offer, "offer") if offer is not None else -1
    first = data.get("first")
    st.first = _pick(first, "first") if first is not None else None
