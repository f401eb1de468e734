"""getChatMember answers from the fake's membership: who is in a group, with what status."""

from __future__ import annotations

import pytest
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest

from tests.fakeapi.helpers import ALICE, BOB, CAROL, GROUP

pytestmark = pytest.mark.asyncio


async def test_group_statuses_follow_membership(env):
    fake, bot, alice, bob = env
    assert (await bot.get_chat_member(GROUP, ALICE)).status == ChatMemberStatus.OWNER
    assert (await bot.get_chat_member(GROUP, BOB)).status == ChatMemberStatus.MEMBER
    carol = await bot.get_chat_member(GROUP, CAROL)  # a known user who never joined
    assert carol.status == ChatMemberStatus.LEFT and carol.user.first_name == "Carol"

    fake.set_member(GROUP, BOB, "administrator")
    admin = await bot.get_chat_member(GROUP, BOB)
    assert admin.status == ChatMemberStatus.ADMINISTRATOR and admin.can_delete_messages
    fake.set_member(GROUP, BOB, "left")
    assert (await bot.get_chat_member(GROUP, BOB)).status == ChatMemberStatus.LEFT
    fake.set_member(GROUP, CAROL, "member")
    assert (await bot.get_chat_member(GROUP, CAROL)).status == ChatMemberStatus.MEMBER
    fake.set_member(GROUP, CAROL, "kicked")
    assert (await bot.get_chat_member(GROUP, CAROL)).status == ChatMemberStatus.BANNED

    assert (await bot.get_chat_member(GROUP, fake.bot_id)).status == ChatMemberStatus.MEMBER
    with pytest.raises(BadRequest, match="User not found"):
        await bot.get_chat_member(GROUP, 999)


async def test_a_private_chat_has_the_user_and_the_bot(env):
    fake, bot, *_ = env
    assert (await bot.get_chat_member(ALICE, ALICE)).status == ChatMemberStatus.MEMBER
    assert (await bot.get_chat_member(ALICE, fake.bot_id)).status == ChatMemberStatus.MEMBER
    with pytest.raises(BadRequest, match="Member not found"):
        await bot.get_chat_member(ALICE, BOB)
