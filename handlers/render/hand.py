"""A player's private hand message: their view of the table, the prompt, and their moves as buttons.

Rendered from the player's own engine view only, so no card reaches someone who may not see it.
The keyboard is the player's action tree (see action_tree.py); its buttons carry the table, a
digest of what the keyboard offers, and a node number. A keyboard is redrawn only when what it
offers changes, and a press is honoured while the same keyboard stands.
"""

from __future__ import annotations

import json
import zlib
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from handlers.i18n import Translator
from engine.core.protocol import Action, Game, State
from handlers.callback_data import LeaveTable, RuleDraft, TreeNode
from handlers.games import renderer_for
from handlers.games.base import GameRenderer
from handlers.render.action_tree import CARD, DONE, ActionTree, Node, build_tree
from handlers.render.common import title_heading
from handlers.render.keyboard import BOTTOM, Key, arrange
from tables.models import TableRow

BACK = "↩"
MARKED = "✅"


def player_view(table: TableRow, game: Game, state: State, player: str | None) -> dict[str, Any]:
    """The engine's view plus what a renderer needs from the table: names and options."""
    return {**game.view(state, player), "names": table.names, "table_options": table.options}


@dataclass
class Seen:
    """Everything one render of a player's hand needs, computed once."""

    view: dict[str, Any]
    legal: list[Action]
    tree: ActionTree
    # A digest of the actions the keyboard offers: the key a press must match.
    keyboard: int


def keyboard_digest(actions: Sequence[Mapping[str, Any]]) -> int:
    return zlib.crc32(json.dumps(list(actions), sort_keys=True, separators=(",", ":")).encode()) % 1_000_000_000


# What a player sees depends only on the table's version (the state), the player and the
# language: the publisher renders it once per move, and the press that follows looks it up.
# (The table's creation time tells apart tables of different databases with the same id.)
_SEEN: OrderedDict[tuple[int, float, int, str, str], Seen] = OrderedDict()
SEEN_KEPT = 4096


def seen_by(table: TableRow, game: Game, state: State, player: str, _: Translator) -> Seen:
    key = (table.table_id, table.created_at, table.version, player, _.language)
    seen = _SEEN.get(key)
    if seen is None or not table.table_id:
        seen = _SEEN[key] = _seen_now(table, game, state, player, _)
        if len(_SEEN) > SEEN_KEPT:
            _SEEN.popitem(last=False)
    return seen


def seen_earlier(table: TableRow, player: str, keyboard: int) -> Seen | None:
    """The keyboard `player` was shown at an earlier version of this table, while it is still
    remembered: a press on it can then be told why its move no longer stands."""
    for (table_id, created_at, _version, reader, _language), seen in reversed(_SEEN.items()):
        if table_id == table.table_id and created_at == table.created_at and reader == player and seen.keyboard == keyboard:
            return seen
    return None


def _seen_now(table: TableRow, game: Game, state: State, player: str, _: Translator) -> Seen:
    renderer = renderer_for(table.game)
    view = player_view(table, game, state, player)
    finished = game.is_finished(state)
    legal = [] if finished else game.legal_actions(state, player)
    offered = legal if finished else [*legal, *renderer.extra_actions(view, player)]
    ordered = renderer.order_actions(offered, view)
    tree = build_tree(ordered, lambda action: renderer.action_paths(action, view, _))
    return Seen(view, legal, tree, keyboard_digest(ordered))


def hand_text(
    table: TableRow,
    game: Game,
    state: State,
    player: str,
    _: Translator,
    seen: Seen,
    node: Node | None = None,
    paused: bool = False,
) -> str:
    renderer = renderer_for(table.game)
    view, legal = seen.view, seen.legal
    lines = [title_heading(table.game, _) + " · " + _("Round {number}", number=game.round_number(state))]
    # Only a player who can act sees the centre of the table in private: the others' messages
    # then stay unchanged between their turns and cost no edit.
    waiting = player in game.to_act(state)
    active = (bool(legal) or waiting) and not paused
    lines.extend(renderer.hand_lines(view, _, active))
    note = table.notes.get(player)
    if note and note.get("round") == game.round_number(state):
        private = [renderer.private_event_line(event, _, table.names, player) for event in note.get("events", [])]
        private = [line for line in private if line]
        if private:
            lines.append("")
            lines.extend(f"<i>{line}</i>" for line in private)
    lines.append("")
    if game.is_finished(state):
        lines.append("<b>" + renderer.match_end_line(game.scores(state), game.winners(state), player, _, table.names) + "</b>")
    elif table.status != "playing":
        lines.append(_("This table is closed."))
    elif paused:
        lines.append("⏸ " + _("Next round in a moment..."))
    else:
        lines.append("<b>" + renderer.prompt(view, legal, waiting, _) + "</b>")
    if node is not None and node.number > 0:
        lines.append(chosen_line(node, _))
    return "\n".join(lines)


