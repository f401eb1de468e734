"""The Pitch `Game`: dealing, the auction, trick play, hand scoring and the match, behind the shared protocol.

Rules live in rules.py (bids, legal cards, tricks) and scoring.py (a hand's points, who wins);
this module sequences them, builds events, and filters what each player may see.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from operator import add
from typing import Any

from pydantic import BaseModel

from engine.core.cards import Card
from engine.core.fast import applied as fast_applied
from engine.core.fast import event as fast_event
from engine.core.protocol import CLOCK, Action, Applied, Event, Game, Refused, Result
from engine.core.rng import pick
from engine.pitch import rules
from engine.pitch.cards import DECK, SUIT
from engine.pitch.dealing import HAND_SIZE, deal, deck_for_deal
from engine.pitch.options import PitchOptions
from engine.pitch.scoring import HandResult, score_hand
from engine.pitch.state import BIDDING, FINISHED, PLAYING, PitchState

TRICKS_PER_HAND = HAND_SIZE

# One action dict per card and per bid, built once: `legal_actions` hands out these shared dicts
# (callers never change them) and `advance` recognises a legal action by membership in its list.
_PLAY: dict[Card, Action] = {card: {"type": "play", "card": card} for card in DECK}
_BID: dict[int, Action] = {value: {"type": "bid", "value": value} for value in range(1, rules.SMUDGE + 1)}
_PASS: Action = {"type": "pass"}
_CLOCK_ACTIONS: list[Action] = [{"type": "timeout"}]
_play_action = _PLAY.__getitem__


class PitchGame(Game):
    name = "pitch"
    min_players = 2
    max_players = 7
    usual_players = 4
    lower_totals_win = False
    Options = PitchOptions
    schema_version = 1
    action_fields = {"bid": {"value": "int"}, "pass": {}, "play": {"card": "card"}}

    # ----- set-up -------------------------------------------------------------------------
    def player_range(self, options: BaseModel) -> tuple[int, int]:
        if getattr(options, "partnerships", False):
            return 4, 4  # two teams of two
        return self.min_players, self.max_players

    def player_count_problem(self, players: Sequence[str], options: BaseModel) -> str | None:
        if getattr(options, "partnerships", False) and len(players) != 4:
            return "pitch with partnerships needs exactly 4 players (two teams of two)"
        return super().player_count_problem(players, options)

    def deck(self, options: BaseModel, players: Sequence[str]) -> list[Card]:
        return list(DECK)

    def new(
        self,
        players: Sequence[str],
        options: BaseModel | Mapping[str, Any] | None = None,
        seed: int | str = 0,
        dealer: str | None = None,
        decks: Sequence[Sequence[Card]] = (),
    ) -> PitchState:
        if not isinstance(options, PitchOptions):
            options = PitchOptions.model_validate(dict(options or {}))
        problem = self.player_count_problem(players, options)
        if problem:
            raise ValueError(problem)
        if len(set(players)) != len(players) or CLOCK in players:
            raise ValueError("players must be distinct names")
        explicit = tuple(tuple(card.upper() for card in deck) for deck in decks)
        self.check_decks(explicit, options, players)
        if dealer is None:
            dealer = pick(players, seed, "dealer")
        seats = len(players)
        teams = 2 if options.partnerships else seats
        state = PitchState(
            seed=seed,
            options=options,
            players=tuple(players),
            decks=explicit,
            hand_number=0,
            dealer=list(players).index(dealer),
            phase=BIDDING,
            turn=-1,
            hands=(),
            dealt=(),
            stock=(),
            bids=(),
            high_bid=0,
            high_bidder=-1,
            pitcher=-1,
            bid=0,
            trump=None,
            leader=-1,
            trick=(),
            tricks_played=0,
            won=(),
            tricks_won=(),
            last_trick=None,
            scores=(0,) * teams,
            winners=(),
            last_hand=None,
        )
        _start_hand(state, 1, state.dealer, [])
        return state

    # ----- play ---------------------------------------------------------------------------
    def to_act(self, state: PitchState) -> list[str]:
        turn = state.turn  # -1 once the match is over
        return [state.players[turn]] if turn >= 0 else []

    def legal_actions(self, state: PitchState, player: str) -> list[Action]:
        turn = state.turn
        if turn < 0:
            return []
        if player == state.players[turn]:  # CLOCK is never a player's name
            legal = state.legal
            if legal is None:
                if state.phase == PLAYING:
                    legal = list(map(_play_action, rules.legal_cards(state.hands[turn], state.trick, state.trump)))
                else:
                    legal = _legal_bids(state, turn)
                state.legal = legal
            return legal
        return _CLOCK_ACTIONS if player == CLOCK else []

    def apply(self, state: PitchState, player: str, action: Action) -> Result:
        """`advance` on a copy: the same rules, and `state` is never changed."""
        return self.advance(state.copy(), player, action)

    def advance(self, state: PitchState, player: str, action: Action) -> Result:
        """`apply` in place: every check is made before the first change, so a refusal leaves `state` as it was."""
        legal = state.legal
        # The hot path: a dict equal to one of the cached legal actions (a bid's value must also be
        # a real int, as True == 1) by the player to act. Anything else takes the full checks.
        if legal is not None and type(action) is dict and action in legal:
            seat = state.turn
            if player == state.players[seat]:
                kind = action["type"]
                if kind == "play":
                    return _play(state, seat, action["card"], [])
                if kind == "pass":
                    return _pass(state, seat, [])
                if type(action["value"]) is int:
                    return _bid(state, seat, action["value"], [])
        return self._advance(state, player, action)

    def _advance(self, state: PitchState, player: str, action: Action) -> Result:
        """Every action, checked in the order that gives each refusal its code."""
        if type(action) is not dict and not isinstance(action, Mapping):
            return Refused("unknown_action", "An action is an object with a 'type'.")
        kind = action.get("type")
        if state.phase == FINISHED:
            return Refused("match_over", "The match is over; start a new one.")
        events: list[Event] = []
        if player == CLOCK:
            if kind != "timeout":
                return Refused("unknown_action", "The clock can only time out.")
            seat = state.turn
            events.append(fast_event("timed_out", {"player": state.players[seat]}))
            if state.phase == BIDDING:
                if rules.dealer_is_forced(state, seat):
                    return _bid(state, seat, max(rules.FORCED_MINIMUM, state.options.min_bid), events)
                return _pass(state, seat, events)
            legal = rules.legal_cards(state.hands[seat], state.trick, state.trump)
            return _play(state, seat, rules.timeout_card(legal, state.trump), events)
        if player not in state.players:
            return Refused("unknown_player", f"{player} is not at this table.")
        if kind not in ("bid", "pass", "play"):
            return Refused("unknown_action", "Bid, pass or play a card.")
        seat = state.turn
        if state.players[seat] != player:
            return Refused("not_your_turn", f"Wait for {state.players[seat]} to {_doing(state)}.")
        if kind == "play":
            if state.phase == BIDDING:
                return Refused("bidding_in_progress", "The auction is not over: bid or pass first.")
            card = action.get("card")
            problem = rules.play_problem(state.hands[seat], state.trick, state.trump, card)
            if problem:
                return problem
            assert isinstance(card, str)  # play_problem refused anything but a card in the hand
            return _play(state, seat, card, events)
        if state.phase != BIDDING:
            return Refused("auction_over", "The auction is over: play a card.")
        if kind == "pass":
            problem = rules.pass_problem(state, seat)
            return problem or _pass(state, seat, events)
        value = action.get("value")
        problem = rules.bid_problem(state, seat, value)
        if problem:
            return problem
        assert isinstance(value, int)  # bid_problem refused anything but a bid in range
        return _bid(state, seat, value, events)

    # ----- what may be seen ---------------------------------------------------------------
    def view(self, state: PitchState, player: str | None) -> dict[str, Any]:
        players = state.players
        seat = players.index(player) if player in players else None
        name = players.__getitem__
        return {
            "game": self.name,
            "phase": state.phase,
            "hand_number": state.hand_number,
            "players": list(players),
            "teams": [[name(s) for s in state.team_seats(t)] for t in range(2)] if state.partnerships else None,
            "you": name(seat) if seat is not None else None,
            "dealer": name(state.dealer),
            "to_act": self.to_act(state),
            "awaiting": None if state.phase == FINISHED else ("bid" if state.phase == BIDDING else "play"),
            "dealer_forced": state.phase == BIDDING and rules.dealer_is_forced(state, state.turn),
            "hand": list(state.hands[seat]) if seat is not None else None,
            "hand_counts": {name(s): len(state.hands[s]) for s in range(len(players))},
            "bids": [{"player": name(s), "value": value or None} for s, value in state.bids],
            "high_bid": None if state.high_bidder < 0 else {"player": name(state.high_bidder), "value": state.high_bid},
            "pitcher": name(state.pitcher) if state.pitcher >= 0 else None,
            "bid": state.bid or None,
            "trump": state.trump,
            "trick_number": min(state.tricks_played + 1, TRICKS_PER_HAND) if state.phase == PLAYING else None,
            "leader": name(state.leader) if state.phase == PLAYING else None,
            "trick": _plays(state, state.leader, state.trick),
            "last_trick": None
            if state.last_trick is None
            else {
                "plays": _plays(state, state.last_trick[0], state.last_trick[1]),
                "winner": name(state.last_trick[2]),
            },
            "tricks_won": {name(s): state.tricks_won[s] for s in range(len(players))},
            # public: the cards each player took in this hand's tricks (all were played face up)
            "captured": {name(s): list(state.won[s]) for s in range(len(players))},
            "scores": self.scores(state),
            "target": state.options.target,
            "options": state.options.model_dump(mode="json"),
            "last_hand": copy.deepcopy(state.last_hand),
            "finished": state.phase == FINISHED,
            "winners": self.winners(state),
        }

    def replay_hands(self, state: PitchState) -> dict[str, Any]:
        return {player: list(hand) for player, hand in zip(state.players, state.hands)}

    # ----- outcome ------------------------------------------------------------------------
    def scores(self, state: PitchState) -> dict[str, int]:
        return {player: state.scores[state.team_of(seat)] for seat, player in enumerate(state.players)}

    def is_finished(self, state: PitchState) -> bool:
        return state.phase == FINISHED

    def winners(self, state: PitchState) -> list[str]:
        return [state.players[seat] for seat in state.winners]

    def round_number(self, state: PitchState) -> int:
        return state.hand_number

    # ----- persistence --------------------------------------------------------------------
    def dump(self, state: PitchState) -> dict[str, Any]:
        return state.to_dict()

    def load(self, data: Mapping[str, Any]) -> PitchState:
        return PitchState.from_dict(dict(data))


# ----- the legal actions of the player to act (the list `state.legal` caches) -----


def _legal_bids(state: PitchState, seat: int) -> list[Action]:
    actions = [] if rules.dealer_is_forced(state, seat) else [_PASS]
    actions += map(_BID.__getitem__, rules.legal_bid_values(state, seat))
    return actions


# ----- steps of a hand (each changes the state it is given: `advance` has checked the action) -----


def _doing(state: PitchState) -> str:
    return "bid" if state.phase == BIDDING else "play"


def _plays(state: PitchState, leader: int, cards: Sequence[str]) -> list[dict[str, str]]:
    return [{"player": player, "card": card} for player, card in zip(state.play_order[leader], cards)]


def _start_hand(state: PitchState, number: int, dealer: int, events: list[Event]) -> None:
    """Deal hand `number` into `state` (changed in place) and open the auction at the dealer's left."""
    players = state.players
    seats = len(players)
    hands, stock = deal(deck_for_deal(state.seed, state.decks, number), seats, dealer)
    state.legal = None
    state.hand_number = number
    state.dealer = dealer
    state.phase = BIDDING
    state.turn = state.next_seat[dealer]
    state.hands = list(map(list, hands))
    state.dealt = hands
    state.stock = stock
    state.bids = ()
    state.high_bid = 0
    state.high_bidder = -1
    state.pitcher = -1
    state.bid = 0
    state.trump = None
    state.leader = -1
    state.trick = ()
    state.tricks_played = 0
    state.won = [[] for _ in players]
    state.tricks_won = [0] * seats
    state.last_trick = None
    events.append(
        fast_event(
            "dealt",
            {"hand": number, "dealer": players[dealer], "counts": dict.fromkeys(players, HAND_SIZE)},
            {player: {"cards": list(hand)} for player, hand in zip(players, hands)},
        )
    )


