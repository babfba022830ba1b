"""End to end in a real headless browser: for every env, a person's seat plays a whole game by
clicks (cards, tiles and menu moves) against heuristic agents and reaches the final score, and
no answer the page receives holds a card, tile or egg hidden from that seat.

The test starts ``tablezoo serve``'s app on 127.0.0.1 (a free port, uvicorn in a thread) and
drives Debian's ``chromium`` through Playwright (``executable_path``; no ``playwright
install``). It skips, saying why, only where no browser is installed. Screenshots of each game
(after a few moves, and at the end) are written to the test's tmp folder, or to
``$TABLEZOO_SCREENSHOTS`` when set (the README's pictures come from there).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

from tests.training.web.hidden import hidden_names, leaked, scanned

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
GAMES = {  # short options: one deal, two players
    "bauer_trick_v0": {"episode": "deal"},
    "bauer_draft_v0": {"num_players": 2},
    "bower_v0": {"hands_public": False},
    "ethnos_v0": {"num_players": 2},
}
CLICKS = 400  # more than any of these games needs
# the click after which a mid-game screenshot is taken
MIDGAME = {"bauer_trick_v0": 4, "bauer_draft_v0": 6, "bower_v0": 14, "ethnos_v0": 40}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    uvicorn = pytest.importorskip("uvicorn")
    from tablezoo.training.web.server import create_app

    app = create_app()
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield app, f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no browser: {CHROMIUM} is not installed (Debian: apt-get install "
                    "chromium)")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def shots(tmp_path_factory) -> Path:
    folder = os.environ.get("TABLEZOO_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.mark.parametrize("env", list(GAMES))
def test_a_person_plays_a_whole_game_by_clicks(server, browser, env, tmp_path_factory):
    app, base = server
    sessions = app.state.sessions
    page = browser.new_page(viewport={"width": 1500, "height": 1050})
    answers: list = []
    page.on("response", lambda r: answers.append(r) if "/api/games" in r.url else None)
    checked = 0

    def check_answers() -> None:
        """The server changes a game only when asked, so its position now is the one each
        answer since the last click was made from."""
        nonlocal checked
        while answers:
            response = answers.pop(0)
            assert response.status < 400, response.text()
            data = json.loads(response.text())
            view = data.get("view", data)
            session = sessions.get(view["game"])
            names = hidden_names(session.state, 0)
            found = leaked(scanned(view, session.game.name), names)
            assert not found, f"{env}: an answer holds {found}, hidden from player_0"
            checked += 1

    folder = shots(tmp_path_factory)
    page.goto(base + "/")
    page.select_option("#env", env)
    for option, value in GAMES[env].items():
        field = page.locator(f'[data-option="{option}"]')
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(label=json.dumps(value))
        else:
            field.fill(str(value))
            field.dispatch_event("change")  # the seat list follows the player count
    seats = page.locator("#seats input")
    for i in range(seats.count()):
        seats.nth(i).fill("human" if i == 0 else "heuristic")
    page.fill("#seed", "5")
    with page.expect_response("**/api/games"):
        page.click("#start")
    page.wait_for_selector("#board svg")
    clicks = board_clicks = 0
    while True:
        check_answers()
        page.wait_for_selector("#menu button.move, #menu button.group, #result table.final")
        if page.locator("#result table.final").count():
            break
        assert clicks < CLICKS, f"{env}: no end after {clicks} clicks"
        views = page.evaluate("document.body.dataset.views")
        on_board = page.locator("#board [data-action]")
        if on_board.count() and clicks % 2 == 0:  # a card or tile on the picture itself
            target = on_board.first
            board_clicks += 1
        elif page.locator("#menu button.move").count():
            target = page.locator("#menu button.move").first
        else:
            page.locator("#menu button.group").first.click()
            target = page.locator("#menu button.move").first
        with page.expect_response("**/move"):
            target.click()
        page.wait_for_function("v => document.body.dataset.views !== v", arg=views)
        clicks += 1
        if clicks == MIDGAME[env]:
            page.screenshot(path=str(folder / f"{env.removesuffix('_v0')}.png"))
    check_answers()
    assert checked >= clicks and clicks > 3
    assert page.locator("#result table.final td").count() > 4
    assert "game over" in page.inner_text("#status")
    page.screenshot(path=str(folder / f"{env.removesuffix('_v0')}_final.png"))
    page.close()


def test_agents_are_watched_move_by_move_and_to_the_end(server, browser):
    _, base = server
    page = browser.new_page(viewport={"width": 1500, "height": 1050})
    page.goto(base + "/")
    page.select_option("#env", "bauer_trick_v0")
    seats = page.locator("#seats input")
    for i in range(seats.count()):
        seats.nth(i).fill("heuristic")
    with page.expect_response("**/api/games"):
        page.click("#start")
    page.wait_for_selector("#controls:not([hidden])")
    for where, frame in (("next", 1), ("next", 2), ("back", 1)):
        with page.expect_response("**/step"):
            page.click(f'#controls [data-go="{where}"]')
        page.wait_for_function("f => document.querySelector('#frame').textContent"
                               ".startsWith('position ' + f + ' ')", arg=frame)
    assert page.locator("#board svg").count() == 1 and page.locator("#menu button").count() == 0
    with page.expect_response("**/step"):
        page.click('#controls [data-go="end"]')
    page.wait_for_selector("#result table.final")
    assert len(page.locator("#log li").all_inner_texts()) >= 33
    page.close()