def chosen_line(node: Node, _: Translator) -> str:
    """What the player has tapped so far: the steps, then the cards marked (in the order tapped
    for a sequence, as shown for a set)."""
    if node.start is not None and node.marks:
        steps = node.start.path() + [label for label, _target in node.marks]
    else:
        steps = node.path()
    line = _("Chosen: {choice}", choice=escape(" ".join(steps)))
    if any(child.kind == DONE for child in node.children):
        line += " " + _("Press ✔ to confirm.")
    return line


def hand_markup(table: TableRow, seen: Seen, node: Node, builder: str | None = None) -> InlineKeyboardMarkup | None:
    """The buttons of `node`: while cards are being chosen, each candidate card once (✅ on the
    marked ones, which unmark), then the moves, then ✔ and ↩."""

    def button(label: str, number: int) -> InlineKeyboardButton:
        return InlineKeyboardButton(label, callback_data=TreeNode(table.table_id, seen.keyboard, number).encode())

    keys: list[Key[InlineKeyboardButton]] = []
    links = list(node.links)
    if node.marks:
        offered = [(label, child) for label, child in links if child.kind == CARD]
        marked = [(f"{MARKED} {label}", target) for label, target in node.marks]
        if node.shown_order:  # a set: each card keeps its place, marked or not
            place = {label: index for index, label in enumerate(node.shown_order)}
            cards = sorted([*marked, *offered], key=lambda key: place.get(key[0].removeprefix(f"{MARKED} "), 99))
        else:  # a sequence: the cards in the order tapped, then those that may follow
            cards = [*marked, *offered]
        keys.extend(Key(label, CARD, button(label, target.number)) for label, target in cards)
        links = [(label, child) for label, child in links if child.kind != CARD]
    keys.extend(Key(label, child.kind, button(label, child.number)) for label, child in links)
    back = node.start if node.marks and node.start is not None else node.parent
    if back is not None:
        keys.append(Key(BACK, BOTTOM, button(BACK, back.number)))
    top = []
    if builder and node.number == 0:
        draft = RuleDraft(table.table_id, table.version, "").encode()
        top.append(Key(builder, BOTTOM, InlineKeyboardButton(builder, callback_data=draft)))
    keyboard = arrange(keys, top)
    return InlineKeyboardMarkup(keyboard) if keyboard else None


def render_hand(
    table: TableRow,
    game: Game,
    state: State,
    player: str,
    _: Translator,
    opened: tuple[int, int] | None = None,
    paused: bool = False,
) -> tuple[str, InlineKeyboardMarkup | None]:
    """The hand message of `player`; `opened` is (keyboard digest, node) of a branch the player
    opened, shown while the keyboard it belongs to stands."""
    renderer: GameRenderer = renderer_for(table.game)
    seen = seen_by(table, game, state, player, _)
    # Between rounds only the hands of those who move first wait for the pause to end; the others
    # read now as they will after it, so that its end edits only the hands that get buttons.
    paused = paused and (bool(seen.legal) or player in game.to_act(state))
    node = seen.tree.root
    if opened is not None and opened[0] == seen.keyboard:
        node = seen.tree.node(opened[1]) or node
    text = hand_text(table, game, state, player, _, seen, node, paused)
    if paused or table.status != "playing":
        return text, None
    markup = hand_markup(table, seen, node, renderer.builder_button(seen.view, player, _))
    if not seen.legal and table.chat_id < 0:
        # Between the player's turns (a turn's keyboard is for moves; /leave works any time):
        # leaving a group's match, a computer player takes the seat, after a confirmation.
        leave = InlineKeyboardButton("🚪 " + _("Leave the game"), callback_data=LeaveTable(table.table_id, "ask").encode())
        markup = InlineKeyboardMarkup([*(markup.inline_keyboard if markup else ()), [leave]])
    return text, markup