def _pass(state: PitchState, seat: int, events: list[Event]) -> Applied:
    state.legal = None
    state.bids = state.bids + ((seat, 0),)
    events.append(fast_event("passed", {"player": state.players[seat]}))
    if seat == state.dealer:
        _end_auction(state, events)
    else:
        state.turn = state.next_seat[seat]
    return fast_applied(state, events)


def _bid(state: PitchState, seat: int, value: int, events: list[Event]) -> Applied:
    forced = rules.dealer_is_forced(state, seat)
    steal = seat == state.dealer and value == state.high_bid
    state.legal = None
    state.bids = state.bids + ((seat, value),)
    state.high_bid = value
    state.high_bidder = seat
    events.append(fast_event("bid", {"player": state.players[seat], "value": value, "steal": steal, "forced": forced}))
    if value >= rules.PITCH or seat == state.dealer:  # PIT-A6: a 4 (or a smudge) ends the auction at once
        _end_auction(state, events)
    else:
        state.turn = state.next_seat[seat]
    return fast_applied(state, events)


def _end_auction(state: PitchState, events: list[Event]) -> None:
    state.pitcher = state.high_bidder
    state.bid = state.high_bid
    state.phase = PLAYING
    state.leader = state.pitcher
    state.turn = state.pitcher
    events.append(
        fast_event(
            "auction_won",
            {"pitcher": state.players[state.pitcher], "bid": state.bid, "smudge": state.bid == rules.SMUDGE},
        )
    )


