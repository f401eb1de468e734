"""Three people open a table in a group, join by deep link, and play a round by pressing buttons."""

from __future__ import annotations

import pytest

from engine.core.cards import format_card, is_card_code
from tests.e2e.conftest import STORES, simulation
from tests.e2e.helpers import cards_in, hand_line_cards, table_state


def show_cards(value) -> str:
    """Every card code inside an event, formatted as the table shows cards."""
    if isinstance(value, str):
        return format_card(value) if is_card_code(value) else ""
    if isinstance(value, dict):
        return " ".join(show_cards(item) for item in value.values())
    if isinstance(value, list):
        return " ".join(show_cards(item) for item in value)
    return ""


pytestmark = pytest.mark.asyncio


async def live_table(application, group_id):
    return await application.bot_data["karata"].store.live_table(group_id, 0)


def assert_nobody_sees_another_players_cards(sim, loaded):
    """Each user's current hand message and the group's table show no card held by someone else."""
    hands = loaded.game.replay_hands(loaded.state)
    table_text = sim.table_message().plain
    # Cards named by the recent public events (last round's plays) are public knowledge even
    # after they were shuffled into the next deal.
    public = set(cards_in(" ".join(show_cards(event) for event in loaded.table.recent_events)))
    for user in sim.users:
        mine = hands[str(user.id)]
        others = {card for player, cards in hands.items() if player != str(user.id) for card in cards}
        hand = sim.hand_message(user) or next(iter(reversed(sim.api.bot_messages(user.id))), None)
        shown = hand.plain if hand else ""
        assert not set(cards_in(shown)) & others, f"{user.first_name} was shown another player's card"
        assert not (set(cards_in(table_text)) - public) & (others | set(mine)), "the group was shown a card in a hand"
        if hand is not None and hand_line_cards(shown):
            assert sorted(hand_line_cards(shown)) == sorted(card for card in mine if card != "X")


@pytest.mark.parametrize("db_path", STORES, indirect=True)
async def test_three_players_play_a_whole_round_of_kadi(api, start_bot, db_path):
    sim = simulation(api)
    async with start_bot() as application:
        await sim.open_table("kadi")
        table = await live_table(application, sim.group_id)
        assert table is not None and table.status == "playing"
        for user in sim.users:
            assert sim.hand_message(user) is not None or any(
                "Your hand" in (message.plain or "") for message in api.bot_messages(user.id)
            ), f"{user.first_name} never got their cards"

        presses = 0
        while True:
            loaded = await table_state(application, table.table_id)
            await application.bot_data["karata"].publisher.flush()
            assert_nobody_sees_another_players_cards(sim, loaded)
            if loaded.table.status != "playing" or loaded.game.round_number(loaded.state) > 1:
                break
            assert await sim.step(), "the round stalled: nobody has a button"
            presses += 1
            assert presses < 3000
        await api.settle(quiet=0.05)
        logged = await application.bot_data["karata"].store.actions_of(table.table_id)
        assert len(logged) == loaded.table.version - 1 > 0
    # Telegram never saw an edit that changed nothing, nor a malformed message.
    assert not [error for error in api.errors if "not modified" in error[3]]
    assert not [error for error in api.errors if "parse entities" in error[3]]


@pytest.mark.parametrize("db_path", STORES, indirect=True)
@pytest.mark.long
async def test_every_move_is_stored_and_a_restart_loses_nothing(api, start_bot, db_path):
    sim = simulation(api, seed=11)
    async with start_bot() as application:
        await sim.open_table("kadi")
        table = await live_table(application, sim.group_id)
        for _ in range(6):
            assert await sim.step()
        before = await table_state(application, table.table_id)
        actions = await application.bot_data["karata"].store.actions_of(table.table_id)

    # Every applied action is in the log, one per version.
    assert [version for version, _, _ in actions] == list(range(2, before.table.version + 1))

    async with start_bot() as application:
        after = await table_state(application, table.table_id)
        assert after.table.version == before.table.version
        assert after.game.dump(after.state) == before.game.dump(before.state)
        while True:
            loaded = await table_state(application, table.table_id)
            if loaded.table.status != "playing" or loaded.game.round_number(loaded.state) > 1:
                break
            assert await sim.step()
        # The stored log replays to the stored state: nothing was lost across the restart.
        log = await application.bot_data["karata"].store.actions_of(table.table_id)
        game = loaded.game
        options = game.Options.model_validate(loaded.table.options)
        state = game.new([seat.player for seat in loaded.table.seats], options, loaded.table.seed)
        for _, player, action in log:
            state = game.apply(state, player, action).state
        assert game.dump(state) == game.dump(loaded.state)
