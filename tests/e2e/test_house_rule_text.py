"""Lopti's round winner types a house rule in the private chat; it is escaped and shown to all."""

from __future__ import annotations

import random

import pytest

from tests.e2e.conftest import simulation
from tests.e2e.helpers import sensible_player, table_state
from tests.e2e.test_games_at_the_table import event_kinds

pytestmark = pytest.mark.asyncio


async def play_until_authoring(api, application, sim):
    sim.application = application
    sim.choose = sensible_player(random.Random(sim.group_id))
    await sim.open_table("lopti")
    table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
    for _ in range(3000):
        loaded = await table_state(application, table.table_id)
        view = loaded.game.view(loaded.state, None)
        if view.get("phase") == "authoring":
            return loaded, view["awaiting_rule"]
        assert await sim.step()
    raise AssertionError("no round was won")


async def test_the_winner_writes_a_text_rule_that_everyone_sees(api, start_bot):
    sim = simulation(api, count=2, seed=21)
    async with start_bot() as application:
        loaded, winner = await play_until_authoring(api, application, sim)
        author = next(user for user in sim.users if str(user.id) == winner)
        assert "house rule" in api.bot_messages(author.id)[-1].plain
        # The round's results are posted when the round is won, before its winner writes a rule.
        await application.bot_data["karata"].publisher.flush()
        assert any("Round 1 results" in (message.plain or "") for message in api.bot_messages(sim.group_id))
        await api.send_text(author, author.id, "x" * 281)
        too_long = await api.wait_until(lambda: "280" in (api.last_message(author.id).plain or ""), what="refusal")
        assert too_long
        rule = '<b>Sevens</b> & eights: say "jambo" when you play them'
        await api.send_text(author, author.id, rule)

        async def shown():
            await application.bot_data["karata"].publisher.flush()
            return rule in (sim.table_message().plain or "")

        await api.wait_until(shown, what="the rule on the table")
        after = await table_state(application, loaded.table.table_id)
        assert after.game.round_number(after.state) == loaded.game.round_number(loaded.state) + 1
    assert not [error for error in api.errors if "parse" in error[3]]


async def test_the_winner_builds_a_rule_that_fires_in_the_next_round(api, start_bot):
    sim = simulation(api, count=2, seed=21)
    async with start_bot() as application:
        loaded, winner = await play_until_authoring(api, application, sim)
        author = next(user for user in sim.users if str(user.id) == winner)
        steps = ["🧩 Build a rule", "After", "a play", "Always", "Draw cards", "the next player", "1", "✔ That's all"]
        message = api.bot_messages(author.id)[-1]
        for label in steps:
            await api.wait_for_answer(await api.press_text(author, author.id, message.message_id, label))
        preview = api.message(author.id, message.message_id).plain
        assert "After a play: the next player draws 1 card." in preview
        # Back goes one step back; the rule is kept as built so far.
        await api.wait_for_answer(await api.press_text(author, author.id, message.message_id, "↩ Back"))
        await api.wait_for_answer(await api.press_text(author, author.id, message.message_id, "✔ That's all"))
        answer = await api.wait_for_answer(await api.press_text(author, author.id, message.message_id, "✔ Confirm"))
        assert "in force" in answer["text"]
        table = loaded.table

        # From here the players just play: nobody deletes the rule or calls a vote on it.
        def just_play(player, actions, loaded):
            wanted = [a for a in actions if a["type"] not in ("delete_rule", "propose", "amend_rule")]
            return sim.rng.choice(wanted) if wanted else None

        sim.choose = just_play
        for _ in range(30):
            assert await sim.step()
        current = await table_state(application, table.table_id)
        kinds = await event_kinds(application, current)
        after = kinds[kinds.index("rule_authored") :] if "rule_authored" in kinds else kinds
        assert "rule_fired" in after, after
        await application.bot_data["karata"].publisher.flush()
        # The rule is on the table, broken into lines that fit a phone.
        assert "the next player draws 1 card" in sim.table_message().plain.replace("\n", " ")
