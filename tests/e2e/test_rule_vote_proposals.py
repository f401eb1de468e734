"""Opening a Lopti Rule Vote from the group (/vote, the table's 🗳 Vote), amending a rule with the
builder, the reasons every refusal gives, and timers re-armed after a restart with their own lengths."""

from __future__ import annotations

import random
import time

import pytest

from engine.lopti.rules import DECK
from tests.e2e.conftest import STORES, simulation
from tests.e2e.helpers import table_state
from tests.e2e.test_rule_votes import TEN_ON_SEVEN, options_of, press, vote

pytestmark = pytest.mark.asyncio

# A deal (three players, the first deals) after which the first player wins round 1 in about
# fifty moves when she plays her biggest group and the others take the pile whenever they can.
QUICK_DECK = list(DECK)
random.Random(312).shuffle(QUICK_DECK)
# A rule in force from the start (restored at the setup): it never fires in that quick round.
FLIP_RULE = {
    "when": "after",
    "event": "flip",
    "if": {"legal": False},
    "do": [{"effect": "draw", "who": "actor", "n": 1}],
    "text": "A flip that is not legal: draw 1.",
}


async def lopti_table(api, application, sim, options="", deck=None):
    karata = application.bot_data["karata"]
    if deck is not None:
        dealer = str(sim.users[0].id)
        karata.service.lobby.deal_override = lambda table: (dealer, [deck])
    sim.application = application
    await sim.open_table("lopti", options)
    return await karata.store.live_table(sim.group_id, 0)


async def act(application, table, player, action):
    service = application.bot_data["karata"].service
    outcome = await service.play.act_now(table.table_id, str(player.id if hasattr(player, "id") else player), action)
    assert outcome.ok, (player, action, outcome)


async def restore_rule(application, table, sim, rule=FLIP_RULE):
    """Rule 1, by the first player, in force from round 1 (a new session's restore vote)."""
    author = str(sim.users[0].id)
    await act(
        application,
        table,
        sim.users[0],
        {"type": "propose", "change": {"restore": [{"author": author, "rule": rule}]}, "starts": "now"},
    )
    for user in sim.users:
        await act(application, table, user, {"type": "vote", "yes": True})


async def play_quick_round(application, table, winner):
    """Everyone ready, then the quick deal's moves until the round is won (by `winner`)."""
    service = application.bot_data["karata"].service
    for _ in range(200):
        loaded = await table_state(application, table.table_id)
        game, state = loaded.game, loaded.state
        view = game.view(state, None)
        if view["phase"] == "authoring":
            assert view["awaiting_rule"] == str(winner.id)
            return loaded
        player = game.to_act(state)[0]
        legal = [
            action
            for action in game.legal_actions(state, player)
            if action["type"] in ("ready", "play", "flip", "take")
        ]
        if player == str(winner.id):
            moves = [action for action in legal if action["type"] in ("ready", "play", "flip")] or legal
            action = max(moves, key=lambda action: len(action.get("cards", [])))
        else:
            action = next((action for action in legal if action["type"] in ("ready", "take")), legal[0])
        assert (await service.play.act(table.table_id, player, loaded.table.version, action)).ok
    raise AssertionError("the quick round was not won")


def labels(message):
    return [label for row in message.buttons for label, _data in row] if message else []


def data_of(message, label):
    return next(data for row in message.buttons for text, data in row if text == label)


async def reply_to(api, sent):
    return await api.wait_until(
        lambda: next(
            (m for m in api.bot_messages(sent["chat"]["id"]) if m.reply_to_message_id == sent["message_id"]), None
        ),
        what="the reply",
    )


async def toast(api, query):
    return (await api.wait_for_answer(query))["text"] or ""


