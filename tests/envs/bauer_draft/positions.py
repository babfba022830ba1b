"""Build ``bauer_draft`` test positions from a few named cards, and act on them by card id (or
at random), and take the saved state of a random game where a condition holds."""

from __future__ import annotations

import numpy as np

from tablezoo.envs.bauer_draft.actions import COPY, DAGA_PLAY, DISCARD, PLAY, SELECT
from tablezoo.envs.bauer_draft.components import CARDS, CHARACTER
from tablezoo.envs.bauer_draft.rules import BauerDraftGame, BauerDraftState


def idx(code: str) -> int:
    return CARDS.index_of_code[code]


def codes(cards) -> list[str]:
    return [CARDS.codes[c] for c in cards]


def play(code: str) -> int:
    return PLAY + idx(code)


def via_daga(code: str) -> int:
    return DAGA_PLAY + idx(code)


def discard(code: str) -> int:
    return DISCARD + idx(code)


def copy(code: str) -> int:
    return COPY + idx(code)


def position(n: int = 4, *, round: int = 0, hands: dict | None = None,
             tableau: dict | None = None, central_top: tuple = (), pile_tops: dict | None = None,
             discards: tuple = (), pile_len: int | None = None, kind: str = "select",
             central_len: int | None = None, **fields) -> BauerDraftState:
    """A position at round ``round``. ``hands``/``tableau``/``pile_tops`` map seats to card ids
    (tableau entries may be ``{"card": id, "round": r}``); ``central_top`` lists the next central
    cards in draw order, ``pile_tops`` a pile's next cards in draw order. Seats without a named
    hand get plain filler cards (no characters); every pile gets ``pile_len`` cards (default:
    what is left after this round's draw); the rest, characters last, is the central deck
    (``central_len`` cards of it when given, the others discarded)."""
    game = BauerDraftGame(num_players=n)
    hands = dict(hands or {})
    tableau = {s: list(v) for s, v in (tableau or {}).items()}
    pile_tops = dict(pile_tops or {})
    named = [c for h in hands.values() for c in h] + list(central_top) + list(discards)
    named += [e["card"] if isinstance(e, dict) else e for t in tableau.values() for e in t]
    named += [c for t in pile_tops.values() for c in t]
    assert len(set(named)) == len(named), f"a card is named twice: {named}"
    plain = [c for c in CARDS.codes if c not in named and CARDS[idx(c)].kind != CHARACTER]
    characters = [c for c in CARDS.codes if c not in named and CARDS[idx(c)].kind == CHARACTER]
    if kind == "select":
        for s in range(n):
            if s not in hands:
                hands[s] = [plain.pop(0) for _ in range(3)]
    if pile_len is None:
        pile_len = max(0, game.pile_size - 3 - round)
    piles = []
    for s in range(n):
        top = list(pile_tops.get(s, []))
        rest = [plain.pop(0) if plain else characters.pop(0)
                for _ in range(pile_len - len(top))]
        piles.append(rest + top[::-1])
    rest = characters_last(plain + characters)
    extra_discards: list[str] = []
    if central_len is not None:
        cut = len(rest) - max(0, central_len - len(central_top))
        extra_discards, rest = rest[:cut], rest[cut:]
    central = rest + list(central_top)[::-1]
    data = {
        "round": round, "kind": kind,
        "hands": [hands.get(s, []) for s in range(n)],
        "piles": piles, "central": central,
        "discards": list(discards) + extra_discards,
        "tableau": [tableau.get(s, []) for s in range(n)],
    }
    data.update(fields)
    return game.state_from_dict(data)


def characters_last(cards: list[str]) -> list[str]:
    """Central deck bottom..top with characters at the bottom (drawn last)."""
    chars = [c for c in cards if CARDS[idx(c)].kind == CHARACTER]
    return chars + [c for c in cards if CARDS[idx(c)].kind != CHARACTER]


def select(state: BauerDraftState, picks: dict[int, int]) -> None:
    """Every seat selects; ``picks`` gives actions for some seats, the others play their first
    hand card."""
    actions = {p: picks.get(p, PLAY + state.hands[p][0]) for p in state.acting_players()}
    state.apply(actions)


def decide(state: BauerDraftState, action: int) -> None:
    (p,) = state.acting_players()
    state.apply({p: action})


def tableau_codes(state: BauerDraftState, seat: int) -> list[str]:
    return codes(state.tableau[seat])


def random_step(st: BauerDraftState, rng: np.random.Generator) -> None:
    """Every acting seat plays a uniformly random legal action."""
    st.apply({p: int(rng.choice(np.flatnonzero(st.legal_mask(p)))) for p in st.acting_players()})


def saved(game: BauerDraftGame, seed: int, until) -> dict:
    """The saved state at the first decision of a random game where ``until(state)`` holds."""
    rng = np.random.default_rng(seed)
    for attempt in range(200):
        st = game.new_state(seed + 1000 * attempt)
        while not st.is_over():
            if until(st):
                return st.to_dict()
            random_step(st, rng)
    raise AssertionError("condition never met")


def mid_select(st) -> bool:
    return st.kind == SELECT and st.round == 4
