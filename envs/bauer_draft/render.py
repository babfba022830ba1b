"""Text views of a ``bauer_draft`` position.

``render_state`` is the all-seeing debugging view (``str(state)``, ``render_mode="ansi"``): every
hand, Night card and pile size. ``render_seat`` is what one seat may see (``tablezoo play``);
``LEGEND``, ``explain`` and ``public_move`` serve the terminal player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablezoo.envs.bauer_draft.actions import (
    COPY,
    DAGA_PLAY,
    DISCARD,
    KINDS,
    NO_VILLE,
    OVER,
    PLAY,
    WITCH_LEFT,
    WITCH_NONE,
)
from tablezoo.envs.bauer_draft.components import (
    CARDS,
    COPIERS,
    KIND_NAMES,
    NUM_CARDS,
    THEMES,
    Card,
    card_codes,
)
from tablezoo.envs.core.views import no_menu_groups

if TYPE_CHECKING:
    from tablezoo.envs.bauer_draft.rules import BauerDraftState

_MODES = ("-", "later", "copied")


def render_state(st: BauerDraftState) -> str:
    g = st.game
    last = g.num_rounds
    stage = "Yule Goat stage" if st.round >= last else f"round {st.round + 1}/{last}"
    lines = [f"bauer_draft  {g.num_players} players  {stage}  decision: {KINDS[st.kind]}"
             + (f" by seat {st.decider}" if st.decider >= 0 else "")
             + (f" ({CARDS[st.source].name})" if st.source >= 0 else "")]
    scores = st.scores()
    for s in range(st.n):
        night = [c for c in st.tableau[s] if CARDS.night_list[c]]
        day = [c for c in st.tableau[s] if not CARDS.night_list[c]]
        lines.append(f"seat {s}: score {scores[s]:g}  pile {len(st.piles[s])} "
                     f"(id {st.pile_ids[s]})  hand [{card_codes(st.hands[s])}]"
                     + (f"  selected {[CARDS.codes[c] + ('*' if v else '') for c, v in st.sel[s]]}"
                        if st.sel[s] else ""))
        lines.append(f"    day:   {card_codes(day)}")
        lines.append(f"    night: {card_codes(night)}")
    for k, name in enumerate(COPIERS):
        copier = CARDS.effect_card[name]
        if st.owner[copier] >= 0:
            target = CARDS.codes[st.copy_target[k]] if st.copy_target[k] >= 0 else ""
            lines.append(f"{CARDS[copier].name} (seat {st.owner[copier]}): "
                         f"{_MODES[st.copy_mode[k]]} {target}")
    lines.append(f"central deck {len(st.central)}  discards [{card_codes(st.discards)}]  "
                 f"Daga {'used' if st.daga_used else 'unused'}")
    if st.kind == OVER:
        lines.append("final scores: " + ", ".join(f"{x:g}" for x in scores))
    return "\n".join(lines)


def render_seat(st: BauerDraftState, seat: int, colour: bool = False) -> str:
    """What ``seat`` may see: its own hand, selection and face-down Night cards; of the others
    only hand and pile sizes, the cards ``seat`` knows to be there (the ones it passed), Day
    cards and the number of face-down Night cards. Scores appear once the Night cards are
    revealed at the end."""
    g = st.game
    over = st.kind == OVER
    last = g.num_rounds
    stage = "Yule Goat stage" if st.round >= last else f"round {st.round + 1}/{last}"
    who = ", ".join(f"player_{p}" for p in st.acting) if st.acting else "-"
    head = f"bauer_draft  {g.num_players} players  {stage}  decision: {KINDS[st.kind]} ({who})"
    if st.source >= 0 and (not CARDS.night_list[st.source] or st.decider == seat):
        head += f"  effect: {CARDS[st.source].name}"
    lines = [head]
    known = st.tracked[seat]
    scores = st.scores() if over else None
    for s in range(st.n):
        me = s == seat
        night = [c for c in st.tableau[s] if CARDS.night_list[c]]
        day = [c for c in st.tableau[s] if not CARDS.night_list[c]]
        pile_known = sorted(c for c in st.piles[s] if c in known)
        title = f"player_{s}{' (you)' if me else ''}: pile {len(st.piles[s])}"
        if pile_known:
            title += f" (holds {card_codes(pile_known)})"
        if me:
            title += f"  hand [{card_codes(st.hands[s])}]"
            if st.sel[s]:
                title += "  selected " + " ".join(
                    CARDS.codes[c] + (" via Daga" if v else "") for c, v in st.sel[s])
        else:
            hand_known = sorted(c for c in st.hands[s] if c in known)
            title += f"  hand {len(st.hands[s])} card{'s' * (len(st.hands[s]) != 1)}"
            if hand_known:
                title += f" (holds {card_codes(hand_known)})"
        if scores is not None:
            title += f"  score {scores[s]:g}"
        lines.append(title)
        lines.append(f"    day:   {card_codes(day) or '-'}")
        shown_night = card_codes(night) if me or over else f"{len(night)} face down"
        lines.append(f"    night: {shown_night or '-'}")
    for k, name in enumerate(COPIERS):
        copier = CARDS.effect_card[name]
        owner = st.owner[copier]
        if owner < 0 or copier not in st.tableau[owner]:
            continue
        target = st.copy_target[k]
        seen = target >= 0 and (owner == seat or over or not CARDS.night_list[target])
        text = CARDS.codes[target] if seen else ("a face-down card" if target >= 0 else "")
        lines.append(f"{CARDS[copier].name} (player_{owner}): {_MODES[st.copy_mode[k]]} {text}"
                     .rstrip())
    if st.offer >= 0 and st.decider == seat:
        lines.append(f"offered: {CARDS.codes[st.offer]} {CARDS[st.offer].name}")
    lines.append(f"central deck {len(st.central)}  discards [{card_codes(st.discards)}]  "
                 f"Daga {'used' if st.daga_used else 'unused'}")
    return "\n".join(lines)


LEGEND = """\
Card codes: E Event, J Journey, D Danger, C Day character; N.. Night cards (NE/NJ/ND Night Event/
Journey/Danger, N01-N07 Night characters with a scoring prize). Tags: W Witch, K Knight, T Troll,
P Princess, B Beast. Each round: keep 1 of the 3 drawn cards, the other 2 go to the next seat's
pile; Day cards are revealed face up, Night cards stay face down until the end.
'help E03' (or 'help ID' of a menu line) prints a card's full text."""

