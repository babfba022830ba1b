"""End to end in a real headless browser: for every env, a person's seat plays a whole game by
clicks (cards and tiles on the picture, bower's tiles placed by clicking cells of the nest, and
readable move names in the menu) against heuristic agents and reaches the final score; no answer
the page receives holds a card, tile or egg hidden from that seat; the legal moves stay in the
window; the agents' thinking shows; the watch controls are drawn, not font glyphs; nothing on
the page answers 404.

The test starts ``tablezoo serve``'s app on 127.0.0.1 (a free port, uvicorn in a thread) and
drives Debian's ``chromium`` through Playwright (``executable_path``; no ``playwright
install``). It skips, saying why, only where no browser is installed. A screenshot of each game
after a few moves (bower's with a tile being placed on the nest) is written to
``$TABLEZOO_SCREENSHOTS`` when set, as a small 256-colour PNG of the table; the README's
pictures are made so::

    TABLEZOO_SCREENSHOTS=training/web/screenshots pytest tests/training/web/test_browser.py

Those and the pictures at each game's end also go to the test's tmp folder.
"""

from __future__ import annotations

import json
import os
import re
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
# (env, short options: one deal, two players; the screenshot's name, or None for no picture)
GAMES = [
    ("bauer_trick_v0", {"episode": "deal"}, "bauer_trick"),
    ("bauer_draft_v0", {"num_players": 2}, "bauer_draft"),
    ("bower_v0", {}, "bower"),  # the default: both hands in sight
    ("bower_v0", {"hands_public": False}, None),
    ("ethnos_v0", {"num_players": 2}, "ethnos"),
]
CLICKS = 400  # more than any of these games needs
# the move after which a mid-game screenshot is taken
MIDGAME = {"bauer_trick_v0": 4, "bauer_draft_v0": 6, "bower_v0": 14, "ethnos_v0": 40}
# engine names a person should never have to read: RECRUIT_DISPLAY[...], FINISH_BAND, H(0,1)~
RAW = re.compile(r"\b[A-Z]{3,}(_[A-Z]+)*\[|\b[A-Z]+_[A-Z_]+\b|~|\b[HV]\(\d,\d\)|…|\.\.\.")


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


def snapshot(page, tmp: Path, name: str, readme: bool = False) -> None:
    """The game's table as a PNG in ``tmp``; with ``readme``, also a 256-colour copy (a few
    tens of kB) in ``$TABLEZOO_SCREENSHOTS`` when that is set."""
    path = tmp / f"{name}.png"
    page.locator("#table").screenshot(path=str(path))
    folder = os.environ.get("TABLEZOO_SCREENSHOTS")
    if readme and folder:
        image = pytest.importorskip("PIL.Image")
        Path(folder).mkdir(parents=True, exist_ok=True)
        with image.open(path) as shot:
            small = shot.convert("RGB").quantize(256, method=image.Quantize.MEDIANCUT)
            small.save(Path(folder) / f"{name}.png", optimize=True)


def new_page(browser, failed: list):
    """A page that notes every answer of 400 or more (a favicon 404 included)."""
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400
            else None)
    page.on("pageerror", lambda err: failed.append(f"script error: {err}"))
    return page


def start_game(page, base: str, env: str, options: dict, seats: list[str] | None = None) -> None:
    page.goto(base + "/")
    page.select_option("#env", env)
    for option, value in options.items():
        field = page.locator(f'[data-option="{option}"]')
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(label=json.dumps(value))
        else:
            field.fill(str(value))
            field.dispatch_event("change")  # the seat list follows the player count
    boxes = page.locator("#seats input")
    for i in range(boxes.count()):
        boxes.nth(i).fill(seats[i] if seats else ("human" if i == 0 else "heuristic"))
    page.fill("#seed", "5")
    with page.expect_response("**/api/games"):
        page.click("#start")
    page.wait_for_selector("#board svg")


def in_window(page, selector: str) -> bool:
    """Whether the first element ``selector`` finds lies wholly inside the window."""
    return page.evaluate("""s => { const r = document.querySelector(s).getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }""", selector)


