"""`karata demo [GAME]`: the real bot against the in-repo fake Bot API, with simulated players.

Everything runs on this machine: the fake Telegram server on 127.0.0.1, the real Application
talking to it over HTTP, and simulated users who open a table, join by deep link and press
random buttons of their own hands, until the first round ends. The transcript shows what the
chats hold when the game starts and what the group shows when the round is over; `verbose`
prints every version of every message, in order. The same `Simulation` drives the end-to-end
tests.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.progress import progress_bar
from bot.settings import Settings
from engine.core.protocol import Game
from fakeapi import FakeBotAPI, FakeUser, MessageRecord
from fakeapi.records import markup_buttons

if TYPE_CHECKING:  # imported where they are used, when the demo runs
    from telegram.ext import Application


DEMO_TOKEN = "123456789:karata-offline-demo-token"
# `karata demo` says a table never started when its lobby or a join takes longer than this.
DEMO_STEP_SECONDS = 10.0
PLAYER_NAMES = ["Amina", "Baraka", "Chausiku", "Daudi", "Eshe", "Faraji", "Gati"]
GROUP_ID = -1001234567890
SKIP = "\x00skip"
# A first round still going after this many presses is stuck, not long.
MAX_PRESSES = 20_000


def demo_settings(api: FakeBotAPI, db_path: str, language: str = "en", **overrides: Any) -> Settings:
    # Each setting's own type, which Settings validates.
    values: dict[str, Any] = {
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
    return Settings(**values)


class Simulation:
    """Simulated users at one group table, pressing what a real client would show them."""

    def __init__(self, api: FakeBotAPI, users: list[FakeUser], group_id: int, rng: random.Random):
        self.api = api
        self.users = users
        self.group_id = group_id
        self.rng = rng
        # With the running Application, players decide on a move first and then tap its
        # buttons, as people do; without it they press any button they see.
        self.application: Application | None = None
        # Optional policy: (player, legal actions, loaded table) -> the action to make (None: none now).
        self.choose: Callable[..., dict | None] | None = None
        # Players press as soon as their own chat shows the move (the group's table may still
        # be waiting for its flood budget), as on a real, rate-limited Telegram.
        self.private_only = False
        # How long the bot may take to show the lobby and each join (a bound against a hang, not
        # a speed: a loaded machine may be slow); `karata demo` tells a table that never starts
        # sooner (DEMO_STEP_SECONDS).
        self.step_seconds = 60.0

    @classmethod
    def create(
        cls,
        api: FakeBotAPI,
        count: int,
        seed: int,
        language: str = "en",
        group_id: int = GROUP_ID,
        first_user: int = 1001,
    ) -> Simulation:
        users = [
            api.add_user(first_user + index, PLAYER_NAMES[index], language_code=language) for index in range(count)
        ]
        members = {user.id: ("creator" if index == 0 else "member") for index, user in enumerate(users)}
        api.add_group(group_id, "Karata demo", members=members)
        return cls(api, users, group_id, random.Random(seed))

    def table_message(self) -> MessageRecord | None:
        for message in reversed(self.api.bot_messages(self.group_id)):
            if any(
                data and data.startswith(("L:", "A:")) or (data or "").startswith("https://t.me/")
                for row in message.buttons
                for _, data in row
            ):
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

        lobby = await self.api.wait_until(new_lobby, timeout=self.step_seconds, what="the lobby message")
        join_url = next(data for row in lobby.buttons for _, data in row if (data or "").startswith("https://"))
        for index, user in enumerate(self.users):
            await self.api.open_link(user, join_url)
            await self.api.wait_until(
                lambda: (self.table_message() or lobby).edit_count >= index or index == 0,
                timeout=self.step_seconds,
                what="the join",
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
            buttons = [
                data
                for row in message.buttons
                for label, data in row
                if data and data.startswith("T:") and label != "↩"
            ]
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
            await self.api.wait_for_answer(query, timeout=60)
            await self.shown()
            return True
        for label in path:
            message = self.hand_message(user)
            if message is None:
                break
            query = await self.api.press_text(user, user.id, message.message_id, label)
            await self.api.wait_for_answer(query, timeout=60)
            await self.shown()
        return True

    async def _intended_path(self, user: FakeUser, message: MessageRecord) -> list[str]:
        """The labels to tap for one legal action chosen at random (empty without the Application)."""
        if self.application is None:
            return []
        from handlers.presentation.callback_data import TreeNode
        from handlers.presentation.render.seat import seen_by

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
        return tree.path(target) + (["✔"] if target.children else [])


def demo_options(game: Game) -> dict[str, object]:
    """What the demo writes after `/newgame GAME`: a first round short enough to read. Lopti
    without house rules has no Rule Vote to propose, so its random players stick to cards."""
    return {"house_rules": "off"} if game.name == "lopti" else {}


def demo_player(game: Game, rng: random.Random) -> Callable[..., dict | None] | None:
    """How the demo's players choose among the moves their buttons offer, when not at random.

    A Lopti player who takes the pile at random, or proposes rule changes, makes a first round
    of thousands of presses: the demo's players get ready, then play or flip a card whenever
    they can, and take the pile only when they cannot."""
    if game.name != "lopti":
        return None

    def choose(player: str, actions: list[dict], loaded: object) -> dict | None:
        for kind in ("ready", "no_rule"):
            for action in actions:
                if action["type"] == kind:
                    return action
        plays = [action for action in actions if action["type"] in ("play", "flip")]
        others = [action for action in actions if action["type"] not in ("propose", "amend_rule")]
        return rng.choice(plays or others) if plays or others else None

    return choose


def demo_players_problem(game_name: str, players: int) -> str | None:
    """Why the demo cannot seat `players` at `game_name`, naming the range it can seat, or None."""
    from engine.core.options import parse_options
    from engine.registry import get_game

    game = get_game(game_name)
    low, high = game.player_range(parse_options(game.Options, demo_options(game)))
    high = min(high, len(PLAYER_NAMES))
    if low <= players <= high:
        return None
    from handlers.i18n import translator
    from handlers.presentation.render.common import game_title

    seats = f"exactly {low}" if low == high else f"{low} to {high}"
    return f"--players: {game_title(game_name, translator('en'))} seats {seats} players in the demo, not {players}"


def shown_text(api: FakeBotAPI, message: MessageRecord, version: dict) -> str:
    """What a client shows of one version of a message: its text, or a poll's question and
    options (a poll has no text), or a file's name and caption."""
    if message.poll_id is not None:
        poll = api.polls[message.poll_id]
        return "\n".join([f"📊 {poll['question']}", *(f"○ {option}" for option in poll["options"])])
    plain = version["plain"] or ""
    if message.document is not None:
        return f"📎 {message.document.file_name or ''}\n{plain}".strip()
    return plain


