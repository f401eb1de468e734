"""`karata demo [GAME]`: the real bot against the in-repo fake Bot API, with simulated players.

Everything runs on this machine: the fake Telegram server on 127.0.0.1, the real Application
talking to it over HTTP, and simulated users who open a table, join by deep link and press
random buttons of their own hands. What the group and each player are shown is printed in
order, until the first round ends. The same `Simulation` drives the end-to-end tests.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from collections.abc import Callable
from pathlib import Path

from fakeapi import FakeBotAPI, FakeUser, MessageRecord
from bot.settings import Settings

DEMO_TOKEN = "123456789:karata-offline-demo-token"
PLAYER_NAMES = ["Amina", "Baraka", "Chausiku", "Daudi", "Eshe", "Faraji", "Gati"]
GROUP_ID = -1001234567890
SKIP = "\x00skip"


def demo_settings(api: FakeBotAPI, db_path: str, language: str = "en", **overrides: object) -> Settings:
    values: dict[str, object] = {
        "KARATA_GROUP_LANGUAGE": language,
        "BOT_TOKEN": DEMO_TOKEN,
        "TELEGRAM_API_BASE_URL": api.base_url,
        "KARATA_DB": db_path,
        "KARATA_TURN_SECONDS": 0,
        "KARATA_NUDGE_SECONDS": 0,
        # The fake server has no flood limit; a real group does (see Settings).
        "KARATA_GROUP_RATE": 6000,
        "KARATA_BOT_RATE": 10000,
        "KARATA_ROUND_PAUSE_SECONDS": 0,
        # The bot's HTTP server on a free port of this machine only.
        "KARATA_HTTP_LISTEN": "127.0.0.1",
        "KARATA_HTTP_PORT": 0,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


class Simulation:
    """Simulated users at one group table, pressing what a real client would show them."""

    def __init__(self, api: FakeBotAPI, users: list[FakeUser], group_id: int, rng: random.Random):
        self.api = api
        self.users = users
        self.group_id = group_id
        self.rng = rng
        # With the running Application, players decide on a move first and then tap its
        # buttons, as people do; without it they press any button they see.
        self.application = None
        # Optional policy: (player, legal actions, loaded table) -> the action to make.
        self.choose: Callable[..., dict] | None = None
        # Players press as soon as their own chat shows the move (the group's table may still
        # be waiting for its flood budget), as on a real, rate-limited Telegram.
        self.private_only = False

    @classmethod
    def create(
        cls, api: FakeBotAPI, count: int, seed: int, language: str = "en", group_id: int = GROUP_ID, first_user: int = 1001
    ) -> Simulation:
        users = [api.add_user(first_user + index, PLAYER_NAMES[index], language_code=language) for index in range(count)]
        members = {user.id: ("creator" if index == 0 else "member") for index, user in enumerate(users)}
        api.add_group(group_id, "Karata demo", members=members)
        return cls(api, users, group_id, random.Random(seed))

    def table_message(self) -> MessageRecord | None:
        for message in reversed(self.api.bot_messages(self.group_id)):
            if any(data and data.startswith(("L:", "A:")) or (data or "").startswith("https://t.me/")
                   for row in message.buttons for _, data in row):
                return message
        return None

    def hand_message(self, user: FakeUser) -> MessageRecord | None:
        for message in reversed(self.api.bot_messages(user.id)):
            if any((data or "").startswith("T:") for row in message.buttons for _, data in row):
                return message
        return None

    async def open_table(self, game: str, options: str = "") -> MessageRecord:
        creator = self.users[0]
        before = max((message.message_id for message in self.api.messages(self.group_id)), default=0)
        await self.api.send_text(creator, self.group_id, f"/newgame {game} {options}".strip())

        def new_lobby() -> MessageRecord | None:
            message = self.table_message()
            return message if message is not None and message.message_id > before else None

        lobby = await self.api.wait_until(new_lobby, timeout=10, what="the lobby message")
        join_url = next(data for row in lobby.buttons for _, data in row if (data or "").startswith("https://"))
        for index, user in enumerate(self.users):
            await self.api.open_link(user, join_url)
            await self.api.wait_until(
                lambda: (self.table_message() or lobby).edit_count >= index or index == 0, timeout=10, what="the join"
            )
            await self.api.settle(quiet=0.05)
        start = next(data for row in lobby.buttons for _, data in row if (data or "").endswith(":start"))
        query = await self.api.press(creator, self.group_id, lobby.message_id, start)
        await self.api.wait_for_answer(query)
        await self.shown()
        return lobby

    async def shown(self) -> None:
        """Wait until what the bot is about to show has reached the chats (a press is answered
        first, its messages follow)."""
        if self.application is not None:
            await self.application.bot_data["karata"].publisher.settle(private_only=self.private_only)
        else:
            await self.api.settle(quiet=0.05)

    async def step(self) -> bool:
        """One simulated user presses one button of their hand; False when nobody has any."""
        choices = []
        for user in self.users:
            message = self.hand_message(user)
            if message is None:
                continue
            buttons = [data for row in message.buttons for label, data in row if data and data.startswith("T:") and label != "↩"]
            if buttons:
                choices.append((user, message, buttons))
        if not choices:
            return False
        user, message, buttons = self.rng.choice(choices)
        path = await self._intended_path(user, message)
        if path == [SKIP]:
            return True
        if not path:
            query = await self.api.press(user, user.id, message.message_id, self.rng.choice(buttons))
            await self.api.wait_for_answer(query, timeout=10)
            await self.shown()
            return True
        for label in path:
            message = self.hand_message(user)
            if message is None:
                break
            query = await self.api.press_text(user, user.id, message.message_id, label)
            await self.api.wait_for_answer(query, timeout=10)
            await self.shown()
        return True

    async def _intended_path(self, user: FakeUser, message: MessageRecord) -> list[str]:
        """The labels to tap for one legal action chosen at random (empty without the Application)."""
        if self.application is None:
            return []
        from handlers.callback_data import TreeNode
        from handlers.render.hand import seen_by

        found = self.application.bot_data["karata"]
        data = next(d for row in message.buttons for _, d in row if (d or "").startswith("T:"))
        node_ref = TreeNode.parse(data)
        loaded = await found.service.load(node_ref.table_id)
        if loaded is None or loaded.state is None:
            return []
        _ = (await found.publisher.readers(loaded.table.chat_id, [user.id])).of(user.id)
        seen = seen_by(loaded.table, loaded.game, loaded.state, str(user.id), _)
        if seen.keyboard != node_ref.keyboard:
            return []
        tree = seen.tree
        targets = [node for node in tree.nodes if node.action is not None]
        if not targets:
            return []
        target = self.rng.choice(targets)
        if self.choose is not None:
            wanted = self.choose(str(user.id), [node.action for node in targets], loaded)
            if wanted is None:
                return [SKIP]  # this player has nothing they want to do now
            target = next(node for node in targets if node.action == wanted)
        labels = []
        node = target
        while node is not None and node.number > 0:
            labels.append(node.label)
            node = node.parent
        labels.reverse()
        return labels + (["✔"] if target.children else [])


class Transcript:
    """Prints each new version of every message, labelled with who sees it."""

    def __init__(self, api: FakeBotAPI, chats: dict[int, str]):
        self.api = api
        self.chats = chats
        self.seen: dict[tuple[int, int], int] = {}

    def flush(self) -> None:
        for chat_id, label in self.chats.items():
            for message in self.api.bot_messages(chat_id, include_deleted=True):
                key = (chat_id, message.message_id)
                versions = message.plain_history
                for plain in versions[self.seen.get(key, 0):]:
                    buttons = " ".join(f"[{text}]" for row in message.buttons for text, _ in row)
                    print(f"── {label} ──")
                    print(plain or "")
                    if buttons and plain == versions[-1]:
                        print(buttons)
                self.seen[key] = len(versions)


async def _demo(game: str, players: int, seed: int, language: str) -> int:
    from engine.registry import available_games, get_game
    from bot.runner import running_application

    if game not in available_games():
        print(f"unknown game {game!r}; games: {', '.join(available_games())}")
        return 2
    engine = get_game(game)
    players = max(engine.min_players, min(players, engine.max_players))
    with tempfile.TemporaryDirectory() as folder:
        async with FakeBotAPI() as api:
            simulation = Simulation.create(api, players, seed, language)
            chats = {simulation.group_id: "group"} | {user.id: f"{user.first_name} (private)" for user in simulation.users}
            transcript = Transcript(api, chats)
            settings = demo_settings(api, str(Path(folder) / "demo.db"), language)
            async with running_application(settings) as application:
                await api.settle(quiet=0.05)
                await simulation.open_table(game)
                transcript.flush()
                service = application.bot_data["karata"].service
                table = await service.store.live_table(simulation.group_id, 0)
                assert table is not None

                async def round_over() -> bool:
                    loaded = await service.load(table.table_id)
                    if loaded is None or loaded.state is None:
                        return True
                    return loaded.table.status != "playing" or engine.round_number(loaded.state) > 1

                publisher = application.bot_data["karata"].publisher
                while not await round_over():
                    if not await simulation.step():
                        break
                    await publisher.flush()
                    transcript.flush()
                await api.settle(quiet=0.05)
                transcript.flush()
    print("── the round is over ──")
    return 0


def run_demo(game: str, players: int = 3, seed: int = 1, language: str = "en") -> int:
    return asyncio.run(_demo(game, players, seed, language))
