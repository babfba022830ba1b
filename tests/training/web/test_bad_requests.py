"""The web app against bad and hostile requests: hundreds of generated cases over every endpoint
(malformed bodies, wrong field types, unknown fields, files named in seat specs, budgets and
game options past the limits, malformed records, foreign Host and Origin, missing JSON type or
token). Every one is a 4xx with an ``{"error": ...}`` message, changes no game, creates none,
opens no file a request names, and names nothing hidden from the human seat of the game in
play. Also: the game-keeping policy (a cap and idle expiry, never dropping a game in play), a
watched game's keyframes, the bounded "end", and the command line's ``--state`` reading."""

from __future__ import annotations

import contextlib
import json
import shutil
import time
from pathlib import Path

import pytest

from tablezoo import envs
from tests.training.web.hidden import hidden_names, leaked

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from tablezoo.agents.learned import policy
from tablezoo.training.web.limits import Limits
from tablezoo.training.web.replay import seeded_game
from tablezoo.training.web.server import create_app
from tablezoo.training.web.sessions import new_session
from tests.training.web.clients import ORIGIN, page_client

LIMITS = Limits(body_bytes=300_000, games=60)
JUNK = [None, True, -1, 0.5, 10**30, "", "x" * 300, "ü♥", [], [1], {}, {"a": 1}]
RAW = [b"", b"{", b"not json", b"[" * 5000 + b"]" * 5000, b'{"a": [' * 40 + b"]}" * 40,
       b'{"a": ' + b"1" * 5000 + b"}", b'{"a": NaN}', b'{"a": -Infinity}', b'{"a": 1e999}',
       b'"\xff\xfe"', b'{"a": "\\ud800"}', b'{"\\udfff": 1}', b"[1, 2]", b"3", b"null",
       b'"text"', b"{}" + b" " * (LIMITS.body_bytes + 1)]
SEATS = [
    "policy:/etc/passwd", "policy:{tmp}/evil.zip", "trained:/etc/passwd", "trained:{tmp}/card",
    "trained:path={tmp}/card", "trained:" + "a" * 5000, "rllib:{tmp}", "model:nope",
    "model:../../etc/passwd", "random:path=/etc/passwd", "ismcts:playout=policy:/etc/passwd",
    "ismcts:prior=/etc/passwd", "ismcts:iterations=10000000", "ismcts:seconds=1000",
    "ismcts:max_nodes=1000000000", "ismcts:belief_tries=1000000", "flat_search:rollouts=10000000",
    "search:rollouts=1000000000", "ismcts:iterations=nan", "ismcts:iterations=-1",
    "ismcts:iterations=1e400", "ismcts:exploration=1e300", "heuristic:x=1", "trained:num_players=9",
    "genius", "", "human:x=1", "x" * 201, "ismcts:iterations=" + "9" * 5000, "random,random",
]
OPTIONS = [
    ("bauer_trick_v0", {"max_deals": 10**30, "start_score": 10**30}),
    ("bauer_trick_v0", {"max_deals": 10**6}), ("bauer_trick_v0", {"max_deals": "1e30"}),
    ("bauer_trick_v0", {"start_score": -1}), ("ethnos_v0", {"max_decisions": 10**9}),
    ("ethnos_v0", {"num_players": 10**30}), ("ethnos_v0", {"band_glory": [1] * 10**4}),
    ("ethnos_v0", {"tribes": ["x"] * 1000}), ("bauer_draft_v0", {"num_players": "99"}),
    ("bower_v0", {"hands_public": "maybe"}), ("bower_v0", {"x" * 300: 1}),
    ("ethnos_v0", {"band_glory": [10**39] * 6}), ("ethnos_v0", {"orc_glory": [10**39] * 6}),
    ("ethnos_v0", {"giant_bonus_4_6": [10**39] * 3}), ("ethnos_v0", {"giant_claim_glory": 10**39}),
    ("ethnos_v0", {"marker_limit": 10**39}), ("bauer_trick_v0", {"start_score": 10**39}),
]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("bad")
    (tmp / "evil.zip").write_bytes(b"PK not a model: a pickle would run here")
    (tmp / "card.json").write_text(json.dumps({"num_players": 7, "env": "SECRET_ENV",
                                               "format": "SECRET_FORMAT"}))
    (tmp / "card.npz").write_bytes(b"SECRET_BYTES")
    models = tmp / "models"
    models.mkdir()
    (models / "broken.npz").write_bytes(b"SECRET_MODEL")
    (models / "broken.json").write_text('{"env": "SECRET_ENV"}')
    for suffix in (".npz", ".json"):
        shutil.copy(policy.PRETRAINED_DIR / f"bower_2p{suffix}", models / f"mine{suffix}")
    app = create_app(limits=LIMITS, models=[models])
    client = page_client(app)
    play = client.post("/api/games", json={"env": "bauer_trick_v0", "seed": 5,
                                           "options": {"episode": "deal"},
                                           "seats": ["human", "random", "random", "random"]})
    watch = client.post("/api/games", json={"env": "bower_v0", "seats": ["random", "heuristic"],
                                            "seed": 4})
    tournament = {"env": "bower_v0", "games": 4, "seed": 0, "agents": ["random", "heuristic"]}
    replay = client.post("/api/replays", json={"record": json.dumps(tournament), "game": 1})
    for answer in (play, watch, replay):
        assert answer.status_code == 201, answer.text
    return {"app": app, "client": client, "tmp": tmp, "play": play.json(),
            "watch": watch.json(), "replay": replay.json(), "tournament": tournament}


