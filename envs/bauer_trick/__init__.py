"""bauer_trick_v0 — Bauer, the Saarland partnership trick-taking game (Euchre family).

Rules: our binding specification, from a Japanese rules summary (README.md beside this). 4 players,
teams {0, 2} and {1, 3}; 32 cards (7-A), 8 each. From the dealer's left each player once names a
trump suit or passes; the first to name one is the caller and leads; if all pass the deal is
played without trump and the dealer leads (option ``no_trump_leader``). With trump T: Jack of T,
Jack of T's colour mate (the left Bauer, a trump for every purpose), A K Q 10 9 8 7 of T. Follow
the effective suit led if able. The calling team subtracts 1 point with 5+ of the 8 tricks (4-4:
nothing; option ``defenders_score_on_fail``); without trump the team with 5+ tricks subtracts 1.
Both teams start at 8 (``start_score``); the first team at 0 wins.

Assumed rules (also in ``envs/bauer_trick/README.md``): the first dealer is uniformly random;
any suit may be named, held or not; a no-trump 4-4 scores nothing; a game is truncated after
``max_deals`` deals (default 100; a win on the last deal is a termination); with
``trump_selection="forehand_on_four"`` the forced trump lead applies to trick 1 only and leading
a non-trump there marks the leader void in trump; ``determinize`` samples uniformly over the deals
that keep hand sizes and shown voids.

Agents: ``player_0`` .. ``player_3``; turn-based. Actions (37 + NOOP): 0-31 play card
``suit*8 + rank``, 32-35 name clubs/spades/hearts/diamonds as trump, 36 pass. Observation:
seat-relative float32 pieces (see the README table). Rewards: ``episode="game"``: +1/-1 to the
winning/losing team, 0 on truncation (``reward="points"``: also +1/-1 per point subtracted);
``episode="deal"``: +1/-1 to the team that subtracts in the one deal, 0 if nobody does.

Version history: v0, first release; rules review: ``determinize`` exactly uniform (was a biased
greedy deal); saved states are validated by ``State.check()`` (the invariants are listed in
``invariants``), legal masks are read-only, ``global_state`` is full information.
"""

from tablezoo.envs.bauer_trick.rules import BauerTrickGame, BauerTrickState

__all__ = ["BauerTrickGame", "BauerTrickState"]
