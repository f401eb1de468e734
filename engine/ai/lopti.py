"""Lopti's computer player: rules of thumb (easy) and dealing what it cannot see (for the search).

A computer player takes no part in the meta-game: it writes no house rule (it passes with
`no_rule`), never votes, proposes or duels (engine/ai/common.py keeps those actions from it).

Easy puts its strongest cards face up before play, then sheds its lowest ordinary cards
(as many of one rank as it may), keeps the cards that go on anything (2, 3, 7, 10) for when
nothing else fits, and takes the pile only when it must.

Strong (`strong`) plays easy's move unless another move does clearly better over the same
sampled deals of the unseen cards, each deal played out to the round's end with easy's play
for every seat (common deals make the comparison between moves far less noisy).
"""

from __future__ import annotations

import math
import random

from engine.ai.search import margin
from engine.core.protocol import Action
from engine.lopti.actions import ALL_PLAYS, FLIPS, PLAYS, PLAYS_CACHE_SIZE, TAKE
from engine.lopti.game import play_keys, play_listed
from engine.lopti.rules import VALUE
from engine.lopti.state import PLAY

SPECIAL = {2: 20, 3: 21, 7: 19, 10: 22}  # cards that go on (almost) anything: worth keeping


def worth(card: str) -> int:
    value = VALUE[card]
    return SPECIAL.get(value, value)


WORTH = {card: worth(card) for card in VALUE}


def _setup(view: dict, legal: list[Action]) -> Action:
    swaps = [action for action in legal if action["type"] == "swap"]
    gains = [(worth(action["hand"]) - worth(action["face_up"]), action) for action in swaps]
    gains = [(gain, action) for gain, action in gains if gain > 0]
    if gains:
        return max(gains, key=lambda pair: pair[0])[1]
    return next(action for action in legal if action["type"] == "ready")


def easy(view: dict, legal: list[Action], rng: random.Random) -> Action:
    kinds = {action["type"] for action in legal}
    if "no_rule" in kinds:
        return next(action for action in legal if action["type"] == "no_rule")
    if "ready" in kinds or "swap" in kinds:
        return _setup(view, legal)
    plays = [action for action in legal if action["type"] == "play"]
    if plays:
        return min(plays, key=lambda action: (worth(action["cards"][0]), -len(action["cards"])))
    flips = [action for action in legal if action["type"] == "flip"]
    if flips:
        return flips[0]
    return legal[0]


# ----- the search's view of Lopti --------------------------------------------------------------
PLAYOUTS = 200  # rollouts per decision at most, shared among the moves still compared
ROLLOUT_LIMIT = 400  # actions: a round is 70-160 (easy against easy), so rollouts play it out


class Determinizer:
    """Deals the unseen cards consistently with the player's view: other hands, every
    face-down card (the player's own too, L13.4), the stock, and which cards were burned (the
    view counts them but does not list them)."""

    def __init__(self, view: dict, round_only: bool = False):
        """`round_only`: deals for rollouts, whose round ends in the authoring phase (house rules
        on; nothing in play reads the option), so that no rollout deals the next round."""
        from engine.lopti import GAME
        from engine.lopti.rules import DECK

        players = view["players"]
        seat_of = players.index
        self.players = players
        self.me = seat_of(view["me"])
        seats = view["seats"]
        seen = set(view["hand"]) | set(view["pile"]) | set(view["chain"])
        for info in seats.values():
            seen.update(info["face_up"])
        self.pool = [card for card in DECK if card not in seen]
        self.hand_counts = [seats[p]["hand_count"] for p in players]
        self.face_down = [seats[p]["face_down"] for p in players]
        self.stock_count = view["stock_count"]
        rules = [{**_record(rule), "active": True} for rule in view["rules"]]
        rules += [{**_record(rule), "active": False} for rule in view["removed_rules"]]
        options = {**view["options"], "house_rules": "templates_and_text"} if round_only else view["options"]
        count = len(players)
        dealer = seat_of(view["dealer"])
        playing = view["phase"] == "play"
        data = {
            "seed": 0,
            "options": options,
            "players": players,
            "decks": [],
            "first_dealer": (dealer - (view["round"] - 1)) % count,
            "ready": [seats[p]["ready"] for p in players],
            "swaps": [seats[p]["swaps"] for p in players],
            "wins": [seats[p]["wins"] for p in players],
            "rules": rules,
            "hands": [list(view["hand"]) if s == self.me else [] for s in range(count)],
            "face_up": [list(seats[p]["face_up"]) for p in players],
            "face_down": [[None, None, None] for _ in players],
            "stock": [],
            "pile": view["pile"],
            "chain": view["chain"],
            "burned": [],
            "out": [seat_of(p) for p in view["out"]],
            "round": view["round"],
            "dealer": dealer,
            "starter": seat_of(view["starter"]),
            "phase": view["phase"],
            "turn": seat_of(view["turn"]) if playing and view["turn"] else seat_of(view["starter"]),
            "extra": view["extra_play"],
            "obligation": view["obligation"] is not None,
            "last_play": view["previous_play"],
            "run": view["top_run"],
            "round_winner": seat_of(view["round_winner"]) if view["round_winner"] else None,
            "next_rule_id": 1 + max((rule["id"] for rule in rules), default=0),
            "direction": 1 if view["direction"] == "clockwise" else -1,
            "skips": [seat_of(p) for p in view["skips"]],
            "vote": None,
            "vote_used": view["vote_used"],  # proposals are never offered, so no vote opens in a playout
            "duel": None,
            "pending": view["pending_changes"],
            "next_vote_id": 1,
        }
        self.base = GAME.load(data)

    def sample(self, rng: random.Random):
        pool = self.pool[:]
        rng.shuffle(pool)
        at = 0
        state = self.base.copy()
        for seat in range(len(self.players)):
            if seat != self.me:
                count = self.hand_counts[seat]
                state.hands[seat] = pool[at : at + count]
                at += count
            row: list[str | None] = [None, None, None]
            for position in self.face_down[seat]:
                row[position] = pool[at]
                at += 1
            state.face_down[seat] = row
        state.stock = pool[at : at + self.stock_count]
        state.burned = pool[at + self.stock_count :]
        state.seed = rng.getrandbits(32)
        return state


