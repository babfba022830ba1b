"""A rule-of-thumb player for ``ethnos``, reading only its own observation (and game options).

Ethnos glory comes mostly from two sources: the band table (1, 3, 6, 10, 15 glory for bands of
2-6 cards, so one 6-card band is worth far more than three 2-card bands) and kingdom majorities,
which a band only buys when it is larger than my markers already in its kingdom. Random play
spends its cards in small bands; this player **collects first and plays big**:

- *Band value.* Every legal band I could play from hand is a whole tribe or a whole colour group
  (plus every Skeleton, which is wild and raises the size X for the marker test and the tribe
  powers). Its value is band glory (Skeletons removed, Dwarf +1) + the value of the kingdom
  marker it would place (my gain in the Algorithm R award of that kingdom with one marker more,
  this Age in full and later Ages at ``future_weight``, plus a little for the end-game
  tie-break) + a rough value of the leader's power (Giant token, Merfolk free markers, Orc horde
  space, Elf keeps, Wizard draws, a Centaur follow-up band, Troll token). The leader of a group
  is the card that maximises that value (the kingdom and the power both depend on it).
- *Play or recruit.* Play the best band when its value reaches ``play_value`` (6: e.g. a 4-card
  band, or a 2-3 card band that wins a valuable kingdom), when it has ``play_size`` (6) cards or
  more, when the hand is full (ten cards: recruiting is illegal), or when the Age is likely to
  end before my next turn (two Dragons out and few cards known to be Dragon-free on top of the
  deck) — hands are lost at the end of an Age. Otherwise recruit.
- *Recruit.* Take the display card that grows my hand's best groups most (largest group first,
  then the sum of squared group sizes), unless the expected gain of a blind deck draw (over the
  cards I cannot see: the tribes in play minus my hand, the display, every band and the cards
  known in other hands) is higher.
- *Other decisions.* Wingfolk and Merfolk markers go to the kingdom with the highest marker
  value; Troll: the highest token (strongest tie-break); Centaur: always follow with the best
  band of the rest (the cards would be discarded to the display otherwise); Elf: keep as many
  cards as allowed, those that grow my groups most; Wizard: always draw; Orc: keep the horde
  (its table is convex, so one bigger emptying beats two smaller ones) unless this is the last
  Age or the horde is full.

The defaults come from seeded round-robin tournaments between variants of this agent (180-360
games per table with 2, 3, 4 and 6 players, mean rank reward). With the size rule alone, 3-4
cards did best and 5-7 lost (waiting gives up cheap markers). The value rule ``play_value=6``
with ``play_size=6`` beat ``play_size=3`` by 0.3-0.6 with 4 players and was among the best with 2
and 6 players; ``play_value`` 4-5 or 10 did worse, 8 about as well. Against random seats every
setting wins nearly every game.

It never looks at hidden information: the ``state`` argument is only used for the game's
(public) options (without it, the default options of the player count read from the observation
size are assumed); every position fact comes from the observation. Ties are broken by the
agent's own seeded generator: each compared value gets ``tie_noise`` times a uniform draw
(``tie_noise=0``: the first of equal values in scan order wins, as the compiled heuristic beside
this, ``compiled_heuristic.py``, decides).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from tablezoo.agents.base import BaseAgent, legal_ids, only_noop
from tablezoo.envs.core.game import State
from tablezoo.envs.core.obs_spec import ObsSpec
from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import (
    CENTAURS,
    DWARVES,
    ELVES,
    GIANTS,
    HALFLINGS,
    MERFOLK,
    MINOTAURS,
    NUM_KINGDOMS,
    NUM_TYPES,
    ORCS,
    SKELETON,
    TRIBE_COUNTS,
    TROLLS,
    WINGFOLK,
    WIZARDS,
)  # fmt: skip
from tablezoo.envs.ethnos.rules import EthnosGame
from tablezoo.envs.ethnos.scoring import age_slots, rank_award, two_player_age_two

NUM_ACTIONS = enc.NUM_ACTIONS
ALLY_TRIBES = 11  # tribes 0-10 can lead; Skeletons (11) cannot

# Group masks over card types: one per tribe, then one per colour (Skeletons in none).
_TYPES = np.arange(NUM_TYPES)
GROUPS = np.zeros((ALLY_TRIBES + NUM_KINGDOMS, NUM_TYPES), bool)
for _t in range(ALLY_TRIBES):
    GROUPS[_t, 6 * _t:6 * _t + 6] = True
for _c in range(NUM_KINGDOMS):
    GROUPS[ALLY_TRIBES + _c, _c:SKELETON:6] = True
GROUP_COUNTS = GROUPS.astype(np.int64)  # the same masks as integers, for exact group sizes
GROUP_TYPES = [np.flatnonzero(group).tolist() for group in GROUPS]  # ascending, as leaders are
GROUP_FLAGS = GROUPS.tolist()  # the masks as lists of bools (cheap to index one entry)
IS_SKELETON = (_TYPES == SKELETON).astype(np.int64)
IS_ALLY = 1 - IS_SKELETON  # every type but the Skeleton belongs to one tribe and one colour
# each type's two groups (a Skeleton's entries point at group 0 and are masked by IS_ALLY)
TYPE_TRIBE_GROUP = np.where(IS_ALLY == 1, _TYPES // 6, 0)
TYPE_COLOUR_GROUP = np.where(IS_ALLY == 1, ALLY_TRIBES + _TYPES % 6, 0)

# The heuristic's marker values depend only on a kingdom's public markers and tokens, so the
# boards a search's playouts revisit share them: memoised across observations and agents.
_MARKER_VALUES: dict[tuple, float] = {}
_MARKER_CACHE_LIMIT = 50_000  # about 15 MiB at the cap

_DEFAULT_GAMES: dict[int, EthnosGame] = {}


def default_game(num_players: int) -> EthnosGame:
    """An ``EthnosGame`` with default options (used when ``act`` gets no state)."""
    if num_players not in _DEFAULT_GAMES:
        _DEFAULT_GAMES[num_players] = EthnosGame(num_players=num_players)
    return _DEFAULT_GAMES[num_players]


def game_for(observation: np.ndarray, state: State | None) -> EthnosGame:
    if state is not None:
        return state.game  # type: ignore[return-value]
    for n in range(2, 7):
        if default_game(n).obs_spec.size == observation.shape[0]:
            return default_game(n)
    raise ValueError(f"ethnos heuristic: no player count has observation size {observation.shape}")


def hand_score(hand: np.ndarray) -> float:
    """How promising a hand is for big bands: its largest group, then the sum of squared groups."""
    sizes = GROUP_COUNTS @ hand
    skeletons = hand[SKELETON]
    return float(sizes.max() + skeletons + 0.05 * float(np.dot(sizes, sizes)))


def hand_scores_plus_one(hand: np.ndarray) -> list[float]:
    """``hand_score`` of ``hand`` plus one card of each type, for every type at once.

    One card more raises two group sizes by one (its tribe's and its colour's; a Skeleton's
    none), so each type's largest group and sum of squares follow from the hand's own: the same
    integers and the same float operations as ``hand_score`` per hand (so exactly equal values),
    without building a hand per type.
    """
    return _scores_plus_one(hand).tolist()


def _scores_plus_one(hand: np.ndarray) -> np.ndarray:
    """``hand_scores_plus_one`` as an array (the recruit rule reads it per type and at once)."""
    sizes = GROUP_COUNTS @ hand
    tribe, colour = sizes[TYPE_TRIBE_GROUP], sizes[TYPE_COLOUR_GROUP]
    # per type: the larger of its two raised groups and the hand's largest group
    largest = np.maximum(np.maximum(tribe, colour) + IS_ALLY, sizes.max())
    squares = int(np.dot(sizes, sizes)) + IS_ALLY * (2 * (tribe + colour) + 2)
    skeletons = hand[SKELETON] + IS_SKELETON
    return largest + skeletons + 0.05 * squares.astype(np.float64)


@cache
def _ally_deck(tribes: tuple[int, ...]) -> np.ndarray:
    """The Ally deck's card counts by type for the tribes in play (read-only)."""
    deck = TRIBE_COUNTS[list(tribes)].sum(axis=0) if tribes else np.zeros(NUM_TYPES, np.int64)
    deck.flags.writeable = False
    return deck