def fingerprint(app) -> str:
    """Everything a refused request must leave as it was: every game's position, moves,
    watched position and pending answers, and the set of games."""
    games = app.state.sessions.games
    return json.dumps({key: [s.state.to_dict(), s.decisions, s.cursor, len(s.joints),
                             sorted(s.pending.items())] for key, s in games.items()},
                      sort_keys=True, default=str)


@pytest.fixture(scope="module")
def check(world):
    """``check(answer)``: a 4xx naming the problem, nothing hidden, nothing changed."""
    app = world["app"]
    session = app.state.sessions.get(world["play"]["game"])
    hidden = hidden_names(session.state, 0)
    assert hidden
    before = fingerprint(app)
    seen = []

    def check(answer, *words: str, case: str = "") -> None:
        assert 400 <= answer.status_code < 500, f"{case}: {answer.text[:500]}"
        message = answer.json()["error"]
        assert isinstance(message, str) and message
        for word in words:
            assert word in message, message
        assert not leaked(answer.text, hidden), answer.text[:500]
        for secret in ("SECRET", "root:", "/etc/passwd:"):
            assert secret not in message, message
        assert fingerprint(app) == before
        seen.append(answer.status_code)

    check.seen = seen
    return check


def post(client, url, body):
    if isinstance(body, bytes):
        return client.post(url, content=body, headers={"Content-Type": "application/json"})
    return client.post(url, json=body)


def field_cases(valid: dict, allowed_junk: dict | None = None) -> list[tuple[str, object]]:
    """``valid`` with each field replaced by each junk value, left out, or joined by an
    unknown field; and bodies that are no object."""
    cases: list[tuple[str, object]] = []
    allowed_junk = allowed_junk or {}
    for key in valid:
        for junk in JUNK:
            if repr(junk) in map(repr, allowed_junk.get(key, ())):
                continue
            cases.append((f"{key}={junk!r}"[:60], {**valid, key: junk}))
        if key not in allowed_junk.get("may_miss", ()):
            cases.append((f"no {key}", {k: v for k, v in valid.items() if k != key}))
    cases.append(("unknown field", {**valid, "hint": 1}))
    cases.append(("long unknown field", {**valid, "h" * 5000: 1}))
    cases.extend((f"raw {raw[:20]!r}", raw) for raw in RAW)
    return cases


