"""Pitch's computer player: rules of thumb (easy) and dealing what it cannot see (for the search).

Easy bids what its best suit is likely to make (high, low, jack, a share of game), and in play
takes tricks worth taking with the cheapest winning card, else throws its least useful card.
"""

from __future__ import annotations

import random

from engine.ai.search import margin, play_out
from engine.core.protocol import Action
from engine.pitch.cards import DECK, HAND_ORDER, RANK, SUIT

_GAME_POINTS = {"10": 10, "A": 4, "K": 3, "Q": 2, "J": 1}


def _rank(card: str) -> int:
    return RANK[card]


def suit_estimate(hand: list[str], suit: str) -> float:
    """Roughly how many of high, low, jack and game a hand makes with `suit` as trumps."""
    trumps = sorted((_rank(card) for card in hand if SUIT[card] == suit), reverse=True)
    if not trumps:
        return 0.0
    points = 0.0
    points += 1.0 if trumps[0] == 14 else 0.6 if trumps[0] == 13 else 0.2
    points += 0.8 if trumps[-1] <= 3 else 0.4 if trumps[-1] <= 5 else 0.1
    if "J" + suit in hand:
        points += 0.8 if len(trumps) >= 3 else 0.5
    points += 0.15 * (len(trumps) - 1)
    return points


def _bid(view: dict, legal: list[Action]) -> Action:
    hand = view["hand"]
    estimate = max(suit_estimate(hand, suit) for suit in "SHDC")
    bids = [action for action in legal if action["type"] == "bid"]
    passing = [action for action in legal if action["type"] == "pass"]
    wanted = int(estimate + 0.3)
    affordable = [action for action in bids if action["value"] <= wanted]
    if affordable:
        return min(affordable, key=lambda action: action["value"])
    if passing:
        return passing[0]
    return min(bids, key=lambda action: action["value"])


def _power(card: str, led: str, trump: str | None) -> int:
    return _rank(card) + (20 if SUIT[card] == trump else 0 if SUIT[card] == led else -20)


def _play(view: dict, legal: list[Action]) -> Action:
    trump = view["trump"]
    trick = [play["card"] for play in view["trick"]]
    cards = [action["card"] for action in legal]
    if trump is None:  # the pitcher leads and names trumps: its best suit, high card first
        suit = max("SHDC", key=lambda s: suit_estimate(view["hand"], s))
        return _action(legal, max((c for c in cards if SUIT[c] == suit), key=_rank, default=max(cards, key=_rank)))

    def cheap(card: str) -> tuple:  # what to throw away: no points, no trumps, low rank
        return (SUIT[card] == trump, _GAME_POINTS.get(card[:-1], 0), _rank(card))

    if not trick:
        trumps = [c for c in cards if SUIT[c] == trump]
        if trumps and max(map(_rank, trumps)) >= 13:
            return _action(legal, max(trumps, key=_rank))
        return _action(legal, min(cards, key=cheap))
    led = SUIT[trick[0]]
    best = max(_power(card, led, trump) for card in trick)
    winners = [c for c in cards if _power(c, led, trump) > best]
    worth = sum(_GAME_POINTS.get(card[:-1], 0) for card in trick) + sum(
        3 for card in trick if SUIT[card] == trump and (card[:-1] == "J" or _rank(card) <= 3)
    )
    last = len(trick) == len(view["players"]) - 1
    if winners and (worth >= 3 or last):
        return _action(legal, min(winners, key=lambda c: _power(c, led, trump)))
    return _action(legal, min(cards, key=cheap))


def _action(legal: list[Action], card: str) -> Action:
    return next(action for action in legal if action.get("card") == card)


def easy(view: dict, legal: list[Action], rng: random.Random) -> Action:
    if legal[0]["type"] == "play":
        return _play(view, legal)
    return _bid(view, legal)


__all__ = ["DECK", "easy", "suit_estimate"]


