"""The floor under every engine benchmark: how fast a game can be driven through the protocol at all.

The engine benchmarks drive `to_act`, `legal_actions` and `advance` with one random choice per
decision (engine.core.playout.play_randomly); each applied action returns an `Applied` with its events, and every deal is shuffled
from the seed (engine.core.rng). This script runs the same loop over two games with almost no
rules, defined here and nowhere else, so their figures are upper bounds for any real engine:

- "no-op": one player, one action, nothing dealt, no event: the cost of the loop alone.
- "play any card": four players are dealt 13 cards each by the seeded shuffle; the player to act
  plays any card of their hand (the legal actions are prebuilt dicts, one per card held) and one
  "played" event is built, as every engine does. No suit to follow, no trick, no score: a
  real game adds all of that on top.

Time is CPU time (time.process_time), single thread, like the engine benchmarks.
Run: python benchmarks/bench_protocol_floor.py [SECONDS per line, default 3]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.cards import deck_52  # noqa: E402
from engine.core.fast import applied, event  # noqa: E402
from engine.core.playout import play_randomly  # noqa: E402
from engine.core.rng import shuffled  # noqa: E402

PLAYERS = ("amina", "baraka", "chausiku", "daudi")
DECK = tuple(deck_52())
PLAY = {card: {"type": "play", "card": card} for card in DECK}
NOOP_ACTIONS = [{"type": "noop"}]
NOOP_STEPS = 52


class NoOp:
    """One player presses one button NOOP_STEPS times."""

    def new(self, seed: int) -> list[int]:
        return [NOOP_STEPS]

    def to_act(self, state: list[int]) -> list[str]:
        return [PLAYERS[0]] if state[0] else []

    def legal_actions(self, state: list[int], player: str) -> list[dict]:
        return NOOP_ACTIONS

    def advance(self, state: list[int], player: str, action: dict):
        state[0] -= 1
        return applied(state, [])


class AnyCard:
    """Deal 13 each from the seeded shuffle; in turn, play any card held until the hands are empty."""

    def new(self, seed: int) -> dict:
        cards = shuffled(DECK, seed, "deal", 1)
        return {"hands": {p: cards[i::4] for i, p in enumerate(PLAYERS)}, "turn": 0, "discard": []}

    def to_act(self, state: dict) -> list[str]:
        player = PLAYERS[state["turn"]]
        return [player] if state["hands"][player] else []

    def legal_actions(self, state: dict, player: str) -> list[dict]:
        return [PLAY[card] for card in state["hands"][player]]

    def advance(self, state: dict, player: str, action: dict):
        card = action["card"]
        state["hands"][player].remove(card)
        state["discard"].append(card)
        state["turn"] = (state["turn"] + 1) % 4
        return applied(state, [event("played", {"player": player, "card": card})])


def measure(game, seconds: float) -> float:
    choice = random.Random(0).choice
    actions = matches = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        actions += play_randomly(game, game.new(matches), choice)[1]
        matches += 1
    return actions / (time.process_time() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"Protocol floor: the engine benchmarks' driver loop over rule-less games, {seconds:g} CPU s per line")
    print(f"  {'no-op (the loop alone)':28s} {measure(NoOp(), seconds):12,.0f} actions/s")
    print(f"  {'play any card (deal + event)':28s} {measure(AnyCard(), seconds):12,.0f} actions/s")


if __name__ == "__main__":
    main()
