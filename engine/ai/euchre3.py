"""Euchre-3's computer player: rules of thumb (easy), and easy's move checked on sampled deals (strong).

Easy makes trumps when its hand is strong in that suit (bowers, aces, length), plays with the
dummy rather than alone, never defends alone, and in play wins a trick with its cheapest
winning card when its side is not already winning it, else throws its weakest card.

Strong (`strong`) plays easy's move unless another does clearly better over the same sampled
deals of the cards it cannot see, each deal played out to the hand's end with easy's moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.ai.search import play_out
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
PLAYOUTS = 240  # rollouts per bidding decision, shared among the moves compared
PLAY_SHARE = 3  # a card to play gets PLAYOUTS // PLAY_SHARE: late in a hand play is nearly forced
MIN_DEALS = 4
Z = 2.0  # how many standard errors better than easy's move another move must look to be played
TRIES = 20  # deals tried per sample for one that agrees with what the bidding said


def _between(start: int, stop: int | None) -> list[int]:
    """Seats clockwise from `start` up to `stop`, `stop` excluded (None: all three)."""
    seats: list[int] = []
    seat = start
    while seat != stop and len(seats) < 3:
        seats.append(seat)
        seat = (seat + 1) % 3
    return seats


def _passed(view: dict, seat_of) -> tuple[list[int], list[int]]:
    """The seats that passed in the first and in the second round of bidding this hand (public:
    everyone heard them), from who deals, who made trumps and where the up-card went."""
    dealer = seat_of(view["dealer"])
    first = (dealer + 1) % 3
    phase = view["phase"]
    turn = seat_of(view["to_act"][0]) if view["to_act"] else None
    maker = seat_of(view["maker"]) if view["maker"] else None
    if phase == "bid1":
        return _between(first, turn), []
    if view["up_card_status"] != "turned_down":
        return _between(first, maker), []
    if phase == "bid2":
        return [0, 1, 2], _between(first, turn)
    return [0, 1, 2], _between(first, maker)


class Determinizer:
    """Deals the unseen cards consistently with the player's view: the other hands, their
    face-down discards, the dummy, the kitty (the up-card where everyone saw it go) and a lone
    maker's unused dummy. A player who did not follow suit gets no card of that suit, and a deal
    where a player who passed would (by easy's measure) have made trumps is dealt again."""

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
        if (
            not self.up_in_kitty
            and self.up_to_dealer is None
            and up
            not in (
                set(view["hand"]) | set(view["discards"]) | set(view["played"]) | {p["card"] for p in view["trick"]}
            )
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
        self.played_by, self.voids = self._plays(view)
        self.checks = self._bidding(view, seat_of)

    def _plays(self, view: dict) -> tuple[list[list[str]], list[set[str]]]:
        """Who played which card this hand, and the suits each player showed it has none of
        (public: everyone saw the tricks; the cards of finished tricks are listed in order)."""
        from engine.euchre3.rules import first_leader, next_active

        played_by: list[list[str]] = [[], [], []]
        voids: list[set[str]] = [set(), set(), set()]
        state = self.base
        trump = state.trump
        if trump is None or state.maker is None:
            return played_by, voids
        effective = EFFECTIVE_SUIT[trump]
        size = 2 if state.sitting_out is not None else 3
        cards = list(state.played)
        tricks = []
        leader = first_leader(state)
        for at in range(0, len(cards), size):
            chunk = cards[at : at + size]
            seats = [leader]
            while len(seats) < len(chunk):
                seats.append(next_active(state, seats[-1]))
            tricks.append(list(zip(seats, chunk)))
            value = TRICK_VALUE[trump][effective[chunk[0]]]
            leader = max(zip(seats, chunk), key=lambda play: value[play[1]])[0]
        tricks.append(list(state.trick))
        for trick in tricks:
            if not trick:
                continue
            led = effective[trick[0][1]]
            for seat, card in trick:
                played_by[seat].append(card)
                if effective[card] != led:
                    voids[seat].add(led)
        return played_by, [voids[s] if s != self.me else set() for s in range(3)]

    def _bidding(self, view: dict, seat_of) -> list:
        """(seat, test of the cards it held when bidding) for each other player who passed."""
        from engine.core.cards import SUITS

        first, second = _passed(view, seat_of)
        dealer = seat_of(view["dealer"])
        up = self.up
        up_suit = up[-1]
        named = SUITS if view["options"]["turned_down_suit"] else tuple(s for s in SUITS if s != up_suit)
        checks: list[tuple[int, Callable[[tuple[str, ...]], bool]]] = []

        def passed_on_up(extra: tuple[str, ...]) -> Callable[[tuple[str, ...]], bool]:
            return lambda cards: strength([*cards, *extra], up_suit) < _MAKE

        for seat in first:
            if seat != self.me:
                checks.append((seat, passed_on_up((up,) if seat == dealer else ())))
        for seat in second:
            if seat != self.me:
                checks.append((seat, lambda cards: all(strength(cards, suit) < _MAKE for suit in named)))
        return checks

    def _agrees(self, hands) -> bool:
        played_by = self.played_by
        return all(check((*hands[seat], *played_by[seat])) for seat, check in self.checks)

    def sample(self, rng: random.Random):
        for _ in range(TRIES if self.checks else 1):
            state = self._deal(rng)
            if self._agrees(state.hands):
                break
        return state

    def _deal(self, rng: random.Random):
        pool = self.pool[:]
        rng.shuffle(pool)
        hands = list(self.base.hands)
        for seat in range(3):  # a player known to lack a suit first, from the cards of other suits
            voids = self.voids[seat]
            if seat == self.me or not voids:
                continue
            effective = EFFECTIVE_SUIT[self.base.trump_suit()]
            count = self.hand_counts[seat] - (seat == self.up_to_dealer and self.hand_counts[seat] > 0)
            fits = [card for card in pool if effective[card] not in voids][:count]
            if len(fits) < count:  # cannot happen with a consistent view; deal as if nothing were known
                continue
            taken = set(fits)
            pool = [card for card in pool if card not in taken]
            hands[seat] = (self.up, *fits) if seat == self.up_to_dealer and self.hand_counts[seat] else tuple(fits)
        at = 0

        def take(count: int) -> tuple:
            nonlocal at
            got = tuple(pool[at : at + count])
            at += count
            return got

        discards = list(self.base.discards)
        for seat in range(3):
            if seat == self.me:
                continue
            count = self.hand_counts[seat]
            if self.voids[seat] and len(hands[seat]) == count:
                pass
            elif seat == self.up_to_dealer and count:
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
    """The rollout policy: easy's move, read from the made-up deal (the keep: its five strongest
    cards, the same as easy's up to ties, without trying every five of ten)."""
    if len(legal) == 1:
        return legal[0]
    if legal[0]["type"] == "keep":
        trump = state.trump
        pool = state.hands[state.seat_to_act()] + state.dummy_cards()
        chosen = set(sorted(pool, key=lambda card: -strength((card,), trump))[:5])
        return {"type": "keep", "cards": [card for card in pool if card in chosen]}
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


# How a played hand ends (easy against easy, 1,355 hands not thrown in): the maker marches
# (3 points), makes (1 point) or is euchred (2 points to each defender).
HAND_ENDS = ((0.57, 3, 0), (0.38, 1, 0), (0.05, 0, 2))
_WIN_SHARES: dict[tuple, float] = {}


def win_share(mine: int, first: int, second: int, target: int) -> float:
    """The share of the match a player with `mine` points expects to win against two others
    (first, second), if the hands to come end as HAND_ENDS says with the maker any of the three:
    what a hand's points are worth depends on the scores (a point at 9 can end the match)."""
    key = (mine, *sorted((first, second)), target)
    share = _WIN_SHARES.get(key)
    if share is not None:
        return share
    scores = (mine, first, second)
    top = max(scores)
    if top >= target:
        winners = [score for score in scores if score >= target]
        share = 1 / len(winners) if mine >= target else 0.0
    else:
        share = 0.0
        for chance, maker_points, defender_points in HAND_ENDS:
            for maker in range(3):
                after = [
                    score + (maker_points if seat == maker else defender_points) for seat, score in enumerate(scores)
                ]
                share += chance / 3 * win_share(after[0], after[1], after[2], target)
    _WIN_SHARES[key] = share
    return share


def rollout(game, state, player: str, view: dict, rng: random.Random) -> float:
    """Play the hand out with easy's moves; the player's expected share of the match after it."""
    start = view["round"]
    state, _ = play_out(game, state, rng, lambda s: s.round == start and s.turn is not None, 300, quick)
    scores = state.scores
    me = state.players.index(player)
    others = [scores[seat] for seat in range(3) if seat != me]
    return win_share(scores[me], others[0], others[1], state.options.target)


def determinize(view: dict, rng: random.Random):
    return Determinizer(view).sample(rng)


# ----- the strong player ---------------------------------------------------------------------
def _voids(cards, trump: str) -> int:
    suits = {EFFECTIVE_SUIT[trump][card] for card in cards}
    return sum(1 for suit in ("S", "H", "D", "C") if suit != trump and suit not in suits)


def _high(cards, trump: str) -> int:
    return sum(1 for card in cards if EFFECTIVE_SUIT[trump][card] != trump and card[:-1] in ("A", "K"))


def candidates(view: dict, legal: list[Action]) -> list[Action]:
    """The moves the strong player compares: every card, bid and defence; the maker's five cards
    to keep and the dealer's discard narrowed to a few good ones (trumps, then short side suits)."""
    kinds = {action["type"] for action in legal}
    if "keep" in kinds:
        trump = view["trump"]
        ranked = sorted(
            legal, key=lambda a: (-strength(a["cards"], trump), -_voids(a["cards"], trump), -_high(a["cards"], trump))
        )
        return _with(ranked[:4], easy(view, legal, random.Random(0)))
    if "pick_up" in kinds:
        hand = view["hand"]
        up = view["up_card"]
        trump = up[-1]

        def after(action):
            cards = [c for c in [*hand, up] if c != action["discard"]]
            return (-strength(cards, trump), -_voids(cards, trump), -_high(cards, trump))

        picks = sorted((a for a in legal if a["type"] == "pick_up"), key=after)[:3]
        picks += [a for a in legal if a["type"] == "leave"]
        return _with(picks, easy(view, legal, random.Random(0)))
    if "with_dummy" in kinds and not view["options"]["lone_maker_bonus"]:
        return [next(a for a in legal if a["type"] == "with_dummy")]  # alone scores the same, with fewer cards
    return legal


def _with(moves: list[Action], move: Action) -> list[Action]:
    return moves if move in moves else [move, *moves]


def strong(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """Easy's move unless another does clearly better over the same sampled deals, each played
    out to the hand's end with easy's moves for every seat: the deals are common to the moves,
    so the comparison is paired and far less noisy than a search that draws a deal per try."""
    from engine.euchre3 import GAME

    moves = candidates(view, legal)
    if len(moves) == 1:
        return moves[0]
    default = moves.index(easy(view, moves, rng))
    player = view["you"]
    budget = PLAYOUTS if view["phase"] != "play" else PLAYOUTS // PLAY_SHARE
    deals = max(MIN_DEALS, budget // len(moves))
    determinizer = Determinizer(view)
    results = [[0.0] * deals for _ in moves]
    for deal_index in range(deals):
        deal = determinizer.sample(rng)
        for index, move in enumerate(moves):
            result = GAME.advance(deal.copy(), player, move)
            if result.ok:  # always, with a consistent deal; a refusal counts as a lost match
                results[index][deal_index] = rollout(GAME, result.state, player, view, rng)
    means = [sum(values) / deals for values in results]
    best = max(range(len(moves)), key=means.__getitem__)
    if best == default:
        return moves[default]
    gains = [a - b for a, b in zip(results[best], results[default])]
    mean = sum(gains) / deals
    spread = (sum((gain - mean) ** 2 for gain in gains) / max(1, deals - 1)) ** 0.5
    if mean > 0 and mean > Z * spread / deals**0.5:
        return moves[best]
    return moves[default]
