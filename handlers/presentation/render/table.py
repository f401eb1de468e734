"""The group's messages of a table: the lobby, the table itself, its end, round results and notices.

Rendered from the spectator view only: what everyone at the table may know.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape, unescape
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.core.options import OptionsError, parse_options
from engine.core.protocol import Game, State
from handlers.i18n import Translator
from handlers.presentation.callback_data import HowTo, LobbyOp, PlayAgain, TableButton
from handlers.presentation.fit import LINE_WIDTH, broken, pack, phone_width, shown_text
from handlers.presentation.games import renderer_for
from handlers.presentation.games.base import name, names_list, shorten
from handlers.presentation.render.common import clock_text, game_title, rows, title_heading
from tables.models import CANCELLED, FINISHED, TableRow


def heading(table: TableRow, _: Translator) -> str:
    return title_heading(table.game, _)


# ----- the lobby -------------------------------------------------------------------------------
def player_range(table: TableRow, game: Game) -> tuple[int, int]:
    """How many players this table can seat and deal to, with its options (checked when it opened)."""
    try:
        return game.player_range(parse_options(game.Options, table.options))
    except OptionsError:
        return game.min_players, game.max_players


def lobby_text(table: TableRow, game: Game, _: Translator) -> str:
    low, high = player_range(table, game)
    opened = (
        _("A new table is open: {low}-{high} players.", low=low, high=high)
        if low < high
        else _("A new table is open: {count} players.", count=low)
    )
    lines = [
        heading(table, _),
        opened,
        "",
        _("Players:"),
    ]
    for seat in table.seats:
        crown = " 👑" if seat.user_id == table.creator_id else ""
        lines.append(f"• {escape(seat.name)}{crown}")
    lines.append("")
    lines.append(options_line(table, game, _))
    if table.computers:
        lines.append(computers_line(table, _))
    if table.consents is not None:
        lines.append("")
        lines.append("<b>" + _("Hiding mode needs everyone's agreement. One refusal turns it off.") + "</b>")
        for seat in table.seats:
            mark = "✅" if table.consents.get(seat.player) else "⏳"
            lines.append(f"{mark} {escape(seat.name)}")
    else:
        lines.append(_("Press Join: the bot opens a private chat where your cards will arrive."))
    return "\n".join(broken(lines))  # the lobby's lines fit a phone as the table's do


def options_line(table: TableRow, game: Game, _: Translator) -> str:
    defaults = parse_options(game.Options, {}).model_dump(mode="json")
    changed = [f"{key}={value}" for key, value in table.options.items() if defaults.get(key) != value]
    timer = _("Turn timer: {seconds} s", seconds=table.turn_seconds) if table.turn_seconds else _("Turn timer: off")
    options = _("Options: {options}", options=escape(", ".join(changed))) if changed else _("Options: standard rules")
    return f"{options}\n{timer}"


def computers_line(table: TableRow, _: Translator) -> str:
    """How the table's computer players play, and whether one stands in for a player out of time."""
    level = _("Computer players: strong") if table.level == "strong" else _("Computer players: easy")
    if table.stand_in:
        return level + "\n" + _("A computer player moves for anyone who runs out of time.")
    return level


def lobby_markup(table: TableRow, _: Translator, join_url: str, max_players: int = 0) -> InlineKeyboardMarkup:
    def op(label: str, name: str) -> InlineKeyboardButton:
        return InlineKeyboardButton(label, callback_data=LobbyOp(table.table_id, name).encode())

    if table.consents is not None:
        return InlineKeyboardMarkup(
            [[op(_("I agree"), "agree"), op(_("I don't agree"), "refuse")], [op(_("Cancel"), "cancel")]]
        )
    join = InlineKeyboardButton(_("Join"), url=join_url)
    # Answered in the presser's private chat: the group's minute of messages is for the game.
    howto = InlineKeyboardButton("❓ " + _("How to play"), callback_data=HowTo(table.game).encode())
    computers = []
    if len(table.seats) < max_players:
        computers.append(op("🤖 " + _("Add a computer player"), "add_bot"))
    if table.computers:
        computers.append(op("➖ " + _("Remove a computer player"), "drop_bot"))
    return InlineKeyboardMarkup(
        [
            [join, op(_("Leave"), "leave")],
            [op(_("Start"), "start"), op(_("Cancel"), "cancel")],
            *rows(computers, 1),
            [howto],
        ]
    )


