"""Renders tables, hands and notices into Telegram messages, editing in place.

The group sees one table message per table; each player sees one private hand message. Both are
rendered from engine views only (spectator view for the group, the player's own view for their
hand), so no path exists by which a card reaches someone who may not see it. An edit that would
not change a message is not sent.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import TelegramError

from bot.i18n import N_, Translator, translator
from bot.storage import Store, TableRow
from engine.core.options import parse_options
from engine.core.protocol import Action, Event, Game, State
from engine.registry import get_game
from handlers import telegram_io
from handlers.action_tree import ActionTree, Node, build_tree
from handlers.callback_data import LobbyOp, PlayAgain, RuleDraft, TableButton, TreeNode
from handlers.games import renderer_for
from handlers.games.base import GameRenderer
from handlers.telegram_io import Unreachable

log = logging.getLogger(__name__)

GAME_TITLES = {
    "lopti": N_("Lopti"),
    "kadi": N_("Kadi"),
    "pitch": N_("Pitch"),
    "euchre3": N_("Euchre for three"),
    "three_thirteen": N_("Three Thirteen"),
}
BUTTONS_PER_ROW = 4
DEFAULT_GROUP_LANGUAGE = "sw"


def game_title(game: str, _: Translator) -> str:
    return _(GAME_TITLES[game]) if game in GAME_TITLES else game


def clock_text(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    return f"{seconds // 60}:{seconds % 60:02d}"


def rows(buttons: Sequence[InlineKeyboardButton], width: int = BUTTONS_PER_ROW) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]


class Publisher:
    def __init__(
        self,
        bot: Bot,
        store: Store,
        bot_username: Callable[[], str],
        clock: Callable[[], float] = time.time,
        table_edit_interval: float = 0.0,
        group_language: str = DEFAULT_GROUP_LANGUAGE,
    ):
        self.bot = bot
        self.store = store
        self.bot_username = bot_username
        self.clock = clock
        # A group allows a bot about 20 messages a minute, edits included: table edits are
        # coalesced so that at most one goes out per interval, always the newest.
        self.table_edit_interval = table_edit_interval
        self.group_language = group_language
        self._pending_tables: dict[int, tuple[int, int, str, InlineKeyboardMarkup]] = {}
        self._table_editors: dict[int, asyncio.Task[None]] = {}
        self._last_table_edit: dict[int, float] = {}
        # What each private message shows now, so identical edits are never sent.
        self._shown: dict[tuple[int, int], tuple[str, Any]] = {}
        # The last private note per hand ("You drew 7♥"), kept until that player's next action so
        # that other players' moves do not change (and re-send) this player's message.
        self._notes: dict[tuple[int, int], tuple[int, list[str]]] = {}
        self._shown_tables: dict[int, tuple[int | None, str, Any]] = {}
        self._nudges: dict[tuple[int, int], int] = {}
        self._dm_failure_told: set[tuple[int, int]] = set()

    # ----- languages ----------------------------------------------------------------------
    async def group_translator(self, chat_id: int) -> Translator:
        return translator(await self.store.chat_language(chat_id) or self.group_language)

    async def user_translator(self, user_id: int) -> Translator:
        user = await self.store.get_user(user_id)
        return translator(user.language if user else None)

    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username()}?start={payload}"

    # ----- the lobby ----------------------------------------------------------------------
    def lobby_text(self, table: TableRow, game: Game, _: Translator) -> str:
        lines = [
            f"<b>🃏 {escape(game_title(table.game, _))}</b>",
            _("A new table is open: {low}-{high} players.", low=game.min_players, high=game.max_players),
            "",
            _("Players:"),
        ]
        for seat in table.seats:
            crown = " 👑" if seat.user_id == table.creator_id else ""
            lines.append(f"• {escape(seat.name)}{crown}")
        lines.append("")
        lines.append(self.options_line(table, game, _))
        if table.consents is not None:
            lines.append("")
            lines.append("<b>" + _("Hiding mode needs everyone's agreement. One refusal turns it off.") + "</b>")
            for seat in table.seats:
                mark = "✅" if table.consents.get(seat.player) else "⏳"
                lines.append(f"{mark} {escape(seat.name)}")
        else:
            lines.append(_("Press Join: the bot opens a private chat where your cards will arrive."))
        return "\n".join(lines)

    def options_line(self, table: TableRow, game: Game, _: Translator) -> str:
        defaults = parse_options(game.Options, {}).model_dump(mode="json")
        changed = [f"{key}={value}" for key, value in table.options.items() if defaults.get(key) != value]
        timer = (
            _("Turn timer: {seconds} s", seconds=table.turn_seconds) if table.turn_seconds else _("Turn timer: off")
        )
        options = _("Options: {options}", options=escape(", ".join(changed))) if changed else _("Options: standard rules")
        return f"{options}\n{timer}"

    def lobby_markup(self, table: TableRow, _: Translator) -> InlineKeyboardMarkup:
        if table.consents is not None:
            agree = InlineKeyboardButton(_("I agree"), callback_data=LobbyOp(table.table_id, "agree").encode())
            refuse = InlineKeyboardButton(_("I don't agree"), callback_data=LobbyOp(table.table_id, "refuse").encode())
            cancel = InlineKeyboardButton(_("Cancel"), callback_data=LobbyOp(table.table_id, "cancel").encode())
            return InlineKeyboardMarkup([[agree, refuse], [cancel]])
        join = InlineKeyboardButton(_("Join"), url=self.deep_link(f"j{table.table_id}"))
        leave = InlineKeyboardButton(_("Leave"), callback_data=LobbyOp(table.table_id, "leave").encode())
        start = InlineKeyboardButton(_("Start"), callback_data=LobbyOp(table.table_id, "start").encode())
        cancel = InlineKeyboardButton(_("Cancel"), callback_data=LobbyOp(table.table_id, "cancel").encode())
        return InlineKeyboardMarkup([[join, leave], [start, cancel]])

    async def lobby_changed(self, table: TableRow) -> None:
        _ = await self.group_translator(table.chat_id)
        game = get_game(table.game)
        table.table_message_id = await telegram_io.edit_or_send(
            self.bot,
            table.chat_id,
            table.table_message_id,
            self.lobby_text(table, game, _),
            self.lobby_markup(table, _),
            table.thread_id,
        )
        await self.store.save_table(table)

    async def lobby_closed(self, table: TableRow, reason: str) -> None:
        _ = await self.group_translator(table.chat_id)
        text = f"<b>🃏 {escape(game_title(table.game, _))}</b>\n" + (
            _("The table was cancelled.") if reason == "cancelled" else _("Everyone left; the table is closed.")
        )
        if table.table_message_id is not None:
            await telegram_io.edit_or_send(self.bot, table.chat_id, table.table_message_id, text, None, table.thread_id)
        for seat in table.seats:
            await self._clear_hand(table, seat.user_id)

    # ----- the table message --------------------------------------------------------------
    def table_text(
        self, table: TableRow, game: Game, state: State, _: Translator, warning: bool = False, view: dict[str, Any] | None = None
    ) -> str:
        renderer = renderer_for(table.game)
        names = names_of(table)
        view = view or self.player_view(table, game, state, None)
        waiting = set(game.to_act(state))
        lines = [
            f"<b>🃏 {escape(game_title(table.game, _))}</b> · "
            + _("Round {number}", number=game.round_number(state))
        ]
        scores = game.scores(state)
        for seat in table.seats:
            marker = "▶️" if seat.player in waiting else "▫️"
            detail = renderer.seat_detail(view, seat.player, _)
            score = renderer.score_text(scores.get(seat.player, 0), _)
            parts = [f"{marker} <b>{escape(seat.name)}</b>", detail, score]
            lines.append(" · ".join(part for part in parts if part))
        centre = renderer.centre_lines(view, _, names)
        if centre:
            lines.append("")
            lines.extend(centre)
        events = [renderer.event_line(event, _, names) for event in table.recent_events]
        events = [line for line in events if line]
        if events:
            lines.append("")
            lines.extend(f"<i>{line}</i>" for line in events[-3:])
        lines.append("")
        if game.is_finished(state):
            lines.append("<b>" + _("Match over.") + "</b>")
            lines.extend(renderer.result_lines(view, scores, game.winners(state), _, names))
        elif table.paused_until is not None and self.clock() < table.paused_until:
            lines.append("⏸ " + _("Next round in a moment..."))
        elif table.deadline is not None:
            left = clock_text(table.deadline - self.clock())
            who = ", ".join(escape(names.get(p, p)) for p in game.to_act(state))
            if warning:
                lines.append("⏰ " + _("Hurry, {who}: {left} left!", who=who, left=left))
            else:
                lines.append("⏳ " + _("Waiting for {who} ({left})", who=who, left=left))
        else:
            who = ", ".join(escape(names.get(p, p)) for p in game.to_act(state))
            lines.append("⏳ " + _("Waiting for {who}", who=who))
        return "\n".join(lines)

    def table_markup(
        self, table: TableRow, game: Game, state: State, _: Translator, view: dict[str, Any] | None = None
    ) -> InlineKeyboardMarkup:
        if game.is_finished(state):
            again = InlineKeyboardButton(_("Play again"), callback_data=PlayAgain(table.table_id).encode())
            return InlineKeyboardMarkup([[again]])
        names = names_of(table)
        view = view or self.player_view(table, game, state, None)
        public = [
            InlineKeyboardButton(label, callback_data=TableButton(table.table_id, table.version, key).encode())
            for label, key in renderer_for(table.game).table_buttons(view, names, _)
        ]
        hand = InlineKeyboardButton(_("My cards"), url=self.deep_link(f"h{table.table_id}"))
        return InlineKeyboardMarkup([*rows(public, 3), [hand]])

    async def group_seen(self, table: TableRow, game: Game, state: State) -> tuple[Translator, dict[str, Any]]:
        """The group's translator and the spectator view: what every group message renders from."""
        return await self.group_translator(table.chat_id), self.player_view(table, game, state, None)

    async def post_table(
        self,
        table: TableRow,
        game: Game,
        state: State,
        warning: bool = False,
        new_message: bool = False,
        seen: tuple[Translator, dict[str, Any]] | None = None,
    ) -> None:
        """Show the table in the group; `seen` is the group's translator and the spectator view
        when the caller has them already."""
        _, view = seen or await self.group_seen(table, game, state)
        text = self.table_text(table, game, state, _, warning, view)
        markup = self.table_markup(table, game, state, _, view)
        if not new_message and table.table_message_id is not None:
            self._queue_table_edit(table.table_id, table.chat_id, table.table_message_id, text, markup)
            return
        await self.flush(table.table_id)
        message_id = None if new_message else table.table_message_id
        shown = (message_id, text, markup.to_dict())
        if message_id is not None and self._shown_tables.get(table.table_id) == shown:
            return
        new_id = await telegram_io.edit_or_send(self.bot, table.chat_id, message_id, text, markup, table.thread_id)
        self._shown_tables[table.table_id] = (new_id, text, markup.to_dict())
        if new_id != table.table_message_id:
            if new_message and table.table_message_id is not None:
                await telegram_io.delete_quietly(self.bot, table.chat_id, table.table_message_id)
            table.table_message_id = new_id
            await self.store.save_table(table)

    def _queue_table_edit(self, table_id: int, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup) -> None:
        self._pending_tables[table_id] = (chat_id, message_id, text, markup)
        editor = self._table_editors.get(table_id)
        if editor is None or editor.done():
            self._table_editors[table_id] = asyncio.create_task(self._edit_table_soon(table_id))

    async def _edit_table_soon(self, table_id: int) -> None:
        while table_id in self._pending_tables:
            wait = self._last_table_edit.get(table_id, -1e9) + self.table_edit_interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            chat_id, message_id, text, markup = self._pending_tables.pop(table_id)
            if self._shown_tables.get(table_id) == (message_id, text, markup.to_dict()):
                continue
            try:
                new_id = await telegram_io.edit_or_send(self.bot, chat_id, message_id, text, markup)
            except Exception:  # an edit task must not die silently with the table unchanged
                log.exception("could not update the table message of table %s", table_id)
                continue
            self._last_table_edit[table_id] = time.monotonic()
            self._shown_tables[table_id] = (new_id, text, markup.to_dict())
            if new_id != message_id:
                await self.store.set_table_message(table_id, new_id)

    async def flush(self, table_id: int | None = None) -> None:
        """Wait until queued table edits (of one table, or all) have gone out."""
        editors = [self._table_editors[table_id]] if table_id in self._table_editors else (
            list(self._table_editors.values()) if table_id is None else [])
        for editor in editors:
            await asyncio.shield(editor)

    async def table_changed(
        self, table: TableRow, game: Game, state: State, events: list[Event], actor: str | None
    ) -> None:
        seen = await self.group_seen(table, game, state)
        await self.post_table(table, game, state, seen=seen)
        await self._sync_poll(table, game, state, *seen)
        await self._post_round_summary(table, events, seen[0])
        if table.paused_until is not None and self.clock() < table.paused_until:
            return  # the next deal is shown when the pause ends
        for seat in table.seats:
            await self.send_hand(table, game, state, seat.user_id, events, actor=actor)
        if actor is not None and actor.isdigit():
            await self._drop_nudge(table.table_id, int(actor))
        if game.is_finished(state):
            await self._forget_table(table)

    async def _sync_poll(self, table: TableRow, game: Game, state: State, _: Translator, view: dict[str, Any]) -> None:
        """Open the poll the game asks for now, and close one it no longer asks for."""
        renderer = renderer_for(table.game)
        wanted = None if game.is_finished(state) or table.status != "playing" else renderer.poll_for(view, _, view["names"])
        current = await self.store.open_poll(table.table_id)
        if current is not None and (wanted is None or wanted[0] != current["key"]):
            await self.store.close_poll(current["poll_id"])
            try:
                await self.bot.stop_poll(current["chat_id"], current["message_id"])
            except TelegramError as error:
                log.debug("could not stop poll %s: %s", current["poll_id"], error)
            current = None
        if wanted is not None and current is None:
            key, question, answers = wanted
            try:
                message = await self.bot.send_poll(
                    table.chat_id, question[:300], [answer[:100] for answer in answers],
                    is_anonymous=False, message_thread_id=table.thread_id or None,
                )
            except TelegramError as error:
                log.warning("could not open a poll in %s: %s", table.chat_id, error)
                return
            await self.store.add_poll(message.poll.id, table.table_id, key, table.chat_id, message.message_id)

    async def _post_round_summary(self, table: TableRow, events: list[Event], _: Translator) -> None:
        if not events:
            return
        lines = renderer_for(table.game).round_summary([event.view(None) for event in events], _, names_of(table))
        if lines:
            try:
                await telegram_io.send(self.bot, table.chat_id, "\n".join(lines), None, table.thread_id)
            except Unreachable:
                log.warning("cannot post round results in %s", table.chat_id)

    async def session_ended(self, table: TableRow, game: Game, state: State) -> None:
        _ = await self.group_translator(table.chat_id)
        renderer = renderer_for(table.game)
        names = names_of(table)
        lines = [f"<b>🃏 {escape(game_title(table.game, _))}</b>", _("The session is over. Standings:")]
        lines.extend(renderer.result_lines(self.player_view(table, game, state, None), game.scores(state), game.winners(state), _, names))
        again = InlineKeyboardButton(_("Play again"), callback_data=PlayAgain(table.table_id).encode())
        await self.flush(table.table_id)
        await telegram_io.edit_or_send(
            self.bot, table.chat_id, table.table_message_id, "\n".join(lines), InlineKeyboardMarkup([[again]]), table.thread_id
        )
        await self._forget_table(table)

    async def deadline_warning(self, table: TableRow, game: Game, state: State) -> None:
        await self.post_table(table, game, state, warning=True)

    async def nudge(self, table: TableRow, game: Game, state: State) -> None:
        for player in game.to_act(state):
            if not player.isdigit() or (table.table_id, int(player)) in self._nudges:
                continue
            user_id = int(player)
            _ = await self.user_translator(user_id)
            text = "🔔 " + _("Your turn at {game}.", game=escape(game_title(table.game, _)))
            try:
                message = await telegram_io.send(self.bot, user_id, text)
            except Unreachable:
                continue
            self._nudges[(table.table_id, user_id)] = message.message_id

    async def _drop_nudge(self, table_id: int, user_id: int) -> None:
        message_id = self._nudges.pop((table_id, user_id), None)
        if message_id is not None:
            await telegram_io.delete_quietly(self.bot, user_id, message_id)

    # ----- the private hand ---------------------------------------------------------------
    def player_view(self, table: TableRow, game: Game, state: State, player: str | None) -> dict[str, Any]:
        """The engine's view plus what a renderer needs from the table: names and options."""
        return {**game.view(state, player), "names": names_of(table), "table_options": table.options}

    def player_seen(self, table: TableRow, game: Game, state: State, player: str) -> tuple[dict[str, Any], list[Action]]:
        """A player's view and legal actions, computed once for everything one render needs."""
        legal = [] if game.is_finished(state) else game.legal_actions(state, player)
        return self.player_view(table, game, state, player), legal

    def player_tree(
        self,
        renderer: GameRenderer,
        game: Game,
        state: State,
        player: str,
        _: Translator,
        table: TableRow,
        seen: tuple[dict[str, Any], list[Action]] | None = None,
    ) -> ActionTree:
        view, legal = seen or self.player_seen(table, game, state, player)
        offered = legal if game.is_finished(state) else [*legal, *renderer.extra_actions(view, player)]
        ordered = renderer.order_actions(offered, view)
        return build_tree(ordered, lambda action: renderer.action_path(action, view, _))

    def hand_text(
        self,
        table: TableRow,
        game: Game,
        state: State,
        player: str,
        _: Translator,
        events: Sequence[Event] = (),
        node: Node | None = None,
        actor: str | None = None,
        seen: tuple[dict[str, Any], list[Action]] | None = None,
    ) -> str:
        renderer = renderer_for(table.game)
        view, legal = seen or self.player_seen(table, game, state, player)
        names = names_of(table)
        lines = [f"<b>🃏 {escape(game_title(table.game, _))}</b> · " + _("Round {number}", number=game.round_number(state))]
        # Only a player who can act sees the centre of the table in private: the others' messages
        # then stay unchanged between their turns and cost no edit.
        active = bool(legal) or player in game.to_act(state)
        lines.extend(renderer.hand_lines(view, _, active))
        private_lines = []
        for event in events:
            if player in event.private:
                line = renderer.private_event_line(event.view(player), _, names)
                if line:
                    private_lines.append(line)
        key = (table.table_id, int(player)) if player.isdigit() else None
        if key is not None:
            # A note belongs to its round: a new deal starts with a clean slate.
            round_number = game.round_number(state)
            if private_lines or actor == player:
                self._notes[key] = (round_number, private_lines)
            noted_round, noted = self._notes.get(key, (round_number, []))
            private_lines = noted if noted_round == round_number else []
        if private_lines:
            lines.append("")
            lines.extend(f"<i>{line}</i>" for line in private_lines)
        lines.append("")
        if game.is_finished(state):
            lines.append(_("Match over."))
        else:
            lines.append("<b>" + renderer.prompt(view, legal, player in game.to_act(state), _) + "</b>")
        if node is not None and node.number > 0:
            path = []
            current: Node | None = node
            while current is not None and current.number > 0:
                path.append(current.label)
                current = current.parent
            lines.append(_("Chosen: {choice}", choice=escape(" ".join(reversed(path)))))
        return "\n".join(lines)

    def hand_markup(
        self, table: TableRow, tree: ActionTree, node: Node, builder: str | None = None
    ) -> InlineKeyboardMarkup | None:
        buttons = [
            InlineKeyboardButton(child.label, callback_data=TreeNode(table.table_id, table.version, child.number).encode())
            for child in node.children
        ]
        keyboard = rows(buttons)
        extra = []
        if node.number > 0 and node.action is not None:
            extra.append(
                InlineKeyboardButton("✔", callback_data=TreeNode(table.table_id, table.version, -node.number).encode())
            )
        if node.parent is not None:
            extra.append(
                InlineKeyboardButton("↩", callback_data=TreeNode(table.table_id, table.version, node.parent.number).encode())
            )
        if extra:
            keyboard.append(extra)
        if builder and node.number == 0:
            keyboard.insert(0, [InlineKeyboardButton(builder, callback_data=RuleDraft(table.table_id, table.version, "").encode())])
        return InlineKeyboardMarkup(keyboard) if keyboard else None

    async def send_hand(
        self,
        table: TableRow,
        game: Game,
        state: State,
        user_id: int,
        events: Sequence[Event] = (),
        node_number: int = 0,
        fresh: bool = False,
        actor: str | None = None,
    ) -> None:
        player = str(user_id)
        _ = await self.user_translator(user_id)
        renderer = renderer_for(table.game)
        seen = self.player_seen(table, game, state, player)
        tree = self.player_tree(renderer, game, state, player, _, table, seen)
        node = tree.node(node_number) or tree.root
        text = self.hand_text(table, game, state, player, _, events, node, actor, seen)
        builder = renderer.builder_button(seen[0], player, _)
        markup = self.hand_markup(table, tree, node, builder)
        key = (table.table_id, user_id)
        shown = (text, markup.to_dict() if markup else None)
        message_id = None if fresh else await self.store.hand_message(table.table_id, user_id)
        if message_id is not None and self._shown.get(key) == shown:
            return
        try:
            new_id = await telegram_io.edit_or_send(self.bot, user_id, message_id, text, markup)
        except Unreachable:
            await self._dm_failed(table, user_id)
            return
        if fresh and message_id is None:
            old = await self.store.hand_message(table.table_id, user_id)
            if old is not None and old != new_id:
                await telegram_io.delete_quietly(self.bot, user_id, old)
        self._shown[key] = shown
        if new_id != message_id:
            await self.store.set_hand_message(table.table_id, user_id, new_id)

    async def _forget_table(self, table: TableRow) -> None:
        """A finished table's caches go: a long-running bot keeps memory only for live tables."""
        await self.flush(table.table_id)
        for cache in (self._shown_tables, self._last_table_edit, self._table_editors):
            cache.pop(table.table_id, None)
        for seat in table.seats:
            await self._clear_hand(table, seat.user_id)
            self._notes.pop((table.table_id, seat.user_id), None)

    async def _clear_hand(self, table: TableRow, user_id: int) -> None:
        self._shown.pop((table.table_id, user_id), None)
        await self._drop_nudge(table.table_id, user_id)

    async def _dm_failed(self, table: TableRow, user_id: int) -> None:
        await self.store.set_dm_ok(user_id, False)
        key = (table.table_id, user_id)
        if key in self._dm_failure_told:
            return
        self._dm_failure_told.add(key)
        _ = await self.group_translator(table.chat_id)
        seat = table.seat_of(user_id)
        who = escape(seat.name if seat else str(user_id))
        text = _("{name}, I cannot send you your cards. Open the private chat with me and press Start.", name=who)
        button = InlineKeyboardButton(_("Open private chat"), url=self.deep_link(f"h{table.table_id}"))
        try:
            await telegram_io.send(self.bot, table.chat_id, text, InlineKeyboardMarkup([[button]]), table.thread_id)
        except Unreachable:
            log.warning("cannot write to group %s", table.chat_id)

    def forget_hand(self, table_id: int, user_id: int) -> None:
        """The hand message was used for something else (the rule builder): redraw it next time."""
        self._shown.pop((table_id, user_id), None)

    def dm_restored(self, table_id: int, user_id: int) -> None:
        self._dm_failure_told.discard((table_id, user_id))
        self._shown.pop((table_id, user_id), None)


def names_of(table: TableRow) -> Mapping[str, str]:
    return {seat.player: seat.name for seat in table.seats}