class Transcript:
    """Prints what each chat shows, labelled with who sees it: every version of every message
    (`verbose`), or only each message's latest version when `flush` is called."""

    def __init__(self, api: FakeBotAPI, chats: dict[int, str], verbose: bool = True):
        self.api = api
        self.chats = chats
        self.verbose = verbose
        self.seen: dict[tuple[int, int], int] = {}

    def flush(self, chats: Collection[int] | None = None) -> None:
        for chat_id, label in self.chats.items():
            if chats is not None and chat_id not in chats:
                continue
            for message in self.api.bot_messages(chat_id, include_deleted=self.verbose):
                key = (chat_id, message.message_id)
                new = message.versions[self.seen.get(key, 0) :]
                self.seen[key] = len(message.versions)
                for version in new if self.verbose else new[-1:]:
                    print(f"── {label} ──")
                    print(shown_text(self.api, message, version))
                    rows = markup_buttons(version["reply_markup"])
                    buttons = " ".join(f"[{text}]" for row in rows for text, _data in row)
                    if buttons:
                        print(buttons)


async def _demo(game_name: str, players: int, seed: int, language: str, verbose: bool) -> int:
    from bot.runner import running_application
    from engine.registry import available_games, get_game
    from handlers.i18n import translator
    from tables.models import CANCELLED, FINISHED, LOBBY, PLAYING

    if game_name not in available_games():
        print(f"karata demo: unknown game {game_name}; games: {', '.join(available_games())}", file=sys.stderr)
        return 2
    problem = demo_players_problem(game_name, players)
    if problem:
        print(f"karata demo: {problem}", file=sys.stderr)
        return 2
    game = get_game(game_name)
    _ = translator(language)
    options = " ".join(f"{name}={json.dumps(value)}" for name, value in demo_options(game).items())
    with tempfile.TemporaryDirectory() as folder:
        async with FakeBotAPI() as api:
            simulation = Simulation.create(api, players, seed, language)
            simulation.step_seconds = DEMO_STEP_SECONDS
            # TRANSLATORS: the demo transcript's label of what the group chat shows
            group = {simulation.group_id: _.pgettext("demo", "group")}
            # TRANSLATORS: the demo transcript's label of what one player's private chat shows
            privates = {
                user.id: _.pgettext("demo", "{name} (private)", name=user.first_name) for user in simulation.users
            }
            transcript = Transcript(api, group | privates, verbose)
            settings = demo_settings(api, str(Path(folder) / "demo.db"), language)
            async with running_application(settings) as application:
                service = application.bot_data["karata"].service
                service.lobby.new_seed = lambda: f"demo-{seed}"  # the same --seed deals the same cards
                simulation.application = application
                simulation.choose = demo_player(game, simulation.rng)
                await api.settle(quiet=0.05)
                try:
                    await simulation.open_table(game_name, options)
                except TimeoutError as error:  # a join or the lobby the bot never showed
                    transcript.flush()
                    print(f"karata demo: the table never started ({error})", file=sys.stderr)
                    return 1
                transcript.flush()
                table = await service.store.live_table(simulation.group_id, 0)
                if table is None:
                    print("karata demo: the bot opened no table", file=sys.stderr)
                    return 1

                async def status() -> str:
                    loaded = await service.load(table.table_id)
                    if loaded is None:
                        return CANCELLED
                    if loaded.table.status == PLAYING and game.round_number(loaded.state) > 1:
                        return FINISHED  # the first round is over
                    return loaded.table.status

                publisher = application.bot_data["karata"].publisher
                presses = 0
                with progress_bar(None, _("Round {number}", number=1), _("presses"), disable=verbose or None) as bar:
                    while await status() == PLAYING and presses < MAX_PRESSES:
                        if not await simulation.step():
                            break
                        presses += 1
                        bar.update()
                        await publisher.flush()
                        if verbose:
                            transcript.flush()
                await api.settle(quiet=0.05)
                if not verbose:
                    later = _.plural("… {count} button press later …", "… {count} button presses later …", presses)
                    print(later)
                transcript.flush(None if verbose else group)
                ended = await status()
    if ended != FINISHED:
        why = {
            LOBBY: "the table never started (see the group's last message)",
            CANCELLED: "the table was closed before the first round ended",
            PLAYING: f"the first round had not ended after {presses} presses",
        }.get(ended, f"the table is {ended}")
        print(f"karata demo: stopped: {why}", file=sys.stderr)
        return 1
    # TRANSLATORS: the demo transcript's last line, after the first round
    print("── " + _.pgettext("demo", "the round is over") + " ──")
    return 0


def run_demo(game: str, players: int = 3, seed: int = 1, language: str = "sw", verbose: bool = False) -> int:
    return asyncio.run(_demo(game, players, seed, language, verbose))
