"""Lopti's Rule Votes as group polls, ties fought out by Rock-Paper-Scissors, and a restart mid-vote."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.conftest import STORES, simulation
from tests.e2e.helpers import table_state

pytestmark = pytest.mark.asyncio

TEN_ON_SEVEN = "switch on: a 10 may follow a 7"


async def open_lopti(api, application, sim):
    sim.application = application
    await sim.open_table("lopti")
    return await application.bot_data["karata"].store.live_table(sim.group_id, 0)


async def press(api, sim, user, *labels):
    for label in labels:
        message = sim.hand_message(user)
        assert message is not None, f"{user.first_name} has no buttons"
        await api.wait_for_answer(await api.press_text(user, user.id, message.message_id, label))


async def propose_ten_on_seven(api, sim, user):
    await press(api, sim, user, "🗳 Propose a change", TEN_ON_SEVEN, "Now")
    return await api.wait_until(lambda: [m for m in api.bot_messages(sim.group_id) if m.poll_id], what="the poll")


async def vote(api, user, poll_id, yes):
    await api.answer_poll(user, poll_id, [0 if yes else 1])


async def options_of(application, table):
    loaded = await table_state(application, table.table_id)
    return loaded.game.view(loaded.state, None)


async def test_a_vote_that_passes_changes_the_rule_now(api, start_bot):
    sim = simulation(api, count=3, seed=1)
    async with start_bot() as application:
        table = await open_lopti(api, application, sim)
        poll = (await propose_ten_on_seven(api, sim, sim.users[0]))[-1]
        assert "Rule Vote by Amina" in api.polls[poll.poll_id]["question"]
        await vote(api, sim.users[0], poll.poll_id, True)
        await vote(api, sim.users[1], poll.poll_id, True)
        await vote(api, sim.users[2], poll.poll_id, False)

        async def changed():
            return (await options_of(application, table))["options"]["ten_on_seven"] is True

        await api.wait_until(changed, what="the change")
        await api.wait_until(lambda: api.polls[poll.poll_id]["is_closed"], what="the poll closed")
        # One vote a round: nobody is offered a second proposal.
        assert not any("Propose" in label for user in sim.users for label in _labels(sim, user))


def _labels(sim, user):
    message = sim.hand_message(user)
    return [label for row in message.buttons for label, _ in row] if message else []


async def test_a_vote_that_fails_changes_nothing(api, start_bot):
    sim = simulation(api, count=3, seed=2)
    async with start_bot() as application:
        table = await open_lopti(api, application, sim)
        poll = (await propose_ten_on_seven(api, sim, sim.users[0]))[-1]
        for user, yes in zip(sim.users, (True, False, False)):
            await vote(api, user, poll.poll_id, yes)
        await api.wait_until(lambda: api.polls[poll.poll_id]["is_closed"], what="the poll closed")
        assert (await options_of(application, table))["options"]["ten_on_seven"] is False


async def test_a_vote_from_outside_the_table_is_refused_privately(api, start_bot):
    sim = simulation(api, count=3, seed=2)
    stranger = api.add_user(4242, "Zawadi")
    api.set_member(sim.group_id, stranger, "member")
    await api.user_starts_bot(stranger)
    async with start_bot() as application:
        table = await open_lopti(api, application, sim)
        poll = (await propose_ten_on_seven(api, sim, sim.users[0]))[-1]
        before = (await table_state(application, table.table_id)).table.version
        await vote(api, stranger, poll.poll_id, True)
        await api.settle(quiet=0.1)
        assert (await table_state(application, table.table_id)).table.version == before


@pytest.mark.parametrize("proposer_wins", [True, False])
async def test_a_tied_vote_is_settled_by_a_duel(api, start_bot, proposer_wins):
    sim = simulation(api, count=4, seed=3)
    amina = sim.users[0]
    async with start_bot() as application:
        table = await open_lopti(api, application, sim)
        poll = (await propose_ten_on_seven(api, sim, amina))[-1]
        for user, yes in zip(sim.users, (True, True, False, False)):
            await vote(api, user, poll.poll_id, yes)

        async def duel():
            return (await options_of(application, table)).get("duel")

        started = await api.wait_until(duel, what="the duel")
        await api.settle(quiet=0.1)
        defender = (
            next(user for user in sim.users if str(user.id) == started["defender"]) if started["defender"] else None
        )
        if defender is None:  # the author of a base rule is nobody: a "no" voter champions it
            supporter = next(user for user in sim.users[2:] if "🛡 I'll defend it" in _labels(sim, user))
            await press(api, sim, supporter, "🛡 I'll defend it")
            defender = supporter
        winner_sign, loser_sign = "✊ Rock", "✌️ Scissors"
        for _ in range(40):
            if not await duel():
                break
            await press(api, sim, amina, winner_sign if proposer_wins else loser_sign)
            await press(api, sim, defender, loser_sign if proposer_wins else winner_sign)
        assert not await duel()
        assert (await options_of(application, table))["options"]["ten_on_seven"] is proposer_wins
        await application.bot_data["karata"].publisher.flush()
        assert "wins the duel" in sim.table_message().plain


@pytest.mark.parametrize("db_path", STORES, indirect=True)
async def test_a_restart_during_a_vote_loses_no_ballot(api, start_bot, db_path):
    sim = simulation(api, count=3, seed=4)
    async with start_bot() as application:
        table = await open_lopti(api, application, sim)
        poll = (await propose_ten_on_seven(api, sim, sim.users[0]))[-1]
        # The bot records its poll once Telegram has posted it: a ballot is counted from then.
        store = application.bot_data["karata"].store
        await api.wait_until(lambda: store.poll(poll.poll_id), what="the poll recorded")
        await vote(api, sim.users[0], poll.poll_id, True)
        await api.settle(quiet=0.1)
    async with start_bot() as application:
        # The ballot cast before the restart still counts: two yes of three pass.
        await vote(api, sim.users[1], poll.poll_id, True)
        await vote(api, sim.users[2], poll.poll_id, False)

        async def changed():
            return (await options_of(application, table))["options"]["ten_on_seven"] is True

        await api.wait_until(changed, what="the change after the restart")


async def test_a_vote_nobody_finishes_closes_on_the_clock(api, start_bot):
    sim = simulation(api, count=3, seed=5)
    async with start_bot(KARATA_VOTE_SECONDS=0.5) as application:
        table = await open_lopti(api, application, sim)
        poll = (await propose_ten_on_seven(api, sim, sim.users[0]))[-1]
        await vote(api, sim.users[0], poll.poll_id, True)
        await api.wait_until(
            lambda: api.polls[poll.poll_id]["is_closed"], timeout=60, what="the poll closed by the clock"
        )
        assert (await options_of(application, table))["options"]["ten_on_seven"] is False


@pytest.mark.long
async def test_a_new_session_restores_the_last_sessions_rule_by_a_poll(api, start_bot):
    from tests.e2e.test_house_rule_text import play_until_authoring

    sim = simulation(api, count=3, seed=8)
    async with start_bot() as application:
        loaded, winner = await play_until_authoring(api, application, sim)
        author = next(user for user in sim.users if str(user.id) == winner)
        await api.send_text(author, author.id, "Say jambo before every 7")
        await api.settle(quiet=0.1)
        await api.send_text(sim.users[0], sim.group_id, "/endsession")
        await api.wait_until(lambda: "session is over" in (sim.table_message().plain or ""), what="the end")
        # The next session in this chat: its setup offers the rule back, by a poll.
        table = await open_lopti(api, application, sim)
        polls = await api.wait_until(lambda: [m for m in api.bot_messages(sim.group_id) if m.poll_id], what="the poll")
        poll = polls[-1]
        assert "jambo" in api.polls[poll.poll_id]["question"]
        for user, yes in zip(sim.users, (True, True, False)):
            await vote(api, user, poll.poll_id, yes)

        async def restored():
            return [rule["text"] for rule in (await options_of(application, table))["rules"]]

        assert await api.wait_until(restored, what="the restored rule") == ["Say jambo before every 7"]
        # Round 1's own Rule Vote is still there to use.
        assert not (await options_of(application, table))["vote_used"]


async def test_a_retracted_answer_no_longer_counts_and_the_clock_closes_the_vote(api, start_bot):
    """Two yes, one of them retracted, then a no: one yes of three. The vote does not close
    early (the retracted voter has not answered) and fails on the clock."""
    sim = simulation(api, count=3, seed=5)
    amina, baraka, chausiku = sim.users
    async with start_bot(KARATA_VOTE_SECONDS=1.5) as application:
        table = await open_lopti(api, application, sim)
        poll = (await propose_ten_on_seven(api, sim, amina))[-1]
        await vote(api, amina, poll.poll_id, True)
        await vote(api, baraka, poll.poll_id, True)
        await api.answer_poll(baraka, poll.poll_id, [])  # Baraka retracts his answer
        await vote(api, chausiku, poll.poll_id, False)
        await api.settle(quiet=0.1)
        seen = (await options_of(application, table))["vote"]
        assert seen["ballots"] == {str(amina.id): True, str(chausiku.id): False}
        assert not api.polls[poll.poll_id]["is_closed"]
        await api.wait_until(
            lambda: api.polls[poll.poll_id]["is_closed"], timeout=60, what="the poll closed by the clock"
        )
        assert (await options_of(application, table))["options"]["ten_on_seven"] is False
        await application.bot_data["karata"].publisher.flush()
        assert "The vote failed (1 yes, 1 no)" in sim.table_message().plain
        # Nobody was told off in private for retracting.
        assert not any("voted" in (message.plain or "") for message in api.bot_messages(baraka.id))


async def test_a_ballot_that_comes_before_its_poll_is_stored_counts(api, start_bot):
    """Telegram can deliver a ballot before the bot has acted on its sendPoll's answer (the poll's
    id): the ballot waits for the poll's row and counts."""
    sim = simulation(api, count=3, seed=1)
    async with start_bot() as application:
        table = await open_lopti(api, application, sim)
        store = application.bot_data["karata"].store
        stored, missed = asyncio.Event(), asyncio.Event()
        add_poll, poll = store.add_poll, store.poll

        async def add_poll_later(*arguments):
            await stored.wait()
            await add_poll(*arguments)

        async def poll_noting_a_miss(poll_id):
            row = await poll(poll_id)
            if row is None:
                missed.set()
            return row

        store.add_poll, store.poll = add_poll_later, poll_noting_a_miss
        message = (await propose_ten_on_seven(api, sim, sim.users[0]))[-1]
        await vote(api, sim.users[0], message.poll_id, True)
        await asyncio.wait_for(missed.wait(), 60)  # the ballot found no poll row
        stored.set()
        await vote(api, sim.users[1], message.poll_id, True)
        await vote(api, sim.users[2], message.poll_id, False)

        async def changed():
            return (await options_of(application, table))["options"]["ten_on_seven"] is True

        await api.wait_until(changed, what="the change, with the early ballot counted")