def left_text(table: TableRow, user_id: int, _: Translator) -> str:
    """What the hand message of a player who left the running match says from then on."""
    seat = next((seat for seat in table.seats if seat.plays_for == str(user_id)), None)
    who = escape(seat.name if seat else "🤖")
    return heading(table, _) + "\n" + _("You left this table; {name} plays your seat.", name=who)


def closed_text(table: TableRow, _: Translator) -> str:
    reason = (
        _("Everyone left; the table is closed.") if table.closed_reason == "empty" else _("The table was cancelled.")
    )
    return heading(table, _) + "\n" + reason


# ----- the running table -----------------------------------------------------------------------
# The table must fit a phone without scrolling, with the most players a game seats.
MAX_LINES = 15
MAX_CHARACTERS = 500
LOG_LINES = 3
LOG_LINE_CHARACTERS = 140
LOG_LINE_LEAST = 40  # a line cut shorter than this says too little: it is left out


def shown_length(text: str) -> int:
    """Characters a phone shows of an HTML text: without tags, entities as one character."""
    return len(shown_text(text))


def clip(line: str, limit: int) -> str:
    """An HTML line without tags cut between words to `limit` shown characters."""
    if shown_length(line) <= limit:
        return line
    return escape(shorten(unescape(line), limit), quote=False)


def table_text(table: TableRow, game: Game, state: State, _: Translator, view: Mapping[str, Any], now: float) -> str:
    """The group's table: heading (round and the score that ends the match), the seats, the
    centre, the last events and whom the table waits for, in at most MAX_LINES lines and
    MAX_CHARACTERS characters: the events get what room is left, newest first."""
    renderer = renderer_for(table.game)
    names = table.names
    scores = game.scores(state)
    if table.status == FINISHED and not game.is_finished(state):
        standings = renderer.result_lines(view, scores, game.winners(state), _, names)
        return "\n".join([heading(table, _), _("The session is over. Standings:"), *standings])
    title = [heading(table, _), renderer.round_text(view, game.round_number(state), _)]
    goal = renderer.goal_text(view, _)
    if goal:
        title.append(goal)
    title = pack(title)
    top = table_top(table, game, state, _, view, title, compact=False)
    bottom = [status_line(table, game, state, _, names, now)]
    if (
        shown_length("\n".join(top + bottom)) > MAX_CHARACTERS - LOG_LINE_LEAST
        or len(top) + len(bottom) >= MAX_LINES - 1
    ):
        top = table_top(table, game, state, _, view, title, compact=True)
    room_lines = MAX_LINES - len(top) - len(bottom) - 1
    room_characters = MAX_CHARACTERS - shown_length("\n".join(top + bottom)) - 1
    log = []
    for line in reversed(renderer.log_lines(table.recent_events, _, names)):
        if len(log) >= min(LOG_LINES, room_lines):
            break
        limit = min(LOG_LINE_CHARACTERS, room_characters - 1)
        if limit < min(LOG_LINE_LEAST, shown_length(line)):
            break
        line = clip(line, limit)
        room_characters -= shown_length(line) + 1
        log.insert(0, f"<i>{line}</i>")
    return "\n".join(top + ([""] + log if log else []) + bottom)


