"""Three Thirteen's computer player: rules of thumb (easy) and dealing what it cannot see (for the search).

Easy takes the discard when it lowers its deadwood, goes out whenever it can, and otherwise
discards the card whose loss leaves the least deadwood (the highest penalty on a tie).
"""

from __future__ import annotations

import random

from engine.core.protocol import Action
from engine.three_thirteen.melds import deadwood_without, least_deadwood
from engine.three_thirteen.rules import MeldRules


def meld_rules(view: dict) -> MeldRules:
    return MeldRules.for_round(view["round"], view["options"])


def _discard(view: dict, legal: list[Action]) -> Action:
    outs = [action for action in legal if action["type"] == "go_out"]
    if outs:
        return outs[0]
    rules = meld_rules(view)
    hand = view["hand"]
    left = deadwood_without(hand, rules)
    return min(
        (action for action in legal if action["type"] == "discard"),
        key=lambda action: (left[action["card"]], -rules.value(action["card"])),
    )


def _draw(view: dict, legal: list[Action]) -> Action:
    top = view["discard_top"]
    stock = next(action for action in legal if action.get("from") == "stock")
    if top is None or not any(action.get("from") == "discard" for action in legal):
        return stock
    rules = meld_rules(view)
    hand = view["hand"]
    now = least_deadwood(hand, rules)
    after = min(deadwood_without([*hand, top], rules).values())
    if after < now or rules.is_wild(top):
        return next(action for action in legal if action.get("from") == "discard")
    return stock


def easy(view: dict, legal: list[Action], rng: random.Random) -> Action:
    if legal[0]["type"] == "draw":
        return _draw(view, legal)
    return _discard(view, legal)


# ----- the strong player: expectimax over the draws it cannot see ----------------------------
# Rollouts would need the meld solver at every move (about 1 ms a hand of 13), so Three
# Thirteen's strong player looks two moves ahead instead: each candidate discard is judged by
# the deadwood left after the best discard following the next draw, averaged over draws dealt
# from the cards it has not seen (`Determinizer`); drawing from the pile is judged against the
# same average for the stock.
DRAWS = 30  # sampled next draws per candidate
CANDIDATES = 6  # discards looked at ahead (the least deadwood now)


class Determinizer:
    """The cards the player has not seen (other hands, the stock), dealt consistently with its view."""

    def __init__(self, view: dict):
        from collections import Counter

        from engine.three_thirteen.rules import game_deck

        pool = Counter(game_deck(len(view["players"]), view["options"]["jokers"]))
        pool.subtract(view["hand"])
        pool.subtract(view["discard"])
        for melds in view["table_melds"].values():
            for meld in melds:
                pool.subtract(meld)
        self.pool = sorted(card for card, n in pool.items() for _ in range(max(n, 0)))
        self.view = view

    def sample(self, rng: random.Random):
        """A state dealt from the unseen cards: other hands of their counts, the rest the stock."""
        from engine.three_thirteen import GAME

        view = self.view
        pool = self.pool[:]
        rng.shuffle(pool)
        hands = {}
        at = 0
        for player in view["players"]:
            if player == view["you"]:
                hands[player] = list(view["hand"])
            else:
                count = view["hand_counts"][player]
                hands[player] = pool[at : at + count]
                at += count
        data = {
            "seed": rng.getrandbits(32),
            "options": view["options"],
            "players": view["players"],
            "decks": [],
            "scores": view["scores"],
            "history": view["round_scores"],
            "last_round": view["last_round"],
            "winners": view["winners"],
            "round": view["round"],
            "dealer": view["dealer"],
            "seated": view["seated"],
            "phase": view["phase"],
            "turn": view["turn"],
            "hands": hands,
            "discard": view["discard"],
            "stock": pool[at:],
            "drawn_from": view["drawn_from"],
            "taken": view["taken_card"],
            "went_out": view["went_out"],
            "final_turns": view["final_turns"],
            "table": view["table_melds"],
            "turns_taken": {p: 1 for p in view["players"]},
            "reshuffles": 0,
        }
        return GAME.load(data)


def determinize(view: dict, rng: random.Random):
    return Determinizer(view).sample(rng)


def _after_draw(hand: list[str], drawn: str, rules: MeldRules) -> int:
    """The least deadwood after drawing `drawn` and discarding the best card."""
    return min(deadwood_without([*hand, drawn], rules).values())


def strong(view: dict, legal: list[Action], rng: random.Random) -> Action:
    rules = meld_rules(view)
    hand = view["hand"]
    pool = Determinizer(view).pool
    if not pool:
        return easy(view, legal, rng)
    draws = [rng.choice(pool) for _ in range(DRAWS)]
    last_turn = bool(view["went_out"])  # no next draw: only the deadwood now counts
    if legal[0]["type"] == "draw":
        pile = next((action for action in legal if action.get("from") == "discard"), None)
        stock = next(action for action in legal if action.get("from") == "stock")
        if pile is None or view["discard_top"] is None:
            return stock
        from_pile = _after_draw(hand, view["discard_top"], rules)
        from_stock = sum(_after_draw(hand, card, rules) for card in draws) / len(draws)
        return pile if from_pile <= from_stock else stock
    outs = [action for action in legal if action["type"] == "go_out"]
    if outs:
        return outs[0]
    discards = [action for action in legal if action["type"] == "discard"]
    left = deadwood_without(hand, rules)
    ranked = sorted(discards, key=lambda action: (left[action["card"]], -rules.value(action["card"])))
    if last_turn:
        return ranked[0]

    def ahead(action: Action) -> float:
        rest = list(hand)
        rest.remove(action["card"])
        expected = sum(_after_draw(rest, card, rules) for card in draws) / len(draws)
        return expected + 0.25 * left[action["card"]]

    return min(ranked[:CANDIDATES], key=ahead)
