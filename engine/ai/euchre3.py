"""Euchre-3's computer player: rules of thumb (easy) and dealing what it cannot see (for the search).

Easy makes trumps when its hand is strong in that suit (bowers, aces, length), plays with the
dummy rather than alone, never defends alone, and in play wins a trick with its cheapest
winning card when its side is not already winning it, else throws its weakest card.
"""

from __future__ import annotations

import random

from engine.ai.search import margin, play_out
from engine.core.protocol import Action
from engine.euchre3.ranking import EFFECTIVE_SUIT, SAME_COLOUR, STRENGTH_KEY, TRICK_VALUE

_TRUMP_WORTH = {"J": 3.0, "A": 2.0, "K": 1.6, "Q": 1.3, "10": 1.1, "9": 1.0, "8": 0.9, "7": 0.8}


def strength(cards, trump: str) -> float:
    """How good `cards` are with `trump` as trumps: the bowers and high trumps count most."""
    total = 0.0
    for card in cards:
        if EFFECTIVE_SUIT[trump][card] == trump:
            total += 3.5 if card == "J" + trump else _TRUMP_WORTH[card[:-1]]
        elif card[:-1] == "A":
            total += 0.8
    return total


_MAKE = 6.5  # strength needed to make trumps (about three good trumps)


def _weakest(cards, trump: str) -> str:
    return max(cards, key=STRENGTH_KEY[trump].__getitem__)


def _play(view: dict, legal: list[Action]) -> Action:
    trump = view["trump"]
    cards = [action["card"] for action in legal]
    trick = [(play["player"], play["card"]) for play in view["trick"]]
    me = view["you"]
    maker = view["maker"]
    if not trick:
        best = min(cards, key=STRENGTH_KEY[trump].__getitem__)
        if EFFECTIVE_SUIT[trump][best] == trump and me == maker or best[:-1] == "A":
            return _action(legal, best)
        return _action(legal, _weakest(cards, trump))
    led = EFFECTIVE_SUIT[trump][trick[0][1]]
    value = TRICK_VALUE[trump][led]
    leader_player, top = max(trick, key=lambda play: value[play[1]])
    partners = leader_player != maker and me != maker  # the defenders are a side
    if partners:
        return _action(legal, _weakest(cards, trump))
    winners = [card for card in cards if value[card] > value[top]]
    if winners:
        return _action(legal, min(winners, key=value.__getitem__))
    return _action(legal, _weakest(cards, trump))


def _action(legal: list[Action], card: str) -> Action:
    return next(action for action in legal if action.get("card") == card)


def easy(view: dict, legal: list[Action], rng: random.Random) -> Action:
    kinds = {action["type"] for action in legal}
    hand = view.get("hand") or []
    up = view["up_card"]
    if "play" in kinds:
        return _play(view, legal)
    if "keep" in kinds:
        trump = view["trump"]
        return max(legal, key=lambda action: strength(action["cards"], trump))
    if "pick_up" in kinds:
        trump = up[-1]
        return max(
            (action for action in legal if action["type"] == "pick_up"),
            key=lambda action: strength([c for c in [*hand, up] if c != action["discard"]], trump),
        )
    if "with_dummy" in kinds:
        return next(action for action in legal if action["type"] == "with_dummy")
    if "accept" in kinds:
        accept = next(action for action in legal if action["type"] == "accept")
        cards = [*hand, up] if view["dealer"] == view["you"] else hand
        if strength(cards, up[-1]) >= _MAKE:
            return accept
        return next((action for action in legal if action["type"] == "pass"), accept)
    if "name" in kinds:
        names = [action for action in legal if action["type"] == "name"]
        best = max(names, key=lambda action: strength(hand, action["suit"]))
        if strength(hand, best["suit"]) >= _MAKE or "pass" not in kinds:
            return best
    if "pass" in kinds:
        return next(action for action in legal if action["type"] == "pass")
    if "alone" in kinds and all(action["type"] == "alone" for action in legal):
        trump = view["trump"]
        return max(legal, key=lambda action: strength([c for c in hand if c != action.get("discard")], trump))
    return legal[0]


__all__ = ["SAME_COLOUR", "easy", "strength"]


# ----- the search's view of Euchre-3 -------------------------------------------------------
PLAYOUTS = 300


