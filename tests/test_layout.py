"""Every game folder follows one plan (``shared/design.md``), without import cycles.

A reader who knows one game should find any concern of another in one guess, so every
``envs/<game>/`` has the same modules. The helpers take the state as an argument and import its
class for type hints only; an import cycle, even one hidden inside a function, fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENVS_DIR = Path(__file__).resolve().parent.parent / "envs"
GAMES = ("bauer_trick", "bauer_draft", "bower", "ethnos")
PLAN = (
    "components",
    "rules",
    "scoring",
    "actions",
    "observation",
    "hidden",
    "saving",
    "render",
    "env",
)
MAX_LINES = 700


def _is_type_checking_block(node: ast.AST) -> bool:
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST, package: str) -> set[str]:
    """Sibling modules of ``package`` imported at run time (anywhere but ``if TYPE_CHECKING:``)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if _is_type_checking_block(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.level == 1:
                found.add(node.module.split(".")[0])
            elif node.module.startswith(package + "."):
                found.add(node.module[len(package) + 1 :].split(".")[0])
            elif node.module == package:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(package + "."):
                    found.add(alias.name[len(package) + 1 :].split(".")[0])
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _import_graph(game: str) -> dict[str, set[str]]:
    folder = ENVS_DIR / game
    package = f"envs.{game}"
    modules = {p.stem: p for p in folder.glob("*.py") if p.stem != "__init__"}
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = {m for m in _runtime_imports(tree, package) if m in modules and m != name}
    return graph


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                cycle = dfs(nxt)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = dfs(node)
            if cycle:
                return cycle
    return None


@pytest.mark.parametrize("game", GAMES)
def test_game_folder_has_every_planned_module(game):
    missing = [m for m in PLAN if not (ENVS_DIR / game / f"{m}.py").is_file()]
    assert not missing, f"envs/{game}/ lacks {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_game_modules_import_no_cycle(game):
    cycle = _find_cycle(_import_graph(game))
    assert cycle is None, f"envs/{game}: import cycle {' -> '.join(cycle)}"


@pytest.mark.parametrize("game", GAMES)
def test_game_modules_stay_readable(game):
    long = {
        p.name: n
        for p in (ENVS_DIR / game).glob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"envs/{game}: modules over {MAX_LINES} lines: {long}"


def test_cycle_finder_sees_a_cycle_inside_a_function():
    source = "def f():\n    from envs.g.b import x\n"
    tree = ast.parse(source)
    assert _runtime_imports(tree, "envs.g") == {"b"}
    guarded = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from envs.g.b import x\n"
    assert _runtime_imports(ast.parse(guarded), "envs.g") == set()
    assert _find_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert _find_cycle({"a": {"b"}, "b": set()}) is None