def endpoints(world) -> dict[str, tuple[dict, dict]]:
    play, watch = world["play"], world["watch"]
    legal = play["view"]["menu"]["labels"][0][0]
    return {
        "/api/games": ({"env": "bower_v0", "options": {}, "seats": ["human", "random"],
                        "seed": 3}, {"options": [None, {}], "seed": [None],
                                     "may_miss": ["options", "seed"]}),
        f"/api/games/{play['game']}/move": ({"seat": 0, "token": play["tokens"]["0"],
                                             "action": legal,
                                             "counter": play["view"]["counter"]}, {}),
        f"/api/games/{watch['game']}/step": ({"go": "next", "counter": 0}, {}),
        "/api/replays": ({"record": json.dumps(world["tournament"]), "game": 1},
                         {"may_miss": ["game"]}),  # game 0 by default
    }


def test_every_malformed_body_on_every_endpoint_is_a_4xx_and_changes_nothing(world, check):
    client = world["client"]
    count = 0
    for url, (valid, allowed) in endpoints(world).items():
        for label, body in field_cases(valid, allowed):
            check(post(client, url, body), case=f"{url} {label}")
            count += 1
    for junk in JUNK:  # a saved position that is none
        check(client.post("/api/games", json={"state": junk, "seats": ["human", "random"]}))
    assert count > 200
    assert 413 in check.seen and 400 in check.seen


@pytest.mark.parametrize("env", envs.ENVS)
def test_a_saved_position_with_any_field_broken_opens_or_is_a_4xx(env):
    """Each field of a saved position replaced by a value of another kind: never a 5xx."""
    app = create_app(limits=LIMITS)
    client = page_client(app)
    game = envs.make_game(env)
    saved = json.loads(json.dumps(game.new_state(3).to_dict()))
    seats = ["random"] * game.num_players
    statuses = []
    for key in saved:
        for junk in [None, "x", -1, 10**30, [], {}, [[1]], 1.5, True]:
            answer = client.post("/api/games", json={"state": {**saved, key: junk},
                                                     "seats": seats})
            assert answer.status_code == 201 or 400 <= answer.status_code < 500, \
                f"{key}={junk!r}: {answer.text[:300]}"
            statuses.append(answer.status_code)
            app.state.sessions.games.clear()
    assert 400 in statuses


def test_files_named_in_seat_specs_are_never_opened(world, check, monkeypatch):
    opened = []
    for name in ("load_policy", "load_model_file"):
        real = getattr(policy, name)
        monkeypatch.setattr(policy, name, lambda path, *a, _real=real, **k: (
            opened.append(Path(path)), _real(path, *a, **k))[1])
    client, tmp = world["client"], world["tmp"]
    for spec in SEATS:
        spec = spec.replace("{tmp}", str(tmp))
        for seats in ([spec, "random"], ["human", spec]):
            check(client.post("/api/games", json={"env": "bower_v0", "seats": seats}))
    models = (tmp / "models").resolve()
    assert all(p.resolve().is_relative_to(policy.PRETRAINED_DIR.resolve())
               or p.resolve().is_relative_to(models) for p in opened), opened
    check(client.post("/api/games", json={"env": "bower_v0",
                                          "seats": ["human", "model:broken"]}),
          "model 'broken' cannot play bower_v0")


def test_the_users_models_are_offered_by_name_and_play(world):
    client = world["client"]
    catalog = client.get("/api/envs").json()
    assert "model:mine" in catalog["agents"] and "model:broken" in catalog["models"]
    assert not any("/" in a and a.startswith(("policy", "trained")) for a in catalog["agents"])
    answer = client.post("/api/games", json={"env": "bower_v0", "seats": ["model:mine",
                                                                          "random"]})
    assert answer.status_code == 201, answer.text
    step = client.post(f"/api/games/{answer.json()['game']}/step",
                       json={"go": "next", "counter": 0})
    assert step.status_code == 200 and step.json()["frame"] == 1
    assert str(world["tmp"]) not in answer.text + step.text
    world["app"].state.sessions.games.pop(answer.json()["game"])