def _play(state: PitchState, seat: int, card: str, events: list[Event]) -> Applied:
    """`seat` plays `card`, a legal card (checked by the caller)."""
    state.legal = None
    state.hands[seat].remove(card)
    player = state.players[seat]
    events.append(fast_event("played", {"player": player, "card": card, "trick": state.tricks_played + 1}))
    trump = state.trump
    if trump is None:  # P9: the pitcher's first card sets trumps
        state.trump = trump = SUIT[card]
        events.append(fast_event("trump_set", {"player": player, "suit": trump}))
    trick = state.trick + (card,)
    following = state.next_seat[seat]
    if following != state.leader:  # the trick goes on
        state.trick = trick
        state.turn = following
        return fast_applied(state, events)
    _end_trick(state, trick, trump, events)
    return fast_applied(state, events)


def _end_trick(state: PitchState, trick: tuple[str, ...], trump: str, events: list[Event]) -> None:
    leader = state.leader
    winner = rules.trick_winner(trick, leader, trump, len(trick))
    state.won[winner] += trick
    state.tricks_won[winner] += 1
    state.last_trick = (leader, trick, winner)
    state.trick = ()
    state.tricks_played = tricks_played = state.tricks_played + 1
    state.leader = winner
    state.turn = winner
    events.append(
        fast_event(
            "trick_won",
            {"player": state.players[winner], "trick": tricks_played, "plays": _plays(state, leader, trick)},
        )
    )
    if tricks_played == TRICKS_PER_HAND:
        _end_hand(state, events)


