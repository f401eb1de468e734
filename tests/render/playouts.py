"""Random matches of every game as the table service keeps them, for renderer tests.

A match is played through the engine with random legal moves (and now and then a timeout, a
Lopti rule or Rule Vote), and the table row is kept as `tables/playing.py` keeps it: the
version, the last events (a timeout's begin with the service's `timed_out`), and the events
that closed the last round. Each decision is yielded before it is made, so a test can render
what every player and the group see at that moment.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.core.options import options_dict, parse_options
from engine.core.protocol import CLOCK, Event, Game, State
from engine.registry import get_game
from tables.models import PLAYING, Seat, TableRow
from tables.table_core import RECENT_EVENTS, TIMED_OUT

NAMES = ["Amina", "Baraka", "Chausiku", "Daudi", "Eshe", "Faraji", "Gati"]
# The most players each game seats: the biggest table message and the widest keyboards.
LARGEST = {"kadi": 7, "pitch": 7, "lopti": 5, "euchre3": 3, "three_thirteen": 4}
# The options that seat that many (Kadi deals to 7 only with hands of 6 or fewer: KAD-A2).
SEAT_MORE = {"kadi": {"hand_size": 6}}
LONG_RULE = (
    "Whoever plays a 9 must sing the first line of a song, and anyone who laughs at the singer "
    "takes the pile at once; the player with most cards chooses the song, and nobody may repeat "
    "a song already sung this session, on pain of drawing two cards"
)


@dataclass
class Frame:
    table: TableRow
    game: Game
    state: State
    # The events of the move just made (spectator views), empty before the first move.
    events: list[dict[str, Any]]


def new_table(
    game_name: str, count: int, seed: int, options: dict[str, Any] | None = None
) -> tuple[TableRow, Game, State]:
    game = get_game(game_name)
    parsed = parse_options(game.Options, options or {})
    if options is None and count > game.player_range(parsed)[1]:
        parsed = parse_options(game.Options, SEAT_MORE.get(game_name, {}))
    seats = [Seat(1001 + index, NAMES[index]) for index in range(count)]
    table = TableRow(
        1, -1001, 0, game_name, PLAYING, seats[0].user_id, options_dict(parsed), 90, seats, str(seed), version=1
    )
    return table, game, game.new(table.players, parsed, seed)


def lopti_extras(state: State, view: dict[str, Any], player: str, rng: random.Random) -> list[dict[str, Any]]:
    """Actions a Lopti player may take that `legal_actions` cannot list: a long typed rule, a
    Rule Vote (the renderer lists the proposals the keyboard offers)."""
    from handlers.presentation.games.lopti import RENDERER

    extras = []
    if view.get("phase") == "authoring" and view.get("awaiting_rule") == player:
        # Each round's rule differs: the engine refuses a rule the session removed.
        text = f"{view.get('round')}. {LONG_RULE}"[: rng.randint(20, 280)]
        extras.append({"type": "author_rule", "rule": {"text": text}})
    proposals = RENDERER.extra_actions(view, player)
    if proposals and rng.random() < 0.05:
        extras.append(rng.choice(proposals))
    return extras


def play(
    game_name: str,
    count: int,
    seed: int,
    options: dict[str, Any] | None = None,
    max_moves: int = 400,
    timeouts: float = 0.03,
) -> Iterator[Frame]:
    """Yield the table before each decision of a random match, and once at its end."""
    table, game, state = new_table(game_name, count, seed, options)
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    for _move in range(max_moves):
        yield Frame(table, game, state, events)
        if game.is_finished(state):
            return
        waiting = game.to_act(state)
        # Out-of-turn players (a Lopti duel, a Kadi call) act too, as they would at a table.
        candidates = [player for player in table.players if game.legal_actions(state, player)]
        player = rng.choice(candidates or waiting)
        legal = list(game.legal_actions(state, player))
        if game_name == "lopti":
            legal += lopti_extras(state, game.view(state, player), player, rng)
            plays = [action for action in legal if action["type"] in ("play", "flip", "author_rule")]
            if plays and rng.random() < 0.9:
                legal = plays
        action = rng.choice(legal)
        if waiting and rng.random() < timeouts:
            player, action = CLOCK, {"type": "timeout"}
        before = game.round_number(state)
        result = game.advance(state, player, action)
        if not result.ok and action["type"] in ("author_rule", "propose"):
            action = next(offered for offered in game.legal_actions(state, player))
            result = game.advance(state, player, action)
        assert result.ok, (player, action, result)
        made = list(result.events)
        if player == CLOCK:
            made = [Event(TIMED_OUT, {"players": waiting}), *made]
        state = result.state
        events = [event.view(None) for event in made]
        table.version += 1
        table.recent_events = (table.recent_events + events)[-RECENT_EVENTS:]
        if game.round_number(state) != before or game.is_finished(state):
            table.round_events = {"round": before, "version": table.version, "events": events}
        if game.is_finished(state):
            table.status = "finished"
    yield Frame(table, game, state, events)