def test_options_that_grow_the_game_past_the_limits_are_refused(world, check):
    client = world["client"]
    for env, options in OPTIONS:
        n = envs.make_game(env).num_players
        check(client.post("/api/games", json={"env": env, "options": options,
                                              "seats": ["random"] * n}))
    check(client.post("/api/games", json={"env": "bauer_trick_v0", "seats": ["random"] * 4,
                                          "options": {"max_deals": 10**5}}),
          "at most 10000")
    check(client.post("/api/games", json={"env": "bauer_trick_v0", "seats": ["random"] * 4,
                                          "options": {"max_deals": 10**30}}),
          "max_deals", "out of range")


def test_numbers_in_options_past_the_limit_are_refused_and_those_within_play_to_the_end(
        world, check):
    """Ethnos took a glory of 10**39 and then could not draw its table (a 500 at the first
    step); a number within the limit plays to the end and draws every position."""
    client = world["client"]
    for options in ({"giant_claim_glory": 10**7}, {"band_glory": [1, 2, 3, 4, 5, 10**39]}):
        check(client.post("/api/games", json={"env": "ethnos_v0", "options": options,
                                              "seats": ["random"] * 4}),
              "out of range", "at most 1e+06")
    big = {"band_glory": [10**6] * 6, "giant_claim_glory": 10**6, "marker_limit": 10**6}
    answer = client.post("/api/games", json={"env": "ethnos_v0", "options": big, "seed": 2,
                                             "seats": ["random"] * 4})
    assert answer.status_code == 201, answer.text
    game = answer.json()["game"]
    view = client.post(f"/api/games/{game}/step", json={"go": "end", "counter": 0})
    assert view.status_code == 200 and view.json()["over"], view.text[:300]
    assert max(view.json()["result"]["scores"]) > 10**6
    world["app"].state.sessions.games.pop(game)


def test_a_search_agent_keeps_at_most_its_memory_limit_of_statistics(world, check):
    """A given max_nodes is held to the same memory limit as the default (bower's nodes hold
    648 actions each: 400,000 of them were some 6 GB)."""
    client = world["client"]
    check(client.post("/api/games", json={"env": "bower_v0",
                                          "seats": ["ismcts:max_nodes=400000", "random"]}),
          "max_nodes=400000 is over", "bower_v0")
    answer = client.post("/api/games", json={"env": "bower_v0",
                                             "seats": ["ismcts:max_nodes=1000", "random"]})
    assert answer.status_code == 201, answer.text
    world["app"].state.sessions.games.pop(answer.json()["game"])


def test_a_refused_shipped_model_names_no_folder_of_the_server(world, check):
    client = world["client"]
    for seat in ("trained", "ismcts:playout=trained"):
        answer = client.post("/api/games", json={"env": "ethnos_v0", "options": {
            "num_players": 6}, "seats": [seat] + ["random"] * 5})
        check(answer, "no shipped model for ethnos_v0 with 6 players", "the shipped models")
        assert str(policy.PRETRAINED_DIR) not in answer.text and "/pretrained" not in answer.text


def test_no_other_site_may_frame_the_page_or_sniff_an_answer(world):
    from starlette.testclient import TestClient

    client, play = world["client"], world["play"]
    foreign = TestClient(world["app"], base_url="http://attacker.example")
    for answer in (client.get("/"), client.get("/static/app.js"), client.get("/api/envs"),
                   client.get(f"/api/games/{play['game']}"), foreign.get("/"),
                   client.post("/api/games", json={"env": "chess"})):
        assert answer.headers["x-frame-options"] == "DENY", answer.headers
        assert answer.headers["content-security-policy"] == "frame-ancestors 'none'"
        assert answer.headers["x-content-type-options"] == "nosniff"


