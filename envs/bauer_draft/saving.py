"""JSON-safe save/load of ``bauer_draft`` positions (cards by their printed id, e.g. ``"E09"``).

``state_from_dict`` is strict about what it needs and fills documented defaults for the rest, so
tests and notebooks can build a position from a few fields::

    {"round": 3, "hands": [["E09", "J01", "C09"], ...], "piles": [[...], ...],
     "central": [...], "discards": [...], "tableau": [["E01", {"card": "C07", "round": 1}], ...]}

Defaults: ``kind`` "select"; tableau entries played in list order (seat 0 first) in round -1
("an earlier round") by the select (``"by"``); no copies, Daga unused (ready if in a tableau),
empty queue and memories. Every card must appear exactly once in hands, piles, central deck,
discards and tableaux.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from envs.bauer_draft.actions import KINDS, OVER, SELECT, SELECT_VILLE
from envs.bauer_draft.components import CARDS, COPIER_CARDS, DAGA_CARD, NUM_CARDS
from envs.bauer_draft.effects import PLAYED_BY, TASK_NAMES
from envs.core.errors import StateFormatError
from envs.core.game import require, rng_from_dict

if TYPE_CHECKING:
    from envs.bauer_draft.rules import BauerDraftGame, BauerDraftState

COPY_MODES = ("none", "later", "copied")
TRACK_NAMES = ("none", "exact", "pile")


def state_to_dict(s: BauerDraftState) -> dict[str, Any]:
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
    }


def _card(value: Any, where: str) -> int:
    require(isinstance(value, str) and value in CARDS.index_of_code,
            f"bauer_draft state: {where}: unknown card {value!r}; card ids are "
            f"{', '.join(CARDS.codes)}")
    return CARDS.index_of_code[value]


def _cards(value: Any, where: str) -> list[int]:
    require(isinstance(value, list), f"bauer_draft state: {where} must be a list of card ids")
    return [_card(v, where) for v in value]


def _per_seat(data: Mapping[str, Any], key: str, n: int, default: Any = None) -> list[Any]:
    value = data.get(key, default)
    require(isinstance(value, list) and len(value) == n,
            f"bauer_draft state: {key!r} must be a list with one entry per seat ({n})")
    return value


def _int(value: Any, where: str, low: int, high: int) -> int:
    require(type(value) is int and low <= value <= high,
            f"bauer_draft state: {where} must be an int in {low}..{high}, got {value!r}")
    return value


def state_from_dict(game: BauerDraftGame, data: Mapping[str, Any],
                    state_class: type[BauerDraftState]) -> BauerDraftState:
    """Load a position; ``state_class`` (``BauerDraftState``, passed by ``rules``) builds it."""
    require(isinstance(data, Mapping), "bauer_draft state: expected a dict")
    try:
        return _load(game, data, state_class)
    except StateFormatError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        raise StateFormatError(f"bauer_draft state: malformed field ({exc!r})") from exc


def _load(game: BauerDraftGame, data: Mapping[str, Any],
          state_class: type[BauerDraftState]) -> BauerDraftState:
    n = game.num_players
    if "game" in data:
        require(data["game"] == "bauer_draft", f"bauer_draft state: game is {data['game']!r}")
    if "options" in data:
        require(dict(data["options"]) == game.options,
                f"bauer_draft state: saved with options {data['options']}, "
                f"but this game has {game.options}")
    rng = rng_from_dict(data["rng"]) if "rng" in data else np.random.default_rng(0)
    st = state_class(game, rng)
    st.round = _int(data.get("round", 0), "round", 0, game.num_rounds)
    kind_name = data.get("kind", "select")
    require(kind_name in KINDS, f"bauer_draft state: kind {kind_name!r}; allowed: {KINDS}")
    st.kind = KINDS.index(kind_name)
    st.hands = [_cards(h, f"hands[{s}]") for s, h in enumerate(_per_seat(data, "hands", n))]
    st.piles = [_cards(p, f"piles[{s}]") for s, p in enumerate(_per_seat(data, "piles", n))]
    st.central = _cards(data.get("central", []), "central")
    st.discards = _cards(data.get("discards", []), "discards")
    pile_ids = data.get("pile_ids", list(range(n)))
    require(sorted(pile_ids) == list(range(n)) if isinstance(pile_ids, list) else False,
            f"bauer_draft state: pile_ids must be a permutation of 0..{n - 1}")
    st.pile_ids = list(pile_ids)
    seq_counter = 0
    max_seq = -1
    for s, entries in enumerate(_per_seat(data, "tableau", n)):
        require(isinstance(entries, list), f"bauer_draft state: tableau[{s}] must be a list")
        for e in entries:
            entry = e if isinstance(e, Mapping) else {"card": e}
            c = _card(entry.get("card"), f"tableau[{s}]")
            st.tableau[s].append(c)
            st.owner[c] = s
            st.seq[c] = _int(entry.get("seq", seq_counter), f"seq of {entry['card']}", 0, 10**6)
            st.played_round[c] = _int(entry.get("round", -1), f"round of {entry['card']}",
                                      -1, game.num_rounds)
            by = entry.get("by", "select")
            require(by in PLAYED_BY, f"bauer_draft state: 'by' of {entry['card']} is {by!r}; "
                    f"allowed {PLAYED_BY}")
            st.played_by[c] = PLAYED_BY.index(by)
            seq_counter += 1
            max_seq = max(max_seq, st.seq[c])
    for s in range(n):
        st.tableau[s].sort(key=lambda c: st.seq[c])
    everywhere = st.all_cards()
    missing = sorted(set(range(NUM_CARDS)) - set(everywhere))
    doubled = sorted({c for c in everywhere if everywhere.count(c) > 1})
    require(not missing and not doubled,
            "bauer_draft state: every card must be in exactly one place; "
            f"missing {[CARDS.codes[c] for c in missing]}, "
            f"more than once {[CARDS.codes[c] for c in doubled]}")
    st.next_seq = _int(data.get("next_seq", max_seq + 1), "next_seq", max_seq + 1, 10**6)
    for k, entry in enumerate(data.get("copies", [{}] * 3)):
        mode = entry.get("mode", "none")
        require(mode in COPY_MODES, f"bauer_draft state: copy mode {mode!r}; allowed {COPY_MODES}")
        st.copy_mode[k] = COPY_MODES.index(mode)
        target = entry.get("target")
        st.copy_target[k] = _card(target, "copy target") if target is not None else -1
        require((st.copy_mode[k] == 2) == (target is not None),
                "bauer_draft state: a copy target is given exactly for mode 'copied'")
        if st.copy_mode[k] == 2:
            require(st.owner[st.copy_target[k]] == st.owner[COPIER_CARDS[k]] >= 0,
                    "bauer_draft state: a copy target must lie in its copier's owner's tableau")
        st.copy_since[k] = _int(entry.get("since", 0), "copy since", 0, 10**6)
    st.daga_used = bool(data.get("daga_used", False))
    st.daga_ready = bool(data.get("daga_ready", st.owner[DAGA_CARD] >= 0))
    for item in data.get("queue", []):
        task, card, seat = item
        require(task in TASK_NAMES, f"bauer_draft state: queue task {task!r}; allowed {TASK_NAMES}")
        st.queue.append((TASK_NAMES.index(task), _card(card, "queue") if card else -1,
                         _int(seat, "queue seat", 0, n - 1)))
    st.plays = list(data.get("plays", [len(t) for t in st.tableau]))
    for key, table, names in (("memory", st.memory, None), ("tracked", st.tracked, TRACK_NAMES)):
        rows = data.get(key, [{}] * n)
        require(isinstance(rows, list) and len(rows) == n,
                f"bauer_draft state: {key!r} needs one dict per seat")
        for s, row in enumerate(rows):
            for code, value in row.items():
                if names is None:
                    table[s][_card(code, key)] = _int(value, key, 0, n - 1)
                else:
                    require(value in names[1:], f"bauer_draft state: {key} value {value!r}; "
                            f"allowed {names[1:]}")
                    table[s][_card(code, key)] = names.index(value)
    st.rebuild_views()
    _load_decision(st, data, n)
    return st


def _load_decision(st: BauerDraftState, data: Mapping[str, Any], n: int) -> None:
    st.sel = [[(_card(c, "selected"), bool(via)) for c, via in picks]
              for picks in _per_seat(data, "selected", n, [[] for _ in range(n)])]
    kind = st.kind
    if kind == SELECT:
        for s, hand in enumerate(st.hands):
            require(len(hand) == 3, f"bauer_draft state: a select needs 3 cards in each hand; "
                    f"seat {s} has {len(hand)}")
        st.acting = tuple(range(n))
        return
    if kind == OVER:
        st.acting = ()
        st._final = st._compute_breakdown()
        return
    st.decider = _int(data.get("decider"), "decider", 0, n - 1)
    st.acting = (st.decider,)
    source = data.get("source")
    st.source = _card(source, "source") if source is not None else -1
    offer = data.get("offer")
    st.offer = _card(offer, "offer") if offer is not None else -1
    first = data.get("first")
    st.first = (_card(first[0], "first"), bool(first[1])) if first is not None else None
    if kind == SELECT_VILLE:
        require(all(len(picks) == 1 for picks in st.sel),
                "bauer_draft state: a Ville sub-step needs each seat's first selection")
    require(st.legal_mask(st.decider).any(),
            f"bauer_draft state: seat {st.decider} has no legal action in {KINDS[kind]}")
