"""Kadi's match state: the engines' slotted record (engine.core.state), copied field by field.

Piles are lists whose *end* is the top: `stock[-1]` is the next card drawn, `discard[-1]` is
the card in play. `hands[p]` is the visible hand; a card hidden in hiding mode is in `hidden[p]`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.protocol import Action
from engine.core.state import GameState
from engine.kadi.options import KadiOptions, TableRules

FIELDS = (
    "seed", "options", "players", "seats", "decks", "round", "dealer", "scores",
    "hands", "hidden", "stock", "discard", "turn", "direction",
    "pen_kind", "pen_amount", "command", "command_for", "drawn",
    "window", "call_due", "announced", "hide_used",
    "phase", "provisional", "accepted", "resume_turn",
    "reshuffles", "idle", "winners",
)  # fmt: skip


class KadiState(GameState):
    """Everything needed to continue a match: seed, options, seating, piles, hands and obligations.

    phase: "play" (someone's turn), "challenge" (a provisional win awaits acceptances,
    KAD-A25) or "over". window: the player whose turn just ended, until the next action
    that is not a call or an accusation; call_due: that player owes "Kadi Moja!".

    `copy` copies what `advance` changes in place: the stock, the discard pile, the hands dict
    and every hand. Everything else is immutable or is replaced, never changed in place.

    Not dumped: `rules` (the options as plain flags) and the legal-action cache: `legal` is
    what `legal_actions` offered `legal_for` (None: no cache). `advance` clears `legal_for`
    before it changes anything, so a cached list always belongs to the state as it is; a
    copy shares it (a cached list is never changed).
    """

    __slots__ = (*FIELDS, "rules", "legal", "legal_for")

    seed: int | str
    options: KadiOptions
    players: list[str]
    seats: list[str]
    decks: list[list[str]]
    round: int
    dealer: str
    scores: dict[str, int]
    hands: dict[str, list[str]]
    hidden: dict[str, str | None]
    stock: list[str]
    discard: list[str]
    turn: str | None
    direction: int
    pen_kind: str | None
    pen_amount: int
    command: str | None
    command_for: str | None
    drawn: str | None
    window: str | None
    call_due: bool
    announced: list[str]
    hide_used: bool
    phase: str
    provisional: str | None
    accepted: list[str]
    resume_turn: str | None
    reshuffles: int
    idle: int
    winners: list[str]
    rules: TableRules
    legal: list[Action]
    legal_for: str | None

    def player_to_move(self) -> str:
        """Whose turn it is: there is one until the match is over."""
        if self.turn is None:
            raise LookupError("the match is over")
        return self.turn

    def copy(self) -> KadiState:
        """A copy that `advance` may change in place without touching this state (see the class)."""
        new = object.__new__(KadiState)
        new.seed = self.seed
        new.options = self.options
        new.players = self.players
        new.seats = self.seats
        new.decks = self.decks
        new.round = self.round
        new.dealer = self.dealer
        new.scores = self.scores
        new.hands = {player: hand[:] for player, hand in self.hands.items()}
        new.hidden = self.hidden
        new.stock = self.stock[:]
        new.discard = self.discard[:]
        new.turn = self.turn
        new.direction = self.direction
        new.pen_kind = self.pen_kind
        new.pen_amount = self.pen_amount
        new.command = self.command
        new.command_for = self.command_for
        new.drawn = self.drawn
        new.window = self.window
        new.call_due = self.call_due
        new.announced = self.announced
        new.hide_used = self.hide_used
        new.phase = self.phase
        new.provisional = self.provisional
        new.accepted = self.accepted
        new.resume_turn = self.resume_turn
        new.reshuffles = self.reshuffles
        new.idle = self.idle
        new.winners = self.winners
        new.rules = self.rules
        new.legal = self.legal
        new.legal_for = self.legal_for
        return new

    def to_dict(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in FIELDS}
        data["options"] = self.options.model_dump(mode="json")
        data["players"] = list(self.players)
        data["seats"] = list(self.seats)
        data["decks"] = [list(deck) for deck in self.decks]
        data["scores"] = dict(self.scores)
        data["hands"] = {p: list(h) for p, h in self.hands.items()}
        data["hidden"] = dict(self.hidden)
        data["stock"] = list(self.stock)
        data["discard"] = list(self.discard)
        data["announced"] = list(self.announced)
        data["accepted"] = list(self.accepted)
        data["winners"] = list(self.winners)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KadiState:
        new = object.__new__(cls)
        for name in FIELDS:
            setattr(new, name, data[name])
        new.options = KadiOptions.model_validate(dict(data["options"]))
        new.players = list(data["players"])
        new.seats = list(data["seats"])
        new.decks = [list(deck) for deck in data["decks"]]
        new.scores = dict(data["scores"])
        new.hands = {p: list(h) for p, h in data["hands"].items()}
        new.hidden = dict(data["hidden"])
        new.stock = list(data["stock"])
        new.discard = list(data["discard"])
        new.announced = list(data["announced"])
        new.accepted = list(data["accepted"])
        new.winners = list(data["winners"])
        new.rules = TableRules(new.options)
        new.legal = []
        new.legal_for = None
        return new
