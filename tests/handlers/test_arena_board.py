"""The arena's standings board when Telegram fails: a deleted message is posted anew, a passing
fault is drawn again after the interval (nothing recorded as shown meanwhile), and the podium
and each player's line go out once, after a podium that failed for a moment."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from telegram.error import BadRequest, NetworkError

from handlers.chat.arena_nights import ArenaBoard
from tables.arena_nights import OVER, RUNNING, ArenaRow, Entrant, Finished, Standings, scored
from tables.seasons import Seated

pytestmark = pytest.mark.asyncio
GROUP = -100


class FakeArena:
    """The arena service's and the store's few calls the board makes, on one stored arena."""

    def __init__(self, status: str):
        entrants = [Entrant(1, "Amina"), Entrant(2, "Baraka")]
        self.arena = ArenaRow(1, GROUP, 0, "kadi", {}, 1, 600.0, False, status, "0" * 12, entrants, 0.0, 5, "", False,
                              0.0)  # fmt: skip
        self.matches = [Finished(9, 1.0, [Seated(9, 1, 1), Seated(9, 2, 2)])]
        self.arenas = self

    async def standings(self, _arena_id):
        lines = scored((match.seats for match in self.matches), self.arena.names)
        return Standings(self.arena, lines, [], 10, self.matches, self.arena.names)

    async def chat_language(self, _chat_id):
        return "en"

    async def languages_of(self, users):
        return dict.fromkeys(users, "en")

    async def record_message(self, _arena_id, message_id, shown):
        self.arena.message_id, self.arena.shown = message_id, shown

    async def mark_told(self, _arena_id):
        self.arena.told = True


class FakeBot:
    def __init__(self, failures):
        self.failures = list(failures)  # raised by the next calls, in order (None: the call works)
        self.sent: list[tuple[int, str]] = []
        self.edited: list[int] = []

    def _fail(self):
        failure = self.failures.pop(0) if self.failures else None
        if failure is not None:
            raise failure

    async def send_message(self, chat_id, text, **_kwargs):
        self._fail()
        self.sent.append((chat_id, text))
        return SimpleNamespace(message_id=100 + len(self.sent))

    async def edit_message_text(self, _text, _chat_id, message_id, **_kwargs):
        self._fail()
        self.edited.append(message_id)


async def drawn(board: ArenaBoard, arena: FakeArena, until) -> None:
    board.arena_changed(1)
    for _ in range(500):
        if until():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the board never got there")


async def test_a_deleted_standings_message_is_posted_anew_and_a_passing_fault_drawn_again():
    arena = FakeArena(RUNNING)
    bot = FakeBot([BadRequest("Message to edit not found"), NetworkError("connection reset")])
    board = ArenaBoard(bot, arena, arena, lambda: "karata_bot", "en", every=0.05)
    await drawn(board, arena, lambda: arena.arena.message_id is None)
    assert arena.arena.shown == "", "nothing is recorded as shown"
    board.arena_changed(1)  # the next change: its post fails for a moment, then goes out
    await drawn(board, arena, lambda: arena.arena.message_id == 101)
    assert [chat for chat, _text in bot.sent] == [GROUP] and arena.arena.shown
    edits = len(bot.edited)
    await board.draw(1)  # nothing changed: no call
    assert len(bot.edited) == edits and len(bot.sent) == 1


async def test_the_podium_and_the_players_lines_go_out_once_after_a_podium_that_failed_for_a_moment():
    arena = FakeArena(OVER)
    bot = FakeBot([None, NetworkError("timed out")])  # the last edit works, the first podium does not
    board = ArenaBoard(bot, arena, arena, lambda: "karata_bot", "en", every=0.05)
    await drawn(board, arena, lambda: arena.arena.told)
    podiums = [text for chat, text in bot.sent if chat == GROUP]
    lines = [chat for chat, _text in bot.sent if chat > 0]
    assert len(podiums) == 1 and "🥇" in podiums[0]
    assert sorted(lines) == [1, 2], "each player's line, once"