def test_a_field_given_twice_is_refused_on_every_endpoint(world, check):
    """JSON leaves open which of two equal keys counts (Python's parser took the last, so a
    junk first value passed): the body is refused, naming the field."""
    client = world["client"]
    for url, (valid, _) in endpoints(world).items():
        for key in valid:
            for first, last in (("junk", valid[key]), (valid[key], "junk")):
                text = "{" + ", ".join([f"{json.dumps(key)}: {json.dumps(first)}"] + [
                    f"{json.dumps(k)}: {json.dumps(v)}" for k, v in valid.items() if k != key]
                    + [f"{json.dumps(key)}: {json.dumps(last)}"]) + "}"
                check(post(client, url, text.encode()), "given twice", repr(key))
    nested = {"env": "bower_v0", "seats": ["random", "random"]}
    text = json.dumps(nested)[:-1] + ', "options": {"reward": "egg_diff", "reward": "x"}}'
    check(post(client, "/api/games", text.encode()), "given twice", "'reward'")


def test_a_body_sent_too_slowly_is_refused_with_408():
    """A body trickled a byte at a time held its request for ever (slowloris)."""
    import asyncio

    from tablezoo.training.web.errors import WebError
    from tablezoo.training.web.request_checks import read_body

    class Trickle:
        headers = {"content-length": "100"}

        async def stream(self):
            for _ in range(100):
                yield b" "
                await asyncio.sleep(0.05)

    t0 = time.monotonic()
    with pytest.raises(WebError) as refused:
        asyncio.run(read_body(Trickle(), Limits(body_s=0.3)))
    assert refused.value.status == 408 and "within 0.3 s" in refused.value.message
    assert time.monotonic() - t0 < 2
    assert asyncio.run(read_body(Trickle(), Limits(body_s=30))) == b" " * 100


def records(header: dict, *games: dict) -> str:
    return "\n".join(json.dumps(x) for x in ({"run": header}, *games))


def record_cases(tournament: dict) -> list[object]:
    run = {"env": "bower_v0", "env_options": {}, "hero": "heuristic", "opponent": "random",
           "seed": 40}
    line = {"game": 0, "seed": 40, "seat": 0, "reward": 1.0}
    cases: list[object] = [
        records([1], line), records("x", line), records({**run, "env_options": [1, 2]}, line),
        records({k: v for k, v in run.items() if k != "opponent"}, line),
        records(run, {**line, "seed": "x"}), records(run, {**line, "seed": 1.5}),
        records(run, {**line, "game": "0"}), records(run, {**line, "game": [0]}),
        records(run, {**line, "seat": 9}), records(run, {k: v for k, v in line.items()
                                                         if k != "seat"}),
        records({**run, "hero": "ismcts:iterations=10000000"}, line),
        records({**run, "hero": "runs/x/model.zip"}, line),
        records({**run, "opponent": "/etc/passwd.npz"}, line),
        records({**run, "partner": 3}, line), records({**run, "env": "chess"}, line),
        records({**run, "env_options": {"max_deals": 10**30}}, line),
        "{}", "[]", "not json\n{also not}", json.dumps({"run": {}}) + "\n[1]",
        "[" * 100_000 + "]" * 100_000, '{"run": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"run": {"env": ' + "1" * 5000 + "}}", '{"agents": ' + "1" * 5000 + "}",
        records({**run, "hero": "\ud800"}, line), records({**run, "env": "\udfff"}, line),
        records({**run, "hero": "random:\ud800=1"}, line),
        json.dumps({**tournament, "agents": ["random", "heuristic:\ud800=1"]}),
    ]
    for key, junk in [("agents", []), ("agents", [1, 2]), ("agents", None),
                      ("agents", ["random"]), ("agents", ["policy:/etc/passwd", "random"]),
                      ("games", 10**7), ("games", 0), ("games", "4"), ("seed", -1),
                      ("seed", "x"), ("env", None), ("env_options", [1]),
                      ("env_options", {"max_deals": 10**30})]:
        cases.append(json.dumps({**tournament, key: junk}))
    for key in ("env", "games", "seed", "agents"):
        cases.append(json.dumps({k: v for k, v in tournament.items() if k != key}))
    cases.append(json.dumps({**tournament, "env": "bauer_trick_v0", "games": 10**7}))
    for junk in JUNK:
        for key in ("env", "hero", "opponent", "seed"):
            cases.append(records({**run, key: junk} if key != "seed" else run,
                                 {**line, "seed": junk} if key == "seed" else line))
    return cases