def _record(rule: dict) -> dict:
    return {
        "id": rule["id"],
        "author": rule["author"],
        "text": rule["text"],
        "round": rule["round"],
        "rule": rule["rule"],
    }


def _key(action: Action):
    """Plays of one rank and size are the same move whatever their suits (suits have no value,
    L13.2); any face-down position is as good as another (nobody knows them)."""
    kind = action["type"]
    if kind == "play":
        return VALUE[action["cards"][0]], len(action["cards"])
    return kind


def candidates(view: dict, legal: list[Action]) -> list[Action]:
    """The moves the search compares: before play (swaps, ready) easy's choice alone, because a
    rollout judges the play, not the set-up; in play one move of each kind (rank and size)."""
    if view["phase"] == "setup":
        return [_setup(view, legal)]
    distinct: dict = {}
    for action in legal:
        distinct.setdefault(_key(action), action)
    return list(distinct.values())


# A rollout cut off before the round ends (rare: ROLLOUT_LIMIT) is judged by what each player has
# left to shed; a special card in hand counts half (it goes on almost anything).
SPECIAL_LEFT = 0.5
FACE_UP_LEFT = 1.0
FACE_DOWN_LEFT = 1.0
SCALE = 3.0


def _quick_keys() -> dict[int, int]:
    """id of a listed action -> its rank for `quick` (lowest first): a play by its card's worth,
    then more cards before fewer; a flip after any play, taking the pile last. Keyed by id: the
    engine lists the same action dicts every time (engine/lopti/actions.py)."""
    keys = {id(action): WORTH[action["cards"][0]] * 8 - len(action["cards"]) for action in ALL_PLAYS}
    keys.update({id(flip): 1_000 for flip in FLIPS})
    keys[id(TAKE)] = 2_000
    return keys


QUICK_KEY = _quick_keys()
_OTHER = 3_000  # anything else listed (deleting one's own rule): never a rollout's move


def _quick_key(action: Action, key=QUICK_KEY.get) -> int:
    return key(id(action), _OTHER)


def quick(legal: list[Action]) -> Action:
    """The rollout policy, for every seat: easy's play (the lowest cards, as many as may go),
    else the first face-down card, else the pile."""
    return min(legal, key=_quick_key)


class _ChunkBest(dict):
    """`actions.PLAYS` key -> `quick`'s rank of the best play it lists (NO_PLAY: none), built
    on first use; `BEST_PLAY` holds the play itself. Bounded as `PLAYS` is."""

    def __missing__(self, key: int) -> int:
        if len(self) >= PLAYS_CACHE_SIZE:
            self.clear()
            BEST_PLAY.clear()
        plays = PLAYS[key]
        if not plays:
            self[key] = NO_PLAY
            return NO_PLAY
        best = quick(plays)
        BEST_PLAY[key] = best
        rank = self[key] = QUICK_KEY[id(best)]
        return rank