def moved(page, views: str) -> bool:
    """Whether the page has sent a move (it is waiting for the answer, or has shown it)."""
    return page.evaluate("v => current.busy || document.body.dataset.views !== v", views)


def nest_move(page, views: str, turn: int, snap=None) -> int:
    """Answer bower's decision on the nest: a hand tile (from the picture or the menu), then
    two cells of the nest, then which way round; or one marked cell. Returns the cells clicked;
    ``snap()`` is called once the first cell is marked."""
    if page.locator("#menu button.group").count():
        if turn % 2:
            page.locator("#board [data-group]").first.click()
        else:
            page.locator("#menu button.group").first.click()
    clicked = 0
    while not moved(page, views):
        cells = page.locator("#board .nest-cell.candidate")
        if clicked < 2 and cells.count():
            cells.nth((turn * 7 + clicked) % cells.count()).click()
            clicked += 1
            if clicked == 1 and snap:
                snap()
            continue
        choices = page.locator("#menu button.move")
        assert choices.count() in (1, 2), page.inner_text("#menu")
        assert RAW.search(choices.first.inner_text()) is None
        choices.nth(turn % choices.count()).click()
    return clicked


@pytest.mark.parametrize(("env", "options", "shot"), GAMES,
                         ids=[shot or f"{env[:-3]}_hidden_hands" for env, _, shot in GAMES])
def test_a_person_plays_a_whole_game_by_clicks(server, browser, env, options, shot,
                                                tmp_path_factory):
    app, base = server
    sessions = app.state.sessions
    failed: list[str] = []
    page = new_page(browser, failed)
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

    tmp = tmp_path_factory.mktemp("screenshots")
    start_game(page, base, env, options)
    assert page.locator('link[rel="icon"]').get_attribute("href").startswith("data:image/")
    assert page.evaluate("""() => new Promise(done => { const icon = new Image();
        icon.onload = () => done(icon.naturalWidth > 0); icon.onerror = () => done(false);
        icon.src = document.querySelector('link[rel="icon"]').href; })"""), "a broken favicon"
    moves = board_clicks = nest_cells = 0
    while True:
        check_answers()
        page.wait_for_selector("#menu button, #result table.final")
        if page.locator("#result table.final").count():
            break
        assert moves < CLICKS, f"{env}: no end after {moves} moves"
        assert in_window(page, "#menu button"), f"{env}: the legal moves are out of sight"
        labels = page.locator("#menu button").all_inner_texts()
        assert not [t for t in labels if RAW.search(t)], f"{env}: engine names in {labels}"
        views = page.evaluate("document.body.dataset.views")
        on_board = page.locator("#board [data-action]")
        if env == "bower_v0" and page.locator(
                "#menu button.group, #board .nest-cell.candidate").count():
            snap = None
            if shot and moves >= MIDGAME[env] and not (tmp / f"{shot}.png").exists():
                def snap():
                    snapshot(page, tmp, shot, readme=True)
            nest_cells += nest_move(page, views, moves, snap)
        elif moves == 0:  # the agents' turn shows as soon as the move is sent
            shown = page.evaluate("""() => { document.querySelector('#menu button.move').click();
                return document.body.classList.contains('thinking')
                    && !document.querySelector('#thinking').hidden; }""")
            assert shown, f"{env}: no thinking state while the agents move"
        else:
            if on_board.count() and moves % 2 == 0:  # a card or tile on the picture itself
                target = on_board.first
                board_clicks += 1
            elif page.locator("#menu button.move").count():
                target = page.locator("#menu button.move").first
            else:
                page.locator("#menu button.group").first.click()
                target = page.locator("#menu button.move").first
            target.click()
        page.wait_for_function("v => document.body.dataset.views !== v && !current.busy",
                               arg=views)
        assert page.locator("#thinking").is_hidden()
        moves += 1
        if moves == MIDGAME[env] and shot and env != "bower_v0":
            snapshot(page, tmp, shot, readme=True)
    check_answers()
    assert checked >= moves > 3 and board_clicks > 0
    assert not shot or (tmp / f"{shot}.png").exists(), f"{env}: no mid-game screenshot"
    assert page.locator("#result table.final td").count() > 4
    assert "game over" in page.inner_text("#status")
    log = page.locator("#log li").all_inner_texts()
    assert not [t for t in log if RAW.search(t)], f"{env}: engine names in the move list"
    if env == "bower_v0":
        assert nest_cells >= 20, f"bower: only {nest_cells} cells of the nest were clicked"
        assert page.locator("#board text.coord").count() == 2 * (4 + 6)  # both nests' rows, cols
    if env == "bauer_trick_v0":  # each trick's taker is named as it is taken
        for trick in range(1, 9):
            assert any(f"takes trick {trick}" in line for line in log), (trick, log)
        assert_end_box_leaves_cards_free(page)
    snapshot(page, tmp, f"{shot or env}_final")
    assert not failed, failed
    page.close()