def table_top(
    table: TableRow, game: Game, state: State, _: Translator, view: Mapping[str, Any], title: list[str], compact: bool
) -> list[str]:
    """The heading, the seats (or the final standings) and the centre of the table."""
    renderer = renderer_for(table.game)
    names = table.names
    scores = game.scores(state)
    top = list(title)
    if game.is_finished(state):
        return top + renderer.result_lines(view, scores, game.winners(state), _, names)
    waiting = game.to_act(state)
    for seat in table.seats:
        marker = "▶️" if seat.player in waiting else "▫️"
        detail = renderer.seat_detail(view, seat.player, _)
        score = scores.get(seat.player, 0)
        parts = [f"{marker} <b>{name(names, seat.player)}</b>", detail, renderer.score_text(score, _) if score else ""]
        top.append(" · ".join(part for part in parts if part))
    centre = renderer.centre_lines(view, _, names, compact)
    return top + ([""] + centre if centre else [])


def lost_text(table: TableRow, game: Game, state: State, _: Translator, view: Mapping[str, Any]) -> str:
    """A player's hand once the bot can no longer write in the table's group: why the match
    ended, and the standings as it stood (`view`: the spectator's)."""
    renderer = renderer_for(table.game)
    standings = renderer.result_lines(view, game.scores(state), game.winners(state), _, table.names)
    return "\n".join(
        [
            heading(table, _),
            _(
                "I can no longer write in this table's group (I was removed, or may not send messages there), "
                "so the match ended where it stood."
            ),
            _("Standings:"),
            *standings,
        ]
    )


def status_line(table: TableRow, game: Game, state: State, _: Translator, names: Mapping[str, str], now: float) -> str:
    """Whom the table waits for and how long they have, or why it waits for nobody. Names that
    would not fit a phone's line become a count (the seats' ▶️ show who they are)."""
    waiting = game.to_act(state)
    who = names_list(waiting, names, _)
    if len(waiting) > 2 and phone_width(_("Waiting for {who} ({left})", who=who, left="0:00")) > LINE_WIDTH - 3:
        who = _.plural("{count} player", "{count} players", len(waiting))
    if game.is_finished(state):
        return "<b>" + _("Match over.") + "</b>"
    if table.status == CANCELLED:
        return "<b>" + _("The table was cancelled.") + "</b>"
    if table.paused_until is not None and now < table.paused_until:
        return "⏸ " + _("Next round in a moment...")
    if table.deadline is not None:
        # The time a fresh turn has: a table is rendered when the turn begins, and its text
        # must not change every second (each edit costs a call of the group's budget).
        left = clock_text(table.deadline - now)
        if table.warned:
            return "⏰ " + _("Hurry, {who}: {left} left!", who=who, left=left)
        return "⏳ " + _("Waiting for {who} ({left})", who=who, left=left)
    return "⏳ " + _("Waiting for {who}", who=who)


def table_markup(
    table: TableRow, game: Game, state: State, _: Translator, view: Mapping[str, Any], hand_url: str
) -> InlineKeyboardMarkup | None:
    if table.status == FINISHED:
        again = InlineKeyboardButton(_("Play again"), callback_data=PlayAgain(table.table_id).encode())
        return InlineKeyboardMarkup([[again]])
    if table.status == CANCELLED:
        return None
    public = [
        InlineKeyboardButton(label, callback_data=TableButton(table.table_id, table.version, key).encode())
        for label, key in renderer_for(table.game).table_buttons(view, table.names, _)
    ]
    if table.chat_id > 0:  # a practice table: the cards are the next message of this chat
        return InlineKeyboardMarkup(rows(public, 3)) if public else None
    hand = InlineKeyboardButton(_("My cards"), url=hand_url)
    return InlineKeyboardMarkup([*rows(public, 3), [hand]])


def nudge_text(table: TableRow, _: Translator) -> str:
    return "🔔 " + _("Your turn at {game}.", game=escape(game_title(table.game, _)))


def unreachable_text(table: TableRow, user_id: int, _: Translator) -> str:
    seat = table.seat_of(user_id)
    who = escape(seat.name if seat else str(user_id))
    return _("{name}, I cannot send you your cards. Open the private chat with me and press Start.", name=who)


def unreachable_markup(_: Translator, hand_url: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(_("Open private chat"), url=hand_url)]])
