"""High Card: each player is dealt two cards and plays them in turn; the highest total wins.

A toy engine behind engine.core.protocol.Game, small enough to read at a glance."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from engine.core.cards import RANK_VALUE, SUITS, Card, rank_of
from engine.core.options import OptionsModel
from engine.core.protocol import CLOCK, Action, Applied, Event, Game, Refused, Result
from engine.core.rng import shuffled

HAND = 2


class HighCardOptions(OptionsModel):
    pass


@dataclass(frozen=True)
class HighCardState:
    players: list[str]
    hands: dict[str, list[Card]]
    played: dict[str, list[Card]]
    turn: int = 0


class HighCard(Game):
    name = "highcard"
    min_players = 2
    max_players = 4
    usual_players = 3
    lower_totals_win = False
    Options = HighCardOptions
    action_fields = {"play": {"card": "card"}, "timeout": {}}

    def deck(self, options: Any, players: Sequence[str]) -> list[Card]:
        return [rank + suit for suit in SUITS for rank in ("10", "J", "Q", "K", "A")]

    def new(self, players, options, seed, dealer=None, decks=()) -> HighCardState:
        cards = list(decks[0]) if decks else shuffled(self.deck(options, players), seed, "deal", 1)
        hands = {player: cards[HAND * seat : HAND * seat + HAND] for seat, player in enumerate(players)}
        return HighCardState(list(players), hands, {player: [] for player in players})

    def to_act(self, state: HighCardState) -> list[str]:
        return [] if self.is_finished(state) else [state.players[state.turn]]

    def legal_actions(self, state: HighCardState, player: str) -> list[Action]:
        if self.is_finished(state):
            return []
        if player == CLOCK:
            return [{"type": "timeout"}]
        if player != state.players[state.turn]:
            return []
        return [{"type": "play", "card": card} for card in state.hands[player]]

    def apply(self, state: HighCardState, player: str, action: Action) -> Result:
        if player == CLOCK:
            player, action = (
                state.players[state.turn],
                {"type": "play", "card": state.hands[state.players[state.turn]][0]},
            )
        if action not in self.legal_actions(state, player):
            return Refused("not_now", "That card cannot be played now.")
        hands = {**state.hands, player: [card for card in state.hands[player] if card != action["card"]]}
        played = {**state.played, player: [*state.played[player], action["card"]]}
        after = replace(state, hands=hands, played=played, turn=(state.turn + 1) % len(state.players))
        return Applied(after, [Event("played", {"player": player, "card": action["card"]})])

    def view(self, state: HighCardState, player: str | None) -> dict[str, Any]:
        return {
            "players": list(state.players),
            "to_act": self.to_act(state),
            "played": {name: list(cards) for name, cards in state.played.items()},
            "hand": list(state.hands[player]) if player in state.hands else None,
            "scores": self.scores(state),
        }

    def replay_hands(self, state: HighCardState) -> dict[str, Any]:
        return {player: list(hand) for player, hand in state.hands.items()}

    def scores(self, state: HighCardState) -> dict[str, int]:
        return {player: sum(RANK_VALUE[rank_of(card)] for card in cards) for player, cards in state.played.items()}

    def is_finished(self, state: HighCardState) -> bool:
        return not any(state.hands.values())

    def winners(self, state: HighCardState) -> list[str]:
        if not self.is_finished(state):
            return []
        scores = self.scores(state)
        return [player for player in state.players if scores[player] == max(scores.values())]

    def round_number(self, state: HighCardState) -> int:
        return 1

    def dump(self, state: HighCardState) -> dict[str, Any]:
        return asdict(state)

    def load(self, data: Mapping[str, Any]) -> HighCardState:
        return HighCardState(**data)


GAME = HighCard()
