"""JSON-safe save and load of an Ethnos position (``to_dict`` / ``state_from_dict``).

The dict holds only the logical position (cards by type, bands as card lists, markers, tokens,
the pending decision and the RNG); the float observation blocks are rebuilt from it, so a test can
write a position by hand. Loading checks shapes, ranges and card conservation and raises
``StateFormatError`` naming the problem.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tablezoo.envs.core.errors import StateFormatError
from tablezoo.envs.core.fields import OMIT, check_saved_options, options_record
from tablezoo.envs.core.game import require, rng_from_dict, rng_to_dict, short
from tablezoo.envs.ethnos import actions as act
from tablezoo.envs.ethnos import information_state
from tablezoo.envs.ethnos.components import (
    DRAGON,
    DWARVES,
    NUM_DRAGONS,
    NUM_KINGDOMS,
    NUM_TRIBES,
    NUM_TYPES,
    SKELETON,
    TRIBE_INDEX,
    TRIBES,
    TYPE_TRIBE,
)  # fmt: skip
from tablezoo.envs.ethnos.invariants import legal_band
from tablezoo.envs.ethnos.scoring import CATEGORIES, band_value

if TYPE_CHECKING:
    from tablezoo.envs.ethnos.rules import EthnosGame, EthnosState

FORMAT_VERSION = 1


def _ints(v: np.ndarray) -> list[int]:
    return [int(x) for x in v]


# --- to_dict's encoders (named by ``EthnosState.FIELDS``) --------------------------------------
HEADER_KEYS = ("game", "version", "options", "num_players")


def save_header(s: EthnosState) -> dict[str, Any]:
    """The first keys of a save: the game, the format version, the options, the player count."""
    return {"game": "ethnos", "version": FORMAT_VERSION,
            "options": options_record(s.game.options), "num_players": s.n}


def save_tribes(s: EthnosState) -> list[str]:
    return [TRIBES[t] for t in s.tribes]


def save_phase(s: EthnosState) -> str:
    return "over" if s.terminal else act.PHASES[s.phase]


def save_ints(name: str) -> Callable[[EthnosState], list[int]]:
    """The encoder of a count vector field ``name``: its entries as ints."""
    return lambda s: _ints(getattr(s, name))


def save_rows(name: str) -> Callable[[EthnosState], list[list[int]]]:
    """The encoder of a per-seat count matrix field ``name``: its rows as int lists."""
    return lambda s: [_ints(row) for row in getattr(s, name)]


def save_giant_plays(s: EthnosState) -> list[list[int]]:
    return [list(x) for x in s.giant_plays]


def save_building(s: EthnosState) -> dict[str, Any]:
    return {"leader": s.building_leader, "cards": _ints(s.building),
            "tribe_ok": s.tribe_ok, "colour_ok": s.colour_ok}


def save_band(s: EthnosState) -> dict[str, Any]:
    return {"leader": s.cur_leader, "x": s.cur_x, "placed": s.cur_placed,
            "merfolk_left": s.merfolk_left, "elf_kept": _ints(s.elf_kept)}


def save_rng(s: EthnosState) -> dict[str, Any]:
    return rng_to_dict(s.rng)


def save_history(s: EthnosState) -> Any:
    """The Age's events, for the information state; left out when unknown."""
    rows = information_state.to_list(s)
    return OMIT if rows is None else rows


def _get(d: Mapping[str, Any], key: str) -> Any:
    require(key in d, f"ethnos state: missing key {key!r}")
    return d[key]


def _known_keys(d: Mapping[str, Any], where: str, keys: tuple[str, ...]) -> None:
    """Refuse keys of the nested dict ``where`` that ``to_dict`` does not write, as at the top."""
    unknown = [k for k in d if k not in keys]
    require(not unknown, f"ethnos state: unknown keys {short(unknown)} in {where}; allowed: "
            f"{', '.join(keys)}")


def _is_int(v: Any, low: int, high: int) -> bool:
    return type(v) is int and low <= v <= high


