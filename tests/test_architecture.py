"""The house's layers, checked from the code's own imports: data flows one way, and no import
runs back up a layer or goes round in a circle.

Floors, top to bottom: `bot` (the composition root: settings, Application, CLI, demo),
`handlers` (Telegram in and out), `tables` (the table service, storage, timers), `engine`
(pure rules). `fakeapi` is test and demo support: only the demo may import it.

Inside `handlers`, rooms stand on floors of their own the same way (docs/ARCHITECTURE.md): the
two doors (`chat`, `webapp`) over the services they share (`context`), over the one door for
moves and the delivery, over the presentation, over the words. An import only goes down: never
up, and never across to a room beside it on the same floor.
"""

from __future__ import annotations

import ast
from pathlib import Path

from engine.registry import GAME_MODULES

ROOT = Path(__file__).resolve().parent.parent
FLOORS = {"bot": 4, "handlers": 3, "tables": 2, "engine": 1}
# What the pure engine must never import (I/O, time, Telegram, the layers above it).
# The rooms of handlers/, by module or package, and their floors (1 is the ground).
ROOMS = {
    "handlers.chat": 5,  # the chat door: updates in, answers out
    "handlers.webapp": 5,  # the Mini App's door
    "handlers.context": 4,  # the services both doors reach (Karata)
    "handlers.moves": 3,  # the one door for moves, either transport's
    "handlers.delivery": 3,  # what a table's messages are and getting them to Telegram
    "handlers.presentation": 2,  # pure renderers: what a seat and a table show, in words and buttons
    "handlers.i18n": 1,  # the catalogs' words, which every room speaks
    "handlers.recent": 1,  # the update ids seen lately (a part of the services)
}
IMPURE = {"asyncio", "telegram", "aiosqlite", "asyncpg", "apscheduler", "time", "socket", "bot", "handlers", "tables"}


def modules() -> dict[str, Path]:
    found = {}
    for package in FLOORS:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports_of(path: Path, name: str) -> set[str]:
    """Every module a file imports, wherever the import statement stands (function bodies too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def project_graph() -> dict[str, set[str]]:
    known = modules()
    graph = {}
    for name, path in known.items():
        targets = set()
        for imported in imports_of(path, name):
            # `from handlers import play` names the module handlers.chat.play; keep the longest known name.
            while imported and imported not in known:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.add(imported)
        graph[name] = targets
    return graph


def floor(module: str) -> int:
    return FLOORS[module.split(".")[0]]


def test_no_import_runs_back_up_a_floor():
    upward = [
        f"{source} -> {target}"
        for source, targets in project_graph().items()
        for target in targets
        if floor(target) > floor(source)
    ]
    assert not upward, upward


def room(module: str) -> str | None:
    """The room of handlers/ a module stands in (its longest listed name)."""
    while module and module not in ROOMS:
        module = module.rpartition(".")[0]
    return module or None


def test_every_module_of_handlers_stands_in_a_room():
    homeless = [name for name in modules() if name.startswith("handlers.") and room(name) is None]
    assert not homeless, homeless


def test_inside_handlers_imports_only_go_down_to_a_lower_room():
    wrong = [
        f"{source} -> {target}"
        for source, targets in project_graph().items()
        if room(source)
        for target in targets
        if room(target) and room(target) != room(source) and ROOMS[room(target)] >= ROOMS[room(source)]
    ]
    assert not wrong, wrong


def test_there_is_no_import_circle():
    graph = project_graph()
    # A package's __init__ importing its own modules is how a package shows its face, not a circle.
    edges = {
        source: {target for target in targets if target.rpartition(".")[0] != source}
        for source, targets in graph.items()
    }
    state: dict[str, int] = {}
    circles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                circles.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in state:
                visit(target, [*path, target])
        state[node] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    assert not circles, circles


def test_the_engine_stays_pure():
    for name, path in modules().items():
        if floor(name) != 1:
            continue
        impure = {module for module in imports_of(path, name) if module.split(".")[0] in IMPURE}
        assert not impure, (name, impure)


def test_only_the_demo_uses_the_fake_telegram():
    for name, path in modules().items():
        if name in ("bot.demo", "bot.demo_webapp"):  # the offline demo, in chat and in the browser
            continue
        users = {module for module in imports_of(path, name) if module.split(".")[0] == "fakeapi"}
        assert not users, (name, users)


def test_above_the_engine_a_game_is_seen_only_through_its_package():
    """Handlers, tables and bot use a game through `engine.<game>` (its GAME and what its
    __init__ exports) or the shared `engine.core` and registry, never a module inside a game."""
    games = {module.split(".")[1] for module in GAME_MODULES.values()}
    inside = [
        f"{source} -> {target}"
        for source, targets in project_graph().items()
        if floor(source) > 1
        for target in targets
        if target.count(".") >= 2 and target.split(".")[1] in games
    ]
    assert not inside, inside


def test_in_handlers_a_game_is_seen_only_through_its_renderer():
    """Outside handlers/presentation/games/, a game's renderer is reached by `renderer_for`,
    never by importing its module: nothing else of the bot names a game."""
    renderers = {f"handlers.presentation.games.{module.split('.')[1]}" for module in GAME_MODULES.values()}
    named = [
        f"{source} -> {target}"
        for source, targets in project_graph().items()
        if not source.startswith("handlers.presentation.games")
        for target in targets
        if target in renderers
    ]
    assert not named, named


def test_what_a_seat_sees_is_built_without_telegram():
    """The seat's screen (handlers/presentation/render/seat.py) and the Mini App's snapshot of it know no
    Telegram: no module they import, however indirectly, imports `telegram`. The chat keyboard
    is one drawing of the model, the snapshot another; neither is read back into the other."""
    graph, known = project_graph(), modules()
    for start in ("handlers.presentation.render.seat", "handlers.webapp.snapshot"):
        reached, todo = set(), [start]
        while todo:
            module = todo.pop()
            if module not in reached:
                reached.add(module)
                todo.extend(graph.get(module, ()))
        telegram = sorted(
            module
            for module in reached
            if any(imported.split(".")[0] == "telegram" for imported in imports_of(known[module], module))
        )
        assert not telegram, (start, telegram)
