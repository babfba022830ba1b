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
``check_state`` here: the invariants the rules imply, the first broken one named.

- cards: each of the 55 cards exactly once in hands, piles, central deck, discards and tableaux;
  the tableau bookkeeping (owner, play order, round, how played) matches the tableaux, rounds
  never decrease in play order; ``plays`` add up to the play counter;
- sizes that fit the round and the decision: every pile holds 12 (10) - 3 - round cards during
  a select and two more after the pass (hand-built positions: or not), two (or none: the Yule
  Goat's) after the last round;
  three cards in every hand during a select, the cards of an effect in the decider's hand only;
- the decision: kind fits the round, the decider owns the card whose effect is decided (Ville,
  Witch, Martin, Olle, Yule Goat, Daga, the copier), selections, first pick and copy offer are
  cards of that seat; every queued task names a card with an effect;
- copies and Daga: a copy's target is an eligible card of its copier's owner, a pending copier
  lies in a tableau; Daga ready or used only once she was played;
- memories: pile ids and knowledge levels in range, never about a card in the seat's own hand.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from tablezoo.envs.bauer_draft import history
from tablezoo.envs.bauer_draft.actions import (
    COPY_CHOICE,
    COPY_OFFER,
    DAGA,
    KINDS,
    MARTIN,
    OLLE,
    OLLE_VILLE,
    OVER,
    SELECT,
    SELECT_VILLE,
    WITCH,
    YULE,
    YULE_VILLE,
)
from tablezoo.envs.bauer_draft.components import (
    CARDS,
    COPIER_CARDS,
    COPIER_INDEX,
    DAGA_CARD,
    MARTIN_CARD,
    NUM_CARDS,
    OLLE_CARD,
    VILLE,
    WITCH_CARD,
    YULE_CARD,
)
from tablezoo.envs.bauer_draft.effects import (
    COPY_DONE,
    COPY_NONE,
    COPY_WAIT,
    ELIGIBLE,
    ON_PLAY,
    PLAYED_BY,
    TASK_COPY_CHOICE,
    TASK_DAGA_CARDS,
    TASK_EFFECT,
    TASK_NAMES,
)
from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.game import rng_from_dict, short

if TYPE_CHECKING:
    from tablezoo.envs.bauer_draft.rules import BauerDraftGame, BauerDraftState

COPY_MODES = ("none", "later", "copied")
TRACK_NAMES = ("none", "exact", "pile")


def to_dict(s: BauerDraftState) -> dict[str, Any]:
    code = CARDS.codes

    def codes(cards: list[int]) -> list[str]:
        return [code[c] for c in cards]

    return {
        "game": "bauer_draft",
        "options": dict(s.game.options),
        "round": s.round,
        "kind": KINDS[s.kind],
        "decider": s.decider,
        "source": code[s.source] if s.source >= 0 else None,
        "offer": code[s.offer] if s.offer >= 0 else None,
        "first": [code[s.first[0]], s.first[1]] if s.first is not None else None,
        "selected": [[[code[c], via] for c, via in picks] for picks in s.sel],
        "hands": [codes(h) for h in s.hands],
        "piles": [codes(p) for p in s.piles],
        "pile_ids": list(s.pile_ids),
        "central": codes(s.central),
        "discards": codes(s.discards),
        "tableau": [[{"card": code[c], "seq": s.seq[c], "round": s.played_round[c],
                      "by": PLAYED_BY[s.played_by[c]]} for c in t] for t in s.tableau],
        "next_seq": s.next_seq,
        "copies": [{"copier": code[copier], "mode": COPY_MODES[s.copy_mode[k]],
                    "target": code[s.copy_target[k]] if s.copy_target[k] >= 0 else None,
                    "since": s.copy_since[k]} for k, copier in enumerate(COPIER_CARDS)],
        "daga_used": s.daga_used,
        "daga_ready": s.daga_ready,
        "queue": [[TASK_NAMES[t], code[c] if c >= 0 else None, p] for t, c, p in s.queue],
        "plays": list(s.plays),
        "memory": [{code[c]: m for c, m in sorted(row.items())} for row in s.memory],
        "tracked": [{code[c]: TRACK_NAMES[t] for c, t in sorted(row.items())}
                    for row in s.tracked],
        "rng": copy.deepcopy(s.rng_state()),
        # every event of the game (history.py), for the information state; absent when unknown
        **({"history": rows} if (rows := history.to_list(s)) is not None else {}),
    }


KEYS = ("game", "options", "round", "kind", "decider", "source", "offer", "first", "selected",
        "hands", "piles", "pile_ids", "central", "discards", "tableau", "next_seq", "copies",
        "daga_used", "daga_ready", "queue", "plays", "memory", "tracked", "rng", "history")
ENTRY_KEYS = ("card", "seq", "round", "by")
COPY_KEYS = ("copier", "mode", "target", "since")
MAX_COUNT = 10**6  # bound of play counters (far above any game's ~100 plays)
MAX_QUEUE = 4 * NUM_CARDS


def _shown(value: Any) -> str:
    """``short(value)``, at most 200 characters even for wide nested input."""
    text = short(value)
    return text if len(text) <= 200 else text[:200] + "..."


def _bad(what: str) -> None:
    raise StateFormatError(f"bauer_draft state: {what}")


def _card(value: Any, where: str) -> int:
    if type(value) is not str or value not in CARDS.index_of_code:
        _bad(f"{where}: unknown card {_shown(value)}; card ids are {', '.join(CARDS.codes)}")
    return CARDS.index_of_code[value]


def _list(value: Any, where: str, length: int | None = None, most: int | None = None) -> list:
    """``value`` as a list of exactly ``length`` (or at most ``most``) items, measured before any
    item is looked at."""
    if type(value) is not list:
        _bad(f"{where} must be a list, got {_shown(value)}")
    if length is not None and len(value) != length:
        _bad(f"{where} must have {length} entries, got {len(value)}")
    if most is not None and len(value) > most:
        _bad(f"{where} has {len(value)} entries, at most {most} allowed")
    return value


def _cards(value: Any, where: str) -> list[int]:
    return [_card(v, where) for v in _list(value, where, most=NUM_CARDS)]


def _per_seat(data: Mapping[str, Any], key: str, n: int, default: Any = None) -> list[Any]:
    value = data.get(key, default)
    if type(value) is not list or len(value) != n:
        _bad(f"{key!r} must be a list with one entry per seat ({n}), got {_shown(value)}")
    return value


def _int(value: Any, where: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        _bad(f"{where} must be an int in {low}..{high}, got {_shown(value)}")
    return value


def _bool(value: Any, where: str) -> bool:
    if type(value) is not bool:
        _bad(f"{where} must be true or false, got {_shown(value)}")
    return value


def _name(value: Any, where: str, allowed: tuple[str, ...]) -> int:
    if type(value) is not str or value not in allowed:
        _bad(f"{where} {_shown(value)}; allowed: {', '.join(allowed)}")
    return allowed.index(value)


def _dict(value: Any, where: str, keys: tuple[str, ...] | None = None) -> Mapping[str, Any]:
    if not isinstance(value, Mapping) or len(value) > NUM_CARDS:
        _bad(f"{where} must be a dict, got {_shown(value)}")
    if keys is not None and any(type(k) is not str or k not in keys for k in value):
        _bad(f"{where} has keys {_shown(list(value))}; allowed: {', '.join(keys)}")
    return value


def _pick(value: Any, where: str) -> tuple[int, bool]:
    """A selection ``[card id, via Daga]``."""
    pair = _list(value, where, length=2)
    return _card(pair[0], where), _bool(pair[1], f"{where} (via Daga)")


def state_from_dict(game: BauerDraftGame, data: Mapping[str, Any],
                    state_class: type[BauerDraftState]) -> BauerDraftState:
    """Load a position; ``state_class`` (``BauerDraftState``, passed by ``rules``) builds it."""
    if not isinstance(data, Mapping):
        _bad(f"expected a dict, got {type(data).__name__}")
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        _bad(f"unknown keys {_shown(unknown)}; allowed: {', '.join(KEYS)}")
    complete = "game" in data or "rng" in data
    missing = [k for k in KEYS if k not in data and k not in ("options", "history")]
    if complete and missing:  # options may be left out to load a save into other options
        _bad(f"a complete save has every key; missing {missing}")
    state = _load(game, data, state_class, complete)
    # the game's events (information_state); a save without them: rebuilt or unknown
    history.from_list(state, data.get("history", history.NOT_SAVED))
    state.check()
    return state


def _load(game: BauerDraftGame, data: Mapping[str, Any], state_class: type[BauerDraftState],
          complete: bool) -> BauerDraftState:
    n = game.num_players
    if "game" in data and (type(data["game"]) is not str or data["game"] != "bauer_draft"):
        _bad(f"game is {_shown(data['game'])}")
    if "options" in data and (type(data["options"]) is not dict
                              or data["options"] != game.options):
        _bad(f"saved with options {_shown(data['options'])}, but this game has {game.options}")
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
        _bad(f"hands, piles, central, discards and tableaux list {listed} cards; each of the "
             f"{NUM_CARDS} cards must be in exactly one place")
    st.hands = [_cards(h, f"hands[{s}]") for s, h in enumerate(hands)]
    st.piles = [_cards(p, f"piles[{s}]") for s, p in enumerate(piles)]
    st.central = _cards(central, "central")
    st.discards = _cards(discards, "discards")
    pile_ids = _list(data.get("pile_ids", list(range(n))), "pile_ids", length=n)
    if sorted(_int(i, "a pile id", 0, n - 1) for i in pile_ids) != list(range(n)):
        _bad(f"pile_ids {_shown(pile_ids)} must be a permutation of 0..{n - 1}")
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
                _bad(f"a complete save lists {', '.join(ENTRY_KEYS)} of every tableau card, got "
                     f"{_shown(e)}")
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
            _bad(f"a complete save lists {', '.join(COPY_KEYS)} of every copy, got {_shown(raw)}")
        if "copier" in entry and _card(entry["copier"], "copier") != COPIER_CARDS[k]:
            _bad(f"copies[{k}] is the copy of {CARDS.codes[COPIER_CARDS[k]]}, not "
                 f"{_shown(entry['copier'])}")
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
            _bad(f"no decider, source, offer or first pick during a {KINDS[kind]}, got "
                 f"{_shown(given)}")
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


# --- the invariants (BauerDraftState.check) ---------------------------------------------------
# Each check tests first and builds its message only when it fails: random-play tests run them
# at every decision.
SOURCE_OF = {SELECT_VILLE: (VILLE,), WITCH: (WITCH_CARD,), MARTIN: (MARTIN_CARD,),
             OLLE: (OLLE_CARD,), OLLE_VILLE: (OLLE_CARD,), YULE: (YULE_CARD,),
             YULE_VILLE: (YULE_CARD,), DAGA: (DAGA_CARD,), COPY_CHOICE: COPIER_CARDS,
             COPY_OFFER: COPIER_CARDS}
# hand sizes of the decider for the decisions that choose among cards in hand
HAND_SIZES = {MARTIN: (1,), OLLE: (1, 2), OLLE_VILLE: (2,), YULE: (1, 2), YULE_VILLE: (2,)}


def check_state(st: BauerDraftState) -> None:
    """Raise ``StateFormatError`` naming the first invariant of the rules ``st`` breaks."""
    _check_cards(st)
    _check_tableau(st)
    _check_sizes(st)
    _check_decision(st)
    _check_copies(st)
    _check_memory(st)


def _code(c: int) -> str:
    return CARDS.codes[c]


def _check_cards(st: BauerDraftState) -> None:
    where = [0] * NUM_CARDS
    total = 0
    for cards in (*st.hands, *st.piles, st.central, st.discards, *st.tableau):
        total += len(cards)
        for c in cards:
            where[c] += 1
    if total != NUM_CARDS or any(k != 1 for k in where):
        missing = [_code(c) for c in range(NUM_CARDS) if not where[c]]
        doubled = [_code(c) for c in range(NUM_CARDS) if where[c] > 1]
        _bad(f"every card must be in exactly one place; missing {missing}, more than once "
             f"{doubled}")


def _check_tableau(st: BauerDraftState) -> None:
    in_tableau = [-1] * NUM_CARDS
    seqs = set()
    for s, cards in enumerate(st.tableau):
        for c in cards:
            in_tableau[c] = s
            seqs.add(st.seq[c])
        if any(st.seq[a] >= st.seq[b] for a, b in pairwise(cards)):
            _bad(f"tableau[{s}] must be in play order (distinct seq)")
        if st.plays[s] < len(cards):
            _bad(f"seat {s} has {len(cards)} tableau cards but played only {st.plays[s]}")
    if st.owner != in_tableau:
        c = next(c for c in range(NUM_CARDS) if st.owner[c] != in_tableau[c])
        _bad(f"owner of {_code(c)} is {st.owner[c]}, but it lies in tableau {in_tableau[c]}")
    if len(seqs) != sum(map(len, st.tableau)) or any(q >= st.next_seq for q in seqs):
        _bad(f"tableau cards need distinct play numbers below next_seq {st.next_seq}")
    if sum(st.plays) != st.next_seq:
        _bad(f"plays {st.plays} must add up to the play counter next_seq {st.next_seq}")
    by_seq = sorted((st.seq[c], st.played_round[c]) for t in st.tableau for c in t)
    rounds = [r for _, r in by_seq if r >= 0]  # -1: "an earlier round" of a hand-built position
    if any(a > b for a, b in pairwise(rounds)):
        _bad(f"tableau cards played later lie in earlier rounds (rounds in play order {rounds})")
    for c in range(NUM_CARDS):
        if in_tableau[c] < 0:
            if st.seq[c] != -1 or st.played_by[c] != -1:
                _bad(f"{_code(c)} is not in a tableau but has a play number")
        elif st.played_round[c] > st.round or not 0 <= st.played_by[c] < len(PLAYED_BY):
            _bad(f"{_code(c)} was played in round {st.played_round[c]}, after round {st.round}")


def _check_sizes(st: BauerDraftState) -> None:
    game = st.game
    kind, last = st.kind, game.num_rounds
    sizes = [len(p) for p in st.piles]
    if kind in (SELECT, SELECT_VILLE):
        if st.round >= last:
            _bad(f"no select after the last round ({last - 1})")
        for s, hand in enumerate(st.hands):
            if len(hand) != 3:
                _bad(f"a select needs 3 cards in each hand; seat {s} has {len(hand)}")
        size = game.pile_size - 3 - st.round
        if sizes != [size] * st.n:
            _bad(f"in round {st.round} every pile holds {size} cards during the select, got "
                 f"{sizes}")
        return
    if st.round < last:
        # Hand-built positions (tests, notebooks) may stand for the effects of a round without
        # the pass: piles of the select's size are accepted there too.
        size = game.pile_size - 1 - st.round
        if sizes not in ([size] * st.n, [size - 2] * st.n):
            _bad(f"after the pass of round {st.round} every pile holds {size} cards, got "
                 f"{sizes}")
    elif sorted(sizes)[1:] != [2] * (st.n - 1) or sizes.count(0) + sizes.count(2) != st.n:
        _bad(f"after the last round every pile holds 2 cards (the Yule Goat's none), got {sizes}")
    for s, hand in enumerate(st.hands):
        allowed = HAND_SIZES.get(kind, (0,)) if s == st.decider else (0,)
        if len(hand) not in allowed:
            _bad(f"seat {s} holds {len(hand)} cards during a {KINDS[kind]} decision (allowed "
                 f"{list(allowed)})")


def _check_decision(st: BauerDraftState) -> None:
    kind, n, last = st.kind, st.n, st.game.num_rounds
    want = tuple(range(n)) if kind == SELECT else () if kind == OVER else (st.decider,)
    if tuple(st.acting) != want:
        _bad(f"acting seats {list(st.acting)} do not fit a {KINDS[kind]} decision")
    if kind in (YULE, YULE_VILLE, OVER) and st.round != last:
        _bad(f"a {KINDS[kind]} decision comes after the last round, not in round {st.round}")
    if st.queue and kind in (SELECT, SELECT_VILLE, OVER):
        _bad(f"no effect is queued during a {KINDS[kind]}")
    if kind in (SELECT, OVER):
        if st.decider != -1 or st.source != -1 or st.offer != -1 or st.first is not None:
            _bad(f"no decider, source, offer or first pick during a {KINDS[kind]}")
        if any(st.sel):
            _bad(f"no selection is pending during a {KINDS[kind]}")
        return
    if kind == SELECT_VILLE:
        for s, picks in enumerate(st.sel):
            if len(picks) != 1 or picks[0][0] not in st.hands[s]:
                _bad(f"a Ville sub-step needs each seat's first selection from its hand (seat {s})")
            if picks[0][1] and not st.daga_available(s):
                _bad(f"seat {s} selected via Daga without Daga's ability")
        if not st.ville_ready(st.decider):
            _bad(f"seat {st.decider} cannot use Ville now")
    elif any(st.sel):
        _bad(f"no selection is pending during a {KINDS[kind]}")
    if st.source not in SOURCE_OF[kind] or st.owner[st.source] != st.decider:
        _bad(f"a {KINDS[kind]} decision is taken by the owner of {_shown(SOURCE_OF[kind])}, "
             f"not seat {st.decider} for {st.source}")
    if (st.first is not None) != (kind in (OLLE_VILLE, YULE_VILLE)):
        _bad("a first pick is pending exactly in an olle_ville or yule_ville decision")
    if st.first is not None and (st.first[0] not in st.hands[st.decider]
                                 or (st.first[1] and not st.daga_available(st.decider))):
        _bad(f"the first pick {_code(st.first[0])} must be in the decider's hand")
    k = COPIER_INDEX.get(st.source, -1)
    if kind == COPY_OFFER:
        offer = st.offer
        if (offer < 0 or st.owner[offer] != st.decider or not ELIGIBLE[k][offer]
                or st.seq[offer] < st.copy_since[k] or st.copy_mode[k] != COPY_WAIT):
            _bad(f"copy offer {_shown(offer)} must be an eligible later card of the copier")
    elif st.offer != -1:
        _bad("a copy offer is pending only in a copy_offer decision")
    if kind == COPY_CHOICE and st.copy_mode[k] != COPY_NONE:
        _bad("a copier choosing its copy has none yet")
    for task, card, _seat in st.queue:
        ok = (card == -1 if task == TASK_DAGA_CARDS
              else card in COPIER_INDEX if task == TASK_COPY_CHOICE
              else task == TASK_EFFECT and card >= 0 and ON_PLAY[card])
        if not ok:
            _bad(f"queued task {TASK_NAMES[task]} of {_shown(card)} has no such effect")


def _check_copies(st: BauerDraftState) -> None:
    for k, copier in enumerate(COPIER_CARDS):
        mode, target, owner = st.copy_mode[k], st.copy_target[k], st.owner[copier]
        if (mode == COPY_DONE) != (target >= 0):
            _bad(f"a copy target is given exactly for mode 'copied' ({_code(copier)})")
        if mode != COPY_NONE and owner < 0:
            _bad(f"{_code(copier)} has a copy but is in no tableau")
        if mode == COPY_DONE and (st.owner[target] != owner or not ELIGIBLE[k][target]):
            _bad(f"{_code(copier)} copies {_code(target)}, which is no eligible card of its "
                 "owner's tableau")
        if st.copy_since[k] > st.next_seq:
            _bad(f"{_code(copier)} waits for cards after play {st.copy_since[k]}, beyond "
                 f"next_seq {st.next_seq}")
    if (st.daga_used or st.daga_ready) and st.owner[DAGA_CARD] < 0:
        _bad("Daga's ability is ready or used, but Daga is in no tableau")


def _check_memory(st: BauerDraftState) -> None:
    for s in range(st.n):
        hand = st.hands[s]
        for c in st.memory[s]:
            if c in hand:
                _bad(f"seat {s} remembers passing {_code(c)}, which is in its own hand")