def assert_end_box_leaves_cards_free(page) -> None:
    """The picture's game-over box lies on the last trick: it starts hidden, its button shows it
    and a click on it hides it again."""
    covered = """() => { const box = document.querySelector('#board .end-box');
        if (!box || box.style.display === 'none') return false;
        const a = box.getBBox();
        return [...document.querySelectorAll('#board [data-card]')].some(c => {
            const b = c.getBBox();
            return b.x < a.x + a.width && a.x < b.x + b.width && b.y < a.y + a.height
                && a.y < b.y + b.height; }); }"""
    assert page.locator("#board .end-box").count() == 1
    assert not page.evaluate(covered)
    page.click("#result .end-toggle")
    assert page.evaluate(covered)
    page.locator("#board .end-box").click()
    assert not page.evaluate(covered)


def test_agents_are_watched_move_by_move_and_to_the_end(server, browser):
    _, base = server
    failed: list[str] = []
    page = new_page(browser, failed)
    start_game(page, base, "bauer_trick_v0", {}, ["heuristic"] * 4)
    page.wait_for_selector("#controls:not([hidden])")
    for button in page.locator("#controls button").all():  # drawn icons, no font glyphs
        assert button.locator("svg.icon").first.bounding_box()["width"] > 5
    assert not re.search("[\u23ee-\u23f5]", page.inner_text("#controls"))
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
    assert not failed, failed
    page.close()


def bower_position(phase: str) -> dict:
    """A seeded random bower game's first position where player_0 answers ``phase``."""
    import random

    from tablezoo import envs
    from tablezoo.envs.bower.actions import PHASES

    game = envs.make_game("bower_v0")
    for seed in range(500):
        state, pick = game.new_state(seed), random.Random(seed)
        while not state.is_over():
            (player,) = state.acting_players()
            if player == 0 and PHASES[state.phase] == phase:
                return state.to_dict()
            state.apply({player: pick.choice(state.legal_actions(player))})
    raise AssertionError(f"no bower game of seeds 0-499 asks player_0 for {phase}")


@pytest.mark.parametrize("phase", ["token", "branch", "cover"])  # the nest's bonus decisions
def test_bower_bonus_decisions_are_answered_on_the_nest(server, browser, phase):
    """A token's cell, a branch's cell and the two cells the cover tile lies on are clicked on
    the nest (then, where a cell allows two answers, one of them from the menu)."""
    _, base = server
    failed: list[str] = []
    page = new_page(browser, failed)
    page.goto(base + "/")
    page.select_option("#env", "bower_v0")
    page.fill("#state-text", json.dumps(bower_position(phase)))
    with page.expect_response("**/api/games"):
        page.click("#open")
    page.wait_for_selector("#board .nest-cell.candidate")
    assert f"decision: {phase}" in page.inner_text("#board")
    views = page.evaluate("document.body.dataset.views")
    assert nest_move(page, views, 1) >= 1
    page.wait_for_function("v => document.body.dataset.views !== v && !current.busy", arg=views)
    said = {"token": "put the ", "branch": "branch on (", "cover": "cover with T"}[phase]
    assert page.locator("#log li").first.inner_text().startswith(f"player_0: {said}")
    assert not failed, failed
    page.close()