class Determinizer:
    """Deals the unseen cards consistently with the player's view: the other hands, their
    face-down discards, the dummy, the kitty (the up-card where everyone saw it go) and a lone
    maker's unused dummy."""

    def __init__(self, view: dict):
        from engine.euchre3 import GAME
        from engine.euchre3.ranking import DECKS

        players = view["players"]
        self.players = players
        self.me = players.index(view["you"])
        seat_of = players.index
        up = view["up_card"]
        status = view["up_card_status"]
        seen = set(view["hand"]) | set(view["discards"]) | set(view["played"])
        seen.update(play["card"] for play in view["trick"])
        seen.update(view.get("dummy") or ())
        self.up_in_kitty = status in ("face_up", "left", "turned_down")
        self.up_to_dealer = None
        if not self.up_in_kitty and up not in seen and view["dealer"] != view["you"]:
            self.up_to_dealer = seat_of(view["dealer"])
        seen.add(up)
        self.pool = [card for card in DECKS[view["options"]["deck"]] if card not in seen]
        if not self.up_in_kitty and self.up_to_dealer is None and up not in (
            set(view["hand"]) | set(view["discards"]) | set(view["played"]) | {p["card"] for p in view["trick"]}
        ):
            self.pool.append(up)  # the dealer-me case cannot reach here; kept for safety
        self.up = up
        self.hand_counts = [view["hand_counts"][p] for p in players]
        self.discard_counts = [view["discard_counts"][p] for p in players]
        self.dummy_count = view["dummy_count"]
        self.kitty_count = view["kitty_count"]
        trick = view["trick"]
        last = view["last_trick"]
        data = {
            "seed": 0,
            "options": view["options"],
            "players": players,
            "decks": [],
            "scores": [view["scores"][p] for p in players],
            "winners": [seat_of(p) for p in view["winners"]],
            "phase": view["phase"],
            "up_status": status,
            "trump": view["trump"],
            "maker": seat_of(view["maker"]) if view["maker"] else None,
            "maker_alone": view["maker_alone"],
            "lone_defender": seat_of(view["lone_defender"]) if view["lone_defender"] else None,
            "sitting_out": seat_of(view["sitting_out"]) if view["sitting_out"] else None,
            "defence_queue": [seat_of(p) for p in view["defenders_to_speak"]],
            "discards": [view["discards"] if s == self.me else [] for s in range(3)],
            "dead": [],
            "trick": [[seat_of(play["player"]), play["card"]] for play in trick],
            "leader": seat_of(view["leader"]) if view["leader"] else None,
            "tricks_won": [view["tricks_won"][p] for p in players],
            "played": view["played"],
            "last_trick": None if last is None else [[seat_of(c["player"]), c["card"]] for c in last["cards"]],
            "last_trick_winner": None if last is None else seat_of(last["winner"]),
            "round": view["round"],
            "dealer": seat_of(view["dealer"]),
            "turn": seat_of(view["to_act"][0]) if view["to_act"] else None,
            "hands": [view["hand"] if s == self.me else [] for s in range(3)],
            "dummy": view.get("dummy") if view["dummy_count"] is not None else None,
            "kitty": [],
            "up_card": up,
        }
        self.base = GAME.load(data)

    def sample(self, rng: random.Random):
        pool = self.pool[:]
        rng.shuffle(pool)
        at = 0

        def take(count: int) -> tuple:
            nonlocal at
            got = tuple(pool[at : at + count])
            at += count
            return got

        hands = list(self.base.hands)
        discards = list(self.base.discards)
        for seat in range(3):
            if seat == self.me:
                continue
            count = self.hand_counts[seat]
            if seat == self.up_to_dealer and count:
                hands[seat] = (self.up, *take(count - 1))
            else:
                hands[seat] = take(count)
            discards[seat] = take(self.discard_counts[seat])
        state = self.base.copy()
        state.hands = tuple(hands)
        state.discards = tuple(discards)
        if self.dummy_count is not None and state.dummy is None or (state.dummy is not None and not state.dummy):
            state.dummy = take(self.dummy_count)
        kitty_count = self.kitty_count
        if self.up_in_kitty and kitty_count:
            state.kitty = (self.up, *take(kitty_count - 1))
        else:
            state.kitty = take(kitty_count)
        state.dead = tuple(pool[at:])
        state.seed = rng.getrandbits(32)
        return state


def quick(state, mover: str, legal: list[Action], rng: random.Random) -> Action:
    """The rollout policy: easy's move (read from the made-up deal), sometimes a random one.
    Random defenders and makers in rollouts made every bid look good, and the search overbid."""
    if len(legal) == 1:
        return legal[0]
    if rng.random() < 0.1:
        return rng.choice(legal)
    return easy(_light_view(state, mover), legal, rng)


def _light_view(state, player: str) -> dict:
    """The few view keys easy reads, straight from a state."""
    players = state.players
    seat = players.index(player)
    return {
        "you": player,
        "hand": state.hands[seat],
        "up_card": state.up_card,
        "dealer": players[state.dealer],
        "trump": state.trump,
        "maker": None if state.maker is None else players[state.maker],
        "trick": [{"player": players[s], "card": card} for s, card in state.trick],
    }


def rollout(game, state, player: str, view: dict, rng: random.Random) -> float:
    """Play the hand out with easy's moves; the hand's points for the player against the best other."""
    start = view["round"]
    state, _ = play_out(game, state, rng, lambda s: s.round == start and s.turn is not None, 300, quick)
    scores = game.scores(state)
    before = view["scores"]
    if state.turn is None:
        return 1.0 if player in game.winners(state) else 0.0
    others = [scores[p] - before[p] for p in scores if p != player]
    return margin(scores[player] - before[player], others, 1.5)


def determinize(view: dict, rng: random.Random):
    return Determinizer(view).sample(rng)
