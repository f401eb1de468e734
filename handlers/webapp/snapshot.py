"""What the Mini App shows one seat: the seat's screen (handlers/presentation/render/seat.py: the same view,
choices and prompt the private hand is drawn from) as JSON. Pure: a function of the committed
table, the reader and their language. It never holds another seat's hidden cards, because it is
built only from `game.view(state, seat)` (and the public view for the table's buttons); a
watcher's, from the public view `game.view(state, None)` alone.

Of the seat's choices it carries only the open node's (docs/MINIAPP.md): a tap that opens a
branch is answered with that branch's, so a snapshot's size follows the keyboard, not the tree.
"""

from __future__ import annotations

from typing import Any

from engine.core.protocol import Game, State
from handlers.i18n import Translator
from handlers.presentation.action_tree import CARD, CARDS
from handlers.presentation.fit import shown_text
from handlers.presentation.games import renderer_for
from handlers.presentation.games.base import PROPOSALS_KEY, winners_line
from handlers.presentation.render.common import game_title
from handlers.presentation.render.seat import Choice, Shared, choices_at, player_view, seen_by, shared_by, watched_by
from tables.models import FINISHED, LOBBY, PLAYING, TableRow

STATUSES = {LOBBY: "lobby", PLAYING: "running", FINISHED: "finished"}


def plain(text: str | None) -> str | None:
    """A message's HTML as the page shows it: text only (the page never renders our HTML)."""
    return shown_text(text) if text else text


def labels(_: Translator) -> dict[str, str]:
    return {
        "confirm": _("Confirm"),
        "back": _("Back"),
        "your_turn": _("Your turn: choose below."),
        "waiting": _("Wait for your turn."),
        "kadi_moja": _("Kadi Moja!"),
        "open_chat": _("Open the chat"),
        "reconnecting": _("Reconnecting..."),
        "match_over": _("Match over."),
        "results": _("Round results"),
        "watchers": _("People watching"),
    }


def results(shared: Shared) -> dict[str, Any] | None:
    """The last round's results as the group's post shows them, in plain lines; `edition` is
    the post's own (the version of the move that ended the round), so the page can tell a new
    round's results from ones the player already saw."""
    if shared.results is None:
        return None
    edition, lines = shared.results
    return {"edition": edition, "lines": list(lines)}


def choice_json(choice: Choice) -> dict[str, Any]:
    return {"label": choice.label, "node": choice.node, "kind": choice.kind,
            "card": choice.codes[0] if choice.kind == CARD and choice.codes else None,
            "cards": list(choice.codes) if choice.kind == CARDS else None,
            "marked": choice.marked, "opens": choice.opens}  # fmt: skip


def standings(table: TableRow, game: Game, state: State, _: Translator) -> list[str] | None:
    """At the match's end (or the session's), who won and each player's total, as the group's
    table shows them, in plain lines; None while the match goes on."""
    if not game.is_finished(state) and table.status != FINISHED:
        return None
    renderer = renderer_for(table.game)
    winners = game.winners(state) if game.is_finished(state) else []
    public = player_view(table, game, state, None)
    lines = [winners_line(winners, _, table.names)] if winners else []
    lines += renderer.result_lines(public, game.scores(state), winners, _, table.names)
    return [shown_text(line) for line in lines]


def snapshot(
    table: TableRow,
    game: Game,
    state: State | None,
    player: str | None,
    _: Translator,
    now: float,
    at: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """`player` None: a watcher's (seat-less) screen, from the engine's spectator view alone,
    with no hand and nothing to press. `at`: (keyboard digest, node) of the branch the player
    opened, shown while that keyboard stands."""
    renderer = renderer_for(table.game)
    seat_index = next((index for index, seat in enumerate(table.seats) if seat.player == player), None)
    shared = shared_by(table, game, state, _)
    found: dict[str, Any] = {
        "table": table.table_id,
        "version": table.version,
        "revision": table.revision,
        "game": table.game,
        "title": game_title(table.game, _),
        "language": _.language,
        "status": STATUSES.get(table.status, "finished"),
        "deadline": table.deadline if table.status == PLAYING else None,
        "to_act": [],
        "seats": [],
        "zones": [],
        "hand": [],
        "prompt": "",
        "choices": {"digest": "", "at": 0, "keys": []},
        "buttons": [],
        "lines": list(shared.lines),
        "results": results(shared),
        "standings": None,
        "labels": labels(_),
        "watching": player is None,
    }
    seats: list[dict[str, Any]] = [
        {"index": index, "name": seat.name, "you": seat.player == player, "computer": seat.is_computer,
         "cards": None, "score": None, "acting": False, "note": None, "face_up": [], "face_down": 0}
        for index, seat in enumerate(table.seats)
    ]  # fmt: skip
    found["seats"] = seats
    if state is None:
        return found
    acting = game.to_act(state)
    found["to_act"] = [index for index, seat in enumerate(table.seats) if seat.player in acting]
    seen = seen_by(table, game, state, player, _) if player is not None else None
    view = player_view(table, game, state, player) if player is not None else watched_by(table, game, state, _).view
    board = renderer.board(view, _, table.names)
    for entry, seat in zip(seats, table.seats):
        entry.update(board["seats"].get(seat.player) or {})
        entry["note"] = plain(entry.get("note"))
        entry["acting"] = seat.player in acting
    index_of = {seat.player: index for index, seat in enumerate(table.seats)}
    zones = []
    for zone in board["zones"]:
        zone = {**zone, "note": plain(zone.get("note"))}
        if "players" in zone:
            zone["players"] = [index_of.get(owner) for owner in zone["players"]]
        zones.append(zone)
    found["zones"] = zones
    found["hand"] = renderer.hand_cards(view) if seen is not None else []
    found["standings"] = standings(table, game, state, _)
    paused = table.paused_until is not None and now < table.paused_until
    if game.is_finished(state):
        found["prompt"] = _("Match over.")
    elif table.status != PLAYING:
        found["prompt"] = _("This table is closed.")
    elif paused:
        found["prompt"] = _("Next round in a moment...")
    elif seen is None:
        found["prompt"] = watched_by(table, game, state, _).prompt
    else:
        found["prompt"] = plain(seen.prompt)
    if table.status == PLAYING and not paused and seat_index is not None and seen is not None:
        node = seen.tree.root
        if at is not None and at[0] == seen.keyboard:
            node = seen.tree.node(at[1]) or node
        keys = [choice_json(choice) for choice in choices_at(seen.tree, node)]
        found["choices"] = {"digest": str(seen.keyboard), "at": node.number, "keys": keys}
        # Not Lopti's 🗳 Vote: in the group it opens the presser's proposals in their private chat,
        # which the app's hand offers already (🗳 Propose a change).
        found["buttons"] = [
            {"label": button.label, "name": button.name, "warning": button.warning}
            for button in shared.buttons
            if button.name != PROPOSALS_KEY
        ]
    return found
