"""Kuhn poker, the example game of ``envs/ADDING_A_GAME.md``: ``hands`` hands; in each, every
seat antes 1 chip and gets one card of ``num_players + 1`` (J < Q < K < A), then each in turn
passes or bets 1 chip; after a bet, each other seat calls (bet) or folds (pass). The best card
still in wins the pot, and the cards still in are shown. Scores are net chips."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import numpy as np

from tablezoo.envs.core.fields import ITEMS, RNG, SHARED, Field, Fields
from tablezoo.envs.core.game import Game, State, rank_rewards, require, rng_from_dict, rng_to_dict
from tablezoo.envs.core.obs_spec import ObsPiece, ObsSpec
from tablezoo.envs.core.options import Option, int_range
from tablezoo.envs.core.spec import GameSpec, register
from tablezoo.envs.pictures.moves import LastMove

PASS, BET = 0, 1
RANKS = "JQKA"


def hand_over(n: int, bets: list[int]) -> bool:
    """All passed (``n`` decisions), or every other seat answered the first bet."""
    return len(bets) == (bets.index(BET) + n if BET in bets else n)


def hand_result(n: int, hand: int, cards: list[int], bets: list[int]) -> tuple[list, list, list]:
    """``(paid, won, shown)``: chips each seat put in, chips won, seats whose cards are shown."""
    paid = [1] * n
    for j, action in enumerate(bets):
        paid[(hand + j) % n] += action
    if not hand_over(n, bets):
        return paid, [0] * n, []
    still_in = [p for p in range(n) if paid[p] == 2] if BET in bets else list(range(n))
    best = max(still_in, key=lambda p: cards[p])
    return paid, [sum(paid) * (p == best) for p in range(n)], still_in if len(still_in) > 1 else []


class KuhnGame(Game):
    """The rules and options: immutable, shared by every state of the game."""

    name = "kuhn_poker"
    OPTIONS = (
        Option("num_players", 2, "seats (the deck has one card more)", allowed=(2, 3)),
        Option("hands", 20, "hands in a match, 1..100", check=int_range(1, 100)),
    )

    def __init__(self, **options: Any):
        super().__init__(**options)
        n = self.num_players = self.options["num_players"]
        hands = self.hands = self.options["hands"]
        self.num_cards, self.num_actions, self.max_decisions = n + 1, 2, hands * (2 * n - 1)
        self.obs_spec = ObsSpec([
            ObsPiece("now", (2,), "my card this hand as rank / top rank; 1 once a bet is made"),
            ObsPiece("seat", (n,), "my seat, one-hot (seat h % num_players opens hand h)"),
            ObsPiece("chips", (n,), "net chips per seat, me first", 2 * n * hands, -2 * hands),
            ObsPiece("cards", (hands, n + 1), "my card in each hand dealt, one-hot"),
            ObsPiece("bets", (hands, 2 * n - 1, 2), "each hand's decisions in order: pass, bet"),
            ObsPiece("shown", (hands, n, n + 1), "cards shown in each hand, per seat, me first"),
        ])
        self.information_state_spec = self.obs_spec  # see KuhnState.information_state

    def new_state(self, seed: int | np.random.Generator | None = None) -> KuhnState:
        state = KuhnState(self, np.random.default_rng(seed))  # a seed or a Generator
        state.deal()
        return state

    def state_from_dict(self, data: Mapping[str, Any]) -> KuhnState:
        """Types and shapes are checked here, before use; the rules by ``KuhnState.check``."""
        require(isinstance(data, Mapping), "kuhn_poker state: not a dict")
        problem = KuhnState.FIELDS.key_problem(data)
        require(problem is None, f"kuhn_poker state: {problem}")
        require(data["game"] == self.name and data["options"] == self.options,
                "kuhn_poker state: saved by another game or under other options")
        cards, bets, n = data["cards"], data["bets"], self.num_players
        require(type(cards) is list and type(bets) is list
                and 1 <= len(cards) == len(bets) <= self.hands,
                f"kuhn_poker state: cards and bets need one list per hand dealt, 1..{self.hands}")
        for h, (dealt, made) in enumerate(zip(cards, bets)):
            ok = type(dealt) is type(made) is list and len(dealt) == n and len(made) < 2 * n
            require(ok and all(type(v) is int for v in dealt + made), f"kuhn_poker: bad hand {h}")
        state = KuhnState(self, rng_from_dict(data["rng"]))
        state.cards, state.bets = [list(c) for c in cards], [list(b) for b in bets]
        KuhnState.FIELDS.check_types(state, "kuhn_poker state")  # each field as declared
        state.check()
        return state

    def action_name(self, action: int) -> str:
        return ("pass", "bet")[action]


class KuhnState(State):
    """One position. Its fields are declared once; ``clone`` and ``to_dict`` follow."""

    FIELDS = Fields(
        Field("game", SHARED, None),
        Field("cards", ITEMS, "cards"),  # cards[h][p]: seat p's card in hand h
        Field("bets", ITEMS, "bets"),  # bets[h]: hand h's decisions, PASS or BET, in order
        Field("rng", RNG, "rng", encode=lambda s: rng_to_dict(s.rng)),
    )
    __slots__ = FIELDS.slots
    clone = FIELDS.clone_method()
    to_dict = FIELDS.to_dict_method()

    def __init__(self, game: KuhnGame, rng: np.random.Generator):
        self.game, self.rng, self.cards, self.bets = game, rng, [], []

    def deal(self) -> None:  # a chance event: from the state's own generator
        self.cards.append(self.rng.permutation(self.game.num_cards)[1:].tolist())  # one left out
        self.bets.append([])

    def acting_players(self) -> tuple[int, ...]:  # the opener of hand h is seat h % n
        to_act = (len(self.bets) - 1 + len(self.bets[-1])) % self.game.num_players
        return () if self.is_terminal() else (to_act,)

    def legal_mask(self, player: int) -> np.ndarray:
        return np.full(2, player in self.acting_players())  # a fresh array: the caller's

    def apply(self, actions: Mapping[int, int]) -> None:
        ((_, action),) = self.check_actions(actions).items()  # raises before any change
        self.bets[-1].append(action)
        if hand_over(self.game.num_players, self.bets[-1]) and len(self.bets) < self.game.hands:
            self.deal()

    def is_terminal(self) -> bool:
        return len(self.bets) == self.game.hands and hand_over(self.game.num_players, self.bets[-1])

    def results(self) -> list[tuple[list, list, list]]:
        n = self.game.num_players
        return [hand_result(n, h, c, b) for h, (c, b) in enumerate(zip(self.cards, self.bets))]

    def score_breakdown(self) -> list[dict[str, float]]:
        results = self.results()
        return [{"antes": -float(len(results)),
                 "bets": float(len(results) - sum(paid[p] for paid, _, _ in results)),
                 "pots": float(sum(won[p] for _, won, _ in results))}
                for p in range(self.game.num_players)]

    def scores(self) -> list[float]:
        return [sum(parts.values()) for parts in self.score_breakdown()]

    def returns(self) -> list[float]:
        """The collection's zero-sum rank reward, at the end."""
        return rank_rewards(self.scores()) if self.is_terminal() else [0.0] * self.game.num_players

    def observe(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        spec, n = self.game.obs_spec, self.game.num_players
        out = spec.zeros() if out is None else out
        out[:] = 0
        view = spec.split(out)
        view["now"][:] = self.cards[-1][player] / n, BET in self.bets[-1]
        view["seat"][player] = 1
        view["chips"][:] = np.roll(self.scores(), -player)
        for h, (cards, bets, result) in enumerate(zip(self.cards, self.bets, self.results())):
            view["cards"][h, cards[player]] = 1
            view["bets"][h, range(len(bets)), bets] = 1
            for p in result[2]:
                view["shown"][h, (p - player) % n, cards[p]] = 1
        return out

    information_state = observe  # the observation already recalls everything the seat saw

    def determinize(self, player: int, rng: np.random.Generator) -> KuhnState:
        world = self.clone()  # then every card ``player`` has not seen is dealt again
        for cards, (_, _, shown) in zip(world.cards, self.results()):
            known = {player, *shown}
            free = sorted(set(range(self.game.num_cards)) - {cards[p] for p in known})
            hidden = [p for p in range(self.game.num_players) if p not in known]
            for p, card in zip(hidden, rng.permutation(free).tolist()):
                cards[p] = card
        world.rng = np.random.default_rng(int(rng.integers(2**63)))  # later deals: hidden too
        return world

    def check(self) -> None:
        n, c, last = self.game.num_players, self.game.num_cards, len(self.cards) - 1
        for h, (cards, bets) in enumerate(zip(self.cards, self.bets)):
            require(len(set(cards)) == n and all(0 <= x < c for x in cards) and all(
                a in (PASS, BET) and not hand_over(n, bets[:j]) for j, a in enumerate(bets)),
                f"kuhn_poker: hand {h}'s cards or bets break the rules")
            over = hand_over(n, bets)  # a finished hand is followed by the next one's deal
            require(over if h < last else not over or h == self.game.hands - 1,
                    f"kuhn_poker: hand {h} is {'' if over else 'not '}over")
        super().check()

    def __str__(self) -> str:
        return SHOW.render_seat(self, None)


class KuhnShow:
    """The text views (``TextViews``) and the picture (``Picture``): a game's ``render.py``."""

    LEGEND = "cards J < Q < K < A; ? a card you cannot see; chips are net"

    def render_seat(self, state: KuhnState, seat: int | None, colour: bool = False) -> str:
        game, h, shown = state.game, len(state.cards) - 1, state.results()[-1][2]
        acting = "".join(f", {game.player_name(p)} to act" for p in state.acting_players())
        lines = [f"kuhn_poker: hand {h + 1} of {game.hands}{acting}"]
        for p, chips in enumerate(state.scores()):
            card = RANKS[state.cards[h][p]] if seat in (None, p) or p in shown else "?"
            lines.append(f"{game.player_name(p)}: card {card}, chips {chips:+g}")
        moves = [f"{game.player_name((h + j) % game.num_players)} {game.action_name(a)}"
                 for j, a in enumerate(state.bets[h])]
        return "\n".join([*lines, "bets: " + (", ".join(moves) or "none")])

    def explain(self, token: str) -> str | None:
        return f"{token}: card {RANKS.index(token) + 1} of 4" if token in tuple(RANKS) else None

    def public_move(self, state: KuhnState, player: int, action: int) -> str:
        return self.menu_label(state, action)  # every move is public

    def menu_label(self, state: KuhnState, action: int) -> str:
        return ("fold", "call")[action] if BET in state.bets[-1] else ("check", "bet")[action]

    def menu_groups(self, state: KuhnState, seat: int, legal: list[int]) -> list:
        return []  # one flat menu

    def draw(self, state: KuhnState, seat: int | None, last: LastMove | None,
             choices: Collection[int]) -> str:
        game, h, shown = state.game, len(state.cards) - 1, state.results()[-1][2]
        moves = "last move: " + "; ".join(last.lines(game.player_name, seat)) if last else ""
        svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{40 + 110 * game.num_players}" '
               'height="200"><rect width="100%" height="100%" fill="#9c9"/>',
               f'<text x="20" y="20">hand {h + 1} of {game.hands} {moves}</text>']
        for p, chips in enumerate(state.scores()):
            x, card = 20 + 110 * p, RANKS[state.cards[h][p]]
            face_up = seat in (None, p) or p in shown
            svg.append(f'<rect x="{x}" y="30" width="60" height="84" '
                       f'fill="{"white" if face_up else "navy"}"/>')
            if face_up:  # a face-up card names itself (data-card)
                svg.append(f'<text x="{x + 22}" y="80" data-card="{card}">{card}</text>')
            svg.append(f'<text x="{x}" y="134">{game.player_name(p)} {chips:+g}</text>')
        svg += [f'<text x="{20 + 90 * i}" y="170" data-action="{a}">[{self.menu_label(state, a)}]'
                '</text>' for i, a in enumerate(choices)]
        return "\n".join([*svg, "</svg>"])

    def remember(self, before: KuhnState, actions: dict[int, int]) -> dict[str, Any]:
        return {}  # the position after a move shows all that is public about it


SHOW = KuhnShow()
SPEC = register(GameSpec(
    env_id="kuhn_poker_v0",
    game=KuhnGame,
    variants=({}, {"num_players": 3}),
    views=SHOW,
    picture=SHOW,
    agents="tests.example_game.kuhn_poker_agents",
))