@dataclass
class Band:
    """A band I could play: leader type, the cards by type (leader included), value."""

    leader: int
    cards: np.ndarray
    x: int
    value: float
    places: bool


# View attributes read as arrays (attribute, observation piece) and as plain ints (one-entry
# pieces)
_ARRAY_PIECES = (
    ("hand", "my_hand"), ("display", "display"), ("tokens", "glory_tokens"),
    ("troll_supply", "troll_supply"), ("markers", "markers"), ("track", "merfolk_track"),
    ("horde", "horde"), ("hand_sizes", "hand_size"), ("band_cards", "band_cards"),
    ("known", "known_hand"), ("building", "my_building"), ("elf_kept", "my_elf_kept"),
)
_INT_PIECES = (
    ("dragons", "dragons_revealed"), ("deck_size", "deck_size"), ("safe_top", "deck_safe_top"),
    ("giant_size", "giant_band_size"), ("band_x", "band_x"),
)


@cache
def _layout(spec: ObsSpec) -> tuple[tuple, tuple, slice, slice, slice, slice]:
    """Where ``View`` finds its pieces in one game's observation, worked out once per layout:
    (attribute, slice, shape or None for a flat piece) per array, (attribute, offset) per
    one-entry piece, and the slices of the tribes, the Age, the phase and my band's leader."""
    probe = spec.zeros()
    arrays = tuple((attr, spec.slice(name),
                    shape if len(shape := spec.view(probe, name).shape) > 1 else None)
                   for attr, name in _ARRAY_PIECES)
    ints = tuple((attr, spec.slice(name).start) for attr, name in _INT_PIECES)
    return (arrays, ints, spec.slice("tribes_in_play"), spec.slice("age"), spec.slice("phase"),
            spec.slice("my_building_leader"))