def _end_hand(state: PitchState, events: list[Event]) -> None:
    result = score_hand(state)
    state.scores = tuple(map(add, state.scores, result.change))
    summary = _hand_summary(state, result)
    state.last_hand = summary
    events.append(fast_event("hand_scored", _summary_copy(summary)))  # its own copy
    if result.winning_teams:
        state.winners = tuple(seat for team in result.winning_teams for seat in state.team_seats(team))
        state.phase = FINISHED
        state.turn = -1
        events.append(
            fast_event("match_won", {"winners": [state.players[s] for s in state.winners], "scores": summary["scores"]})
        )
        return
    _start_hand(state, state.hand_number + 1, state.next_seat[state.dealer], events)


def _hand_summary(state: PitchState, result: HandResult) -> dict[str, Any]:
    """What the table learns when a hand is scored (also kept as the view's `last_hand`). JSON-ready."""
    players = state.players
    points: Sequence[int]
    change: Sequence[int]
    scores: Sequence[int]
    points, change, scores = result.points, result.change, state.scores
    if state.options.partnerships:  # team values, shown for each member
        teams = state.seat_team
        points, change, scores = ([values[team] for team in teams] for values in (points, change, scores))
    return {
        "hand": state.hand_number,
        "dealer": players[state.dealer],
        "pitcher": players[state.pitcher],
        "bid": state.bid,
        "smudge": state.bid == rules.SMUDGE,
        "made": result.made,
        "trump": state.trump,
        "high": {"card": result.high[0], "by": players[result.high[1]]},
        "low": {"card": result.low[0], "by": players[result.low[1]]},
        "jack": None if result.jack is None else {"card": result.jack[0], "by": players[result.jack[1]]},
        "game": {
            "by": [] if result.game is None else [players[s] for s in state.team_seats(result.game)],
            "trick_points": dict(zip(players, result.trick_points)),
        },
        "tricks": dict(zip(players, state.tricks_won)),
        "points": dict(zip(players, points)),
        "change": dict(zip(players, change)),
        "scores": dict(zip(players, scores)),
    }


def _summary_copy(summary: dict[str, Any]) -> dict[str, Any]:
    """The event's own copy of a hand summary: no dict or list shared with `last_hand`."""
    copied = dict(summary)
    for key in ("high", "low", "tricks", "points", "change", "scores"):
        copied[key] = dict(summary[key])
    if summary["jack"] is not None:
        copied["jack"] = dict(summary["jack"])
    game = summary["game"]
    copied["game"] = {"by": list(game["by"]), "trick_points": dict(game["trick_points"])}
    return copied