NO_PLAY = 1_000
CHUNK_BEST: dict[int, int] = _ChunkBest()
BEST_PLAY: dict[int, Action] = {}


def quick_play(state) -> Action | None:
    """`quick`'s pick among the plays listed for the player to act, found without listing them:
    the best of each chunk of ranks is looked up by its `PLAYS` key (ranks never tie between
    chunks); None when they may not play."""
    seat = state.turn
    if not state.hands[seat]:
        return None
    key = min(play_keys(state, seat), key=CHUNK_BEST.__getitem__)
    return BEST_PLAY[key] if CHUNK_BEST[key] != NO_PLAY else None


IS_SPECIAL = {card: VALUE[card] in SPECIAL for card in VALUE}


def _burden(state, seat: int) -> float:
    hand = state.hands[seat]
    specials = sum(IS_SPECIAL[card] for card in hand)
    return (
        len(hand)
        - specials
        + SPECIAL_LEFT * specials
        + FACE_UP_LEFT * len(state.face_up[seat])
        + FACE_DOWN_LEFT * sum(card is not None for card in state.face_down[seat])
    )


def rollout(game, state, player: str, view: dict, rng: random.Random) -> float:
    """Play on with easy's play for ROLLOUT_LIMIT actions: 1 for winning the round, 0 for
    losing it, else judged by what each player has left to shed. The deal is `round_only`: its
    round ends in the authoring phase."""
    players, advance, legal_actions = state.players, game.advance, game.legal_actions
    for _ in range(ROLLOUT_LIMIT):
        if state.phase != PLAY:
            break
        play = quick_play(state)
        if play is not None:
            play_listed(state, play["cards"])
            continue
        mover = players[state.turn]
        result = advance(state, mover, quick(legal_actions(state, mover)))
        if not result.ok:  # cannot happen with a consistent deal; judged as it stands
            break
        state = result.state
    me = players.index(player)
    if state.phase != PLAY:
        return 1.0 if state.round_winner == me else 0.0
    if me in state.out:
        return 1.0
    others = [-_burden(state, seat) for seat in range(len(players)) if seat != me and seat not in state.out]
    return margin(-_burden(state, me), others, SCALE)


def determinize(view: dict, rng: random.Random):
    return Determinizer(view).sample(rng)


MARGIN = 0.05  # how much better (mean outcome, 0..1) a move must be than easy's to be played instead
MIN_DEALS = 8  # deals before a move may be dropped: a standard error needs a few
Z = 2.0  # standard errors: a move is played instead of easy's only when it is this surely better


class Paired:
    """A move's outcomes minus easy's move's on the same deals: their mean and how sure it is."""

    __slots__ = ("count", "total", "squares")

    def __init__(self):
        self.count = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, difference: float) -> None:
        self.count += 1
        self.total += difference
        self.squares += difference * difference

    def bounds(self) -> tuple[float, float]:
        """The mean difference less and plus Z standard errors."""
        count = self.count
        mean = self.total / count
        if count < 2:
            return -1.0, 1.0
        variance = max(self.squares - self.total * mean, 0.0) / (count - 1)
        spread = Z * math.sqrt(variance / count)
        return mean - spread, mean + spread


def strong(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """Easy's move unless another is surely better over the same sampled deals."""
    from engine.lopti import GAME

    moves = candidates(view, legal)
    if view["phase"] != "play" or len(moves) == 1:
        return moves[0]
    default = moves.index(easy(view, moves, rng))
    player = view["me"]
    determinizer = Determinizer(view, round_only=True)
    paired = {index: Paired() for index in range(len(moves)) if index != default}
    trying = [default, *paired]
    spent = 0
    while len(trying) > 1 and spent + len(trying) <= PLAYOUTS:
        deal = determinizer.sample(rng)
        outcomes = []
        for index in trying:
            result = GAME.advance(deal.copy(), player, moves[index])
            # Always ok with a consistent deal; a refusal would count as a lost round.
            outcomes.append(rollout(GAME, result.state, player, view, rng) if result.ok else 0.0)
        spent += len(trying)
        for index, outcome in zip(trying[1:], outcomes[1:]):
            paired[index].add(outcome - outcomes[0])
        if paired[trying[1]].count >= MIN_DEALS:  # moves that cannot be surely better are dropped
            trying = [default, *(index for index in trying[1:] if paired[index].bounds()[1] >= MARGIN)]
    surely_better = [index for index in trying[1:] if paired[index].bounds()[0] > MARGIN]
    if not surely_better:
        return moves[default]
    return moves[max(surely_better, key=lambda index: paired[index].total)]