async def test_vote_in_the_group_opens_the_proposals_in_private_and_others_learn_why_not(api, start_bot):
    sim = simulation(api, count=3, seed=11)
    amina, baraka, _chausiku = sim.users
    stranger = api.add_user(4242, "Zawadi")
    api.set_member(sim.group_id, stranger, "member")
    async with start_bot() as application:
        await lopti_table(api, application, sim)
        before = sim.hand_message(amina).message_id
        sent = await api.send_text(amina, sim.group_id, "/vote")
        # Her hand comes back at the bottom of her private chat, opened on her proposals.
        hand = await api.wait_until(
            lambda: (m := sim.hand_message(amina)) and m.message_id > before and m, what="the hand with the proposals"
        )
        assert TEN_ON_SEVEN in labels(hand) and "↩" in labels(hand)
        await api.settle(quiet=0.1)
        assert not [m for m in api.bot_messages(sim.group_id) if m.reply_to_message_id == sent["message_id"]]
        # The table's 🗳 Vote does the same for a player, and tells a stranger why not, in a toast.
        table_message = sim.table_message()
        vote_button = data_of(table_message, "🗳 Vote")
        assert "not in this session" in await toast(
            api, await api.press_forged(stranger, sim.group_id, table_message.message_id, vote_button)
        )
        assert "private chat" in await toast(
            api, await api.press_forged(baraka, sim.group_id, table_message.message_id, vote_button)
        )
        assert TEN_ON_SEVEN in labels(sim.hand_message(baraka))
        # A stranger's /vote gets a clear answer in the group.
        said = await api.send_text(stranger, sim.group_id, "/vote")
        assert "not in this session" in (await reply_to(api, said)).plain
        # Amina proposes from what /vote opened; then a second /vote is told the vote is running.
        await press(api, sim, amina, TEN_ON_SEVEN, "Now")
        await api.wait_until(lambda: [m for m in api.bot_messages(sim.group_id) if m.poll_id], what="the poll")
        said = await api.send_text(baraka, sim.group_id, "/vote")
        assert "already running" in (await reply_to(api, said)).plain


async def test_every_refusal_of_the_vote_and_the_duel_names_its_reason(api, start_bot):
    sim = simulation(api, count=4, seed=12)
    amina, baraka, chausiku, daudi = sim.users
    async with start_bot() as application:
        table = await lopti_table(api, application, sim)
        await restore_rule(application, table, sim)
        await api.settle(quiet=0.1)
        old_proposals = sim.hand_message(chausiku)
        old_propose = data_of(old_proposals, "🗳 Propose a change")
        # Baraka proposes removing Amina's rule; two yes, two no: a duel with its author.
        await press(api, sim, baraka, "🗳 Propose a change", "remove rule 1", "Now")
        polls = [m for m in api.bot_messages(sim.group_id) if m.poll_id]
        for user, yes in zip(sim.users, (True, True, False, False)):
            await vote(api, user, polls[-1].poll_id, yes)
        amina_hand = await api.wait_until(
            lambda: "✊ Rock" in labels(sim.hand_message(amina)) and sim.hand_message(amina),
            what="the author's throw buttons",
        )
        author_rock = data_of(amina_hand, "✊ Rock")
        # The author does not answer in time: she is no longer a duelist, and her old throw says so.
        await application.bot_data["karata"].service.timekeeper.clock_action(table.table_id, "close_author")
        assert (await options_of(application, table))["duel"]["stage"] == "champion"
        await api.settle(quiet=0.1)
        query = await api.press_forged(amina, amina.id, amina_hand.message_id, author_rock)
        assert "Only the two players in the duel throw" in await toast(api, query)
        # The author deletes her rule: the duel is void, and a throw pressed after it is told so.
        baraka_hand = sim.hand_message(baraka)
        proposer_rock = data_of(baraka_hand, "✊ Rock")
        await act(application, table, amina, {"type": "delete_rule", "rule": 1})
        await api.settle(quiet=0.1)
        query = await api.press_forged(baraka, baraka.id, baraka_hand.message_id, proposer_rock)
        assert await toast(api, query) == "The duel is over."
        # The round's vote is used: an old proposal button says so, and so do /vote and 🗳 Vote.
        query = await api.press_forged(chausiku, chausiku.id, old_proposals.message_id, old_propose)
        assert "Rule Vote is used" in await toast(api, query)
        said = await api.send_text(daudi, sim.group_id, "/vote")
        assert "Rule Vote is used" in (await reply_to(api, said)).plain
        # Only the opener or an admin ends the session.
        said = await api.send_text(baraka, sim.group_id, "/endsession")
        assert (
            await reply_to(api, said)
        ).plain == "Only the player who opened the table or a group admin can end the session."


