"""The heuristic's move choice: ``HeuristicAgent`` reads its observation (and the request
probabilities it believes), then picks the action with the best position value after it."""

from __future__ import annotations

import math

import numpy as np

from tablezoo.agents.base import BaseAgent, legal_ids, only_noop
from tablezoo.agents.games.bower.heuristic.evaluation import (
    Context,
    Stats,
    _eb_value,
    contest_value,
    nest_stats,
    own_extras,
)
from tablezoo.agents.games.bower.heuristic.pieces import (
    EB,
    EMPTY_UNITS,
    IA1,
    IA2,
    IA3,
    IA4,
    NB,
    PHASE,
    REQ_SLOT,
    SP1,
    SP2,
    TK,
    TOK_BRANCH,
    TOK_SHELL,
    TOK_WFE,
    TOK_WFL,
    TOK_X,
    Nest,
    Tile,
    decode_nest,
    decode_tile,
    nb_tile,
)
from tablezoo.envs.bower.actions import (
    ACCEPT,
    BRANCH,
    COLUMN,
    COVER,
    DISPLAY,
    HAND,
    KEEP,
    NUM_ACTIONS,
    PASS,
    PLAY,
    TARGET,
)
from tablezoo.envs.bower.components import EGG_CODES
from tablezoo.envs.bower.geometry import (
    BRANCH_ENDS,
    NUM_CELLS,
    NUM_PLACEMENTS,
    PLACEMENT_CELLS,
    placement_mask,
)
from tablezoo.envs.bower.observation import OBS_SPEC
from tablezoo.envs.core.game import State

TIE_BREAKS = ("random", "first")


