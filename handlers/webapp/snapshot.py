"""What the Mini App shows one seat: the same player view, action tree and prompt as the private
hand (handlers/render/hand.py), as JSON instead of a message. Pure: a function of the committed
table, the reader and their language. It never holds another seat's hidden cards, because it is
built only from `game.view(state, seat)` (and the public view for the table's buttons)."""

from __future__ import annotations

from typing import Any

from engine.core.protocol import Game, State
from handlers import cards as show
from handlers.games import renderer_for
from handlers.games.base import PROPOSALS_KEY, winners_line
from handlers.i18n import Translator
from handlers.render.action_tree import CARD, DONE, Node
from handlers.render.common import game_title
from handlers.render.fit import shown_text
from handlers.render.hand import BACK, MARKED, Seen, hand_markup, player_view, seen_by
from handlers.render.table import round_results
from handlers.callback_data import TreeNode
from tables.models import FINISHED, LOBBY, PLAYING, TableRow

LINES_KEPT = 5
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
    }


def results(table: TableRow, _: Translator) -> dict[str, Any] | None:
    """The last round's results as the group's post shows them, in plain lines; `edition` is
    the post's own (the version of the move that ended the round), so the page can tell a new
    round's results from ones the player already saw."""
    text = round_results(table, _)
    if not text or not table.round_events:
        return None
    return {"edition": table.round_events.get("version", 0), "lines": [line for line in shown_text(text).split("\n") if line.strip()]}


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
    table: TableRow, game: Game, state: State | None, player: str, _: Translator, now: float, at: tuple[int, int] | None = None
) -> dict[str, Any]:
    """`at`: (keyboard digest, node) the player opened in the app, shown while that keyboard stands."""
    renderer = renderer_for(table.game)
    seat_index = next((index for index, seat in enumerate(table.seats) if seat.player == player), None)
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
        "tree": {"digest": "", "nodes": [], "root": 0},
        "at": 0,
        "buttons": [],
        "lines": [],
        "results": results(table, _),
        "standings": None,
        "labels": labels(_),
    }
    seats = [
        {"index": index, "name": seat.name, "you": seat.player == player, "computer": seat.is_computer,
         "cards": None, "score": None, "acting": False, "note": None, "face_up": [], "face_down": 0}
        for index, seat in enumerate(table.seats)
    ]  # fmt: skip
    found["seats"] = seats
    if state is None:
        return found
    acting = game.to_act(state)
    found["to_act"] = [index for index, seat in enumerate(table.seats) if seat.player in acting]
    seen = seen_by(table, game, state, player, _)
    view = seen.view
    names = table.names
    board = renderer.board(view, _, names)
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
    found["hand"] = renderer.hand_cards(view)
    found["standings"] = standings(table, game, state, _)
    paused = table.paused_until is not None and now < table.paused_until
    waiting = player in acting
    if game.is_finished(state):
        found["prompt"] = _("Match over.")
    elif table.status != PLAYING:
        found["prompt"] = _("This table is closed.")
    elif paused:
        found["prompt"] = _("Next round in a moment...")
    else:
        found["prompt"] = plain(renderer.prompt(view, seen.legal, waiting, _))
    if table.status == PLAYING and not paused and seat_index is not None:
        found["tree"] = tree_json(table, seen, view)
        if at is not None and at[0] == seen.keyboard and seen.tree.node(at[1]) is not None:
            found["at"] = at[1]
        public = player_view(table, game, state, None)
        # Not Lopti's 🗳 Vote: in the group it opens the presser's proposals in their private chat,
        # which the app's hand offers already (🗳 Propose a change).
        found["buttons"] = [
            {"label": label, "name": key, "warning": renderer.table_button_warning(key, _)}
            for label, key in renderer.table_buttons(public, names, _)
            if key != PROPOSALS_KEY
        ]
    lines = renderer.log_lines(table.recent_events, _, names)
    found["lines"] = [plain(line) for line in lines[-LINES_KEPT:]]
    return found


def card_codes(view: dict[str, Any]) -> dict[str, str]:
    """The label of each card the player may tap (their hand, face-up and face-down cards) ->
    its engine code: the tree's steps are labels, the page draws codes."""
    codes: dict[str, str] = {}
    for code in _codes_in(view):
        codes.setdefault(show.card(code), code)
    return codes


def _codes_in(value: Any) -> list[str]:
    """Every card code in the player's view (hands, face-up cards, piles): a label is looked up
    among them, so a card of the tree gets its code wherever it lies."""
    found: list[str] = []
    if isinstance(value, str):
        if 2 <= len(value) <= 3 and value[-1] in show.SUIT_SYMBOLS and value[:-1] in _RANKS or value == "X":
            found.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            found.extend(_codes_in(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(_codes_in(item))
    return found


_RANKS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}


def tree_json(table: TableRow, seen: Seen, view: dict[str, Any]) -> dict[str, Any]:
    """The action tree: every node, and the buttons the chat keyboard would show at it (the same
    hand_markup, so marked cards unmark and ↩ goes where the chat's goes)."""
    codes = card_codes(view)
    calls = renderer_for(table.game).call_actions
    nodes = []
    for node in seen.tree.nodes:
        buttons = []
        markup = hand_markup(table, seen, node)
        # The cards marked so far (a move's own label may start with ✅ too: Lopti's Ready).
        marks = {f"{MARKED} {label}" for label, _target in node.marks}
        for row in markup.inline_keyboard if markup else ():
            for button in row:
                data = TreeNode.parse(button.callback_data)
                target = seen.tree.node(data.node)
                label = button.text
                marked = label in marks
                bare = label.removeprefix(MARKED + " ") if marked else label
                kind = "back" if label == BACK else _kind(target, marked)
                buttons.append({"label": bare, "node": data.node, "kind": kind, "marked": marked,
                                "card": codes.get(bare) if kind == "card" else None})
        nodes.append({
            "number": node.number,
            "label": node.label,
            "kind": node.kind,
            "card": codes.get(node.label) if node.kind == CARD else None,
            "children": [child.number for child in node.children],
            "leaf": node.action is not None,
            "call": node.action is not None and node.action["type"] in calls,
            "buttons": buttons,
        })  # fmt: skip
    return {"digest": str(seen.keyboard), "nodes": nodes, "root": 0}


def _kind(target: Node | None, marked: bool) -> str:
    if marked or target is None:
        return "card"
    return "confirm" if target.kind == DONE else target.kind
