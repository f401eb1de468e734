"""Updates that say a chat changed under its tables: `my_chat_member` (the bot removed, restricted,
promoted or added back in a group; blocked or unblocked by a user) and the service messages of a
group upgraded to a supergroup (`migrate_to_chat_id` in the old group, `migrate_from_chat_id` in
the new one). What follows is the chat keeper's (handlers/delivery/chat_keeper.py)."""

from __future__ import annotations

from telegram import Chat, ChatMember, ChatMemberRestricted, Update

from handlers.chat import play
from handlers.chat.context import KarataContext

GONE = (ChatMember.LEFT, ChatMember.BANNED)


async def my_chat_member(update: Update, context: KarataContext) -> None:
    change = update.my_chat_member
    keeper = context.karata.keeper
    if change is None:
        return
    chat, new, old = change.chat, change.new_chat_member, change.old_chat_member
    if chat.type == Chat.PRIVATE:
        if new.status == ChatMember.BANNED:
            await keeper.user_unreachable(chat.id)
        elif old.status == ChatMember.BANNED:
            # Unblocked: the player's hands are posted again at the bottom of the chat.
            play.resend_hands(context, chat.id, await keeper.user_back(chat.id))
        return
    muted = isinstance(new, ChatMemberRestricted) and not (new.is_member and new.can_send_messages)
    if new.status in GONE or muted:
        await keeper.lost(chat.id, "removed from the group" if new.status in GONE else "may not send messages")
    else:
        keeper.back(chat.id)


async def migrated(update: Update, context: KarataContext) -> None:
    """A group upgraded to a supergroup; the old group gets one service message, the new one the
    other: whichever comes first moves the tables (the second finds nothing left to move)."""
    message = update.effective_message
    keeper = context.karata.keeper
    if message is None:
        return
    if message.migrate_to_chat_id:
        await keeper.moved(message.chat_id, message.migrate_to_chat_id)
    elif message.migrate_from_chat_id:
        await keeper.moved(message.migrate_from_chat_id, message.chat_id)
    new = message.migrate_to_chat_id or message.chat_id
    arena = await context.karata.store.arenas.live_in(new)
    if arena is not None:  # its standings are posted again in the supergroup
        context.karata.arenas.redraw(arena.arena_id)
