"""The 32-card pack, the four seats and the trump-dependent card order of Bauer (Euchre family).

Card id = ``suit * 8 + rank``; suits clubs 0, spades 1, hearts 2, diamonds 3 (``suit ^ 1`` is the
other suit of the same colour); ranks 0..7 = 7 8 9 10 J Q K A. Everything that depends on the trump
suit is precomputed here for the 5 trump states (4 suits, ``NO_TRUMP``) so play needs only table
look-ups and integer bit masks (a hand is an int with bit ``card`` set). The pack is generated
here (no data file): every card once, so its totals need no check on load.
"""

from __future__ import annotations

NUM_CARDS = 32
NUM_SUITS = 4
NO_TRUMP = 4
JACK = 4
SUIT_SYMBOLS = ("♣", "♠", "♥", "♦")
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")
RANK_NAMES = ("7", "8", "9", "10", "J", "Q", "K", "A")

NUM_SEATS = 4  # partners sit opposite: teams {0, 2} and {1, 3}
# The stages of a position (``State.phase``), shared by the rules, observation, saving and render.
PHASE_CALL, PHASE_PLAY, PHASE_OVER = 0, 1, 2
SPOKE_PASS = 4  # ``State.calls[seat]``: -1 not spoken yet, 0..3 the suit named, 4 passed


def card_id(suit: int, rank: int) -> int:
    return suit * 8 + rank


def suit_of(card: int) -> int:
    return card >> 3


def rank_of(card: int) -> int:
    return card & 7


def card_name(card: int) -> str:
    return RANK_NAMES[rank_of(card)] + SUIT_SYMBOLS[suit_of(card)]


def parse_card(text: str) -> int:
    """``"J♥"``, ``"Jh"`` or ``"10s"`` -> card id (for tests and the terminal player)."""
    letters = {"c": 0, "s": 1, "h": 2, "d": 3}
    rank_text, suit_text = text[:-1], text[-1]
    if suit_text in SUIT_SYMBOLS:
        suit = SUIT_SYMBOLS.index(suit_text)
    else:
        suit = letters[suit_text.lower()]
    return card_id(suit, RANK_NAMES.index(rank_text.upper()))


def effective_suit(card: int, trump: int) -> int:
    """The suit a card belongs to in play: the left Bauer (Jack of trump's colour mate) is trump."""
    suit = suit_of(card)
    if trump != NO_TRUMP and rank_of(card) == JACK and suit == trump ^ 1:
        return trump
    return suit


def trick_strength(card: int, trump: int, led_suit: int) -> int:
    """Higher wins the trick: trumps 100+ (right Bauer 109, left 108, then A..7), cards of the
    led suit 0..7 by rank, every other card -1."""
    suit = effective_suit(card, trump)
    rank = rank_of(card)
    if suit == trump:
        if rank == JACK:
            return 109 if suit_of(card) == trump else 108
        return 100 + rank
    if suit == led_suit:
        return rank
    return -1


# EFFECTIVE_SUIT[trump][card]; SUIT_BITS[trump][suit] = bit mask of the cards of that effective
# suit; STRENGTH[trump][led][card].
EFFECTIVE_SUIT = [[effective_suit(c, t) for c in range(NUM_CARDS)] for t in range(5)]
SUIT_BITS = [
    [sum(1 << c for c in range(NUM_CARDS) if EFFECTIVE_SUIT[t][c] == s) for s in range(NUM_SUITS)]
    for t in range(5)
]
STRENGTH = [
    [[trick_strength(c, t, led) for c in range(NUM_CARDS)] for led in range(NUM_SUITS)]
    for t in range(5)
]


def cards_of(bits: int) -> list[int]:
    """Card ids of a bit-mask hand, ascending."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def bits_of(cards: list[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out