def _first_max(values: list[int]) -> int:
    """``np.argmax`` of a short list (the index of its first largest entry) without numpy's
    per-call cost: a one-hot's index, or 0 for all zeros, as ``np.argmax`` gives."""
    return values.index(max(values))


class View:
    """The pieces of one observation the heuristic reads (seat 0 = me)."""

    def __init__(self, game: EthnosGame, observation: np.ndarray):
        if observation.shape != (game.obs_spec.size,):
            raise ValueError(f"ethnos heuristic: an observation of shape {observation.shape}, "
                             f"but {game.num_players}-player ethnos observations have size "
                             f"{game.obs_spec.size}")
        # Every piece is a count or a flag: one integer copy of the whole observation, and
        # each piece a view of it at a place worked out once per layout; the small one-hots
        # are read as lists (numpy's per-call cost on tiny arrays was most of a View's cost).
        ints = observation.astype(np.int64)
        arrays, scalars, tribes, age, phase, leader = _layout(game.obs_spec)
        for attr, where, shape in arrays:
            setattr(self, attr, ints[where] if shape is None else ints[where].reshape(shape))
        for attr, offset in scalars:
            setattr(self, attr, int(ints[offset]))
        self.game = game
        self.n = game.num_players
        self.tribes = [t for t, x in enumerate(ints[tribes].tolist()) if x]
        self.age = _first_max(ints[age].tolist())
        self.phase = _first_max(ints[phase].tolist())
        building_leader = ints[leader].tolist()
        self.building_leader = _first_max(building_leader) if any(building_leader) else -1
        self.last_age = self.age == game.num_ages - 1
        self.marker_cache: dict[int, float] = {}
        self._to_beat: list[int] | None = None

    def markers_to_beat(self) -> list[int]:
        """Per kingdom, the markers a band must outnumber to place one: all markers with two
        players, my own otherwise (worked out at the first question, for this observation)."""
        if self._to_beat is None:
            beat = self.markers.sum(axis=0) if self.n == 2 else self.markers[0]
            self._to_beat = beat.tolist()
        return self._to_beat


