"""The numba kernels of ``bauer_trick``'s compiled engine (``vector`` holds the Python class).

The rules are ``rules``' own, written again over arrays: slot ``i``'s whole position is row ``i``
of one int64 matrix ``S`` (columns below; hands, played cards and voids are bit masks as in the
Python engine), its returns row ``i`` of the float64 ``R`` and its generator row ``i`` of the
uint64 ``rng`` (PCG32: state, increment). Options come as the int64 vector ``opts``.

Kernels are written flat: one call from Python runs a loop over every slot, the per-decision path
calls no other numba function with array arguments (such a call costs about 115 ns); the rare
events (a new deal, a new game) do. ``step`` is three passes over the slots in one call: check
every action, apply them, write every next decision. The observation is written from the position
at every decision (the acting seat changes each time), the 288 card bits 8 floats per byte
through a table (4 times faster than bit by bit); applying and writing in one pass per slot
measured slower. Everything is ``cache=True``: the compile is paid once per machine
(``envs/bauer_trick/README.md`` has its time).

Randomness: each slot's generator and its exactly uniform draws are the shared ones of
``tablezoo.envs.vector.kernels``; a deal is a shuffle of the 32 cards dealt in blocks from the
dealer's left as the Python engine deals, so every deal is equally likely.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tablezoo.envs.bauer_trick.components import EFFECTIVE_SUIT, STRENGTH, SUIT_BITS
from tablezoo.envs.bauer_trick.observation import OBS_SPEC, STATE_SPEC
from tablezoo.envs.vector.kernels import BYTE_BOOLS, BYTE_FLOATS, bounded, shuffle

# --- the position matrix S [B, NCOL] (int64) ---------------------------------------------------
PHASE, DEALER, TO_ACT, TRUMP, CALLER, LEADER, LED, TRICK_NO = 0, 1, 2, 3, 4, 5, 6, 7
NTRICK, DEALS, TRUNC, DECISIONS, NUNDEALT = 8, 9, 10, 11, 12  # NTRICK: cards on the table
TRICKS = 13  # 2 teams
POINTS = 15  # 2 teams
TALLY = 17  # 2 teams x 3 categories (calls_made, no_trump_won, failed_calls_punished)
HANDS = 23  # 4 seats, bit masks
PLAYED = 27  # 4 seats, bit masks (earlier tricks of this deal)
VOIDS = 31  # 4 seats, suit bit masks
CALLS = 35  # 4 seats: -1 silent, 0..3 suit named, 4 passed
TRICK = 39  # 4: the current trick's cards, from its leader on
UNDEALT = 43  # 16: forehand_on_four's cards still to deal, in dealing order
HIST_KNOWN = 59  # 1: the deal's record below is known (0: loaded from a save without it)
FIRST_FOUR = 60  # 4 seats: forehand_on_four's cards dealt before the call (bit masks), else 0
HISTORY = 64  # 8 tricks x 5: the completed tricks of the deal, [leader, cards in play order]
NCOL = 104

# --- the options vector opts (int64) -----------------------------------------------------------
O_DEAL, O_FOREHAND, O_START, O_MAX_DEALS, O_LEFT, O_DEFENDERS, O_POINTS = range(7)
NUM_OPTS = 7

CALL, PLAY, OVER = 0, 1, 2

# --- tables (global arrays are compile-time constants to numba) ---------------------------------
EFF = np.array(EFFECTIVE_SUIT, np.int64)  # [trump 0..4, card]
SUITB = np.array(SUIT_BITS, np.int64)  # [trump 0..4, suit 0..3]
STR = np.array(STRENGTH, np.int64)  # [trump, led, card]

# observation offsets (seat-relative pieces)
_O = OBS_SPEC.offsets
OB_HAND, OB_TRUMP, OB_CALLER, OB_DEALER, OB_CALLS = (
    _O["hand"], _O["trump"], _O["caller"], _O["dealer"], _O["calls"])
OB_TRICK, OB_LEADER, OB_PLAYED, OB_VOID, OB_WON = (
    _O["trick"], _O["leader"], _O["played"], _O["void"], _O["tricks_won"])
OB_POINTS, OB_TNO, OB_PHASE, OB_DEALS = (
    _O["points"], _O["trick_number"], _O["phase"], _O["deals"])
OBS_SIZE = OBS_SPEC.size
# where the 9 card-bit pieces start: my hand, the trick by relative seat, played by relative seat
CARD_PIECE_AT = np.array([OB_HAND] + [OB_TRICK + 32 * r for r in range(4)]
                         + [OB_PLAYED + 32 * r for r in range(4)], np.int64)
# global-state offsets (absolute pieces)
_G = STATE_SPEC.offsets
GS_HANDS, GS_TRUMP, GS_CALLER, GS_DEALER, GS_CALLS = (
    _G["hands"], _G["trump"], _G["caller"], _G["dealer"], _G["calls"])
GS_TRICK, GS_LEADER, GS_PLAYED, GS_VOID, GS_WON = (
    _G["trick"], _G["leader"], _G["played"], _G["void"], _G["tricks_won"])
GS_POINTS, GS_TNO, GS_PHASE, GS_DEALS = (
    _G["points"], _G["trick_number"], _G["phase"], _G["deals"])
GS_DEALT, GS_TO_ACT = _G["to_be_dealt"], _G["to_act"]
STATE_SIZE = STATE_SPEC.size

@njit(cache=True)
def _deal(S, rng, i, forehand, deck):
    """Shuffle and deal slot ``i``'s next deal (its dealer set); the deal's fields start over."""
    for k in range(32):
        deck[k] = k
    rng[i, 0] = shuffle(rng[i, 0], rng[i, 1], deck, 32)
    dealer = S[i, DEALER]
    first = (dealer + 1) % 4
    per_round = 4 if forehand else 8
    for s in range(4):
        S[i, HANDS + s] = 0
        S[i, PLAYED + s] = 0
        S[i, VOIDS + s] = 0
        S[i, CALLS + s] = -1
        S[i, TRICK + s] = -1
    for k in range(4):
        bits = 0
        for c in range(k * per_round, (k + 1) * per_round):
            bits |= 1 << deck[c]
        S[i, HANDS + (first + k) % 4] = bits
    for k in range(16):
        S[i, UNDEALT + k] = deck[16 + k] if forehand else -1
    S[i, NUNDEALT] = 16 if forehand else 0
    for s in range(4):
        S[i, FIRST_FOUR + s] = S[i, HANDS + s] if forehand else 0
    S[i, HIST_KNOWN] = 1
    S[i, PHASE] = CALL
    S[i, TO_ACT] = first
    S[i, TRUMP] = -1
    S[i, CALLER] = -1
    S[i, LEADER] = -1
    S[i, LED] = -1
    S[i, TRICK_NO] = 0
    S[i, NTRICK] = 0
    S[i, TRICKS] = 0
    S[i, TRICKS + 1] = 0


@njit(cache=True)
def _new_game(S, R, rng, opts, i, deck):
    """Slot ``i`` starts a new game: scores, tally and returns from zero, a uniform dealer."""
    rng[i, 0], S[i, DEALER] = bounded(rng[i, 0], rng[i, 1], 4)
    S[i, POINTS] = opts[O_START]
    S[i, POINTS + 1] = opts[O_START]
    for k in range(6):
        S[i, TALLY + k] = 0
    S[i, DEALS] = 0
    S[i, TRUNC] = 0
    S[i, DECISIONS] = 0
    for s in range(4):
        R[i, s] = 0.0
    _deal(S, rng, i, opts[O_FOREHAND] != 0, deck)


@njit(cache=True)
def new_games(S, R, rng, opts, lo, hi):
    """A new game in slots ``lo..hi-1``."""
    deck = np.empty(32, np.int64)
    for i in range(lo, hi):
        _new_game(S, R, rng, opts, i, deck)


@njit(cache=True)
def write_decisions(S, opts, obs, mask, seat, lo, hi):
    """The acting seat, its observation (the ``bauer_trick_v0`` encoding) and legal mask of
    slots ``lo..hi-1`` (never over: finished games were restarted)."""
    deal_mode = opts[O_DEAL] != 0
    forehand = opts[O_FOREHAND] != 0
    start = np.float64(opts[O_START])
    max_deals = np.float64(opts[O_MAX_DEALS])
    cards = np.empty(9, np.int64)
    for i in range(lo, hi):
        o = obs[i]
        p = S[i, TO_ACT]
        seat[i] = p
        phase = S[i, PHASE]
        trump = S[i, TRUMP]
        leader = S[i, LEADER]
        # the card-bit pieces (hand, trick by seat, played by seat), 8 floats per byte
        hand = S[i, HANDS + p]
        cards[0] = hand
        for r in range(4):
            cards[1 + r] = 0
            cards[5 + r] = S[i, PLAYED + ((p + r) & 3)]
        for k in range(S[i, NTRICK]):  # the k-th card of the trick, by its relative seat
            cards[1 + ((leader + k - p) & 3)] |= 1 << S[i, TRICK + k]
        for r in range(9):
            bits = cards[r]
            at = CARD_PIECE_AT[r]
            for b in range(4):
                byte = (bits >> (8 * b)) & 255
                for k in range(8):
                    o[at + 8 * b + k] = BYTE_FLOATS[byte, k]
        # the small pieces: zero, then the ones
        for k in range(OB_TRUMP, OB_TRICK):  # trump, caller, dealer, calls
            o[k] = 0.0
        for k in range(OB_LEADER, OB_PLAYED):
            o[k] = 0.0
        for k in range(OB_VOID, OBS_SIZE):  # void .. deals
            o[k] = 0.0
        if trump >= 0:
            o[OB_TRUMP + trump] = 1.0
            caller = S[i, CALLER]
            o[OB_CALLER + ((caller - p) & 3 if caller >= 0 else 4)] = 1.0
        o[OB_DEALER + ((S[i, DEALER] - p) & 3)] = 1.0
        for r in range(4):
            s = (p + r) & 3
            call = S[i, CALLS + s]
            if call >= 0:
                o[OB_CALLS + 5 * r + call] = 1.0
            v = S[i, VOIDS + s]
            for u in range(4):
                o[OB_VOID + 4 * r + u] = np.float32((v >> u) & 1)
        if phase == PLAY:
            o[OB_LEADER + ((leader - p) & 3)] = 1.0
            o[OB_TNO + S[i, TRICK_NO]] = 1.0
        for t in range(2):
            rel = (t + p) & 1  # team t as my (0) or the other (1) team
            o[OB_WON + 9 * rel + S[i, TRICKS + t]] = 1.0
            o[OB_POINTS + rel] = np.float32(S[i, POINTS + t] / start)
        o[OB_PHASE + phase] = 1.0
        if not deal_mode:
            o[OB_DEALS] = np.float32(S[i, DEALS] / max_deals)
        # the legal mask
        if phase == CALL:
            for a in range(32):
                mask[i, a] = False
            for a in range(32, 36):
                mask[i, a] = True
            mask[i, 36] = not forehand
        else:
            led = S[i, LED]
            legal = hand
            if led >= 0:
                follow = hand & SUITB[trump, led]
                if follow != 0:
                    legal = follow
            elif forehand and S[i, TRICK_NO] == 0 and trump < 4:
                trumps = hand & SUITB[trump, trump]
                if trumps != 0:
                    legal = trumps
            for b in range(4):
                byte = (legal >> (8 * b)) & 255
                for k in range(8):
                    mask[i, 8 * b + k] = BYTE_BOOLS[byte, k]
            for a in range(32, 37):
                mask[i, a] = False


@njit(cache=True)
def first_illegal(S, opts, actions):
    """The first slot whose action is illegal for its acting seat, or -1."""
    forehand = opts[O_FOREHAND] != 0
    for i in range(S.shape[0]):
        a = actions[i]
        if S[i, PHASE] == CALL:
            ok = 32 <= a < 36 or (a == 36 and not forehand)
        elif 0 <= a < 32:
            hand = S[i, HANDS + S[i, TO_ACT]]
            trump = S[i, TRUMP]
            led = S[i, LED]
            legal = hand
            if led >= 0:
                follow = hand & SUITB[trump, led]
                if follow != 0:
                    legal = follow
            elif forehand and S[i, TRICK_NO] == 0 and trump < 4:
                trumps = hand & SUITB[trump, trump]
                if trumps != 0:
                    legal = trumps
            ok = ((legal >> a) & 1) != 0
        else:
            ok = False
        if not ok:
            return i
    return -1


@njit(cache=True)
def step_rules(S, R, rng, opts, actions, rewards, terminated, truncated):
    """Play ``actions[i]`` (legal: checked before) for slot ``i``'s acting seat in every slot;
    rewards are the step's return changes; a finished game restarts in the same step."""
    deal_mode = opts[O_DEAL] != 0
    forehand = opts[O_FOREHAND] != 0
    left_leads = opts[O_LEFT] != 0
    defenders = opts[O_DEFENDERS] != 0
    per_point = deal_mode or opts[O_POINTS] != 0
    max_deals = opts[O_MAX_DEALS]
    deck = np.empty(32, np.int64)
    for i in range(S.shape[0]):
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        rewards[i, 2] = 0.0
        rewards[i, 3] = 0.0
        terminated[i] = False
        truncated[i] = False
        p = S[i, TO_ACT]
        a = actions[i]
        S[i, DECISIONS] += 1
        if S[i, PHASE] == CALL:
            dealer = S[i, DEALER]
            first = (dealer + 1) & 3
            if a == 36:  # pass
                S[i, CALLS + p] = 4
                nxt = (p + 1) & 3
                if nxt != first:
                    S[i, TO_ACT] = nxt
                    continue
                S[i, TRUMP] = 4
                leader = first if left_leads else dealer
            else:
                suit = a - 32
                S[i, CALLS + p] = suit
                S[i, TRUMP] = suit
                S[i, CALLER] = p
                if forehand:  # 4 more cards each, in the same seat order
                    for k in range(4):
                        bits = 0
                        for c in range(4 * k, 4 * k + 4):
                            bits |= 1 << S[i, UNDEALT + c]
                            S[i, UNDEALT + c] = -1
                        S[i, HANDS + ((first + k) & 3)] |= bits
                    S[i, NUNDEALT] = 0
                leader = p
            S[i, PHASE] = PLAY
            S[i, LEADER] = leader
            S[i, TO_ACT] = leader
            continue
        # play a card
        trump = S[i, TRUMP]
        S[i, HANDS + p] &= ~(1 << a)
        suit = EFF[trump, a]
        n = S[i, NTRICK]
        if n == 0:
            S[i, LED] = suit
            if forehand and S[i, TRICK_NO] == 0 and suit != trump and trump < 4:
                S[i, VOIDS + p] |= 1 << trump  # leading a non-trump shows no trump held
        elif suit != S[i, LED]:
            S[i, VOIDS + p] |= 1 << S[i, LED]
        S[i, TRICK + n] = a
        n += 1
        if n < 4:
            S[i, NTRICK] = n
            S[i, TO_ACT] = (p + 1) & 3
            continue
        # the trick is complete
        led = S[i, LED]
        leader = S[i, LEADER]
        best = -1000
        best_k = 0
        for k in range(4):
            strength = STR[trump, led, S[i, TRICK + k]]
            if strength > best:
                best = strength
                best_k = k
        winner = (leader + best_k) & 3
        S[i, TRICKS + (winner & 1)] += 1
        h = HISTORY + 5 * S[i, TRICK_NO]
        S[i, h] = leader
        for k in range(4):
            S[i, h + 1 + k] = S[i, TRICK + k]
            S[i, PLAYED + ((leader + k) & 3)] |= 1 << S[i, TRICK + k]
            S[i, TRICK + k] = -1
        S[i, NTRICK] = 0
        S[i, LED] = -1
        S[i, TRICK_NO] += 1
        S[i, LEADER] = winner
        S[i, TO_ACT] = winner
        if S[i, TRICK_NO] < 8:
            continue
        # the deal is over: score it (scoring.deal_scorer / score_deal)
        S[i, DEALS] += 1
        team = -1
        category = 0
        if trump == 4:
            if S[i, TRICKS] >= 5:
                team, category = 0, 1
            elif S[i, TRICKS + 1] >= 5:
                team, category = 1, 1
        else:
            calling = S[i, CALLER] & 1
            if S[i, TRICKS + calling] >= 5:
                team, category = calling, 0
            elif defenders:
                team, category = 1 - calling, 2
        amount = 0.0
        over = False
        if team >= 0:
            S[i, POINTS + team] -= 1
            S[i, TALLY + 3 * team + category] += 1
            if per_point:
                amount = 1.0
            if S[i, POINTS + team] == 0 and not deal_mode:
                amount += 1.0
                over = True
                terminated[i] = True
        if deal_mode:
            over = True
            terminated[i] = True
        elif not over and S[i, DEALS] >= max_deals:
            over = True
            truncated[i] = True
        if amount != 0.0:
            for s in range(4):
                delta = amount if (s & 1) == team else -amount
                rewards[i, s] = delta
                R[i, s] += delta
        if over:
            _new_game(S, R, rng, opts, i, deck)
        else:
            S[i, DEALER] = (S[i, DEALER] + 1) & 3
            _deal(S, rng, i, forehand, deck)
    return -1


