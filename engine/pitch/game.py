"""The Pitch `Game`: dealing, the auction, trick play, hand scoring and the match, behind the shared protocol.

Rules live in rules.py (bids, legal cards, tricks) and scoring.py (a hand's points, who wins);
this module sequences them, builds events, and filters what each player may see.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from engine.core.cards import Card
from engine.core.fast import applied as fast_applied, event as fast_event
from engine.core.protocol import CLOCK, Action, Applied, Event, Game, Refused, Result
from engine.core.rng import rng_for
from engine.pitch import rules
from engine.pitch.cards import DECK, SUIT
from engine.pitch.dealing import HAND_SIZE, deal, deck_for_deal
from engine.pitch.options import PitchOptions
from engine.pitch.scoring import HandResult, score_hand
from engine.pitch.state import BIDDING, FINISHED, PLAYING, PitchState

TRICKS_PER_HAND = HAND_SIZE

_PASS_ACTION = {"type": "pass"}


class PitchGame(Game):
    name = "pitch"
    min_players = 2
    max_players = 7
    Options = PitchOptions
    schema_version = 1
    action_fields = {"bid": {"value": "int"}, "pass": {}, "play": {"card": "card"}}

    # ----- set-up -------------------------------------------------------------------------
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
        deck_set = sorted(DECK)
        explicit = tuple(tuple(card.upper() for card in deck) for deck in decks)
        for number, deck in enumerate(explicit, start=1):
            if sorted(deck) != deck_set:
                raise ValueError(f"deck {number} does not hold exactly the 52 cards")
        if dealer is None:
            dealer = rng_for(seed, "dealer").choice(list(players))
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
        if state.phase == FINISHED:
            return []
        return [state.players[state.turn]]

    def legal_actions(self, state: PitchState, player: str) -> list[Action]:
        if state.phase == PLAYING:  # the hot path: the cards of the player to act
            seat = state.turn
            if state.players[seat] == player and player != CLOCK:
                cards = rules.playable(state.hands[seat], state.trick, state.trump)
                return [{"type": "play", "card": card} for card in cards]
        if state.phase == FINISHED:
            return []
        if player == CLOCK:
            return [{"type": "timeout"}]
        seat = state.turn
        if state.players[seat] != player:
            return []
        if state.phase == BIDDING:
            actions = [] if rules.dealer_is_forced(state, seat) else [dict(_PASS_ACTION)]
            actions.extend({"type": "bid", "value": value} for value in rules.legal_bid_values(state, seat))
            return actions
        cards = rules.legal_cards(state.hands[seat], state.trick, state.trump)
        return [{"type": "play", "card": card} for card in cards]

    def apply(self, state: PitchState, player: str, action: Action) -> Result:
        # Every field of a state is immutable, so a shallow clone is the whole copy `advance` needs.
        return self.advance(state.clone(), player, action)

    def advance(self, state: PitchState, player: str, action: Action) -> Result:
        """`apply` in place: every check is made before the first change, so a refusal leaves `state` as it was."""
        if type(action) is dict and state.phase == PLAYING:  # the hot path: the player to act plays a card
            seat = state.turn
            if action.get("type") == "play" and state.players[seat] == player and player != CLOCK:
                card = action.get("card")
                trick = state.trick
                if type(card) is str and (
                    card in state.hands[seat]
                    if not trick
                    else rules.play_problem(state.hands[seat], trick, state.trump, card) is None
                ):
                    return _play(state, seat, card, [])
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
            events.append(_event("timed_out", {"player": state.players[seat]}))
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
            return problem or _play(state, seat, card, events)
        if state.phase != BIDDING:
            return Refused("auction_over", "The auction is over: play a card.")
        if kind == "pass":
            problem = rules.pass_problem(state, seat)
            return problem or _pass(state, seat, events)
        value = action.get("value")
        problem = rules.bid_problem(state, seat, value)
        return problem or _bid(state, seat, value, events)

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
            "high_bid": None
            if state.high_bidder < 0
            else {"player": name(state.high_bidder), "value": state.high_bid},
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


# ----- steps of a hand (each changes the state it is given: `advance` has checked the action) -----

def _event(kind: str, public: dict[str, Any]) -> Event:
    return fast_event(kind, public)


_applied = fast_applied


def _doing(state: PitchState) -> str:
    return "bid" if state.phase == BIDDING else "play"


def _plays(state: PitchState, leader: int, cards: Sequence[str]) -> list[dict[str, str]]:
    seats = len(state.players)
    return [{"player": state.players[(leader + i) % seats], "card": card} for i, card in enumerate(cards)]


def _start_hand(state: PitchState, number: int, dealer: int, events: list[Event]) -> None:
    """Deal hand `number` into `state` (a clone being built) and open the auction at the dealer's left."""
    seats = len(state.players)
    hands, stock = deal(deck_for_deal(state.seed, state.decks, number), seats, dealer)
    state.hand_number = number
    state.dealer = dealer
    state.phase = BIDDING
    state.turn = (dealer + 1) % seats
    state.hands = hands
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
    state.won = ((),) * seats
    state.tricks_won = (0,) * seats
    state.last_trick = None
    events.append(
        Event(
            "dealt",
            {"hand": number, "dealer": state.players[dealer], "counts": {p: HAND_SIZE for p in state.players}},
            {p: {"cards": list(hands[s])} for s, p in enumerate(state.players)},
        )
    )