_EFFECT_TEXT = {
    "uggel": "on play: every pile is shuffled",
    "witch": "on play: the owner may move every pile one seat left or right",
    "martin": "on play: the owner plays the top card of the central deck",
    "olle": "on play: draw the top 2 central cards, play 1, discard the other",
    "daga": "once per game: discard one of your played cards and play the top 2 central cards "
            "(now or deferred)",
    "yule": "after the last round: play 1 of the 2 cards left in your pile, discard the other",
    "ville": "taken back into hand: later you may play 2 of the 3 drawn cards",
    "toyvik": "quest: one tag of each theme, scored per complete set",
    "bella": "copy one of your Day Events (now or a later one)",
    "adventure_boy": "copy one of your Day Journeys or Dangers (now or a later one)",
    "humpe": "copy one of your Night cards (now or a later one)",
}
_PRIZE_TEXT = {
    "skutt": "6 if you have strictly more Night cards than every other player",
    "wing_mother": "1 per tag of the best theme",
    "silver_knight": "1 per card of the best type (Event, Journey or Danger)",
    "king_death": "1 per sword",
    "big_jock": "3 per set of one Event + one Journey + one Danger",
    "tuvstarr": "2 per completed quest",
    "skogsra": "13 minus your number of tags (never below 0)",
}


def card_text(c: int) -> str:
    """The full text of card ``c``: code, name, type, Day/Night, points, swords, tags, effect."""
    card = CARDS[c]
    parts = [f"{card.code} {card.name}: {'Night' if card.night else 'Day'} "
             f"{KIND_NAMES[card.kind]}", *_facts(card)]
    if card.effect:
        parts.append(_EFFECT_TEXT.get(card.effect, card.effect))
    if card.prize:
        parts.append("prize: " + _PRIZE_TEXT.get(card.prize, card.prize))
    if card.quest:
        quest = "".join(t * n for t, n in zip(THEMES, card.quest))
        parts.append(f"quest {quest} = {card.quest_points} points")
    return "; ".join(parts)


def explain(token: str) -> str | None:
    """``help E03``: a card's full text by its code (case-insensitive)."""
    codes = {code.lower(): i for i, code in enumerate(CARDS.codes)}
    c = codes.get(token.strip().lower())
    return None if c is None else card_text(c)


def action_cards(action: int) -> list[int]:
    """The card an action names (for the card text shown next to a menu line)."""
    for base in (PLAY, DAGA_PLAY, DISCARD, COPY):
        if base <= action < base + NUM_CARDS:
            return [action - base]
    return []


def public_move(st: BauerDraftState, player: int, action: int) -> str:
    """What everybody learns of another seat's decision: selections and most effect choices are
    secret until the reveal (the seat's view shows them then); the Witch's move is public."""
    if WITCH_LEFT <= action <= WITCH_NONE:
        return st.game.action_name(action)
    return f"decides ({KINDS[st.kind]})"


def menu_label(st: BauerDraftState, action: int) -> str:
    """A menu line: the action's name and, for a card, what it is (``help ID`` has the rest)."""
    name = st.game.action_name(action)
    cards = action_cards(action)
    if action == NO_VILLE:
        return "do not use Ville"
    if not cards:
        return name
    card = CARDS[cards[0]]
    facts = [("Night " if card.night else "") + KIND_NAMES[card.kind], *_facts(card)]
    if (card.effect or card.prize) and card.name not in name:
        facts.append(card.name)
    return f"{name}  ({', '.join(facts)})"


def _facts(card: Card) -> list[str]:
    """Points, swords and tags of a card, those it has."""
    facts = [f"{card.points} point{'s' * (card.points != 1)}"] if card.points else []
    if card.swords:
        facts.append(f"{card.swords} sword{'s' * (card.swords > 1)}")
    tags = "".join(t * n for t, n in zip(THEMES, card.tags))
    return facts + ([f"tags {tags}"] if tags else [])


menu_groups = no_menu_groups