@njit(cache=True)
def step(S, R, rng, opts, actions, obs, mask, seat, rewards, terminated, truncated):
    """Validate every action, then play them and write the next decisions: the slot of the
    first illegal action (nothing changed), or -1."""
    bad = first_illegal(S, opts, actions)
    if bad >= 0:
        return bad
    step_rules(S, R, rng, opts, actions, rewards, terminated, truncated)
    write_decisions(S, opts, obs, mask, seat, 0, S.shape[0])
    return -1


@njit(cache=True)
def global_states(S, opts, out):
    """``State.global_state()`` of every slot (``STATE_SPEC``, absolute seats) into ``out``."""
    deal_mode = opts[O_DEAL] != 0
    start = np.float64(opts[O_START])
    max_deals = np.float64(opts[O_MAX_DEALS])
    for i in range(S.shape[0]):
        for k in range(STATE_SIZE):
            out[i, k] = 0.0
        phase = S[i, PHASE]
        trump = S[i, TRUMP]
        leader = S[i, LEADER]
        for s in range(4):
            hand = S[i, HANDS + s]
            played = S[i, PLAYED + s]
            for c in range(32):
                out[i, GS_HANDS + 32 * s + c] = np.float32((hand >> c) & 1)
                out[i, GS_PLAYED + 32 * s + c] = np.float32((played >> c) & 1)
            v = S[i, VOIDS + s]
            for u in range(4):
                out[i, GS_VOID + 4 * s + u] = np.float32((v >> u) & 1)
            call = S[i, CALLS + s]
            if call >= 0:
                out[i, GS_CALLS + 5 * s + call] = 1.0
        if trump >= 0:
            out[i, GS_TRUMP + trump] = 1.0
            caller = S[i, CALLER]
            out[i, GS_CALLER + (caller if caller >= 0 else 4)] = 1.0
        out[i, GS_DEALER + S[i, DEALER]] = 1.0
        for k in range(S[i, NTRICK]):
            out[i, GS_TRICK + 32 * ((leader + k) & 3) + S[i, TRICK + k]] = 1.0
        if phase == PLAY:
            out[i, GS_LEADER + leader] = 1.0
            out[i, GS_TNO + S[i, TRICK_NO]] = 1.0
        for t in range(2):
            out[i, GS_WON + 9 * t + S[i, TRICKS + t]] = 1.0
            out[i, GS_POINTS + t] = np.float32(S[i, POINTS + t] / start)
        out[i, GS_PHASE + phase] = 1.0
        if not deal_mode:
            out[i, GS_DEALS] = np.float32(S[i, DEALS] / max_deals)
        first = (S[i, DEALER] + 1) & 3
        for k in range(S[i, NUNDEALT]):  # dealt 4 at a time from the dealer's left
            out[i, GS_DEALT + 32 * ((first + k // 4) & 3) + S[i, UNDEALT + k]] = 1.0
        if phase != OVER:
            out[i, GS_TO_ACT + S[i, TO_ACT]] = 1.0


@njit(cache=True)
def step_rows(S, R, rng, opts, actions, rows, obs, mask, seat, rewards, terminated, truncated):
    """Play ``actions[i]`` (legal: checked before) in every row ``i`` of ``rows`` and write its
    next decision; every other row gets zero rewards and no ending."""
    rewards[:] = 0.0
    terminated[:] = False
    truncated[:] = False
    for k in range(rows.shape[0]):
        i = rows[k]
        j = i + 1
        step_rules(S[i:j], R[i:j], rng[i:j], opts, actions[i:j], rewards[i:j],
                   terminated[i:j], truncated[i:j])
        write_decisions(S[i:j], opts, obs[i:j], mask[i:j], seat[i:j], 0, 1)