def _pass(state: PitchState, seat: int, events: list[Event]) -> Applied:
    state.bids = state.bids + ((seat, 0),)
    events.append(_event("passed", {"player": state.players[seat]}))
    if seat == state.dealer:
        _end_auction(state, events)
    else:
        state.turn = (seat + 1) % len(state.players)
    return _applied(state, events)


def _bid(state: PitchState, seat: int, value: int, events: list[Event]) -> Applied:
    forced = rules.dealer_is_forced(state, seat)
    steal = seat == state.dealer and value == state.high_bid
    state.bids = state.bids + ((seat, value),)
    state.high_bid = value
    state.high_bidder = seat
    events.append(_event("bid", {"player": state.players[seat], "value": value, "steal": steal, "forced": forced}))
    if value >= rules.PITCH or seat == state.dealer:  # PIT-A6: a 4 (or a smudge) ends the auction at once
        _end_auction(state, events)
    else:
        state.turn = (seat + 1) % len(state.players)
    return _applied(state, events)


def _end_auction(state: PitchState, events: list[Event]) -> None:
    state.pitcher = state.high_bidder
    state.bid = state.high_bid
    state.phase = PLAYING
    state.leader = state.pitcher
    state.turn = state.pitcher
    events.append(
        _event(
            "auction_won",
            {"pitcher": state.players[state.pitcher], "bid": state.bid, "smudge": state.bid == rules.SMUDGE},
        )
    )


def _play(state: PitchState, seat: int, card: str, events: list[Event]) -> Applied:
    """`seat` plays `card`, a legal card (checked by the caller)."""
    players = state.players
    seats = len(players)
    hands = state.hands
    hand = hands[seat]
    at = hand.index(card)
    state.hands = hands[:seat] + (hand[:at] + hand[at + 1 :],) + hands[seat + 1 :]
    player = players[seat]
    tricks_played = state.tricks_played
    events.append(fast_event("played", {"player": player, "card": card, "trick": tricks_played + 1}))
    trump = state.trump
    if trump is None:  # P9: the pitcher's first card sets trumps
        state.trump = trump = SUIT[card]
        events.append(_event("trump_set", {"player": player, "suit": trump}))
    trick = state.trick + (card,)
    if len(trick) < seats:
        state.trick = trick
        state.turn = (seat + 1) % seats
        return fast_applied(state, events)
    leader = state.leader
    winner = rules.trick_winner(trick, leader, trump, seats)
    won = list(state.won)
    won[winner] = won[winner] + trick
    state.won = tuple(won)
    counts = list(state.tricks_won)
    counts[winner] += 1
    state.tricks_won = tuple(counts)
    state.last_trick = (leader, trick, winner)
    state.trick = ()
    state.tricks_played = tricks_played = tricks_played + 1
    state.leader = winner
    state.turn = winner
    events.append(
        _event(
            "trick_won",
            {
                "player": players[winner],
                "trick": tricks_played,
                "plays": [{"player": players[(leader + i) % seats], "card": c} for i, c in enumerate(trick)],
            },
        )
    )
    if tricks_played == TRICKS_PER_HAND:
        _end_hand(state, events)
    return _applied(state, events)


def _end_hand(new: PitchState, events: list[Event]) -> None:
    result = score_hand(new)
    new.scores = tuple(score + delta for score, delta in zip(new.scores, result.change))
    summary = _hand_summary(new, result)
    new.last_hand = summary
    events.append(Event("hand_scored", _hand_summary(new, result)))  # its own copy
    if result.winning_teams:
        new.winners = tuple(seat for team in result.winning_teams for seat in new.team_seats(team))
        new.phase = FINISHED
        new.turn = -1
        events.append(
            Event("match_won", {"winners": [new.players[s] for s in new.winners], "scores": summary["scores"]})
        )
        return
    _start_hand(new, new.hand_number + 1, (new.dealer + 1) % len(new.players), events)


def _hand_summary(state: PitchState, result: HandResult) -> dict[str, Any]:
    """What the table learns when a hand is scored (also kept as the view's `last_hand`). JSON-ready."""
    players = state.players
    teams = [state.team_of(seat) for seat in range(len(players))]
    points, change, scores = result.points, result.change, state.scores
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
        "points": {player: points[team] for player, team in zip(players, teams)},
        "change": {player: change[team] for player, team in zip(players, teams)},
        "scores": {player: scores[team] for player, team in zip(players, teams)},
    }
