"""Kadi's computer player: rules of thumb (easy) and dealing what it cannot see (for the search).

Easy: call "Kadi Moja!" and catch a missed call whenever offered; otherwise shed as many cards
as possible, keeping 2s and jokers for answering a penalty; pick a Jack's suit from what stays
in hand; draw only when nothing can be played.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.ai.search import margin, play_out
from engine.core.cards import JOKER
from engine.core.protocol import Action
from engine.kadi.cards import DECK, RANK, SUIT
from engine.kadi.scoring import CARD_POINTS

_ORDER = {"accuse": 0, "call": 1, "accept": 2, "play": 3, "unhide": 5, "draw": 6, "pass": 7, "hide": 8}
# Cards worth keeping for later: they answer a penalty or command a suit.
_KEEP = {"2": 6, JOKER: 8, "J": 4, "8": 1, "7": 1}


def _score(action: Action, left: int, rest_in_suit) -> float:
    """Easy's score of a play that leaves `left` cards in hand, `rest_in_suit(suit)` of them
    (jokers aside) in that suit: shed many cards, keep 2s, jokers and Jacks, go out, call when
    one card is left, command the suit the rest of the hand is richest in."""
    cards = action["cards"]
    score = 10 * len(cards) + sum(_POINTS[card] for card in cards) / 10
    score -= sum(_KEEP_OF[card] for card in cards)
    if not left:
        score += 1000  # going out
    if action.get("call"):
        score += 50 if left == 1 else -50
    command = action.get("command")
    if command is not None:
        if command.get("power"):
            score -= 3
        else:
            score += rest_in_suit(command["suit"])
    return score


_POINTS = CARD_POINTS["seed"]
_KEEP_OF = {card: _KEEP.get(RANK[card], 0) for card in set(DECK)}


class _Hand:
    """Easy's score of each play from one hand: the hand is counted once, not once per play."""

    def __init__(self, hand: list[str]):
        self.hand = hand
        self.counts = Counter(hand)
        self.suits = Counter(SUIT[card] for card in hand if card != JOKER)

    def score(self, action: Action) -> float:
        cards = action["cards"]
        counts = self.counts
        for card in cards:
            if cards.count(card) > counts[card]:  # not from this hand (never for a listed play)
                return _play_score(action, self.hand)

        def rest_in_suit(suit: str) -> int:
            return self.suits[suit] - sum(1 for card in cards if card != JOKER and SUIT[card] == suit)

        return _score(action, len(self.hand) - len(cards), rest_in_suit)


def _play_score(action: Action, hand: list[str]) -> float:
    """`_score` with the rest of the hand counted card by card: the plain reading."""
    left = Counter(hand)
    left.subtract(action["cards"])
    rest = [card for card, n in left.items() for _ in range(n)]
    return _score(action, len(rest), Counter(SUIT[card] for card in rest if card != JOKER).__getitem__)


def easy(view: dict, legal: list[Action], rng: random.Random) -> Action:
    hand = view.get("hand") or []
    best = min(_ORDER.get(action["type"], 9) for action in legal)
    candidates = [action for action in legal if _ORDER.get(action["type"], 9) == best]
    if best == 3:
        return max(candidates, key=_Hand(hand).score)
    return candidates[0]


def unseen_cards(view: dict) -> list[str]:
    """The cards of the deck the player has not seen: in other hands or in the stock."""
    pool = Counter(DECK)
    pool.subtract(view.get("hand") or [])
    if view.get("hidden"):
        pool[view["hidden"]] -= 1
    pool.subtract(view["discard"])
    return [card for card, n in pool.items() for _ in range(max(n, 0))]


# ----- the search's view of Kadi --------------------------------------------------------------
PLAYOUTS = 150
EXPLORE = 0.1  # share of random plays in rollouts
ROLLOUT_LIMIT = 200  # actions; a round still going then is judged by the cards left in hand


class Determinizer:
    """Deals the unseen cards (other hands, the stock) consistently with the player's view.

    Cards an opponent hid (hiding mode) are not told apart from the stock; the discard pile is
    known card by card (the view carries it)."""

    def __init__(self, view: dict):
        from engine.kadi import GAME

        self.me = view["you"]
        self.seats = view["seats"]
        self.counts = view["counts"]
        self.pool = unseen_cards(view)
        command = view["command"]
        penalty = view["penalty"]
        data = {
            "seed": 0,
            "options": view["options"],
            "players": view["players"],
            "seats": view["seats"],
            "decks": [],
            "round": view["round"],
            "dealer": view["dealer"],
            "scores": view["scores"],
            "hands": {p: (list(view["hand"]) if p == self.me else []) for p in view["players"]},
            "hidden": {p: (view["hidden"] if p == self.me else None) for p in view["players"]},
            "stock": [],
            "discard": view["discard"],
            "turn": view["turn"],
            "direction": 1 if view["direction"] == "clockwise" else -1,
            "pen_kind": penalty["kind"] if penalty else None,
            "pen_amount": penalty["amount"] if penalty else 0,
            "command": None if command is None else ("power" if command.get("power") else command["suit"]),
            "command_for": view["turn"] if command is not None else None,
            "drawn": view["drawn"],
            "window": view["call_window"],
            "call_due": view["call_due"] is not None,
            "announced": view["announced"],
            "hide_used": False,
            "phase": view["phase"],
            "provisional": view["provisional_winner"],
            "accepted": view["accepted"],
            "resume_turn": None,
            "reshuffles": 0,
            "idle": 0,
            "winners": view["winners"],
        }
        self.base = GAME.load(data)

    def sample(self, rng: random.Random):
        pool = self.pool[:]
        rng.shuffle(pool)
        state = self.base.copy()
        at = 0
        for player in self.seats:
            if player != self.me:
                count = self.counts[player]
                state.hands[player] = pool[at : at + count]
                at += count
        state.stock = pool[at:]
        state.seed = rng.getrandbits(32)
        state.legal_for = None
        return state


def quick(state, mover: str, legal: list[Action], rng: random.Random) -> Action:
    """The rollout policy: easy's move (read from the made-up deal), sometimes a random play.
    Uniformly random opponents in rollouts lose most rounds whatever the searching player
    does, which hides the difference between its moves."""
    if len(legal) == 1:
        return legal[0]
    if rng.random() < EXPLORE:
        plays = [action for action in legal if action["type"] in ("play", "call", "accept")]
        return rng.choice(plays or legal)
    return easy({"hand": state.hands[mover]}, legal, rng)


def rollout(game, state, player: str, view: dict, rng: random.Random) -> float:
    """Play the round out; 1 or 0 if the match ends with it (won or lost), else the round's
    penalty points of the player against those of its rival, the other player lowest in the
    match (the lowest total wins it): a round the rival loses heavily helps as well."""
    start = view["round"]
    state, _ = play_out(game, state, rng, lambda s: s.round == start and s.phase != "over", ROLLOUT_LIMIT, quick)
    if state.phase == "over":
        return 1.0 / len(state.winners) if player in state.winners else 0.0
    if state.round == start:  # cut off: fewer cards is better
        others = [-len(state.hands[p]) for p in state.seats if p != player]
        return margin(-len(state.hands[player]), others, 2.0) if player in state.seats else 0.0
    scores = state.scores
    before = view["scores"]
    rival = min((p for p in view["seats"] if p != player), key=before.__getitem__)
    lead = (before[player] - scores[player]) - (before[rival] - scores[rival])
    return margin(lead, [0.0], 15.0)


def determinize(view: dict, rng: random.Random):
    return Determinizer(view).sample(rng)
