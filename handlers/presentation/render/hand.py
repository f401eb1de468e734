"""A player's private hand message: their view of the table, the prompt, and their moves as buttons.

The chat's drawing of the seat's screen (handlers/presentation/render/seat.py), which is built from the
player's own engine view only, so no card reaches someone who may not see it. The keyboard is the
choices of the player's action tree (see action_tree.py); its buttons carry the table, a
digest of what the keyboard offers, and a node number. A keyboard is redrawn only when what it
offers changes, and a press is honoured while the same keyboard stands.
"""

from __future__ import annotations

from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.core.protocol import Game, State
from handlers.i18n import Translator
from handlers.presentation.action_tree import DONE, ActionTree, Node
from handlers.presentation.callback_data import LeaveTable, RuleDraft, TreeNode
from handlers.presentation.games import renderer_for
from handlers.presentation.games.base import GameRenderer
from handlers.presentation.render.common import title_heading
from handlers.presentation.render.keyboard import BOTTOM, Key, arrange
from handlers.presentation.render.seat import BACK, Choice, Seen, choices_at, player_view, seen_by
from tables.models import TableRow

MARKED = "✅"


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
    view, legal = player_view(table, game, state, player), seen.legal
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
        lines.append(
            "<b>" + renderer.match_end_line(game.scores(state), game.winners(state), player, _, table.names) + "</b>"
        )
    elif table.status != "playing":
        lines.append(_("This table is closed."))
    elif paused:
        lines.append("⏸ " + _("Next round in a moment..."))
    else:
        lines.append("<b>" + seen.prompt + "</b>")
    if node is not None and node.number > 0:
        lines.append(chosen_line(seen.tree, node, _))
    return "\n".join(lines)


def chosen_line(tree: ActionTree, node: Node, _: Translator) -> str:
    """What the player has tapped so far: the steps, then the cards marked (in the order tapped
    for a sequence, as shown for a set)."""
    if node.start >= 0 and node.marks:
        steps = tree.path(tree.nodes[node.start]) + [label for label, _target in node.marks]
    else:
        steps = tree.path(node)
    line = _("Chosen: {choice}", choice=escape(" ".join(steps)))
    if any(child.kind == DONE for child in node.children):
        line += " " + _("Press ✔ to confirm.")
    return line


def hand_markup(table: TableRow, seen: Seen, node: Node, builder: str | None = None) -> InlineKeyboardMarkup | None:
    """The buttons of `node` (its choices: a marked card shows ✅ and unmarks), then ✔ and ↩
    on the last row; a panel's own button (the rule builder) on top of the first screen."""

    def key(choice: Choice) -> Key[InlineKeyboardButton]:
        label = f"{MARKED} {choice.label}" if choice.marked else choice.label
        data = TreeNode(table.table_id, seen.keyboard, choice.node).encode()
        return Key(
            label, BOTTOM if choice.kind == BACK else choice.kind, InlineKeyboardButton(label, callback_data=data)
        )

    top = []
    if builder and node.number == 0:
        draft = RuleDraft(table.table_id, table.version, "").encode()
        top.append(Key(builder, BOTTOM, InlineKeyboardButton(builder, callback_data=draft)))
    keyboard = arrange([key(choice) for choice in choices_at(seen.tree, node)], top)
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
    markup = hand_markup(table, seen, node, renderer.builder_button(player_view(table, game, state, player), player, _))
    if not seen.legal and table.chat_id < 0:
        # Between the player's turns (a turn's keyboard is for moves; /leave works any time):
        # leaving a group's match, a computer player takes the seat, after a confirmation.
        leave = InlineKeyboardButton(
            "🚪 " + _("Leave the game"), callback_data=LeaveTable(table.table_id, "ask").encode()
        )
        markup = InlineKeyboardMarkup([*(markup.inline_keyboard if markup else ()), [leave]])
    return text, markup
