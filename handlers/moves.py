"""The one door for moves: a press of a seat's choices and a press of a table button, from the
chat (handlers/chat/play.py) or the Mini App (handlers/webapp/api.py), are chosen here under the
table's lock and followed by the same after-steps; and here is the one record of the branch each
player has open (a card marked for a play of several, a Jack's command to pick).

What stays with each door is only what its transport needs: the chat answers the button's query
and asks for a second press of a costly table button; the app checks the version its page drew
and confirms a costly button on the page.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from engine.core.protocol import Action, MalformedAction, Refused
from handlers.i18n import Translator
from handlers.presentation.callback_data import TreeNode
from handlers.presentation.games import renderer_for
from handlers.presentation.games.house_rules import AMEND
from handlers.presentation.render.seat import earlier_move, player_view, seen_by
from tables.feed import ChangeFeed
from tables.models import LIVE, Loaded, Outcome
from tables.service import TableService

# What a branch record is: the keyboard digest it belongs to and the node open in it.
Branch = tuple[int, int]
# Opens the rule builder on a rule in the player's private chat: (table, user, rule, language).
OpenBuilder = Callable[[int, int, Mapping[str, Any], Translator], Awaitable[None]]


class OpenBranches:
    """The branch each player has open at each table, whichever door opened it: the chat hand
    and the app both show it while the keyboard it belongs to stands. A table's go when it is no
    longer live (the feed tells)."""

    def __init__(self) -> None:
        self._open: dict[int, dict[int, Branch]] = {}

    def open(self, table_id: int, user_id: int, keyboard: int, node: int) -> None:
        self._open.setdefault(table_id, {})[user_id] = (keyboard, node)

    def close(self, table_id: int, user_id: int) -> None:
        found = self._open.get(table_id)
        if found is not None:
            found.pop(user_id, None)
            if not found:
                del self._open[table_id]

    def of(self, table_id: int, user_id: int) -> Branch | None:
        return self._open.get(table_id, {}).get(user_id)

    def of_table(self, table_id: int) -> Mapping[int, Branch]:
        return self._open.get(table_id, {})

    def changed(self, table_id: int, loaded: Loaded | None) -> None:
        if loaded is not None and loaded.table.status not in LIVE:
            self._open.pop(table_id, None)


# What a press that plays nothing says it did, in its outcome's values: the node of the branch it
# opened (0: back to the top), or the rule it opens in the builder (None: that rule is gone).
OPENED, AMENDING = "opened", "amending"


class TreePress:
    """What a press of the action tree chooses under the table's lock: a branch to open (nothing
    is played), a rule to amend, or the action of its node. `version`, when given, must be the
    table's (the app's page says which it drew). What it chose without playing comes back in the
    outcome the table service returns (`OPENED`, `AMENDING`)."""

    def __init__(self, player: str, data: TreeNode, _: Translator, version: int | None = None):
        self.player, self.data, self._, self.version = player, data, _, version

    def choose(self, loaded: Loaded) -> Action | Outcome:
        table, game, state = loaded.table, loaded.game, loaded.state
        data, player = self.data, self.player
        if self.version is not None and self.version != table.version:
            return Outcome.refused("stale", table=table)
        seen = seen_by(table, game, state, player, self._)
        if seen.keyboard != data.keyboard:
            return _stale_press(loaded, player, data)
        node = seen.tree.node(abs(data.node))
        if node is None:
            return Outcome.refused("unknown_button", table=table)
        if data.node >= 0 and (node.children or node.number == 0):
            # A branch (or back to the top): nothing is played yet.
            return Outcome(True, table=table, values={OPENED: node.number}, loaded=loaded)
        if node.action is None:
            return Outcome.refused("unknown_button", table=table)
        if node.action["type"] == AMEND:  # opens the rule builder: nothing is played yet
            rules = player_view(table, game, state, player).get("rules") or []
            rule = next((rule for rule in rules if rule["id"] == node.action["rule"]), None)
            return Outcome(True, table=table, values={AMENDING: rule}, loaded=loaded)
        return node.action


def _stale_press(loaded: Loaded, player: str, data: TreeNode) -> Outcome:
    """A press on a keyboard the table has moved past. While that keyboard is remembered, the
    move it stood for is judged as the table is now, so the answer can say why it no longer
    stands (the round's vote is used, the duel is over); otherwise it is just from an earlier move."""
    table, game, state = loaded.table, loaded.game, loaded.state
    action = earlier_move(table, player, data.keyboard, abs(data.node))  # a branch: its first move
    if action is not None and action.get("type") != AMEND:
        try:
            result = game.apply(state, player, game.check_action(player, action, table.players))
        except MalformedAction:
            result = None
        if isinstance(result, Refused):
            return Outcome.refused(result.code, result.message, table=table, stale=True)
    return Outcome.refused("stale", table=table)


class Moves:
    def __init__(self, service: TableService, feed: ChangeFeed, open_builder: OpenBuilder):
        self.service, self.feed, self.open_builder = service, feed, open_builder
        self.branches = OpenBranches()
        feed.listen(self.branches)

    async def press(
        self,
        table_id: int,
        user_id: int,
        data: TreeNode,
        _: Translator,
        version: int | None = None,
        request: str | None = None,
    ) -> Outcome:
        """A press of the player's choices: a branch opens (the hand shows it), a rule opens in
        the builder (in the private chat, whichever door), or the move is played."""
        tap = TreePress(str(user_id), data, _, version)
        outcome = await self.service.play.act_with(table_id, str(user_id), tap.choose, request)
        opened: int | None = outcome.values.get(OPENED)
        amending: Mapping[str, Any] | None = outcome.values.get(AMENDING)
        if opened:
            self.branches.open(table_id, user_id, data.keyboard, opened)
        else:
            self.branches.close(table_id, user_id)
        if (
            opened is not None
            or amending is not None
            or outcome.code in ("stale", "unknown_button")
            or outcome.values.get("stale")
        ):
            # Nothing was played: the hand shows its branch, or its top again (drawn from the table
            # the press read, when it has it).
            self.feed.put(table_id, outcome.loaded)
        if outcome.ok and amending is not None:
            await self.open_builder(table_id, user_id, amending, _)
        return outcome

    async def table_button(
        self, table_id: int, user_id: int, name: str, version: int, _: Translator, request: str | None = None
    ) -> Outcome:
        """A button of the group table ("Kadi Moja!", accuse), pressed for the table as drawn at
        `version`: only a button the table offers then is taken."""

        def choose(loaded: Loaded) -> Action | Outcome:
            if version != loaded.table.version:
                return Outcome.refused("too_late", table=loaded.table)
            renderer = renderer_for(loaded.table.game)
            public = player_view(loaded.table, loaded.game, loaded.state, None)
            offered = {key for _label, key in renderer.table_buttons(public, loaded.table.names, _)}
            action = renderer.table_action(name, public) if name in offered else None
            return action if action is not None else Outcome.refused("unknown_button", table=loaded.table)

        return await self.service.play.act_with(table_id, str(user_id), choose, request)
