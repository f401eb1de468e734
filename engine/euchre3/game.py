"""`Euchre3`, the protocol's `Game` for three-handed Euchre with a dummy: dispatch, legal actions,
the turn timer's defaults, views and the replay outputs. The moves themselves are in rules.py."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any

from pydantic import BaseModel

from engine.core.cards import SUITS, is_card_code, parse_card
from engine.core.fast import applied, event
from engine.core.protocol import (
    CLOCK,
    Action,
    Event,
    Game,
    MalformedAction,
    Refused,
    Result,
)
from engine.core.rng import pick
from engine.core.shapes import check_action as check_shape
from engine.euchre3 import rules
from engine.euchre3.dealing import deal
from engine.euchre3.options import Euchre3Options
from engine.euchre3.ranking import (
    ALL_CARDS,
    DECKS,
    legal_plays,
    strongest_first,
    weakest,
)
from engine.euchre3.state import (
    BID1,
    BID2,
    DEFEND,
    KEEP,
    MAKER_CHOICE,
    PICKUP,
    PLAY,
    Euchre3State,
)
from engine.euchre3.views import table_view

# A move changes the state in place and returns its events, or refuses and changes nothing.
Move = Callable[[Euchre3State, int, Action], list[Event] | Refused]
# phase -> action type -> move
MOVES: dict[str, dict[str, Move]] = {
    BID1: {"accept": rules.do_accept, "pass": rules.do_bid1_pass},
    PICKUP: {"pick_up": rules.do_pick_up, "leave": rules.do_leave},
    BID2: {"name": rules.do_name, "pass": rules.do_bid2_pass},
    MAKER_CHOICE: {"alone": rules.do_maker_alone, "with_dummy": rules.do_with_dummy},
    KEEP: {"keep": rules.do_keep},
    DEFEND: {"alone": rules.do_defender_alone, "pass": rules.do_defender_pass},
    PLAY: {"play": rules.do_play},
}

PHASE_HINTS = {
    BID1: "accept the up-card's suit as trump, or pass",
    PICKUP: "pick_up (with a discard) or leave the up-card",
    BID2: "name a suit, or pass",
    MAKER_CHOICE: "go alone, or play with_dummy",
    KEEP: "keep five cards from your hand and the dummy",
    DEFEND: "go alone, or pass",
    PLAY: "play a card",
}

_ACCEPT = {"type": "accept"}
_PASS = {"type": "pass"}
_LEAVE = {"type": "leave"}
_ALONE = {"type": "alone"}
_WITH_DUMMY = {"type": "with_dummy"}
# Every action dict legal_actions can offer is built once here (keep's aside, which depend on
# hand and dummy): building dicts per call was a large part of a playout's time. The lists
# and dicts are shared with callers, who never change them (Game.legal_actions).
_PLAY = {card: {"type": "play", "card": card} for card in ALL_CARDS}
_PICK_UP = {card: {"type": "pick_up", "discard": card} for card in ALL_CARDS}
_ALONE_DISCARDING = {card: {"type": "alone", "discard": card} for card in ALL_CARDS}
_NAME = {suit: {"type": "name", "suit": suit} for suit in SUITS}
_BID1_ACTIONS = [_ACCEPT, _PASS]
_DEFEND_ACTIONS = [_ALONE, _PASS]
_FIVE_CARD_MAKER_ACTIONS = [_ALONE, _WITH_DUMMY]
CANONICAL_CARDS = frozenset(ALL_CARDS)


class Euchre3(Game):
    name = "euchre3"
    min_players = 3
    max_players = 3
    usual_players = 3
    lower_totals_win = False
    Options = Euchre3Options
    action_fields = {
        "accept": {},
        "pass": {},
        "pick_up": {"discard": "card"},
        "leave": {},
        "name": {"suit": "str"},
        "alone": {"discard": "?card"},
        "with_dummy": {},
        "keep": {"cards": "cards"},
        "play": {"card": "card"},
    }

    # ----- set-up -------------------------------------------------------------------------
    def deck(self, options: BaseModel, players: Sequence[str]) -> list[str]:
        return list(DECKS[_own(options).deck])

    def new(
        self,
        players: Sequence[str],
        options: BaseModel,
        seed: int | str,
        dealer: str | None = None,
        decks: Sequence[Sequence[str]] = (),
    ) -> Euchre3State:
        options = _own(options)
        players = tuple(players)
        problem = self.player_count_problem(players, options)
        if problem:
            raise ValueError(problem)
        if dealer is None:
            dealer = pick(players, seed, "dealer")  # E6, EU3-A13
        state = Euchre3State()
        state.seed = seed
        state.options = options
        state.players = players
        state.decks = tuple(tuple(parse_card(card) for card in deck) for deck in decks)
        self.check_decks(state.decks, options, players)
        state.scores = (0, 0, 0)
        state.winners = ()
        deal(state, 1, players.index(dealer))
        return state

    def check_action(self, player: str, action: Any, players: Sequence[str]) -> Action:
        canonical = check_shape(self.action_fields, player, action, players)
        if canonical["type"] == "name":
            suit = canonical["suit"].strip().upper()
            if suit not in SUITS:
                raise MalformedAction("action 'name': 'suit' must be one of S, H, D, C")
            canonical["suit"] = suit
        return canonical

    # ----- play ---------------------------------------------------------------------------
    def to_act(self, state: Euchre3State) -> list[str]:
        turn = state.turn
        return [] if turn is None else [state.players[turn]]

    def legal_actions(self, state: Euchre3State, player: str) -> list[Action]:
        seat = state.turn
        if seat is None:
            return []
        if player != state.players[seat] or player == CLOCK:
            return [{"type": "timeout"}] if player == CLOCK else []
        phase = state.phase
        # Phases in order of how often a match meets them.
        if phase == PLAY:
            trick = state.trick
            return list(
                map(
                    _PLAY.__getitem__,
                    legal_plays(state.hands[seat], trick[0][1] if trick else None, state.trump_suit()),
                )
            )
        if phase == BID1:
            return _BID1_ACTIONS
        if phase == DEFEND:
            return _DEFEND_ACTIONS
        if phase == MAKER_CHOICE:
            hand = state.hands[seat]
            if len(hand) == 6:
                return [_ALONE_DISCARDING[card] for card in hand] + [_WITH_DUMMY]
            return _FIVE_CARD_MAKER_ACTIONS
        if phase == PICKUP:
            actions = [_PICK_UP[card] for card in state.hands[seat]]
            actions.append(_PICK_UP[state.up_card])
            if not state.options.dealer_must_pick_up:
                actions.append(_LEAVE)
            return actions
        if phase == KEEP:
            pool = state.hands[seat] + state.dummy_cards()
            return [{"type": "keep", "cards": [a, b, c, d, e]} for a, b, c, d, e in combinations(pool, 5)]
        if phase == BID2:
            actions = [_NAME[suit] for suit in rules.allowed_suits(state)]
            if not rules.dealer_is_stuck(state, seat):
                actions.append(_PASS)
            return actions
        return []

    def apply(self, state: Euchre3State, player: str, action: Action) -> Result:
        """`advance` on a copy: the same rules, and `state` is never changed."""
        return self.advance(state.copy(), player, action)

    def advance(self, state: Euchre3State, player: str, action: Action) -> Result:
        """Every action, checked in order: the match, the action's shape, the clock, the player,
        the turn, the phase, then the move's own checks; `state` changes (in place) only when the
        action is accepted, because every move checks everything before it changes anything."""
        seat = state.turn
        if seat is None:
            return Refused("match_over", "The match is over; start a new one.")
        if not (action.__class__ is dict or isinstance(action, Mapping)) or not isinstance(action.get("type"), str):
            return Refused("bad_action", "Send an action with a type.")
        if player == CLOCK:
            if action["type"] != "timeout":
                return Refused("bad_action", "The clock can only time out.")
            return self._timeout(state)
        players = state.players
        if players[seat] != player:
            if player not in players:
                return Refused("not_a_player", f"{player} is not at this table.")
            return Refused("not_your_turn", f"Wait: it is {players[seat]}'s turn.")
        move = MOVES[state.phase].get(action["type"])
        if move is None:
            return Refused("not_now", f"Not now: {PHASE_HINTS[state.phase]}.")
        if len(action) != 1 and not _is_canonical(action):
            action = _canonical_cards(action)
        events = move(state, seat, action)
        if isinstance(events, Refused):
            return events
        return applied(state, events)

    def _timeout(self, new: Euchre3State) -> Result:
        """Section 7's defaults for whoever the game waits for, applied to `new` (owned by the
        caller); the first event says who timed out."""
        seat = new.seat_to_act()
        events = [event("timed_out", {"player": new.players[seat], "phase": new.phase})]
        for action in self.timeout_actions(new):
            result = MOVES[new.phase][action["type"]](new, seat, action)
            assert not isinstance(result, Refused), result
            events.extend(result)
        return applied(new, events)

    def timeout_actions(self, state: Euchre3State) -> list[Action]:
        """The default action(s) for the seat to act (section 7 and 8)."""
        seat = state.seat_to_act()
        phase = state.phase
        if phase == BID1 or phase == DEFEND:
            return [_PASS]
        if phase == BID2:
            if rules.dealer_is_stuck(state, seat):
                return [{"type": "name", "suit": rules.allowed_suits(state)[0]}]
            return [_PASS]
        trump = state.trump_suit()  # named in every later phase
        if phase == PICKUP:
            if state.options.dealer_must_pick_up:
                six = state.hands[seat] + (state.up_card,)
                return [{"type": "pick_up", "discard": weakest(six, trump)}]
            return [_LEAVE]
        if phase == MAKER_CHOICE:
            pool = state.hands[seat] + state.dummy_cards()
            return [
                _WITH_DUMMY,
                {"type": "keep", "cards": strongest_first(pool, trump)[:5]},
            ]
        if phase == KEEP:
            pool = state.hands[seat] + state.dummy_cards()
            return [{"type": "keep", "cards": strongest_first(pool, trump)[:5]}]
        trick = state.trick
        led = trick[0][1] if trick else None
        return [
            {
                "type": "play",
                "card": weakest(legal_plays(state.hands[seat], led, trump), trump),
            }
        ]

    # ----- what may be seen ---------------------------------------------------------------
    def view(self, state: Euchre3State, player: str | None) -> dict[str, Any]:
        return table_view(state, player)

    def replay_hands(self, state: Euchre3State) -> dict[str, Any]:
        hands: dict[str, Any] = {name: list(state.hands[seat]) for seat, name in enumerate(state.players)}
        if state.dummy is not None:
            hands["dummy"] = list(state.dummy)
        return hands

    # ----- outcome ------------------------------------------------------------------------
    def scores(self, state: Euchre3State) -> dict[str, int]:
        return {name: state.scores[seat] for seat, name in enumerate(state.players)}

    def is_finished(self, state: Euchre3State) -> bool:
        return state.turn is None

    def winners(self, state: Euchre3State) -> list[str]:
        return [state.players[seat] for seat in state.winners]

    def round_number(self, state: Euchre3State) -> int:
        return state.round

    # ----- persistence --------------------------------------------------------------------
    def dump(self, state: Euchre3State) -> dict[str, Any]:
        return state.to_dict()

    def load(self, data: Mapping[str, Any]) -> Euchre3State:
        return Euchre3State.from_dict(data)


def _is_canonical(action: Mapping[str, Any]) -> bool:
    """True for the usual shapes legal_actions produces (which `advance` takes as they are)."""
    size = len(action)
    if size == 1:
        return True
    if size == 2:
        value = action.get("card", action.get("discard"))
        if value.__class__ is str:
            return value in CANONICAL_CARDS
        cards = action.get("cards")
        if cards.__class__ is list:
            try:
                return CANONICAL_CARDS.issuperset(cards)
            except TypeError:  # an unhashable item: not a card; the move refuses it
                return False
    return False


def _canonical_cards(action: Action) -> Action:
    """Upper-case card codes and suits so apply accepts what check_action would have produced.

    The action is returned as it is when already canonical (the usual case: no copy)."""
    changed: dict[str, Any] = {}
    for name in ("card", "discard"):
        value = action.get(name)
        if value.__class__ is str and value not in CANONICAL_CARDS and is_card_code(value):
            changed[name] = parse_card(value)
    cards = action.get("cards")
    if cards.__class__ is list and not all(card.__class__ is str and card in CANONICAL_CARDS for card in cards):
        if all(isinstance(card, str) and is_card_code(card) for card in cards):
            changed["cards"] = [parse_card(card) for card in cards]
    suit = action.get("suit")
    if suit.__class__ is str and suit not in SUITS:
        changed["suit"] = suit.strip().upper()
    if not changed:
        return action
    return {**action, **changed}


GAME = Euchre3()


def _own(options: BaseModel) -> Euchre3Options:
    """The game's own options: the protocol passes them as any model (`Game.parse_options`)."""
    if not isinstance(options, Euchre3Options):
        raise TypeError(f"Euchre-3 takes Euchre3Options, not {type(options).__name__}")
    return options