def _int(d: Mapping[str, Any], key: str, low: int, high: int) -> int:
    v = _get(d, key)
    require(_is_int(v, low, high),
            f"ethnos state: {key}={short(v)} must be an int in {low}..{high}")
    return v


def _bool(d: Mapping[str, Any], key: str) -> bool:
    v = _get(d, key)
    require(type(v) is bool, f"ethnos state: {key}={short(v)} must be true or false")
    return v


def _vector(v: Any, length: int, what: str, low: int = 0, high: int = 10**6) -> list[int]:
    """``v`` as a list of ``length`` ints in ``low..high``: length first, then each entry's type
    (plain ``int``, no bool/float/NaN), so no input is scanned beyond ``length`` entries."""
    require(isinstance(v, list) and len(v) == length,
            f"ethnos state: {what} must be a list of {length} ints in {low}..{high}, "
            f"got {short(v)}")
    require(all(_is_int(x, low, high) for x in v),
            f"ethnos state: {what} must hold ints in {low}..{high}, got {short(v)}")
    return list(v)


def _matrix(v: Any, rows: int, length: int, what: str, low: int = 0,
            high: int = 10**6) -> list[list[int]]:
    require(isinstance(v, list) and len(v) == rows,
            f"ethnos state: {what} must be {rows} rows of {length} ints, got {short(v)}")
    return [_vector(row, length, f"{what}[{i}]", low, high) for i, row in enumerate(v)]


def _int_list(v: Any, what: str, most: int, low: int, high: int) -> list[int]:
    require(isinstance(v, list) and len(v) <= most,
            f"ethnos state: {what} must be a list of at most {most} ints, got {short(v)}")
    return _vector(v, len(v), what, low, high)


# the keys of the nested "building" and "band" dicts; any other key is refused
BUILDING_KEYS = ("leader", "cards", "tribe_ok", "colour_ok")
BAND_KEYS = ("leader", "x", "placed", "merfolk_left", "elf_kept")


