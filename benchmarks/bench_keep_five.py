"""CPU of Euchre-3's keep five per drawing and press, now that a table keeps no tree of more than
`TREE_KEPT_NODES` nodes (handlers/presentation/render/seat.py): the maker's screen is built again
from the state where it is drawn or pressed, unless it is the bot's last tree built again.

For the keep-five prompt of a few random matches it prints the CPU time (process time, so a busy
machine matters less), median and least of 40 runs, of: the screen built (all a drawing did when
the tree was kept), the first drawing now (that, and the compact form kept), a press while the tree
is still the bot's last built, and a press after another table's keep five was drawn (built again).

Run: python benchmarks/bench_keep_five.py [--seeds 4 7]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RUNS = 40


def timed(work: Callable[[], object], before: Callable[[], object] = lambda: None) -> str:
    runs = []
    for _ in range(RUNS):
        before()
        start = time.process_time()
        work()
        runs.append(time.process_time() - start)
    runs.sort()
    return f"{runs[RUNS // 2] * 1000:.1f} ms (least {runs[0] * 1000:.1f})"


def one_match(seed: int) -> None:
    from handlers.i18n import translator
    from handlers.moves import TreePress
    from handlers.presentation.callback_data import TreeNode
    from handlers.presentation.render import seat
    from tables.models import Loaded
    from tests.render.playouts import play

    english = translator("en")
    frame = next(frame for frame in play("euchre3", 3, seed, max_moves=400) if frame.state.phase == "keep")
    table, game, state = frame.table, frame.game, frame.state
    maker = game.to_act(state)[0]
    elsewhere = replace(table, table_id=table.table_id + 1)
    built = seat._seen_now(table, game, state, maker, english)
    leaf = next(node for node in reversed(built.tree.nodes) if node.action is not None and node.parent > 0)
    press = TreePress(maker, TreeNode(table.table_id, built.keyboard, -leaf.number), english)

    def pressed() -> object:
        return press.choose(Loaded(table, game, state))

    print(f"| {seed} | {len(built.tree.nodes)} ", end="", flush=True)
    print(f"| {timed(lambda: seat._seen_now(table, game, state, maker, english))} ", end="")
    first = timed(lambda: seat.seen_by(table, game, state, maker, english), lambda: seat.forget(table.table_id))
    print(f"| {first} ", end="")
    seat.seen_by(table, game, state, maker, english)
    print(f"| {timed(pressed)} ", end="")
    again = timed(pressed, lambda: seat.seen_by(elsewhere, game, state, maker, english))
    print(f"| {again} |")
    seat.forget(elsewhere.table_id)
    seat.forget(table.table_id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[4, 7])
    args = parser.parse_args()
    print("| match | nodes | the screen built | first drawing now | press, the bot's last tree | press, built again |")
    print("|---|---|---|---|---|---|")
    for seed in args.seeds:
        one_match(seed)


if __name__ == "__main__":
    main()
