"""The package's layout: one import name, floors, no import cycle, small folders, one plan per game.

``envs/``, ``agents/`` and ``training/`` install as ``tablezoo.envs``, ``tablezoo.agents`` and
``tablezoo.training``. ``envs`` is the ground floor and imports nothing above it; ``agents``
imports nothing from ``training``. No two modules import each other, directly or round a longer
loop, counting imports inside functions (only ``if TYPE_CHECKING:`` blocks are left out). A
reader who knows one game finds any concern of another in one guess, so every ``envs/<game>/``
has the same modules.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("envs", "agents", "training")  # lowest floor first
GAMES = ("bauer_trick", "bauer_draft", "bower", "ethnos")
PLAN = ("components", "rules", "scoring", "actions", "observation", "hidden", "saving",
        "invariants", "information_state", "render", "picture", "spec")
MAX_LINES = 700
MAX_MODULES = 15


def _is_type_checking_block(node: ast.AST) -> bool:
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported_names(tree: ast.AST, package: str) -> set[str]:
    """Every dotted name imported at run time (anywhere but ``if TYPE_CHECKING:``), with
    ``from X import y`` giving ``X.y`` and relative imports resolved against ``package``."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if _is_type_checking_block(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def modules() -> dict[str, Path]:
    """``tablezoo.<folder>.<...>`` -> source file, for every module of the three folders."""
    found = {}
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(["tablezoo", *parts])] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the project's modules it imports (a name resolves to its longest module)."""
    known = modules()
    graph = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for dotted in imported_names(ast.parse(path.read_text(encoding="utf-8")), package):
            while dotted and dotted not in known:
                dotted = dotted.rpartition(".")[0]
            if dotted and dotted != name:
                edges.add(dotted)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
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


def _floor(module: str) -> int:
    return FOLDERS.index(module.split(".")[1])


def _without_parents(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph less the edges from a module to the packages above it: ``import a.b.c`` runs
    ``a/__init__`` and ``a/b/__init__`` by Python's own rule, which is not a dependency of c's."""
    return {m: {d for d in deps if not m.startswith(d + ".")} for m, deps in graph.items()}


def test_no_import_cycle_anywhere():
    cycle = find_cycle(_without_parents(import_graph()))
    assert cycle is None, f"import cycle {' -> '.join(cycle)}"


def test_no_module_imports_a_floor_above_its_own():
    upward = sorted(f"{m} -> {d}" for m, deps in import_graph().items() for d in deps
                    if _floor(d) > _floor(m))
    assert not upward, "imports from a floor above:\n" + "\n".join(upward)


def test_everything_imports_the_project_by_its_one_name():
    """``import envs`` would load a second copy of the package from the working folder, or a
    user's own ``envs/`` folder."""
    bare = []
    for path in [*modules().values(), *(ROOT / "tests").rglob("*.py"),
                 *(ROOT / "notebooks").rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name in imported_names(tree, "tests"):
            if name.split(".")[0] in FOLDERS:
                bare.append(f"{path.relative_to(ROOT)}: {name}")
    assert not bare, "\n".join(bare)


def test_no_package_folder_holds_more_than_fifteen_modules():
    crowded = {}
    for folder in [*FOLDERS, "tests"]:
        for init in (ROOT / folder).rglob("__init__.py"):
            count = len([p for p in init.parent.glob("*.py") if p.name != "__init__.py"])
            if count > MAX_MODULES:
                crowded[str(init.parent.relative_to(ROOT))] = count
    assert not crowded, f"more than {MAX_MODULES} modules: {crowded}"


def test_every_package_says_its_job_in_its_docstring():
    silent = [str(p.relative_to(ROOT)) for folder in FOLDERS
              for p in (ROOT / folder).rglob("__init__.py")
              if not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))]
    assert not silent, f"packages without a docstring: {silent}"


