"""Tests of ``tablezoo.envs``: the suites here run over every registered env; each game's folder
(``bauer_trick/``, ``bauer_draft/``, ``bower/``, ``ethnos/``) follows one plan, after the game's
modules, so that a concern is found in one guess. A game has the files of the concerns it has.

``positions.py``               helpers, no tests: build positions, act on them, saved random states
``test_setup.py``              the pieces and their data file, a new game, player counts,
                               options (invalid ones refused)
``test_rules_<topic>.py``      the rules by topic; ``test_rules_examples.py`` the rules' worked
                               examples, ``test_rules_options.py`` what each option changes
``test_actions.py``            the action table; illegal actions refused by name, state unchanged
``test_scoring.py``            scores and breakdown, the end of the game, rewards
``test_observation.py``        what each seat observes (pieces, what is hidden), text views
``test_information.py``        ``determinize``: what it keeps, what it re-samples
``test_information_state.py``  the perfect-recall information state
``test_saving.py``             the saved form: round trips; malformed, odd, huge input refused
``test_invariants.py``         ``check()``: impossible positions refused by name, holds in random
                               games; legal masks cannot be corrupted
``test_env.py``                the game's own PettingZoo behaviour, ``env.state()`` (the
                               full-information global state)
``test_simulation.py``         seeded random games checked against the game's own invariants
``test_<module>.py``           a game's extra module (bauer_trick: ``test_symmetry.py``)
``compiled/``                  the compiled engine: ``test_replay.py`` (decision by decision
                               against the Python engine), ``replay.py`` and ``speed.py`` scripts
"""
