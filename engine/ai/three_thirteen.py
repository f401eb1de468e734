"""Three Thirteen's computer player: rules of thumb (easy) and dealing what it cannot see (for the search).

Easy takes the discard when it lowers its deadwood, goes out whenever it can, and otherwise
discards the card whose loss leaves the least deadwood (the highest penalty on a tie).
"""

from __future__ import annotations

import random
from collections import Counter

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
CANDIDATES = 6  # discards looked at ahead (the least deadwood now)
NEXT_HANDS = 10  # hands dealt to the next player to judge what a discard gives it
FEED = 0.5  # weight of the deadwood a discard saves the next player, against the player's own


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


def _expected_after_draw(hand: list[str], draws: list[tuple[str, int]], total: int, rules: MeldRules) -> float:
    """The mean least deadwood after a draw from the unseen cards and the best discard."""
    return sum(count * _after_draw(hand, card, rules) for card, count in draws) / total


def strong(view: dict, legal: list[Action], rng: random.Random) -> Action:
    rules = meld_rules(view)
    hand = view["hand"]
    pool = Determinizer(view).pool
    if not pool:
        return easy(view, legal, rng)
    # Every unseen card once, weighted by its copies: the exact mean over the next draw (a
    # sample of 30 draws was as costly and left ties to chance).
    draws = sorted(Counter(pool).items())
    total = len(pool)
    last_turn = bool(view["went_out"])  # no next draw: only the deadwood now counts
    if legal[0]["type"] == "draw":
        pile = next((action for action in legal if action.get("from") == "discard"), None)
        stock = next(action for action in legal if action.get("from") == "stock")
        if pile is None or view["discard_top"] is None:
            return stock
        from_pile = _after_draw(hand, view["discard_top"], rules)
        from_stock = _expected_after_draw(hand, draws, total, rules)
        return pile if from_pile <= from_stock else stock
    outs = [action for action in legal if action["type"] == "go_out"]
    if outs:
        return outs[0]
    discards = [action for action in legal if action["type"] == "discard"]
    left = deadwood_without(hand, rules)
    ranked = sorted(discards, key=lambda action: (left[action["card"]], -rules.value(action["card"])))
    if last_turn:
        return ranked[0]

    looked = ranked[:CANDIDATES]
    gift = _gifts(view, pool, [action["card"] for action in looked], rules, rng)

    def ahead(action: Action) -> float:
        rest = list(hand)
        rest.remove(action["card"])
        own = _expected_after_draw(rest, draws, total, rules) + 0.25 * left[action["card"]]
        return own + FEED * gift[action["card"]]

    return min(looked, key=ahead)


def _gifts(view: dict, pool: list[str], cards: list[str], rules: MeldRules, rng: random.Random) -> dict[str, float]:
    """Card -> the mean deadwood it would save the next player, who may take it from the pile,
    over hands dealt to that player from the unseen cards (0 when nobody draws after us)."""
    seated = view["seated"]
    following = seated[(seated.index(view["you"]) + 1) % len(seated)]
    count = view["hand_counts"].get(following, 0)
    if following == view["you"] or view["went_out"] or not count or count > len(pool):
        return dict.fromkeys(cards, 0.0)
    saved = dict.fromkeys(cards, 0.0)
    for _ in range(NEXT_HANDS):
        other = rng.sample(pool, count)
        now = least_deadwood(other, rules)
        for card in cards:
            saved[card] += max(0, now - _after_draw(other, card, rules)) / NEXT_HANDS
    return saved