def test_every_malformed_record_is_a_4xx(world, check):
    client = world["client"]
    for text in record_cases(world["tournament"]):
        check(client.post("/api/replays", json={"record": text, "game": 0}))
    for game in (-1, 10**6, 10**30, "0", [0], 0.0, True):
        check(client.post("/api/replays", json={"record": json.dumps(world["tournament"]),
                                                "game": game}))


def test_bad_views_and_pages_are_4xx(world, check):
    client, play, watch = world["client"], world["play"], world["watch"]
    base, token = f"/api/games/{play['game']}", play["tokens"]["0"]
    for query in ("", "?seat=x", "?seat=-1", "?seat=99", "?seat=٣", "?seat=1e3",
                  "?seat=99999999999999999999", f"?seat=1&token={token}", "?seat=0",
                  "?seat=0&token=", "?seat=0&token=%C3%BC", "?seat=0&token=" + "a" * 5000,
                  f"?seat=0&token={token}&extra=1", f"?seat=0&token={token[:-1]}"):
        check(client.get(base + query))
    check(client.get(f"/api/games/{watch['game']}?seat=0&token=x"))
    for game in ("0" * 16, "x" * 5000, "%00", "..%2F..%2Fetc%2Fpasswd", "ü"):
        check(client.get(f"/api/games/{game}"))
    for path in ("/api/nothing", "/static/../server.py", "/static/%2e%2e/server.py",
                 "/static/nothing.js", "/api/games/" + play["game"] + "/nothing"):
        check(client.get(path))
    check(client.get("/api/games"))  # only POST
    check(client.post(f"/api/games/{play['game']}/step", json={"go": "next", "counter": 0}))
    check(client.post(f"/api/games/{watch['game']}/move", json={"seat": 0, "token": "x",
                                                                "action": 0, "counter": 0}))


def test_foreign_hosts_and_origins_and_unsigned_changes_are_refused(world, check):
    from starlette.testclient import TestClient

    app, play = world["app"], world["play"]
    bodies = endpoints(world)
    gets = ["/", "/api/envs", "/static/app.js",
            f"/api/games/{play['game']}?seat=0&token={play['tokens']['0']}"]
    for host in ("attacker.example", "127.0.0.1.attacker.example", "localhost.evil",
                 "10.0.0.1", "0.0.0.0"):
        foreign = TestClient(app, base_url=f"http://{host}:8765",
                             headers={"Origin": f"http://{host}:8765"})
        for url in gets:
            check(foreign.get(url), "Host")
        for url, (valid, _) in bodies.items():
            check(foreign.post(url, json=valid), "Host")
    local = TestClient(app, base_url=ORIGIN)
    for origin in ("http://attacker.example", "null", "http://127.0.0.1:9999",
                   "https://localhost:8765", ORIGIN + ".evil"):
        for url in gets:
            check(local.get(url, headers={"Origin": origin}), "cross-origin")
        for url, (valid, _) in bodies.items():
            check(local.post(url, json=valid, headers={"Origin": origin}), "cross-origin")
    for url, (valid, _) in bodies.items():
        text = json.dumps(valid)
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                     "", "application/jsonx"):
            check(local.post(url, content=text, headers={"Origin": ORIGIN,
                                                         "Content-Type": kind}),
                  "application/json")
        check(local.post(url, json=valid), "token")  # a script without the token
        for token in (b"token nope", b"token \xc3\xbc", b"Bearer " + app.state.token.encode(),
                      b"token", b"token " + b"a" * 5000):
            check(local.post(url, json=valid, headers={"Authorization": token}), "token")
    with_token = TestClient(app, base_url=ORIGIN,
                            headers={"Authorization": f"token {app.state.token}"})
    answer = with_token.post("/api/replays", json=bodies["/api/replays"][0])
    assert answer.status_code == 201, answer.text
    app.state.sessions.games.pop(answer.json()["game"])