async def test_an_amended_rule_replaces_the_old_one_from_the_next_round(api, start_bot):
    sim = simulation(api, count=3, seed=13)
    amina, baraka, chausiku = sim.users
    async with start_bot() as application:
        table = await lopti_table(api, application, sim, deck=QUICK_DECK)
        await restore_rule(application, table, sim)
        await api.settle(quiet=0.1)
        # Baraka takes rule 1 into the builder: it opens as the rule stands.
        await press(api, sim, baraka, "🗳 Propose a change", "✏️ change rule 1")
        builder = await api.wait_until(
            lambda: next((m for m in api.bot_messages(baraka.id) if "A change to rule 1" in (m.plain or "")), None),
            what="the builder",
        )
        assert "Your change: After a face-down flip that is not legal: the player draws 1 card." in builder.plain

        async def tap(label):
            await api.wait_for_answer(await api.press_text(baraka, baraka.id, builder.message_id, label))

        for _ in range(6):
            await tap("↩ Back")
        for label in ("a play", "Always", "Draw cards", "the next player", "1", "✔ That's all"):
            await tap(label)
        assert "After a play: the next player draws 1 card." in api.message(baraka.id, builder.message_id).plain
        old_back = data_of(api.message(baraka.id, builder.message_id), "↩ Back")
        await tap("🗳 Next round")
        polls = await api.wait_until(lambda: [m for m in api.bot_messages(sim.group_id) if m.poll_id], what="the poll")
        assert "change rule 1" in api.polls[polls[-1].poll_id]["question"]
        for user, yes in zip(sim.users, (False, True, True)):
            await vote(api, user, polls[-1].poll_id, yes)

        async def scheduled():
            return (await options_of(application, table))["pending_changes"]

        await api.wait_until(scheduled, what="the change for next round")
        # A press on the builder's old buttons after the vote says why it no longer stands.
        query = await api.press_forged(baraka, baraka.id, builder.message_id, old_back)
        assert "Rule Vote is used" in await toast(api, query)
        # Round 1 ends; its winner writes no rule; round 2 applies the amended rule, which fires.
        await play_quick_round(application, table, amina)
        # The winner opens the builder, then gives no rule: its old buttons say it is too late.
        await application.bot_data["karata"].publisher.flush()
        hand = await api.wait_until(
            lambda: "🧩 Build a rule" in labels(sim.hand_message(amina)) and sim.hand_message(amina),
            what="the builder's button",
        )
        await api.wait_for_answer(await api.press_text(amina, amina.id, hand.message_id, "🧩 Build a rule"))
        step = data_of(api.message(amina.id, hand.message_id), "After")
        await act(application, table, amina, {"type": "no_rule"})
        query = await api.press_forged(amina, amina.id, hand.message_id, step)
        assert "too late to write this rule" in await toast(api, query)
        loaded = await table_state(application, table.table_id)
        [rule] = loaded.game.view(loaded.state, None)["rules"]
        assert (rule["id"], rule["author"], rule["rule"]["event"]) == (1, str(amina.id), "play")
        for user in sim.users:
            await act(application, table, user, {"type": "ready"})
        loaded = await table_state(application, table.table_id)
        first = loaded.game.to_act(loaded.state)[0]
        play = next(action for action in loaded.game.legal_actions(loaded.state, first) if action["type"] == "play")
        await act(application, table, first, play)
        await application.bot_data["karata"].publisher.flush()
        assert "📜 Rule 1:" in sim.table_message().plain


@pytest.mark.parametrize("db_path", STORES, indirect=True)
async def test_timers_come_back_after_a_restart_with_the_lengths_they_were_armed_with(api, start_bot, db_path):
    """The vote window (KARATA_VOTE_SECONDS) and the rule-writing timer (`authoring_timeout_s`),
    each different from the turn timer, are re-armed after a restart at their own lengths."""
    sim = simulation(api, count=3, seed=14)
    amina = sim.users[0]
    settings = {"KARATA_VOTE_SECONDS": 200}
    async with start_bot(**settings) as application:
        table = await lopti_table(api, application, sim, "timer=30 authoring_timeout_s=400", deck=QUICK_DECK)
        await act(
            application,
            table,
            amina,
            {"type": "propose", "change": {"option": "ten_on_seven", "value": True}, "starts": "now"},
        )
    async with start_bot(**settings) as application:
        armed = application.bot_data["karata"].service.timers.armed(table.table_id)
        now = time.time()
        assert armed["window:close_vote"] - now == pytest.approx(200, abs=5)
        assert armed["timeout"] - now == pytest.approx(30, abs=5)
        for user in sim.users:
            await act(application, table, user, {"type": "vote", "yes": False})
        await play_quick_round(application, table, amina)
    async with start_bot(**settings) as application:
        armed = application.bot_data["karata"].service.timers.armed(table.table_id)
        assert armed["timeout"] - time.time() == pytest.approx(400, abs=5)
        assert "window:close_vote" not in armed