# ---------------------------------------------------------------------- the agent
class HeuristicAgent(BaseAgent):
    """Greedy on a position value of materials, column majorities, egg tiles and gems."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, bonus_value: float = 0.5,
                 keep_weight: float = 0.3, hole_penalty: float = 0.25,
                 read_opponent: float = 1.0, deny_weight: float = 0.5,
                 tie_break: str = "random"):
        super().__init__(seed)
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"bower heuristic: tie_break={tie_break!r}; expected one of "
                             f"{', '.join(map(repr, TIE_BREAKS))} (a draw of the agent's "
                             "generator, or the first tied action in id order)")
        self.tie_break = tie_break
        self.bonus_value = float(bonus_value)
        self.keep_weight = float(keep_weight)
        self.hole_penalty = float(hole_penalty)
        self.read_opponent = float(read_opponent)
        self.deny_weight = float(deny_weight)
        self._kept_effect = -1  # the bonus tile I kept last (its effect may be asked next)
        self._position_key: tuple | None = None
        self._weighed: tuple[np.ndarray, np.ndarray] | None = None  # the last _pick's input

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._kept_effect = -1
        self._position_key = None

    # -------------------------------------------------------------- entry point
    def act(self, observation: np.ndarray, action_mask: np.ndarray,
            state: State | None = None, player: int | None = None) -> int:
        if only_noop(action_mask, NUM_ACTIONS):
            return NUM_ACTIONS
        legal = legal_ids(action_mask[:NUM_ACTIONS])
        if legal.size == 1:
            return int(legal[0])
        self._read(observation, state)
        phase = self.phase
        first = int(legal[0])
        if phase == PHASE["force"]:
            return self._force(legal)
        if first < PLAY:
            return self._take(legal)
        if first < PASS:
            return self._play(legal)
        if phase in (PHASE["bonus"], PHASE["discard_ask"]):
            return ACCEPT if ACCEPT in legal else first
        if phase == PHASE["double_ask"]:
            return PASS if PASS in legal else first
        if phase == PHASE["cover_ask"]:
            return self._cover_ask(legal)
        if phase == PHASE["keep"]:
            return self._keep(legal)
        if phase == PHASE["spy"]:
            return self._spy(legal)
        if phase == PHASE["token"]:
            return self._token(legal, state)
        if phase == PHASE["branch"]:
            return self._branch(legal)
        if phase == PHASE["cover"]:
            return self._cover(legal)
        if first >= HAND:
            return self._discard(legal)
        return self._pick(legal, np.zeros(legal.size))  # unknown decision: any legal id

    def play_values(self, observation: np.ndarray, action_mask: np.ndarray,
                    state: State | None = None) -> dict[int, float]:
        """Position value after each legal PLAY id (for analysis; empty outside a play)."""
        legal = legal_ids(action_mask[:NUM_ACTIONS])
        self._read(observation, state)
        hand = self._hand_tiles()
        out = {}
        for a in legal:
            if PLAY <= a < PASS:
                h, p = divmod(int(a) - PLAY, NUM_PLACEMENTS)
                out[int(a)] = self._play_value(hand[h], p)
        return out

    # -------------------------------------------------------------- reading the observation
    def _read(self, observation: np.ndarray, state: State | None) -> None:
        obs = OBS_SPEC.split(np.asarray(observation))
        self.obs = obs
        self.phase = int(np.argmax(obs["phase"]))
        opts = getattr(getattr(state, "game", None), "options", None) or {}
        self.x_one = opts.get("x_cancels", "cell") == "one"
        self.gems_matter = bool(opts.get("bonus_tiles", True))
        planes = obs["nests"].reshape(2, -1, NUM_CELLS)  # seat x channel x cell
        self.nests = [decode_nest(planes[s], obs["column_flags"][s], self.x_one)
                      for s in (0, 1)]
        scal = obs["scalars"]
        my_turns = round(float(scal[0]) * 12)
        remaining = (12 - my_turns - 1) / 11.0
        kept = obs["bonus_kept"]
        eb_mine = [k for k in range(5) if kept[0, EB[k]] > 0]
        eb_theirs = [k for k in range(5) if kept[1, EB[k]] > 0]
        self.opp_stats = nest_stats(self.nests[1], self.gems_matter)
        self._me_stats: Stats | None = None
        self._opp_ctx: Context | None = None
        probs = self._request_probs(obs, self.opp_stats.req, self.read_opponent)
        self.ctx = Context(probs, eb_mine, eb_theirs, remaining,
                           self.bonus_value if self.gems_matter else 0.0, self.hole_penalty)
        # Values of (tile, placement) in this position; a play follows its take in the same
        # position (only the display and hand changed), so the take's work is reused.
        key = (obs["nests"].tobytes(), obs["column_eggs"].tobytes(), obs["removed_eggs"].tobytes(),
               kept.tobytes(), my_turns)
        if key != self._position_key:
            self._position_key = key
            self._play_cache: dict[tuple[Tile, int], float] = {}

    @staticmethod
    def _request_probs(obs: dict[str, np.ndarray], opp_req: tuple[tuple[int, ...], ...],
                       read_opponent: float) -> np.ndarray:
        """P(column c requests slot k): known eggs are certain; the others start uniform over
        the eggs I have not seen (every unseen egg is equally likely at every unseen position),
        then, with ``read_opponent`` > 0, lean towards the items the opponent (who sees that egg)
        has put in that column: weight ``exp(read_opponent * units)``."""
        col_eggs = obs["column_eggs"]
        seen = set(np.flatnonzero(obs["removed_eggs"]).tolist())
        for c in range(6):
            if col_eggs[c].any():
                seen.add(int(np.argmax(col_eggs[c])))
        unseen = [e for e in range(8) if e not in seen]
        probs = np.zeros((6, 8))
        for c in range(6):
            if col_eggs[c].any():
                probs[c, REQ_SLOT[EGG_CODES[int(np.argmax(col_eggs[c]))]]] = 1.0
            else:
                for e in unseen:
                    k = REQ_SLOT[EGG_CODES[e]]
                    probs[c, k] += math.exp(read_opponent * float(opp_req[c][k]))
                probs[c] /= probs[c].sum()
        return probs

    def _value(self, mine: Nest, theirs: Stats | None = None) -> float:
        me = nest_stats(mine, self.gems_matter)
        them = self.opp_stats if theirs is None else theirs
        return contest_value(me, them, self.ctx) + own_extras(me, self.ctx)

    def _hand_tiles(self) -> list[Tile]:
        rows = self.obs["hands"][0]
        return [decode_tile(rows[h, 2:]) for h in range(rows.shape[0]) if rows[h, 0] > 0]

    def _display_tiles(self) -> list[Tile | None]:
        rows = self.obs["display"]
        return [decode_tile(rows[d, 1:]) if rows[d, 0] > 0 else None for d in range(3)]

    def action_values(self, observation: np.ndarray, action_mask: np.ndarray,
                      state: State | None = None, player: int | None = None) -> dict[int, float]:
        """The value this agent gives every action it weighs at this decision (a search uses
        them to rank candidates); a decision settled by a fixed rule (always take the bonus,
        decline the double turn, a single legal id) gives only the action chosen."""
        self._weighed = None
        choice = self.act(observation, action_mask, state, player)
        if self._weighed is None:
            return {choice: 0.0}
        ids, values = self._weighed
        return {int(a): float(v) for a, v in zip(ids, values)}

    def _pick(self, ids: np.ndarray, values: np.ndarray) -> int:
        """The id with the best value; ties (within 1e-9) broken by the agent's generator, or
        (``tie_break="first"``) the first tied id."""
        self._weighed = (ids, values)
        best = np.flatnonzero(values >= values.max() - 1e-9)
        if self.tie_break == "first":
            return int(ids[best[0]])
        return int(ids[best[self.rng.integers(best.size)]])

    # -------------------------------------------------------------- placements
    def _placed(self, nest: Nest, tile: Tile, p: int, cover: bool = False) -> Nest:
        a, b = PLACEMENT_CELLS[p]
        n = nest.copy()
        n.put(a, tile[0], cover)
        n.put(b, tile[1], cover)
        return n

    def _play_value(self, tile: Tile, p: int) -> float:
        """Position value after playing ``tile`` with placement ``p`` (cached per position)."""
        key = (tile, p)
        value = self._play_cache.get(key)
        if value is None:
            value = self._play_cache[key] = self._value(self._placed(self.nests[0], tile, p))
        return value

    def _best_play(self, tile: Tile) -> float:
        """Value of the best legal placement of ``tile`` in my nest (current value if none)."""
        legal = np.flatnonzero(placement_mask(self.nests[0].occ))
        if legal.size == 0:
            return self._value(self.nests[0])
        return max(self._play_value(tile, int(p)) for p in legal)

    def _play(self, legal: np.ndarray) -> int:
        hand = self._hand_tiles()
        values = np.empty(legal.size)
        for j, a in enumerate(legal):
            h, p = divmod(int(a) - PLAY, NUM_PLACEMENTS)
            values[j] = self._play_value(hand[h], p)
        return self._pick(legal, values)

    def _take(self, legal: np.ndarray) -> int:
        """Draft/take: the display tile giving the best play now plus a share of the best play
        of the tile(s) kept for later, plus (``deny_weight``) how much taking it lowers the
        best play the opponent could make from the display."""
        hand = self._hand_tiles()
        display = self._display_tiles()
        hand_best = [self._best_play(t) for t in hand]
        deny = np.zeros(3)
        if self.deny_weight > 0:
            theirs = [self._opponent_best(t) if t is not None else -math.inf for t in display]
            top = max(theirs)
            for d in range(3):
                rest = max(v for e, v in enumerate(theirs) if e != d)
                deny[d] = top - rest if math.isfinite(rest) else 0.0
        values = np.empty(legal.size)
        for j, a in enumerate(legal):
            d = int(a) - DISPLAY
            bests = sorted(hand_best + [self._best_play(display[d])], reverse=True)
            values[j] = bests[0] + (self.keep_weight * bests[1] if len(bests) > 1 else 0.0)
            values[j] += self.deny_weight * deny[d]
        return self._pick(legal, values)

    def _opponent_best(self, tile: Tile) -> float:
        """The opponent's position value after its best placement of ``tile`` (my beliefs
        about the unknown eggs stand in for theirs)."""
        theirs = self.nests[1]
        legal_p = np.flatnonzero(placement_mask(theirs.occ))
        if legal_p.size == 0:
            return 0.0
        opp_ctx = self._opponent_context()
        me_stats = self._my_stats()
        best = -math.inf
        for p in legal_p:
            st = nest_stats(self._placed(theirs, tile, int(p)), self.gems_matter)
            best = max(best, contest_value(st, me_stats, opp_ctx) + own_extras(st, opp_ctx))
        return best

    def _opponent_context(self) -> Context:
        """The context with the egg tiles' owners swapped, made once per decision (its
        column terms are reused across the display tiles weighed)."""
        if self._opp_ctx is None:
            ctx = self.ctx
            self._opp_ctx = Context(ctx.probs, ctx.eb_theirs, ctx.eb_mine, ctx.rem,
                                    ctx.bonus_value, ctx.hole_penalty)
        return self._opp_ctx

    def _my_stats(self) -> Stats:
        if self._me_stats is None:
            self._me_stats = nest_stats(self.nests[0], self.gems_matter)
        return self._me_stats

    def _discard(self, legal: np.ndarray) -> int:
        """Hand check or the opponent's discard effect: drop the tile with the weakest play."""
        hand = self._hand_tiles()
        values = np.array([-self._best_play(hand[int(a) - HAND]) for a in legal])
        return self._pick(legal, values)

    def _force(self, legal: np.ndarray) -> int:
        """IA2: give the opponent the display tile whose best play helps them least."""
        display = self._display_tiles()
        values = np.array([-1e9 if a == PASS else -self._opponent_best(display[int(a) - DISPLAY])
                           for a in legal])
        return self._pick(legal, values)

    # -------------------------------------------------------------- bonus tiles
    def _keep(self, legal: np.ndarray) -> int:
        draw = self.obs["bonus_draw"]
        base = self._value(self.nests[0])
        values = np.array([self._bonus_value(int(np.argmax(draw[int(a) - KEEP])), base)
                           for a in legal])
        choice = self._pick(legal, values)
        self._kept_effect = int(np.argmax(draw[choice - KEEP]))
        return choice

    def _bonus_value(self, b: int, base: float) -> float:
        """Estimated eggs a kept bonus tile ``b`` is worth to me now."""
        obs = self.obs
        supply = obs["token_supply"]
        scal = obs["scalars"]
        opp_turns = round(float(scal[1]) * 12)
        me = nest_stats(self.nests[0], self.gems_matter)
        if b in EB:
            return _eb_value(me, self.opp_stats, [EB.index(b)], self.ctx) + 0.05
        if b in NB:
            k = NB.index(b)
            gain = self._best_play(nb_tile(k)) - base
            return 0.15 + max(0.0, gain) * self.ctx.rem + (0.3 if k == 3 else 0.0)
        if b in TK:
            k = TK.index(b)
            if supply[k] <= 0:
                return 0.0
            ids = self._token_ids(k) if k < 4 else self._branch_ids()
            if not ids:
                return 0.0
            return max(0.0, max(self._effect_values(k, np.array(ids))) - base)
        if b == SP1:
            return 0.15 if self.ctx.probs.max(axis=1).min() < 1.0 else 0.0
        if b == SP2:
            return 0.08 if not obs["removed_eggs"].any() else 0.0
        if b == IA1:
            return 0.1
        if b == IA2:
            return 0.15 if opp_turns < 12 else 0.0
        if b == IA3:
            return 0.0
        if b == IA4:
            return 0.25 if obs["hands"][1, :, 0].any() or float(scal[3]) > 0 else 0.02
        return 0.0

    def _token_ids(self, k: int) -> list[int]:
        """TARGET ids the engine would offer for token ``k`` (0 X .. 3 shell)."""
        out = []
        seats = (0, 1) if k == TOK_X else (0,)
        for s in seats:
            nest = self.nests[s]
            for cell in range(NUM_CELLS):
                if nest.mat[cell] < 0:
                    continue
                u = nest.units[cell]
                ok = (any(u[0:10]) if k == TOK_X else any(u[0:5]) if k == TOK_WFE
                      else any(u[5:10]) if k == TOK_WFL else u[11] + u[12] > 0)
                if ok:
                    out.append(TARGET + NUM_CELLS * s + cell)
        return out

    def _branch_ids(self) -> list[int]:
        nest = self.nests[0]
        return [BRANCH + 2 * cell + o for cell in range(NUM_CELLS) if nest.mat[cell] >= 0
                for o in (0, 1) if BRANCH_ENDS[2 * cell + o] is not None]

    def _effect_values(self, k: int, ids: np.ndarray) -> np.ndarray:
        """Position value after placing token ``k`` (4 = branch) by each action id."""
        values = np.empty(ids.size)
        for j, a in enumerate(ids):
            a = int(a)
            if a == PASS:
                values[j] = self._value(self.nests[0])
                continue
            if k == TOK_BRANCH:
                n = self.nests[0].copy()
                n.branch = a - BRANCH
                values[j] = self._value(n)
                continue
            s, cell = divmod(a - TARGET, NUM_CELLS)
            n = self.nests[s].copy()
            n.set_token(k, cell)
            if s == 0:
                values[j] = self._value(n)
            else:
                theirs = nest_stats(n, self.gems_matter)
                values[j] = self._value(self.nests[0], theirs)
        return values

    def _current_token(self, legal: np.ndarray, state: State | None) -> int:
        """Which token (0-3) the TARGET decision places: the kept tile being resolved (public:
        the observation's ``effect`` piece when the layout has it, else the state), else the
        tile I kept last, else inferred from the targets offered."""
        effect = -1
        if "effect" in self.obs and self.obs["effect"].any():
            effect = int(np.argmax(self.obs["effect"]))
        elif state is not None:
            effect = getattr(state, "effect", -1)
        if effect not in TK[:4]:
            effect = self._kept_effect
        if effect in TK[:4]:
            return TK.index(effect)
        if any(int(a) >= TARGET + NUM_CELLS for a in legal if a != PASS):
            return TOK_X
        kept = self.obs["bonus_kept"][0]
        supply = self.obs["token_supply"]
        targets = sorted(int(a) for a in legal if a != PASS)
        for k in (TOK_WFE, TOK_WFL, TOK_SHELL, TOK_X):
            if kept[TK[k]] > 0 and supply[k] > 0 and sorted(self._token_ids(k)) == targets:
                return k
        return TOK_X

    def _token(self, legal: np.ndarray, state: State | None) -> int:
        k = self._current_token(legal, state)
        return self._pick(legal, self._effect_values(k, legal))

    def _branch(self, legal: np.ndarray) -> int:
        return self._pick(legal, self._effect_values(TOK_BRANCH, legal))

    def _spy(self, legal: np.ndarray) -> int:
        """SP1: look at the unknown column with the most feathers and flowers at stake."""
        values = np.zeros(legal.size)
        for j, a in enumerate(legal):
            c = int(a) - COLUMN
            for nest in self.nests:
                for r in range(4):
                    values[j] += sum(nest.units[6 * r + c][0:10])
            if self.ctx.probs[c].max() >= 1.0:
                values[j] -= 100.0
        return self._pick(legal, values)

    def _cover_ask(self, legal: np.ndarray) -> int:
        """IA1: cover only if two adjacent own cells are worth little (the tile is unknown)."""
        nest = self.nests[0]
        base = self._value(nest)
        cheapest = math.inf
        occ = nest.occ
        for p in range(0, NUM_PLACEMENTS, 2):
            a, b = PLACEMENT_CELLS[p]
            if occ >> a & 1 and occ >> b & 1:
                n = nest.copy()
                n.put(a, (nest.mat[a], EMPTY_UNITS, False), True)
                n.put(b, (nest.mat[b], EMPTY_UNITS, False), True)
                cheapest = min(cheapest, base - self._value(n))
        if cheapest <= 0.15 and ACCEPT in legal:
            return ACCEPT
        return PASS if PASS in legal else int(legal[0])

    def _cover(self, legal: np.ndarray) -> int:
        row = self.obs["cover_tile"]
        tile = decode_tile(row[1:])
        nest = self.nests[0]
        values = np.array([self._value(self._placed(nest, tile, int(a) - COVER, cover=True))
                           for a in legal])
        return self._pick(legal, values)


__all__ = ["HeuristicAgent", "contest_value", "nest_stats"]
