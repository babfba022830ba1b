"""Per-game records of an evaluation, appended as each game ends, so a long run can stop and resume.

A strength measurement of a search agent can take hours (100 ethnos games against
``flat_search`` are days of CPU on a small machine). ``tablezoo evaluate --records
FILE`` appends one JSON line per finished game to ``FILE``; run the same command again and it
plays only the games the file does not hold yet, then summarises all of them. The file's first
line names the run (env, options, agents, first seed); a file written by another run is refused
with both descriptions, so games of two different set-ups are never pooled by accident.

Format (JSON lines)::

    {"run": {"env": ..., "env_options": {...}, "hero": ..., "partner": ..., "opponent": ...,
             "seed": ...}}
    {"game": 0, "seed": 70000, "seat": 0, "reward": 1.0}
    {"game": 1, "seed": 70001, "seat": 1, "reward": -1.0, "cpu_s": [...], "iterations": [...]}

A duplicate run's header also holds ``"duplicate": true`` and ``plays_per_deal``; its games
``k`` share the seed of their deal, ``seed + k // plays_per_deal``.

``cpu_s`` and ``iterations`` (the evaluated agent's CPU seconds and search iterations per real
decision) are present when the run used ``--timing``. A last line cut short by a killed process
is dropped on reading (the game is played again).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

GAME_KEYS = ("game", "seed", "seat", "reward")


class RecordsError(ValueError):
    """A records file that cannot be resumed: another run's, or malformed."""


class GameRecords:
    """The records file of one evaluation run: what it already holds, and appending to it."""

    def __init__(self, path: Path, run: dict[str, Any]):
        self.path = Path(path)
        # through JSON and back, so the comparison with a file's header sees the same types
        self.run = json.loads(json.dumps(run))
        self.games: dict[int, dict[str, Any]] = {}
        if self.path.exists():
            self._read()
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._write_line({"run": self.run})

    def _read(self) -> None:
        text = self.path.read_text()
        if text and not text.endswith("\n"):
            # a process killed mid-write leaves a partial last line: cut it, replay that game
            text = text[: text.rfind("\n") + 1]
            self.path.write_text(text)
        lines = text.splitlines()
        if not lines:
            self._write_line({"run": self.run})
            return
        header = self._parse(lines[0], 1)
        if set(header) != {"run"}:
            raise RecordsError(f"records file {self.path}: line 1 must be the run header "
                               f'{{"run": {{...}}}}, found keys {sorted(header)}')
        if header["run"] != self.run:
            raise RecordsError(f"records file {self.path} belongs to another run:\n"
                               f"  file: {json.dumps(header['run'], sort_keys=True)}\n"
                               f"  this: {json.dumps(self.run, sort_keys=True)}\n"
                               "use another file, or the same options as the file's run")
        for number, line in enumerate(lines[1:], start=2):
            record = self._parse(line, number)
            self._check(record, number)
            self.games[record["game"]] = record

    def _parse(self, line: str, number: int) -> dict[str, Any]:
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordsError(f"records file {self.path}, line {number}: not JSON ({exc.msg})"
                               ) from None
        if not isinstance(value, dict):
            raise RecordsError(f"records file {self.path}, line {number}: expected a JSON "
                               f"object, found {type(value).__name__}")
        return value

    def _check(self, record: dict[str, Any], number: int) -> None:
        missing = [k for k in GAME_KEYS if k not in record]
        if missing:
            raise RecordsError(f"records file {self.path}, line {number}: missing "
                               f"{', '.join(missing)} (a game line has {', '.join(GAME_KEYS)})")
        game = record["game"]
        if type(game) is not int or game < 0:
            raise RecordsError(f"records file {self.path}, line {number}: game={game!r}; "
                               "expected an int >= 0")
        if record["seed"] != self.seed_of(game):
            raise RecordsError(f"records file {self.path}, line {number}: game {game} has seed "
                               f"{record['seed']}, expected {self.seed_of(game)}")
        reward = record["reward"]
        if isinstance(reward, bool) or not isinstance(reward, int | float) or \
                not math.isfinite(reward):
            raise RecordsError(f"records file {self.path}, line {number}: reward={reward!r}; "
                               "expected a finite number")
        if game in self.games:
            raise RecordsError(f"records file {self.path}, line {number}: game {game} is "
                               "recorded twice")

    def seed_of(self, game: int) -> int:
        """Game ``game``'s seed: the run's first seed plus the game, or plus its deal when the
        run plays duplicate deals (``plays_per_deal`` games a seed)."""
        return self.run["seed"] + game // self.run.get("plays_per_deal", 1)

    def add(self, game: int, seat: int, reward: float, cpu_s: list[float] | None = None,
            iterations: list[int] | None = None) -> None:
        """Record a finished game (written and flushed at once)."""
        record: dict[str, Any] = {"game": game, "seed": self.seed_of(game), "seat": seat,
                                  "reward": float(reward)}
        if cpu_s is not None:
            record["cpu_s"] = [round(s, 6) for s in cpu_s]
            record["iterations"] = list(iterations or [])
        self._write_line(record)
        self.games[game] = record

    def _write_line(self, value: dict[str, Any]) -> None:
        with self.path.open("a") as f:
            f.write(json.dumps(value) + "\n")