# ----- the search's view of Pitch -----------------------------------------------------------
PLAYOUTS = 300


class Determinizer:
    """Deals the unseen cards (other hands, the stock) consistently with the player's view."""

    def __init__(self, view: dict):
        from engine.pitch import GAME

        self.game = GAME
        players = view["players"]
        self.players = players
        self.seat = players.index(view["you"])
        seat_of = players.index
        seen = set(view["hand"])
        for cards in view["captured"].values():
            seen.update(cards)
        seen.update(play["card"] for play in view["trick"])
        self.pool = [card for card in DECK if card not in seen]
        self.counts = [view["hand_counts"][p] for p in players]
        options = view["options"]
        partnerships = options["partnerships"]
        teams = [0, 1] if partnerships else list(range(len(players)))
        team_seat = {team: (team if partnerships else team) for team in teams}
        high = view["high_bid"]
        last = view["last_trick"]
        leader = seat_of(view["leader"]) if view["leader"] else 0
        self.data = {
            "seed": 0,
            "options": options,
            "players": players,
            "decks": [],
            "hand_number": view["hand_number"],
            "dealer": seat_of(view["dealer"]),
            "phase": view["phase"],
            "turn": seat_of(view["to_act"][0]) if view["to_act"] else -1,
            "hands": [view["hand"] if p == view["you"] else [] for p in players],
            "dealt": [[] for _ in players],
            "stock": [],
            "bids": [[seat_of(b["player"]), b["value"] or 0] for b in view["bids"]],
            "high_bid": high["value"] if high else 0,
            "high_bidder": seat_of(high["player"]) if high else -1,
            "pitcher": seat_of(view["pitcher"]) if view["pitcher"] else -1,
            "bid": view["bid"] or 0,
            "trump": view["trump"],
            "leader": leader,
            "trick": [play["card"] for play in view["trick"]],
            "tricks_played": sum(view["tricks_won"].values()),
            "won": [view["captured"][p] for p in players],
            "tricks_won": [view["tricks_won"][p] for p in players],
            "last_trick": None
            if last is None
            else [
                seat_of(last["plays"][0]["player"]),
                [play["card"] for play in last["plays"]],
                seat_of(last["winner"]),
            ],
            "scores": [view["scores"][players[team_seat[team]]] for team in teams],
            "winners": [],
            "last_hand": view["last_hand"],
        }
        self.base = GAME.load(self.data)
        self.played_now = {seat_of(play["player"]): play["card"] for play in view["trick"]}

    def sample(self, rng: random.Random):
        pool = self.pool[:]
        rng.shuffle(pool)
        hands = []
        at = 0
        for seat, count in enumerate(self.counts):
            if seat == self.seat:
                hands.append(list(self.base.hands[seat]))
                continue
            hands.append(sorted(pool[at : at + count], key=HAND_ORDER.__getitem__))
            at += count
        state = self.base.copy()
        state.hands = hands
        state.stock = tuple(pool[at:])
        state.dealt = tuple(
            tuple(hand) + ((self.played_now[s],) if s in self.played_now else ()) for s, hand in enumerate(hands)
        )
        state.seed = rng.getrandbits(32)
        state.legal = None
        return state


def rollout(game, state, player: str, view: dict, rng: random.Random) -> float:
    """Play the hand out at random; the hand's points for the player against the best other."""
    hand_number = state.hand_number
    state, _ = play_out(game, state, rng, lambda s: s.hand_number == hand_number and s.phase != "finished", 400)
    scores = game.scores(state)
    before = view["scores"]
    mine = scores[player] - before[player]
    team = set(next((t for t in view["teams"] or [] if player in t), [player]))
    others = [scores[p] - before[p] for p in scores if p not in team]
    if state.phase == "finished":
        return 1.0 if player in game.winners(state) else 0.0
    return margin(mine, others, 2.0)


def determinize(view: dict, rng: random.Random):
    return Determinizer(view).sample(rng)