def state_from_dict(game: EthnosGame, d: Mapping[str, Any],
                    state_cls: type[EthnosState]) -> EthnosState:
    """The position saved in ``d``, as a ``state_cls`` (the rules' state class), validated."""
    require(isinstance(d, Mapping), f"ethnos state: expected a dict, got {type(d).__name__}")
    keys = state_cls.FIELDS.keys  # the declared fields' keys
    unknown = [k for k in d if k not in keys]
    require(not unknown,
            f"ethnos state: unknown keys {short(unknown)}; allowed: {', '.join(keys)}")
    require(d.get("game") == "ethnos", f"ethnos state: 'game' must be 'ethnos', got "
            f"{short(d.get('game'))}")
    require(_is_int(d.get("version"), FORMAT_VERSION, FORMAT_VERSION),
            f"ethnos state: unsupported version {short(d.get('version'))}; expected "
            f"{FORMAT_VERSION}")
    check_saved_options(game, d, "ethnos state")
    n = game.num_players
    require(_is_int(d.get("num_players"), n, n),
            f"ethnos state: num_players={short(d.get('num_players'))} but the game has {n} "
            "players")
    rng = rng_from_dict(_get(d, "rng"))
    s = state_cls(game, rng)

    names = _get(d, "tribes")
    require(isinstance(names, list) and len(names) <= NUM_TRIBES
            and all(isinstance(t, str) and t.lower() in TRIBE_INDEX for t in names),
            f"ethnos state: tribes must be tribe names from {list(TRIBES)}, got {short(names)}")
    tribes = tuple(sorted(TRIBE_INDEX[t.lower()] for t in names))
    require(len(set(tribes)) == len(tribes) == game.num_tribes,
            f"ethnos state: need {game.num_tribes} distinct tribes, got {short(names)}")
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
    require(isinstance(phase_name, str) and phase_name in allowed_phases,
            f"ethnos state: phase={short(phase_name)}; allowed: {allowed_phases}")
    s.terminal = phase_name == "over"
    s.phase = act.OVER if s.terminal else act.PHASES.index(phase_name)
    s.actor = _int(d, "actor", -1, n - 1)
    require(s.terminal or s.actor >= 0,
            "ethnos state: actor must be a seat unless the game is over")
    s.decisions = _int(d, "decisions", 0, game.max_decisions)
    most = int(s.full.sum()) + NUM_DRAGONS
    deck = _int_list(_get(d, "deck"), f"deck (card type ids, {DRAGON} = Dragon)", most, 0,
                     DRAGON)
    s.deck = list(deck)
    s.dragons = _int(d, "dragons", 0, 3)
    require((s.dragons == 3) == (s.phase in (act.ORC_PICK, act.OVER)),
            "ethnos state: 3 Dragons are revealed exactly in the 'orc' and 'over' phases")
    require(deck.count(DRAGON) == 3 - s.dragons,
            f"ethnos state: the deck holds {deck.count(DRAGON)} Dragons but {s.dragons} were "
            "revealed (3 in all)")
    s.lower_left = _int(d, "lower_left", 0, len(deck))
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
    most_bands = int(s.full.sum())
    s.bands = []
    for p, row in enumerate(bands):
        require(isinstance(row, list) and len(row) <= most_bands,
                f"ethnos state: bands[{p}] must be a list of at most {most_bands} bands")
        mine = []
        for b in row:
            require(isinstance(b, list) and 1 <= len(b) <= 10
                    and all(_is_int(c, 0, NUM_TYPES - 1) for c in b) and b[0] != SKELETON,
                    f"ethnos state: band {short(b)} of player {p} must list 1-10 card types, "
                    "leader first (not a Skeleton)")
            require(legal_band(b), f"ethnos state: band {short(b)} of player {p} mixes tribes "
                    "and colours")
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
    require(isinstance(plays, list) and len(plays) <= most_bands,
            "ethnos state: giant_plays must be a list of [seat, size]")
    s.giant_plays = [tuple(_vector(x, 2, "giant_plays entry", 0, 10)) for x in plays]
    require(all(x[0] < n and x[1] >= 1 for x in s.giant_plays),
            f"ethnos state: giant_plays entries are [seat 0..{n - 1}, size 1..10]")
    b = _get(d, "building")
    require(isinstance(b, Mapping), "ethnos state: building must be a dict")
    _known_keys(b, "building", BUILDING_KEYS)
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
        require(legal_band(s.building_cards),
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
    _known_keys(c, "band", BAND_KEYS)
    s.cur_leader = _int(c, "leader", -1, NUM_TYPES - 2)
    s.cur_x = _int(c, "x", 0, 10)
    s.cur_placed = _bool(c, "placed")
    s.merfolk_left = _int(c, "merfolk_left", 0, len(game.merfolk_spaces))
    s.elf_kept[:] = _vector(_get(c, "elf_kept"), NUM_TYPES, "band.elf_kept", 0, 12)
    s.elf_n = int(s.elf_kept.sum())
    queue = _get(d, "orc_queue")
    s.orc_queue = _int_list(queue, "orc_queue", n, 0, n - 1)
    needs_band = (act.WINGFOLK_PICK, act.MERFOLK_PICK, act.TROLL_PICK, act.CENTAUR_PICK,
                  act.ELF_PICK, act.WIZARD_PICK)
    require((s.phase in needs_band) <= (s.cur_leader >= 0),
            f"ethnos state: phase {phase_name} needs band.leader (the band being resolved)")
    require((s.phase == act.ORC_PICK) == bool(s.orc_queue) and
            (not s.orc_queue or s.orc_queue[0] == s.actor),
            "ethnos state: orc_queue must be non-empty exactly in the 'orc' phase, actor first")
    _rebuild_derived(s)
    s._mask = None
    information_state.from_list(s, d.get("history", information_state.NOT_SAVED))
    state_cls.FIELDS.check_types(s, "ethnos state")  # what each declared field holds
    s.check()
    return s


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


__all__ = ["StateFormatError", "state_from_dict"]
