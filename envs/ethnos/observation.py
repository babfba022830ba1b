"""Ethnos observation (spec §11): the pieces, their layout and the incremental encoder.

The observation is a flat float32 vector in three parts: public pieces that do not depend on a
seat, seat pieces of shape ``(num_players, ...)`` in seat-relative order (the observer first, then
the others clockwise), and the observer's private pieces. Counts are raw (not normalised).

The encoder is incremental: every public per-seat number the observation shows lives in one
float32 matrix ``seat_f`` of the state (one row per seat, columns named by ``game.seat_cols``) and
every public seat-free number in one float32 vector ``glob_f``; the engine reads and writes them
through the named views ``bind_views`` gives the state (``state.markers``, ``state.display``, ...).
``observe`` is then one slice copy, one gather with a precomputed per-observer index
(seat-relative order, ``build_layout``) and the private pieces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tablezoo.envs.core.obs_spec import ObsPiece, ObsSpec
from tablezoo.envs.ethnos.actions import BUILD, ELF_PICK, PHASES
from tablezoo.envs.ethnos.components import DRAGON, NUM_KINGDOMS, NUM_TRIBES, NUM_TYPES

if TYPE_CHECKING:
    from tablezoo.envs.ethnos.rules import EthnosGame, EthnosState

# Public pieces (no seat): name, shape, doc, high.
GLOBAL_PIECES: tuple[tuple[str, tuple[int, ...], str, float], ...] = (
    ("display", (NUM_TYPES,), "face-up display cards by type", 12.0),
    ("glory_tokens", (NUM_KINGDOMS, 3), "glory token value per kingdom and slot I, II, III "
     "(0 where a slot is unused)", 10.0),
    ("tribes_in_play", (NUM_TRIBES,), "1 for each tribe in this game", 1.0),
    ("age", (3,), "current Age one-hot (I, II, III)", 1.0),
    ("dragons_revealed", (1,), "Dragons drawn this Age (0-3)", 3.0),
    ("deck_size", (1,), "cards left in the deck, Dragons included", 90.0),
    ("deck_safe_top", (1,), "top deck cards known to hold no Dragon", 90.0),
    ("troll_supply", (6,), "1 if Troll token of value v = index + 1 is unclaimed (Trolls in play)",
     1.0),
    ("giant_band_size", (1,), "size X of the band holding the Giant token (0: unclaimed)", 10.0),
    ("phase", (len(PHASES),), "pending decision kind one-hot: " + ", ".join(PHASES), 1.0),
    ("band_x", (1,), "size X of the band being resolved (0 while none / while building)", 10.0),
    ("band_leader", (NUM_TYPES,), "leader type one-hot of the band being resolved", 1.0),
    ("merfolk_markers_left", (1,), "free Merfolk markers still to place this band", 4.0),
    ("elf_kept", (1,), "cards kept so far in the pending Elf discard", 10.0),
)


def seat_pieces(markers_high: float, track_high: float = 18.0
                ) -> tuple[tuple[str, tuple[int, ...], str, float], ...]:
    """Seat pieces (shape without the leading ``num_players`` axis)."""
    return (
        ("acting", (), "1 for the seat that owns the pending decision", 1.0),
        ("first_player", (), "1 for this Age's first player", 1.0),
        ("third_dragon", (), "1 for the seat that drew this Age's third Dragon (set from that "
         "draw until the next Age starts)", 1.0),
        ("hand_size", (), "cards in hand (a band being built still counts as hand)", 10.0),
        ("glory", (), "glory points", 3000.0),
        ("markers", (NUM_KINGDOMS,), "own control markers per kingdom", markers_high),
        ("merfolk_track", (), "Merfolk track position (0-18)", track_high),
        ("horde", (NUM_KINGDOMS,), "Orc horde board: 1 per occupied colour space", 1.0),
        ("trolls_held", (6,), "1 per Troll token held (value = index + 1)", 1.0),
        ("giant_holder", (), "1 if this seat's band holds the Giant token", 1.0),
        ("known_hand", (NUM_TYPES,), "hand cards known to everybody (taken from the display, "
         "or the ten Skeletons a PASS shows, and not provably played or discarded since)", 10.0),
        ("band_cards", (NUM_TYPES,), "cards in this seat's bands (this Age) by type", 24.0),
        ("band_leaders", (NUM_TYPES,), "this seat's bands by leader type", 24.0),
        ("band_tribe_size", (NUM_TRIBES - 1, 10), "this seat's bands by leader tribe and size X",
         24.0),
        ("band_scored_size", (10,), "this seat's bands by size after Skeleton removal", 90.0),
        ("band_glory", (), "band glory this seat would score now (Dwarf bonus included)", 500.0),
    )


PRIVATE_PIECES: tuple[tuple[str, tuple[int, ...], str, float], ...] = (
    ("my_hand", (NUM_TYPES,), "own hand by type (not the band being built, not Elf-kept cards)",
     12.0),
    ("my_building", (NUM_TYPES,), "own band under construction by type (leader included)", 10.0),
    ("my_building_leader", (NUM_TYPES,), "leader type one-hot of own band under construction",
     1.0),
    ("my_elf_kept", (NUM_TYPES,), "cards kept so far in own pending Elf discard", 10.0),
)


def build_obs_spec(num_players: int, markers_high: float, track_high: float = 18.0,
                   free_markers_high: float = 4.0) -> tuple[ObsSpec, list[tuple[str, int]]]:
    """The observation spec and, for the seat block, ``(piece name, width)`` in layout order.

    ``free_markers_high``: the number of Merfolk marker spaces (option ``merfolk_spaces``).
    """
    highs = {"merfolk_markers_left": free_markers_high}
    pieces = [ObsPiece(name, shape, doc, highs.get(name, high))
              for name, shape, doc, high in GLOBAL_PIECES]
    widths = []
    for name, shape, doc, high in seat_pieces(markers_high, track_high):
        width = 1
        for s in shape:
            width *= s
        widths.append((name, width))
        pieces.append(ObsPiece(name, (num_players, *shape), "per seat: " + doc, high))
    pieces += [ObsPiece(name, shape, doc, high) for name, shape, doc, high in PRIVATE_PIECES]
    return ObsSpec(pieces), widths


def build_layout(game: EthnosGame, widths: list[tuple[str, int]]) -> None:
    """Column offsets of the per-seat float block and the per-observer gather indices."""
    n = game.num_players
    game.seat_cols: dict[str, int] = {}
    game.seat_widths: dict[str, int] = dict(widths)
    col = 0
    for name, width in widths:
        game.seat_cols[name] = col
        col += width
    game.seat_width = col
    spec = game.obs_spec
    game.glob_size = spec.offsets[widths[0][0]]
    game.seat_start = game.glob_size
    game.seat_end = game.seat_start + n * col
    game.private_start = game.seat_end
    gather = np.zeros((n, n * col), np.int64)
    for p in range(n):
        pos = 0
        for name, width in widths:
            c0 = game.seat_cols[name]
            for rel in range(n):
                q = (p + rel) % n
                gather[p, pos:pos + width] = q * col + c0 + np.arange(width)
                pos += width
    game.gather = gather
    game.acting_offset = spec.offsets["acting"]
    game.phase_offset = spec.offsets["phase"]
    game.deck_size_offset = spec.offsets["deck_size"]
    game.safe_top_offset = spec.offsets["deck_safe_top"]
    game.hand_slice = spec.slice("my_hand")
    game.building_slice = spec.slice("my_building")
    game.leader_slice = spec.slice("my_building_leader")
    game.elf_slice = spec.slice("my_elf_kept")
    game.private_rest = slice(game.building_slice.start, spec.size)
    game.glob_slices = {name: spec.slice(name) for name, *_ in GLOBAL_PIECES}


def bind_views(s: EthnosState) -> None:
    """Give ``s`` its named views into ``seat_f`` and ``glob_f`` (after building or copying)."""
    cols = s.game.seat_cols
    sf = s.seat_f

    def col(name: str, width: int = 0) -> np.ndarray:
        c = cols[name]
        return sf[:, c] if width == 0 else sf[:, c:c + width]

    s.first_col = col("first_player")
    s.third_col = col("third_dragon")
    s.hand_size = col("hand_size")
    s.glory = col("glory")
    s.markers = col("markers", NUM_KINGDOMS)
    s.merfolk = col("merfolk_track")
    s.horde = col("horde", NUM_KINGDOMS)
    s.trolls_held = col("trolls_held", 6)
    s.giant_col = col("giant_holder")
    s.known = col("known_hand", NUM_TYPES)
    s.band_cards = col("band_cards", NUM_TYPES)
    s.band_leaders = col("band_leaders", NUM_TYPES)
    s.band_tribe_size = col("band_tribe_size", 110)
    s.band_scored = col("band_scored_size", 10)
    s.band_glory_col = col("band_glory")
    s.seat_flat = sf.reshape(-1)
    g = s.glob_f
    sl = s.game.glob_slices
    s.display = g[sl["display"]]
    s.tokens_view = g[sl["glory_tokens"]].reshape(NUM_KINGDOMS, 3)
    s.tribes_view = g[sl["tribes_in_play"]]
    s.age_view = g[sl["age"]]
    s.dragons_view = g[sl["dragons_revealed"]]
    s.troll_supply = g[sl["troll_supply"]]
    s.giant_size_view = g[sl["giant_band_size"]]
    s.band_x_view = g[sl["band_x"]]
    s.band_leader_view = g[sl["band_leader"]]
    s.merfolk_left_view = g[sl["merfolk_markers_left"]]
    s.elf_kept_view = g[sl["elf_kept"]]


def observe(s: EthnosState, player: int, out: np.ndarray | None = None) -> np.ndarray:
    """The observation of seat ``player`` (``state.observe``), written into ``out`` if given."""
    g = s.game
    if out is None:
        out = np.zeros(g.obs_spec.size, np.float32)
    gs = g.glob_size
    out[:gs] = s.glob_f
    # One gather writes every seat piece in seat-relative order (precomputed per observer).
    s.seat_flat.take(g.gather[player], out=out[gs:g.seat_end], mode="clip")
    out[g.deck_size_offset] = len(s.deck)
    out[g.safe_top_offset] = max(0, len(s.deck) - s.lower_left)
    if not s.terminal:
        out[g.phase_offset + s.phase] = 1
        out[g.acting_offset + (s.actor - player) % s.n] = 1
    out[g.hand_slice] = s.hands[player]
    if player == s.actor and (s.phase == BUILD or s.phase == ELF_PICK):
        out[g.building_slice] = s.building
        out[g.leader_slice] = 0
        if s.building_leader >= 0:
            out[g.leader_slice.start + s.building_leader] = 1
        out[g.elf_slice] = s.elf_kept
    else:
        out[g.private_rest] = 0
    return out


# ---------------------------------------------------------------------- global state
# The full-information global state for centralised critics (``env.state()``): the public
# pieces, the seat pieces in absolute seat order (player_0 first), then what no observation
# shows in full: every hand, the band being built or the Elf keeps, the discard pile, the deck's
# composition and how far down its remaining Dragons lie.
def _hidden_pieces(n: int) -> list[ObsPiece]:
    return [
        ObsPiece("hands", (n, NUM_TYPES), "every seat's hand by type (absolute seat order)",
                 12.0),
        ObsPiece("building", (NUM_TYPES,), "the band under construction by type", 10.0),
        ObsPiece("building_leader", (NUM_TYPES,), "leader one-hot of the band under "
                 "construction"),
        ObsPiece("elf_kept_cards", (NUM_TYPES,), "cards kept so far in the pending Elf discard",
                 10.0),
        ObsPiece("discard", (NUM_TYPES,), "cards out of play until the next Age, by type", 12.0),
        ObsPiece("deck_cards", (NUM_TYPES,), "Ally cards in the deck by type", 12.0),
        ObsPiece("draws_to_next_dragon", (1,), "deck cards down to and including the next "
                 "Dragon (0: none left)", 90.0),
        ObsPiece("draws_to_age_end", (1,), "deck cards down to and including the last Dragon "
                 "(the Age ends when it is drawn; 0: none left)", 90.0),
    ]


def build_state_spec(game: EthnosGame) -> ObsSpec:
    """The global-state layout (``game.state_spec``): the observation without its private
    pieces, seat pieces re-documented as absolute, then ``_hidden_pieces``."""
    private = {name for name, *_ in PRIVATE_PIECES}
    seat = {name for name, _w in game.seat_widths.items()}
    pieces = []
    for p in game.obs_spec.pieces:
        if p.name in private:
            continue
        doc = p.doc.replace("per seat: ", "per seat (absolute order, player_0 first): ", 1)
        pieces.append(ObsPiece(p.name, p.shape, doc if p.name in seat else p.doc, p.high, p.low))
    return ObsSpec(pieces + _hidden_pieces(game.num_players))


def global_state(s: EthnosState, out: np.ndarray | None = None) -> np.ndarray:
    """The global state of ``s`` (layout ``game.state_spec``), written into ``out`` if given."""
    g = s.game
    spec = g.state_spec
    if out is None:
        out = spec.zeros()
    public = g.private_start  # player_0's seat-relative order is the absolute order
    scratch = observe(s, 0)
    out[:public] = scratch[:public]
    view = spec.view
    view(out, "hands")[:] = s.hands
    view(out, "building")[:] = s.building
    leader = view(out, "building_leader")
    leader[:] = 0
    if s.building_leader >= 0:
        leader[s.building_leader] = 1
    view(out, "elf_kept_cards")[:] = s.elf_kept
    view(out, "discard")[:] = s.discard
    deck = np.asarray(s.deck, np.int64)
    view(out, "deck_cards")[:] = np.bincount(deck, minlength=DRAGON + 1)[:NUM_TYPES]
    dragons = np.flatnonzero(deck == DRAGON)
    size = len(deck)
    view(out, "draws_to_next_dragon")[0] = size - dragons[-1] if dragons.size else 0
    view(out, "draws_to_age_end")[0] = size - dragons[0] if dragons.size else 0
    return out
