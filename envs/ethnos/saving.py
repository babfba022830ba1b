"""JSON-safe save and load of an Ethnos position (``to_dict`` / ``state_from_dict``).

The dict holds only the logical position (cards by type, bands as card lists, markers, tokens,
the pending decision and the RNG); the float observation blocks are rebuilt from it, so a test can
write a position by hand. Loading checks shapes, ranges and card conservation and raises
``StateFormatError`` naming the problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from envs.core.errors import StateFormatError
from envs.core.game import require, rng_from_dict, rng_to_dict
from envs.ethnos import actions as act
from envs.ethnos.components import (
    DRAGON,
    DWARVES,
    NUM_KINGDOMS,
    NUM_TYPES,
    SKELETON,
    TRIBE_INDEX,
    TRIBES,
    TYPE_TRIBE,
)  # fmt: skip
from envs.ethnos.scoring import CATEGORIES, band_value

if TYPE_CHECKING:
    from envs.ethnos.rules import EthnosGame, EthnosState

FORMAT_VERSION = 1


def _ints(v: np.ndarray) -> list[int]:
    return [int(x) for x in v]


def state_to_dict(s: EthnosState) -> dict[str, Any]:
    return {
        "game": "ethnos",
        "version": FORMAT_VERSION,
        "num_players": s.n,
        "tribes": [TRIBES[t] for t in s.tribes],
        "glory_tokens": [list(t) for t in s.tokens],
        "age": s.age,
        "first_player": s.first_player,
        "actor": s.actor,
        "phase": "over" if s.terminal else act.PHASES[s.phase],
        "decisions": s.decisions,
        "deck": list(s.deck),
        "lower_left": s.lower_left,
        "dragons": s.dragons,
        "third_drawer": s.third_drawer,
        "display": _ints(s.display),
        "discard": _ints(s.discard),
        "hands": [_ints(h) for h in s.hands],
        "known": [_ints(k) for k in s.known],
        "bands": [[list(b) for b in bands] for bands in s.bands],
        "glory": _ints(s.glory),
        "breakdown": [list(row) for row in s.breakdown],
        "markers": [_ints(m) for m in s.markers],
        "merfolk": _ints(s.merfolk),
        "horde": [_ints(h) for h in s.horde],
        "troll_owner": list(s.troll_owner),
        "giant_seat": s.giant_seat,
        "giant_size": s.giant_size,
        "giant_plays": [list(x) for x in s.giant_plays],
        "building": {"leader": s.building_leader, "cards": _ints(s.building),
                     "tribe_ok": s.tribe_ok, "colour_ok": s.colour_ok},
        "band": {"leader": s.cur_leader, "x": s.cur_x, "placed": s.cur_placed,
                 "merfolk_left": s.merfolk_left, "elf_kept": _ints(s.elf_kept)},
        "orc_queue": list(s.orc_queue),
        "rng": rng_to_dict(s.rng),
    }


def _get(d: Mapping[str, Any], key: str) -> Any:
    require(key in d, f"ethnos state: missing key {key!r}")
    return d[key]


def _int(d: Mapping[str, Any], key: str, low: int, high: int) -> int:
    v = _get(d, key)
    require(type(v) is int and low <= v <= high,
            f"ethnos state: {key}={v!r} must be an int in {low}..{high}")
    return v


def _bool(d: Mapping[str, Any], key: str) -> bool:
    v = _get(d, key)
    require(type(v) is bool, f"ethnos state: {key}={v!r} must be true or false")
    return v


def _ints_array(v: Any, shape: tuple[int, ...], what: str, low: int, high: int) -> np.ndarray:
    """``v`` as an int array of ``shape`` with values in ``low..high`` (one vectorised check)."""
    ok = isinstance(v, (list, tuple))
    arr = None
    if ok:
        try:
            arr = np.asarray(v)
        except (ValueError, TypeError):
            ok = False
    ok = ok and arr is not None and arr.shape == shape and (arr.size == 0 or (
        arr.dtype.kind in "iu" and int(arr.min()) >= low and int(arr.max()) <= high))
    require(ok, f"ethnos state: {what} must be {'a list' if len(shape) == 1 else 'rows'} of "
            f"shape {shape} of ints in {low}..{high}, got {v!r}")
    return arr


def _vector(v: Any, length: int, what: str, low: int = 0, high: int = 10**6) -> list[int]:
    return _ints_array(v, (length,), what, low, high).tolist()


def _matrix(v: Any, rows: int, length: int, what: str, low: int = 0,
            high: int = 10**6) -> list[list[int]]:
    return _ints_array(v, (rows, length), what, low, high).tolist()


def state_from_dict(game: EthnosGame, d: Mapping[str, Any],
                    state_cls: type[EthnosState]) -> EthnosState:
    """The position saved in ``d``, as a ``state_cls`` (the rules' state class), validated."""
    require(isinstance(d, Mapping), f"ethnos state: expected a dict, got {type(d).__name__}")
    require(d.get("game") == "ethnos", f"ethnos state: 'game' must be 'ethnos', got "
            f"{d.get('game')!r}")
    require(d.get("version") == FORMAT_VERSION,
            f"ethnos state: unsupported version {d.get('version')!r}; expected {FORMAT_VERSION}")
    n = game.num_players
    require(d.get("num_players") == n, f"ethnos state: num_players={d.get('num_players')!r} "
            f"but the game has {n} players")
    rng = rng_from_dict(_get(d, "rng"))
    s = state_cls(game, rng)

    names = _get(d, "tribes")
    require(isinstance(names, list) and all(isinstance(t, str) and t.lower() in TRIBE_INDEX
                                            for t in names),
            f"ethnos state: tribes must be tribe names from {list(TRIBES)}, got {names!r}")
    tribes = tuple(sorted(TRIBE_INDEX[t.lower()] for t in names))
    require(len(set(tribes)) == len(tribes) == game.num_tribes,
            f"ethnos state: need {game.num_tribes} distinct tribes, got {names!r}")
    tokens = _get(d, "glory_tokens")
    per = game.slots_per_kingdom
    require(isinstance(tokens, list) and len(tokens) == NUM_KINGDOMS,
            f"ethnos state: glory_tokens must list {NUM_KINGDOMS} kingdoms")
    tokens = [_vector(t, per, f"glory_tokens[{k}]", 0, 10) for k, t in enumerate(tokens)]
    require(all(t == sorted(t) for t in tokens),
            "ethnos state: glory tokens of a kingdom must be sorted ascending (I <= II <= III)")
    s._set_static(tribes, tokens)

    s.age = _int(d, "age", 0, game.num_ages - 1)
    s.first_player = _int(d, "first_player", 0, n - 1)
    phase_name = _get(d, "phase")
    allowed_phases = [*list(act.PHASES), "over"]
    require(phase_name in allowed_phases,
            f"ethnos state: phase={phase_name!r}; allowed: {allowed_phases}")
    s.terminal = phase_name == "over"
    s.phase = act.OVER if s.terminal else act.PHASES.index(phase_name)
    s.actor = _int(d, "actor", -1, n - 1)
    require(s.terminal or s.actor >= 0,
            "ethnos state: actor must be a seat unless the game is over")
    s.decisions = _int(d, "decisions", 0, 10**9)
    deck = _get(d, "deck")
    require(isinstance(deck, list) and all(type(c) is int and 0 <= c <= DRAGON for c in deck),
            f"ethnos state: deck must be a list of card type ids 0..{DRAGON} ({DRAGON} = Dragon)")
    s.deck = list(deck)
    s.dragons = _int(d, "dragons", 0, 3)
    require((s.dragons == 3) == (s.phase in (act.ORC_PICK, act.OVER)),
            "ethnos state: 3 Dragons are revealed exactly in the 'orc' and 'over' phases")
    require(deck.count(DRAGON) == 3 - s.dragons,
            f"ethnos state: the deck holds {deck.count(DRAGON)} Dragons but {s.dragons} were "
            "revealed (3 in all)")
    s.lower_left = _int(d, "lower_left", 0, 10**6)
    dragon_pos = [i for i, c in enumerate(deck) if c == DRAGON]
    require(all(i < s.lower_left for i in dragon_pos),
            "ethnos state: a Dragon lies above the bottom lower_left cards of the deck")
    s.third_drawer = _int(d, "third_drawer", -1, n - 1)
    s.display[:] = _vector(_get(d, "display"), NUM_TYPES, "display")
    s.discard[:] = _vector(_get(d, "discard"), NUM_TYPES, "discard")
    s.hands[:] = _matrix(_get(d, "hands"), n, NUM_TYPES, "hands", 0, 12)
    s.known[:] = _matrix(_get(d, "known"), n, NUM_TYPES, "known", 0, 12)
    bands = _get(d, "bands")
    require(isinstance(bands, list) and len(bands) == n, f"ethnos state: bands must have {n} rows")
    s.bands = []
    for p, row in enumerate(bands):
        require(isinstance(row, list), f"ethnos state: bands[{p}] must be a list of bands")
        mine = []
        for b in row:
            require(isinstance(b, list) and 1 <= len(b) <= 10 and b[0] != SKELETON
                    and all(type(c) is int and 0 <= c < NUM_TYPES for c in b),
                    f"ethnos state: band {b!r} of player {p} must list 1-10 card types, "
                    "leader first (not a Skeleton)")
            require(_legal_band(b), f"ethnos state: band {b!r} of player {p} mixes tribes and "
                    "colours")
            mine.append(list(b))
        s.bands.append(mine)
    s.glory[:] = _vector(_get(d, "glory"), n, "glory")
    s.breakdown = _matrix(_get(d, "breakdown"), n, len(CATEGORIES), "breakdown")
    require(all(sum(s.breakdown[p]) == int(s.glory[p]) for p in range(n)),
            "ethnos state: breakdown rows must sum to glory")
    s.markers[:] = _matrix(_get(d, "markers"), n, NUM_KINGDOMS, "markers", 0, 100)
    s.merfolk[:] = _vector(_get(d, "merfolk"), n, "merfolk", 0, game.merfolk_end)
    s.horde[:] = _matrix(_get(d, "horde"), n, NUM_KINGDOMS, "horde", 0, 1)
    s.troll_owner = _vector(_get(d, "troll_owner"), 6, "troll_owner", -1, n - 1)
    s.giant_seat = _int(d, "giant_seat", -1, n - 1)
    s.giant_size = _int(d, "giant_size", 0, 10)
    plays = _get(d, "giant_plays")
    require(isinstance(plays, list), "ethnos state: giant_plays must be a list of [seat, size]")
    s.giant_plays = [tuple(_vector(x, 2, "giant_plays entry", 0, 10)) for x in plays]
    b = _get(d, "building")
    require(isinstance(b, Mapping), "ethnos state: building must be a dict")
    s.building_leader = _int(b, "leader", -1, NUM_TYPES - 2)
    s.building[:] = _vector(_get(b, "cards"), NUM_TYPES, "building.cards", 0, 12)
    s.building_len = int(s.building.sum())
    s.tribe_ok = _bool(b, "tribe_ok")
    s.colour_ok = _bool(b, "colour_ok")
    if s.building_leader >= 0:
        require(s.building[s.building_leader] >= 1,
                "ethnos state: building.cards must include the leader")
        rest = s.building.astype(int).tolist()
        rest[s.building_leader] -= 1
        others = [ct for ct, c in enumerate(rest) for _ in range(c)]
        s.building_cards = [s.building_leader, *others]
        require(_legal_band(s.building_cards),
                "ethnos state: the band being built mixes tribes and colours")
        lead = s.building_leader
        plain = [c for c in others if c != SKELETON]
        require(s.tribe_ok == all(TYPE_TRIBE[c] == TYPE_TRIBE[lead] for c in plain)
                and s.colour_ok == all(c % 6 == lead % 6 for c in plain),
                "ethnos state: building.tribe_ok / colour_ok disagree with building.cards")
    require((s.phase == act.BUILD) == (s.building_leader >= 0),
            "ethnos state: building.leader must be set exactly in the 'build' phase")
    c = _get(d, "band")
    require(isinstance(c, Mapping), "ethnos state: band must be a dict")
    s.cur_leader = _int(c, "leader", -1, NUM_TYPES - 2)
    s.cur_x = _int(c, "x", 0, 10)
    s.cur_placed = _bool(c, "placed")
    s.merfolk_left = _int(c, "merfolk_left", 0, len(game.merfolk_spaces))
    s.elf_kept[:] = _vector(_get(c, "elf_kept"), NUM_TYPES, "band.elf_kept", 0, 12)
    s.elf_n = int(s.elf_kept.sum())
    queue = _get(d, "orc_queue")
    s.orc_queue = _vector(queue, len(queue) if isinstance(queue, list) else -1, "orc_queue",
                          0, n - 1)
    needs_band = (act.WINGFOLK_PICK, act.MERFOLK_PICK, act.TROLL_PICK, act.CENTAUR_PICK,
                  act.ELF_PICK, act.WIZARD_PICK)
    require((s.phase in needs_band) <= (s.cur_leader >= 0),
            f"ethnos state: phase {phase_name!r} needs band.leader (the band being resolved)")
    require((s.phase == act.ORC_PICK) == bool(s.orc_queue) and
            (not s.orc_queue or s.orc_queue[0] == s.actor),
            "ethnos state: orc_queue must be non-empty exactly in the 'orc' phase, actor first")
    _rebuild_derived(s)
    total = s.discard + s.display + s.hands.sum(axis=0) + s.building + s.elf_kept
    total = total + s.band_cards.sum(axis=0)
    total = total + np.bincount(np.asarray(s.deck, np.int64), minlength=DRAGON + 1)[:NUM_TYPES]
    require(np.array_equal(total, s.full),
            "ethnos state: cards are not conserved: deck + display + hands + bands + discard "
            "must hold every card of the tribes in play exactly once")
    require(all(v <= 10 for v in s.hand_len), "ethnos state: a hand holds more than 10 cards")
    s._mask = None
    return s


def _legal_band(band: list[int]) -> bool:
    lead = band[0]
    rest = [c for c in band if c != SKELETON]
    same_tribe = all(TYPE_TRIBE[c] == TYPE_TRIBE[lead] for c in rest)
    same_colour = all(c % 6 == lead % 6 for c in rest)
    return same_tribe or same_colour


def _rebuild_derived(s: EthnosState) -> None:
    """Recompute every float block that follows from the logical position."""
    g = s.game
    n = s.n
    s.hand_len = [int(h.sum()) for h in s.hands]
    for p in range(n):
        extra = 0
        if p == s.actor and not s.terminal:
            extra = s.building_len + s.elf_n
        s.hand_size[p] = s.hand_len[p] + extra
        for band in s.bands[p]:
            lead = band[0]
            tribe = int(TYPE_TRIBE[lead])
            x = len(band)
            scored = x - band.count(SKELETON)
            np.add.at(s.band_cards[p], band, 1)
            s.band_leaders[p, lead] += 1
            s.band_tribe_size[p, tribe * 10 + x - 1] += 1
            s.band_scored[p, scored - 1] += 1
            s.band_glory_col[p] += band_value(g.band_glory, scored + (tribe == DWARVES))
    s.age_view[:] = 0
    s.age_view[s.age] = 1
    s.first_col[:] = 0
    s.first_col[s.first_player] = 1
    s.third_col[:] = 0
    if s.dragons == 3 and s.third_drawer >= 0:
        s.third_col[s.third_drawer] = 1
    s.dragons_view[0] = s.dragons
    s.trolls_held[:] = 0
    s.troll_supply[:] = 0
    for v, owner in enumerate(s.troll_owner):
        if owner >= 0:
            s.trolls_held[owner, v] = 1
        elif s.has[8]:
            s.troll_supply[v] = 1
    s.giant_col[:] = 0
    if s.giant_seat >= 0:
        s.giant_col[s.giant_seat] = 1
        s.giant_size_view[0] = s.giant_size
    if s.cur_leader >= 0:
        s.band_leader_view[s.cur_leader] = 1
        s.band_x_view[0] = s.cur_x
    s.merfolk_left_view[0] = s.merfolk_left
    s.elf_kept_view[0] = s.elf_n


__all__ = ["StateFormatError", "state_from_dict", "state_to_dict"]