def test_no_game_in_play_is_dropped_for_new_ones():
    """The cap refuses new games (503) rather than drop one in play; an idle game expires;
    a finished game idle for a while makes room."""
    limits = Limits(games=3, idle_s=600, over_idle_s=30)
    app = create_app(limits=limits)
    client = page_client(app)
    body = {"env": "bauer_draft_v0", "options": {"num_players": 2}, "seats": ["human", "random"]}
    games = [client.post("/api/games", json=body).json() for _ in range(3)]
    full = client.post("/api/games", json=body)
    assert full.status_code == 503 and "keeps 3 games" in full.json()["error"]
    for game in games:
        url = f"/api/games/{game['game']}?seat=0&token={game['tokens']['0']}"
        assert client.get(url).status_code == 200
    store = app.state.sessions
    store.games[games[0]["game"]].used -= limits.idle_s + 1  # nobody asked for ten minutes
    store.games.move_to_end(games[0]["game"], last=False)
    assert client.post("/api/games", json=body).status_code == 201
    assert client.get(f"/api/games/{games[0]['game']}").status_code == 404
    watched = {"env": "bauer_draft_v0", "options": {"num_players": 2},
               "seats": ["random", "random"]}
    assert client.post("/api/games", json=watched).status_code == 503
    finished = store.games[games[1]["game"]]
    while not finished.over():  # play it to the end
        view = finished.view(0)
        client.post(f"/api/games/{games[1]['game']}/move", json={
            "seat": 0, "token": games[1]["tokens"]["0"], "counter": view["counter"],
            "action": view["menu"]["labels"][0][0]}).raise_for_status()
    assert client.post("/api/games", json=watched).status_code == 503  # finished just now
    finished.used -= limits.over_idle_s + 1
    store.games.move_to_end(games[1]["game"], last=False)
    assert client.post("/api/games", json=watched).status_code == 201
    assert games[1]["game"] not in store.games and games[2]["game"] in store.games


def test_a_watched_game_keeps_keyframes_and_shows_every_position_as_played():
    limits = Limits(keyframe_every=8)
    app = create_app(limits=limits)
    client = page_client(app)
    specs = ["heuristic", "random", "random"]
    data = client.post("/api/games", json={"env": "bauer_draft_v0", "seats": specs, "seed": 11,
                                           "options": {"num_players": 3}}).json()
    step = f"/api/games/{data['game']}/step"
    view = client.post(step, json={"go": "end", "counter": 0}).json()
    assert view["over"]
    session = app.state.sessions.get(data["game"])
    played = seeded_game("bauer_draft_v0", {"num_players": 3}, specs, seed=11)
    assert session.frames == len(played) == view["frames"]
    assert sorted(session.keyframes) == list(range(0, len(played), 8))
    for index in [*range(len(played)), 3, 0, len(played) - 1, 8, 16, 7]:
        state, last = session.frame(index)
        assert state.to_dict() == played[index].state.to_dict(), index
        assert (last and last.to_dict()) == (played[index].last and played[index].last.to_dict())
    view = client.post(step, json={"go": "start", "counter": view["frame"]}).json()
    view = client.post(step, json={"go": "next", "counter": 0}).json()
    assert view["frame"] == 1 and view["svg"] == played[1].state.to_svg(None, played[1].last)


def test_end_of_a_watched_game_plays_on_for_a_bounded_time():
    app = create_app(limits=Limits(step_s=0.2))
    client = page_client(app)
    data = client.post("/api/games", json={"env": "bauer_trick_v0",
                                           "seats": ["ismcts:iterations=50"] * 4}).json()
    t0 = time.monotonic()
    view = client.post(f"/api/games/{data['game']}/step", json={"go": "end",
                                                                "counter": 0}).json()
    assert not view["over"] and 1 < view["frames"] < 3600
    assert time.monotonic() - t0 < 30  # one move past the time, not the whole game