@pytest.mark.parametrize("game", GAMES)
def test_game_folder_has_every_planned_module(game):
    missing = [m for m in PLAN if not (ROOT / "envs" / game / f"{m}.py").is_file()]
    assert not missing, f"envs/{game}/ lacks {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_game_modules_import_no_cycle(game):
    """Inside a game the helpers import ``rules``' class for type hints only."""
    prefix = f"tablezoo.envs.{game}."
    graph = {m: {d for d in deps if d.startswith(prefix)}
             for m, deps in import_graph().items() if m.startswith(prefix)}
    assert len(graph) >= len(PLAN)
    cycle = find_cycle(graph)
    assert cycle is None, f"envs/{game}: import cycle {' -> '.join(cycle)}"


@pytest.mark.parametrize("game", GAMES)
def test_game_modules_stay_readable(game):
    long = {
        str(p.relative_to(ROOT / "envs" / game)): n
        for p in (ROOT / "envs" / game).rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"envs/{game}: modules over {MAX_LINES} lines: {long}"


def test_the_checks_see_a_cycle_inside_a_function_and_an_upward_import():
    tree = ast.parse("def f():\n    from tablezoo.envs.g.b import x\n")
    assert "tablezoo.envs.g.b" in imported_names(tree, "tablezoo.envs.g")
    guarded = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from envs.g.b import x\n"
    assert "envs.g.b" not in imported_names(ast.parse(guarded), "tablezoo.envs.g")
    relative = imported_names(ast.parse("from . import b\n"), "tablezoo.envs.g")
    assert "tablezoo.envs.g.b" in relative
    assert find_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    assert _floor("tablezoo.training.cli.play") > _floor("tablezoo.agents.registry")
    graph = import_graph()
    assert "tablezoo.agents.base" in graph["tablezoo.agents.registry"]  # the graph is not empty


def test_the_wheel_installs_tablezoo_and_no_generic_top_level_name(tmp_path):
    """``pip install .`` puts ``tablezoo/`` in site-packages and nothing named envs, agents or
    training, with the shipped models and the per-game data files."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path),
                    str(ROOT)], check=True, capture_output=True, timeout=600)
    wheel = next(tmp_path.glob("tablezoo-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"tablezoo"}
    for data in ("tablezoo/agents/pretrained/bower_2p.npz", "tablezoo/envs/bower/components.json",
                 "tablezoo/training/configs/bower.json", "tablezoo/training/cli/main.py"):
        assert data in names, data
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "tablezoo = tablezoo.training.cli.main:main" in zipfile.ZipFile(wheel).read(
        entry).decode()


def test_nothing_points_outside_the_repository():
    """The rules specification is ours, kept outside the repository: the code, tests and docs
    state the rules in their own words and name no path into that folder."""
    outside = "shared" + "/"
    hits = [str(p.relative_to(ROOT)) for folder in [*FOLDERS, "tests", "notebooks"]
            for p in (ROOT / folder).rglob("*")
            if p.suffix in (".py", ".md", ".json", ".ipynb") and "__pycache__" not in p.parts
            and outside in p.read_text(encoding="utf-8")
            and p.name != "test_docs.py"]  # it names the folder to look for it in the docs
    hits += [name for name in ("README.md", "pyproject.toml", "setup.py")
             if outside in (ROOT / name).read_text(encoding="utf-8")]
    assert not hits, f"files that point into {outside}: {hits}"


def test_the_top_level_is_the_users_layout():
    """The user fixed the top level: these folders and files, and the build and CI files."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    top_level = {name.split("/")[0] for name in tracked}
    allowed = {*FOLDERS, "tests", "notebooks", "pyproject.toml", "README.md", "setup.py", ".ci",
               ".gitignore"}
    assert top_level <= allowed, f"not in the user's layout: {sorted(top_level - allowed)}"


# --- one game, one place: generic code reaches a game only through its record ---------------
def _game_places() -> tuple[str, ...]:
    """Where a game's knowledge may live: its folder, its agents' folder, its PettingZoo module
    and the registry, which lists the built-in records."""
    from tablezoo import envs

    places = ["envs/registry.py"]
    for env_id, record in envs.SPECS.items():
        places += [f"envs/{record.name}/", f"agents/games/{record.name}/", f"envs/{env_id}.py"]
    return tuple(places)


def game_knowledge(tree: ast.AST, names: set[str], game_modules: tuple[str, ...]) -> list[str]:
    """What in ``tree`` names a game outside its record: an import of a game's module (or its
    dotted path as a string), a dict keyed by a game or env name, a comparison with one, or a
    tuple/list/set of them. Docstrings and help texts may mention games; code may not."""
    found = []

    def named(node: ast.AST | None) -> bool:
        return isinstance(node, ast.Constant) and node.value in names

    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = ([a.name for a in node.names] if isinstance(node, ast.Import)
                       else [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names])
            found += [f"{line}: imports {m}" for m in modules if m.startswith(game_modules)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value.startswith(game_modules):
            found.append(f"{line}: names module {node.value}")
        elif isinstance(node, ast.Dict) and any(named(k) for k in node.keys):
            found.append(f"{line}: a dict keyed by game")
        elif isinstance(node, ast.Compare) and any(
                named(x) or (isinstance(x, (ast.Tuple, ast.List, ast.Set))
                             and any(named(e) for e in x.elts))
                for x in [node.left, *node.comparators]):
            found.append(f"{line}: compares with a game's name")
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(named(e) for e in node.elts):
            found.append(f"{line}: a collection of games")
    return found


def test_generic_code_reaches_games_only_through_their_records():
    """No per-game table, name check or game import outside the game's own places (its record,
    its folders, the registry): adding a game is writing its folder and its record."""
    from tablezoo import envs

    names = {n for r in envs.SPECS.values() for n in (r.env_id, r.name)}
    game_modules = tuple(f"tablezoo.{kind}.{r.name}" for r in envs.SPECS.values()
                         for kind in ("envs", "agents.games"))
    places = _game_places()
    hits = {}
    for path in modules().values():
        where = str(path.relative_to(ROOT))
        if where.startswith(places):
            continue
        found = game_knowledge(ast.parse(path.read_text(encoding="utf-8")), names, game_modules)
        if found:
            hits[where] = found
    assert not hits, f"game knowledge outside the games' records: {hits}"


def test_generic_search_imports_no_game_module():
    """``agents/search`` reaches a game only through its records and ``State``."""
    graph = import_graph()
    hits = {m: sorted(d for d in deps if d.startswith(("tablezoo.agents.games.",))
                      or (d.startswith("tablezoo.envs.") and d.split(".")[2] in GAMES))
            for m, deps in graph.items() if m.startswith("tablezoo.agents.search")}
    assert not {m: d for m, d in hits.items() if d}, hits


def test_the_record_check_sees_a_table_a_branch_and_an_import():
    names = {"bower", "bower_v0"}
    modules_ = ("tablezoo.envs.bower",)
    code = ('import tablezoo.envs.bower.rules\nX = {"bower_v0": 1}\nif env == "bower": pass\n'
            'FAST = ("bower_v0",)\nm = "tablezoo.envs.bower.batched"\n'
            'def f():\n    """bower_v0 in a docstring is fine."""\n    return "bower" in s\n')
    found = game_knowledge(ast.parse(code), names, modules_)
    assert [f.split(": ")[1] for f in found].count("compares with a game's name") == 2
    assert any("imports tablezoo.envs.bower.rules" in f for f in found)
    assert any("a dict keyed by game" in f for f in found)
    assert any("a collection of games" in f for f in found)
    assert any("names module tablezoo.envs.bower.batched" in f for f in found)


def test_only_the_command_line_imports_argparse_or_the_cli():
    """``training/`` is a library first: each tool takes a settings object that Python users
    build directly, and only ``training/cli/`` turns flags into it."""
    cli = "tablezoo.training.cli"
    found = []
    for name, path in modules().items():
        if name == cli or name.startswith(cli + "."):
            continue
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for dotted in imported_names(ast.parse(path.read_text(encoding="utf-8")), package):
            if dotted.split(".")[0] == "argparse" or dotted == cli or dotted.startswith(cli + "."):
                found.append(f"{path.relative_to(ROOT)}: {dotted}")
    assert not found, "imports of argparse or the CLI outside training/cli/:\n" + "\n".join(found)
