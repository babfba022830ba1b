"""Ethnos (CMON 2016) for 2-6 players, all twelve tribes: ``ethnos_v0``.

Binding rules: ``shared/rules/ethnos.md``; full documentation (rules summary, every assumed
rule, options, observation and action tables, rewards, version history) in
``envs/ethnos/README.md``.
"""

from envs.ethnos.rules import EthnosGame

__all__ = ["EthnosGame"]