def test_a_request_waits_for_slow_agents_at_most_its_limit():
    limits = Limits(wait_s=0.01, busy_s=0.01)
    app = create_app(limits=limits)
    client = page_client(app)
    session = new_session({"env": "bauer_trick_v0", "seats": ["ismcts:iterations=300"] * 4},
                          limits)
    game = app.state.sessions.add(session).id
    answer = client.post(f"/api/games/{game}/step", json={"go": "next", "counter": 0})
    assert answer.status_code == 503 and "still thinking" in answer.json()["error"]
    deadline = time.monotonic() + 120
    while True:
        view = client.get(f"/api/games/{game}")
        if view.status_code == 200 and view.json()["frames"] == 2:
            break
        assert view.status_code == 503 and time.monotonic() < deadline, view.text
        time.sleep(0.05)


@pytest.mark.parametrize(("content", "words"), [
    (None, "not a regular file"),
    (b"[" * 100_000 + b"]" * 100_000, "nested deeper than"),
    (b"[" * 100 + b"]" * 100, "nested deeper than"),
    (b'{"a": ' + b"1" * 5000 + b"}", "not JSON"),
    (b"\xff\xfe", "not UTF-8"),
    (b"{", "not JSON"),
])
def test_the_command_line_reads_only_a_small_regular_state_file(tmp_path, capsys, content,
                                                                 words):
    from tablezoo.training.cli import play

    path = Path("/dev/zero") if content is None else tmp_path / "state.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(SystemExit):
        play.main(["--state", str(path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert words in err[-1] and str(path) in err[-1] and "Traceback" not in "\n".join(err)


def test_the_command_line_refuses_a_state_file_over_its_size(tmp_path, capsys, monkeypatch):
    from tablezoo.training.cli import play

    monkeypatch.setattr(play, "STATE_BYTES", 1000)
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"game": "bower", "pad": "x" * 2000}))
    with pytest.raises(SystemExit):
        play.main(["--state", str(path)])
    assert "over 1000 bytes" in capsys.readouterr().err


def test_tablezoo_serve_stops_promptly_while_agents_think():
    """SIGTERM while a watched game's slow agents play on to the end: the server exits within
    seconds (its agents think in daemon threads and stop at their next move)."""
    import signal
    import socket
    import subprocess
    import sys
    import threading
    import urllib.error
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "tablezoo.training.cli.serve", "--port",
                             str(port), "--token", "secret-token"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"

    def call(path, body=None, **headers):
        request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json",
                                                  "Authorization": "token secret-token",
                                                  **headers})
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())

    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/api/envs", timeout=5).close()
                break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode()
                assert time.monotonic() < deadline, "tablezoo serve did not answer"
                time.sleep(0.2)
        with pytest.raises(urllib.error.HTTPError) as refused:
            call("/api/games", {}, Host="attacker.example")
        assert refused.value.code == 403
        game = call("/api/games", {"env": "bauer_trick_v0",
                                   "seats": ["ismcts:iterations=1000"] * 4})["game"]

        def play_to_the_end():
            with contextlib.suppress(OSError):  # the server stops under it
                call(f"/api/games/{game}/step", {"go": "end", "counter": 0})

        threading.Thread(target=play_to_the_end, daemon=True).start()
        time.sleep(1.0)  # the agents are thinking now
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        assert time.monotonic() - t0 < 15
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def test_the_agents_queue_is_bounded_and_a_late_new_game_is_not_made():
    import asyncio
    import threading

    from tablezoo.training.web.errors import WebError
    from tablezoo.training.web.worker import Worker

    worker = Worker(1, queue_limit=2)
    release, made = threading.Event(), []
    first = worker.submit(release.wait)
    asyncio.run(_late(worker, made))  # queued behind the first, dropped after its wait
    with pytest.raises(WebError, match="busy"):
        worker.submit(lambda: None)  # the first and the dropped one still count
    release.set()
    first.result(timeout=30)
    assert worker.submit(lambda: 7).result(timeout=30) == 7 and made == []
    worker.close()


async def _late(worker, made):
    from tablezoo.training.web.errors import WebError

    with pytest.raises(WebError, match="busy"):
        await worker.run(lambda: made.append(1), 0.05, drop_late=True)
