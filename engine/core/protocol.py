"""The one protocol every game implements, after boardgame.io and OpenSpiel.

A game is a stateless object (`Game`) whose methods are pure functions of a state. States are
immutable from the caller's point of view: `apply` returns a new state, or a `Refused` with a
stable reason code and leaves the old one untouched. Hidden information lives only in the
state; everything that leaves the engine goes through `view` (per player or for spectators)
or through an event's per-recipient view.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import BaseModel

from engine.core.cards import Card

# The clock pseudo-player and MalformedAction belong to the action vocabulary (engine.core.shapes);
# they are part of the protocol, so callers import them from here.
from engine.core.shapes import CLOCK, MalformedAction, check_action  # noqa: F401

Action = dict[str, Any]
State = Any


@dataclass(frozen=True)
class Event:
    """Something that happened, with what everyone may know and what only some players may.

    `public` is shown to everyone (spectators included). `private` maps a player to extra
    fields only that player sees, e.g. the card they drew. A renderer only ever calls `view`.
    """

    kind: str
    public: Mapping[str, Any] = field(default_factory=dict)
    private: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def view(self, player: str | None = None) -> dict[str, Any]:
        seen = {"kind": self.kind, **self.public}
        if player is not None and player in self.private:
            seen.update(self.private[player])
        return seen

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "public": dict(self.public),
            "private": {p: dict(v) for p, v in self.private.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        return cls(data["kind"], data.get("public", {}), data.get("private", {}))


@dataclass(frozen=True)
class Applied:
    state: State
    events: list[Event]
    # Literal, so that a check of `ok` tells mypy which of the two a Result is.
    ok: ClassVar[Literal[True]] = True


@dataclass(frozen=True)
class Refused:
    """A well-formed action the rules do not allow now. `code` is stable; renderers localize it."""

    code: str
    message: str
    details: Mapping[str, Any] = field(default_factory=dict)
    ok: ClassVar[Literal[False]] = False


Result = Applied | Refused

# The kinds of clock windows (`Game.clock_windows`), each timed by a setting of the bot's own:
# a vote's, and a wait for a champion (a player who steps forward to defend something).
VOTE_WINDOW = "vote"
CHAMPION_WINDOW = "champion"


class Game(ABC):
    """What a game module provides. One instance per game (`GAME`), holding no table data."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # The game's usual table: a practice table seats the player and computers up to this many.
    usual_players: ClassVar[int]
    # Which way match totals rank: True where the lowest total wins (records, /stats' best).
    lower_totals_win: ClassVar[bool]
    # A session that never ends by itself (`is_finished` stays False): a session ended after a
    # won round counts in records, ranked by `scores` (rounds won).
    plays_in_sessions: ClassVar[bool] = False
    # The windows the clock closes besides the turn, by the clock action that closes them: each
    # is of a kind (VOTE_WINDOW, CHAMPION_WINDOW) that the operator's settings time.
    clock_windows: ClassVar[Mapping[str, str]] = {}
    Options: ClassVar[type[BaseModel]]
    # Bumped whenever the shape of `dump` changes; `load` may upgrade older shapes.
    schema_version: ClassVar[int] = 1
    # Options that may only be switched on when every player agrees before the deal.
    consent_options: ClassVar[tuple[str, ...]] = ()
    # action type -> {field: kind}; kinds in engine.core.shapes; a leading "?" marks optional.
    action_fields: ClassVar[Mapping[str, Mapping[str, str]]]

    # ----- set-up -------------------------------------------------------------------------
    def player_range(self, options: BaseModel) -> tuple[int, int]:
        """The fewest and the most players a table with these options can seat and deal to
        (`min_players`..`max_players` are the bounds over every choice of options). The lobby,
        Start, practice tables, the demo and the texts all ask this."""
        return self.min_players, self.max_players

    def player_count_problem(self, players: Sequence[str], options: BaseModel) -> str | None:
        """Why this many players cannot play with these options, or None."""
        low, high = self.player_range(options)
        if not low <= len(players) <= high:
            return f"{self.name} needs {low}-{high} players" if low < high else f"{self.name} needs {low} players"
        return None

    @abstractmethod
    def deck(self, options: BaseModel, players: Sequence[str]) -> list[Card]:
        """The cards of one deal, in a canonical order (an explicit deck must be a permutation)."""

    def check_decks(self, decks: Sequence[Sequence[Card]], options: BaseModel, players: Sequence[str]) -> None:
        """Refuse (ValueError) explicit decks that are not each a permutation of `deck`."""
        expected = Counter(self.deck(options, players))
        for number, deck in enumerate(decks, start=1):
            if Counter(deck) != expected:
                raise ValueError(f"deck {number} does not hold exactly the cards of {self.name}")

    @abstractmethod
    def new(
        self,
        players: Sequence[str],
        options: BaseModel,
        seed: int | str,
        dealer: str | None = None,
        decks: Sequence[Sequence[Card]] = (),
    ) -> State:
        """A new match, dealt. `decks[i]` orders deal i+1; later deals and reshuffles use `seed`."""

    def check_action(self, player: str, action: Any, players: Sequence[str]) -> Action:
        """The action in canonical form, or MalformedAction if it is not of this game's vocabulary.

        Games with nested fields (a Jack's command, a house rule) extend this.
        """
        return check_action(self.action_fields, player, action, players)

    # ----- play ---------------------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: State) -> list[str]:
        """Who the game waits for now (empty when finished)."""

    @abstractmethod
    def legal_actions(self, state: State, player: str) -> list[Action]:
        """Every action `player` may take now, in canonical form; `apply` accepts each of them.

        The list and its dicts may be shared with the engine (cached between moves, one dict
        per card): callers read them and pass them back, and never change them in place."""

    @abstractmethod
    def apply(self, state: State, player: str, action: Action) -> Result:
        """Apply `action` by `player` (or by CLOCK for a timeout). Never mutates `state`."""

    def advance(self, state: State, player: str, action: Action) -> Result:
        """Like `apply`, but free to reuse and change `state`: the fast path for playouts,
        benchmarks and the table service, which own their copy. After `Applied` the caller
        uses only the returned state; after `Refused` the given state is unchanged.
        Games override this with an in-place version; the default is `apply`."""
        return self.apply(state, player, action)

    def with_computers(self, state: State, computers: Sequence[str]) -> State:
        """The state knowing which players are computer players (the table service says so at the
        deal and when a computer takes a leaver's seat). Most games play the same either way;
        a game whose rules treat computers apart (Lopti's electorate) keeps them in its state."""
        return state

    def decision_seconds(self, state: State, default: float) -> float:
        """How long the table's timer gives the decision the game waits for now; games whose
        options time some decisions differently (Lopti's rule writing) say so here."""
        return default

    # ----- what may be seen ---------------------------------------------------------------
    @abstractmethod
    def view(self, state: State, player: str | None) -> dict[str, Any]:
        """What `player` may see (None: a spectator). JSON-ready."""

    @abstractmethod
    def replay_hands(self, state: State) -> dict[str, Any]:
        """Everyone's cards for a replay's `hands` (a post-game record shows everything)."""

    # ----- outcome ------------------------------------------------------------------------
    @abstractmethod
    def scores(self, state: State) -> dict[str, int]:
        """Match totals so far, by player (by team where the game scores teams, per member)."""

    @abstractmethod
    def is_finished(self, state: State) -> bool: ...

    @abstractmethod
    def winners(self, state: State) -> list[str]: ...

    @abstractmethod
    def round_number(self, state: State) -> int:
        """1-based number of the current round, deal or hand."""

    # ----- persistence --------------------------------------------------------------------
    @abstractmethod
    def dump(self, state: State) -> dict[str, Any]:
        """The state as JSON-ready data, without loss."""

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> State: ...
