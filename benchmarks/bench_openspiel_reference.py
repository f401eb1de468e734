"""The reference the engine issues compare with: OpenSpiel's card games driven from Python.

Counts decisions only (chance nodes, i.e. dealing and drawing, are applied but not counted),
as Karata's benchmarks count players' actions. OpenSpiel is not a Karata dependency: install it
in a separate environment (`pip install open_spiel`) and run this script there.
Usage: python benchmarks/bench_openspiel_reference.py [SECONDS] [GAME ...]
"""

from __future__ import annotations

import random
import sys
import time

GAMES = ("euchre", "crazy_eights", "gin_rummy")


def measure(name: str, seconds: float) -> tuple[float, float]:
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(0)
    decisions = matches = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        matches += 1
    elapsed = time.process_time() - start
    return decisions / elapsed, matches / elapsed


def main() -> int:
    args = sys.argv[1:]
    seconds = float(args.pop(0)) if args and args[0].replace(".", "", 1).isdigit() else 5.0
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed here: pip install open_spiel (in a separate environment)")
        return 0
    for name in args or GAMES:
        actions, matches = measure(name, seconds)
        print(f"{name:14s} {actions:12,.0f} decisions/s  {matches:10,.1f} games/s  (CPU time, single thread)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