class HeuristicAgent(BaseAgent):
    """Collects cards into a big tribe or colour group and plays it when it is large enough."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, play_size: int = 6,
                 play_value: float | None = 6.0, future_weight: float = 0.5,
                 tie_noise: float = 1e-6):
        super().__init__(seed)
        if type(play_size) is not int or not 1 <= play_size <= 10:
            raise ValueError(f"ethnos heuristic: play_size={play_size!r}; expected an int 1-10")
        if not isinstance(tie_noise, (int, float)) or not 0.0 <= tie_noise < 1e-3:
            raise ValueError(f"ethnos heuristic: tie_noise={tie_noise!r}; expected a float in "
                             "[0, 0.001) (0: ties go to the first value scanned)")
        self.tie_noise = float(tie_noise)
        self.play_size = play_size
        self.future_weight = float(future_weight)
        self.play_value = None if play_value is None else float(play_value)
        self._plan: tuple[int, np.ndarray] | None = None

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._plan = None

    # ----------------------------------------------------------------------------------------
    def act(
        self,
        observation: np.ndarray,
        action_mask: np.ndarray,
        state: State | None = None,
        player: int | None = None,
    ) -> int:
        if only_noop(action_mask, NUM_ACTIONS):
            return NUM_ACTIONS
        legal = legal_ids(action_mask[:NUM_ACTIONS])
        if legal.size == 1:
            return int(legal[0])
        v = View(game_for(observation, state), observation)
        mask = np.asarray(action_mask[:NUM_ACTIONS], bool)
        if v.phase == enc.TURN:
            return self._turn(v, mask)
        if v.phase == enc.BUILD:
            return self._build(v, mask)
        if v.phase in (enc.WINGFOLK_PICK, enc.MERFOLK_PICK):
            return self._kingdom(v, mask)
        if v.phase == enc.TROLL_PICK:
            return int(max(a for a in legal if enc.TROLL <= a < enc.CENTAUR_STOP))
        if v.phase == enc.CENTAUR_PICK:
            return self._centaur(v, mask)
        if v.phase == enc.ELF_PICK:
            return self._elf(v, mask)
        if v.phase == enc.WIZARD_PICK:
            return enc.WIZARD_DRAW
        if v.phase == enc.ORC_PICK:
            full = v.horde[0].sum() >= NUM_KINGDOMS
            return enc.ORC_EMPTY if v.last_age or full else enc.ORC_KEEP
        return int(legal[self.rng.integers(legal.size)])  # unknown phase: stay legal

    # --- values ------------------------------------------------------------------------------
    def _noise(self) -> float:
        """A tie-breaking nudge: ``tie_noise`` times a draw of the agent's generator (drawn
        even at ``tie_noise=0``, so the generator's stream does not depend on it)."""
        return self.tie_noise * float(self.rng.random())

    def marker_value(self, v: View, k: int) -> float:
        """My gain from one more marker in kingdom ``k`` (cached for this observation)."""
        if k not in v.marker_cache:
            v.marker_cache[k] = self._marker_value(v, k)
        return v.marker_cache[k]

    def _marker_value(self, v: View, k: int) -> float:
        g = v.game
        per = g.slots_per_kingdom
        toks = v.tokens[k, :per].tolist()
        before = v.markers[:, k].tolist()
        rule = g.options["two_player_tie"] if v.n == 2 else None
        key = (type(self), tuple(before), tuple(toks), v.age, g.num_ages, rule, self.future_weight)
        value = _MARKER_VALUES.get(key)
        if value is None:
            if len(_MARKER_VALUES) >= _MARKER_CACHE_LIMIT:
                _MARKER_VALUES.clear()
            value = _MARKER_VALUES[key] = self._award_gain(v, before, toks)
        return value

    def _award_gain(self, v: View, before: list[int], toks: list[int]) -> float:
        """The Algorithm R award I gain with one marker more in a kingdom (this Age in full,
        later Ages at ``future_weight``), plus a little for the end-game tie-break."""
        g = v.game
        keys = [(0,)] * v.n
        after = before[:]
        after[0] += 1
        total = 0.3  # one marker more also helps the end-of-game tie-break
        for age in range(v.age, g.num_ages):
            weight = 1.0 if age == v.age else self.future_weight
            if v.n == 2 and age == 1:
                rule = g.options["two_player_tie"]
                gain = (two_player_age_two(after, keys, toks[0], toks[1], rule)[0]
                        - two_player_age_two(before, keys, toks[0], toks[1], rule)[0])
            else:
                slots = age_slots(toks, age)
                gain = rank_award(after, keys, slots)[0] - rank_award(before, keys, slots)[0]
            total += weight * gain
        return total

    def passes(self, v: View, k: int, e: int) -> bool:
        """Whether a band of ``e`` places a marker in kingdom ``k``."""
        return e > v.markers_to_beat()[k]

    def band_value(self, v: View, leader: int, x: int, skeletons: int, left: int,
                   rest: np.ndarray | None = None, follow: bool = True) -> tuple[float, bool]:
        """Value of playing a band of ``x`` cards (``skeletons`` of them Skeletons) led by
        ``leader``, with ``left`` cards left in hand; ``rest``, those cards, is read only for a
        Centaur leader's follow-up band (``follow``)."""
        g = v.game
        tribe, colour = divmod(leader, 6)
        scored = x - skeletons + (1 if tribe == DWARVES else 0)
        value = float(g.band_glory[min(scored, len(g.band_glory)) - 1]) if scored > 0 else 0.0
        e = x + (1 if tribe == MINOTAURS else 0)
        places = False
        if tribe == WINGFOLK:
            options = [self.marker_value(v, k) for k in range(NUM_KINGDOMS) if self.passes(v, k, e)]
            if options:
                value += max(options)
                places = True
        elif tribe != HALFLINGS and self.passes(v, colour, e):
            value += self.marker_value(v, colour)
            places = True
        if tribe == GIANTS and x > v.giant_size:
            value += g.options["giant_claim_glory"] + 0.5 * g.giant_bonus[v.age]
        elif tribe == MERFOLK:
            old = int(v.track[0])
            new = min(g.merfolk_end, old + x)
            free = sum(1 for s in g.merfolk_spaces if old < s <= new)
            if not g.options["merfolk_marker_per_space"]:
                free = min(free, 1)
            best = max(self.marker_value(v, k) for k in range(NUM_KINGDOMS))
            value += free * best + 0.2 * (new - old)
        elif tribe == ORCS and not v.horde[0, colour]:
            count = int(v.horde[0].sum())
            value += 0.7 * (g.orc_glory[count] - (g.orc_glory[count - 1] if count else 0))
        elif tribe == TROLLS and any(v.troll_supply[i] for i in range(min(6, x))):
            value += 1.0
        elif tribe == ELVES:
            value += 0.8 * min(x, left)
        elif tribe == WIZARDS:
            value += 0.6 * x
        elif (tribe == CENTAURS and follow and rest is not None
              and left - int(rest[SKELETON]) > 0):
            nxt = self.best_band(v, rest, follow=False)
            if nxt is not None:
                value += nxt.value
        value -= 0.05 * left  # the rest goes to the display, for the others to take
        return value, places

    def best_band(self, v: View, hand: np.ndarray, follow: bool = True,
                  leader: int = -1) -> Band | None:
        """The most valuable whole-group band of ``hand`` (with every Skeleton).

        A band's value needs only its counts, so the cards of a group are laid out only for a
        Centaur's follow-up and for the winner (the search's playouts ask this at nearly every
        turn)."""
        best: tuple[float, int, int, int, bool] | None = None  # value, leader, group, x, places
        counts = hand.tolist()
        skeletons = counts[SKELETON]
        total = sum(counts)
        for group, sizes in enumerate((GROUP_COUNTS @ hand).tolist()):
            if sizes == 0 or (leader >= 0 and not GROUP_FLAGS[group][leader]):
                continue  # no card of the group in hand: no band
            x = sizes + skeletons
            leaders = [leader] if leader >= 0 else [t for t in GROUP_TYPES[group] if counts[t]]
            for lead in leaders:
                rest = (hand - self._group_cards(hand, group, skeletons)
                        if follow and lead // 6 == CENTAURS else None)
                value, places = self.band_value(v, lead, x, skeletons, total - x, rest, follow)
                value += self._noise()
                if best is None or value > best[0]:
                    best = (value, lead, group, x, places)
        if best is None:
            return None
        value, lead, group, x, places = best
        return Band(lead, self._group_cards(hand, group, skeletons), x, value, places)

    @staticmethod
    def _group_cards(hand: np.ndarray, group: int, skeletons: int) -> np.ndarray:
        """The cards of ``hand`` in ``group``, plus every Skeleton."""
        cards = np.where(GROUPS[group], hand, 0)
        cards[SKELETON] = skeletons
        return cards

    def age_end_risk(self, v: View) -> float:
        """Rough chance that the Age ends before my next turn (the hand would be lost)."""
        if v.dragons < 2:
            return 0.0
        unsafe = v.deck_size - v.safe_top
        draws = v.n - 1 - v.safe_top
        if unsafe <= 0 or draws <= 0:
            return 0.0
        return min(1.0, draws / unsafe)

    # --- decisions ---------------------------------------------------------------------------
    def _turn(self, v: View, mask: np.ndarray) -> int:
        can_recruit = bool(mask[enc.RECRUIT_DECK])
        largest = int((GROUP_COUNTS @ v.hand).max()) + int(v.hand[SKELETON])
        consider = mask[enc.LEADER:enc.LEADER + SKELETON].any() and (
            not can_recruit or largest >= self.play_size or self.play_value is not None
            or self.age_end_risk(v) >= 0.3)
        band = self.best_band(v, v.hand) if consider else None
        if band is not None and (band.x >= self.play_size or not can_recruit
                                 or (self.play_value is not None and band.value >= self.play_value)
                                 or (self.age_end_risk(v) >= 0.3 and band.value >= 1.0)):
            self._plan = (band.leader, band.cards.copy())
            return enc.LEADER + band.leader
        return self._recruit(v, mask)

    def _recruit(self, v: View, mask: np.ndarray) -> int:
        base = hand_score(v.hand)
        with_card = _scores_plus_one(v.hand)
        gains = with_card.tolist()
        best_a, best_gain = enc.RECRUIT_DECK, -np.inf
        for t in np.flatnonzero(mask[:enc.RECRUIT_DECK]).tolist():
            gain = gains[t] - base + self._noise()
            if gain > best_gain:
                best_a, best_gain = t, gain
        unseen = self.unseen(v)
        total = unseen.sum()
        if total > 0:
            kinds = np.flatnonzero(unseen)
            # the expected gain of a blind draw, summed in type order one term at a time
            # (cumsum, not sum: numpy's pairwise sum could round differently)
            deck_gain = np.cumsum(unseen[kinds] * (with_card[kinds] - base))[-1]
            if deck_gain / total > best_gain:
                return enc.RECRUIT_DECK
        return int(best_a)

    def unseen(self, v: View) -> np.ndarray:
        """Cards I cannot see: the Ally deck minus my hand, display, bands and known hands."""
        seen = (v.hand + v.display + v.band_cards.sum(axis=0) + v.known[1:].sum(axis=0)
                + v.building + v.elf_kept)
        return np.maximum(_ally_deck(tuple(v.tribes)) - seen, 0)

    def _build(self, v: View, mask: np.ndarray) -> int:
        lead = v.building_leader
        plan = self._plan
        if plan is None or plan[0] != lead:
            band = self.best_band(v, v.hand + v.building, leader=lead)
            plan = (lead, band.cards.copy()) if band is not None else (lead, v.building.copy())
            self._plan = plan
        missing = plan[1] - v.building
        for t in np.flatnonzero(missing > 0).tolist():
            if mask[enc.ADD_CARD + t]:
                return enc.ADD_CARD + t
        self._plan = None
        return enc.FINISH_BAND

    def _kingdom(self, v: View, mask: np.ndarray) -> int:
        best_k, best = -1, -np.inf
        for k in range(NUM_KINGDOMS):
            if mask[enc.KINGDOM + k]:
                value = self.marker_value(v, k) + self._noise()
                if value > best:
                    best_k, best = k, value
        return enc.KINGDOM + best_k

    def _centaur(self, v: View, mask: np.ndarray) -> int:
        band = self.best_band(v, v.hand)
        if band is None or not mask[enc.LEADER + band.leader]:
            return enc.CENTAUR_STOP
        self._plan = (band.leader, band.cards.copy())
        return enc.LEADER + band.leader

    def _elf(self, v: View, mask: np.ndarray) -> int:
        best_a, best = enc.ELF_DONE, -np.inf
        kept = v.elf_kept.copy()
        for t in np.flatnonzero(mask[enc.ELF_KEEP:enc.ELF_DONE]).tolist():
            kept[t] += 1
            value = hand_score(kept) + self._noise()
            kept[t] -= 1
            if value > best:
                best_a, best = enc.ELF_KEEP + t, value
        return int(best_a)


__all__ = ["HeuristicAgent", "hand_score"]
