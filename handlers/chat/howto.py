"""How to play: each game's short summary (enough to start playing) and its full guide, on request.

The summary is one message of at most about 1,200 characters, in the catalog so that it reads in
the chat's language. It is asked for with a game's button (under /start, /help and the lobby) or
`/help GAME`; the full guide with the button under a summary or `/guide GAME`.

A button pressed in a group answers in the presser's private chat, never in the group: a group
gets about 20 bot messages a minute, and ten players each asking how to play must not spend half
of them (nor bury the lobby). A private message costs only the bot-wide budget, and the press's
toast says where the answer went. If the private chat was never opened, the toast opens it with a
deep link that shows the same thing there.
"""

from __future__ import annotations

from html import escape

from telegram import Bot, Chat, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden
from telegram.helpers import create_deep_linked_url

from engine.core.options import parse_options
from engine.registry import available_games, get_game
from handlers.chat import telegram_io
from handlers.chat.context import KarataContext, chat_translator, effective, group_translator
from handlers.i18n import N_, Translator, translator
from handlers.presentation import guide_pages
from handlers.presentation.callback_data import HowTo, HowToLink
from handlers.presentation.render.common import game_title

# One msgid per paragraph: whole sentences, each paragraph a message line of its own.
SUMMARIES: dict[str, tuple[str, ...]] = {
    "lopti": (
        # TRANSLATORS: how to play Lopti: 4 paragraphs shown together, about 1,200 characters at most in all.
        N_(
            "Everyone gets 3 face-down cards, 3 face-up cards on top of them and 3 cards in hand. "
            "Be the first to get rid of all your cards."
        ),
        N_(
            "On your turn play one or more cards of one rank: higher than the top of the pile (2 low, ace high; "
            "suits never matter), or the same rank with more cards than the play before. Or take the whole pile. "
            "After playing, draw one card if you hold fewer than three."
        ),
        N_(
            "<b>Special cards:</b> 2 goes on anything. 3 goes on anything, and the next player takes the pile or "
            "passes the duty on with a 3. 7 makes the next play 7 or lower. 10, or four of a kind, burns the pile "
            "and you play again."
        ),
        N_(
            "With your hand empty, play your face-up cards, then your face-down ones blind. The first player out "
            "wins the round and writes a house rule for the session; once a round anyone may put a change to a "
            "Rule Vote."
        ),
    ),
    "kadi": (
        # TRANSLATORS: how to play Kadi: 4 paragraphs shown together, about 1,200 characters at most in all.
        N_("Everyone gets 7 cards and one card starts the discard pile. Be the first to get rid of all your cards."),
        N_(
            "On your turn play a card of the same suit or number as the top card; several cards of one number may "
            "go together. Nothing fits? Draw one card."
        ),
        N_(
            "<b>Power cards:</b> after a 2 the next player draws 2, after a joker 5, unless they add a card of the "
            "same kind. 7 skips the next player, 8 reverses the direction. J goes on anything and gives a command: "
            "a suit to follow, or a power card to play."
        ),
        N_(
            "With one card left, press “Kadi Moja!” before the next player acts, or you draw 2. Your last card must "
            "be an ordinary one. When someone goes out the others count the cards they hold; when someone reaches "
            "100 points the lowest total wins."
        ),
    ),
    "pitch": (
        # TRANSLATORS: how to play Pitch: 4 paragraphs shown together, about 1,200 characters at most in all.
        N_(
            "Everyone gets 6 cards. In the auction each player passes or bids 1 to 4, the points they expect to win. "
            "The highest bidder leads, and the suit of that first card is trump."
        ),
        N_(
            "Follow the suit led or play a trump; if you cannot follow, play anything. The highest trump takes the "
            "trick, else the highest card of the suit led. A hand has six tricks."
        ),
        N_(
            "<b>Four points a hand:</b> High (the highest trump in play), Low (the lowest trump in play), Jack "
            "(the J of trumps) and Game (the most card points in your tricks: 10 = 10, A = 4, K = 3, Q = 2, J = 1). "
            "A bidder who falls short loses the bid."
        ),
        N_("You win when your total reaches 7 at the end of a hand in which you won the auction."),
    ),
    "euchre3": (
        # TRANSLATORS: how to play Euchre for three: 4 paragraphs shown together, about 1,200 characters at most in all.
        N_(
            "Three players, each on their own, and a dummy hand. Everyone gets 5 of 24 cards (9 to A) and one card "
            "is turned up. Trumps from the highest: the J of trumps, the other J of the same colour, then A, K, Q, "
            "10, 9."
        ),
        N_(
            "In turn, take the turned-up card's suit as trump or pass; if everyone passes, name another suit or "
            "pass. Whoever chooses trump plays against the other two: alone, or with the dummy (keeping the best 5 "
            "of their cards and the dummy's)."
        ),
        N_(
            "Follow the suit led if you can; otherwise play anything. The highest trump takes the trick, else the "
            "highest card of the suit led."
        ),
        N_(
            "3 or 4 tricks give the trump chooser 1 point, all 5 give 3. With 2 or fewer, each of the other two "
            "scores 2. The first to 10 points wins."
        ),
    ),
    "three_thirteen": (
        # TRANSLATORS: how to play Three Thirteen: 4 paragraphs shown together, about 1,200 characters at most in all.
        N_(
            "11 rounds: round 1 deals 3 cards, round 11 deals 13. The rank equal to the number of cards dealt is "
            "wild: 3s in round 1, up to Kings in round 11."
        ),
        N_(
            "Arrange your hand in melds: sets (3 or more cards of one rank) and runs (3 or more cards of one suit in "
            "sequence, ace low). A wild card stands for any card, but every meld needs one card that is not wild."
        ),
        N_(
            "On your turn draw a card from the stock or the discard pile, then discard one. When all your other "
            "cards form melds, go out: I lay out your melds. Everyone else then has one more turn."
        ),
        N_(
            "Cards left out of melds cost points: A 1, 2 to 10 their number, J, Q and K 10. After round 11 the "
            "lowest total wins."
        ),
    ),
}


def players_text(game: str, _: Translator) -> str:
    """How many play: the range with the standard options (the engine's fact), and the most any
    options allow when that is more (Kadi: 7 with smaller hands)."""
    engine = get_game(game)
    low, high = engine.player_range(parse_options(engine.Options, {}))
    text = _("{low}-{high} players.", low=low, high=high) if low < high else _("{count} players.", count=low)
    if engine.max_players > high:
        text += " " + _("Up to {most} with other table options (see the full guide).", most=engine.max_players)
    return text


def summary_text(game: str, _: Translator) -> str:
    """The summary as one HTML message (the catalog's paragraphs carry only our own tags)."""
    title = "<b>❓ " + escape(_("How to play {game}", game=game_title(game, _))) + "</b>"
    return "\n\n".join([title, players_text(game, _), *(_(paragraph) for paragraph in SUMMARIES.get(game, ()))])


def summary_markup(game: str, _: Translator) -> InlineKeyboardMarkup:
    guide = InlineKeyboardButton("📖 " + _("Full guide"), callback_data=HowTo(game, True).encode())
    return InlineKeyboardMarkup([[guide]])


def game_buttons(_: Translator, full: bool = False) -> list[list[InlineKeyboardButton]]:
    """One button per game, a row each: the labels are long in Swahili («Jinsi ya kucheza …»)."""
    label = N_("Full guide: {game}") if full else N_("How to play {game}")
    return [
        [InlineKeyboardButton(_(label, game=game_title(game, _)), callback_data=HowTo(game, full).encode())]
        for game in available_games()
    ]


def game_named(word: str) -> str | None:
    """`kadi`, `Kadi`, `three_thirteen` -> the game; anything else -> None."""
    game = word.strip().lower()
    return game if game in available_games() else None


async def send_summary(bot: Bot, chat_id: int, game: str, _: Translator) -> None:
    await bot.send_message(
        chat_id, summary_text(game, _), parse_mode=ParseMode.HTML, reply_markup=summary_markup(game, _)
    )


async def send_guide(context: KarataContext, chat_id: int, game: str, _: Translator) -> None:
    """The full guide, split into messages; without its file (a bare install) the summary stands in."""
    pages = guide_pages.pages(context.karata.guides_dir, game, _.language)
    if not pages:
        await send_summary(context.bot, chat_id, game, _)
        return
    for page in pages:
        await context.bot.send_message(chat_id, page, parse_mode=ParseMode.HTML, disable_web_page_preview=True)


async def show(context: KarataContext, chat_id: int, game: str, full: bool, _: Translator) -> None:
    if full:
        await send_guide(context, chat_id, game, _)
    else:
        await send_summary(context.bot, chat_id, game, _)


async def group_reader(context: KarataContext, chat: Chat, user_id: int) -> Translator:
    """The language to answer a group's member in: their own choice, else the group's."""
    found = await context.karata.store.get_user(user_id)
    if found is not None and found.language_chosen and found.language:
        return translator(found.language)
    return await group_translator(context, chat.id)


async def press_howto(update: Update, context: KarataContext) -> None:
    """A game's "how to play" or "full guide" button, in a private chat or a group."""
    query = update.callback_query
    assert query is not None
    data = HowTo.parse(query.data)
    chat, user, _message = effective(update)
    if chat.type == Chat.PRIVATE:
        _ = await chat_translator(context, chat, user)
        if game_named(data.game) is None:
            await telegram_io.answer(query, _("I did not understand that button."))
            return
        await telegram_io.answer(query)
        await show(context, chat.id, data.game, data.full, _)
        return
    _ = await group_reader(context, chat, user.id)
    if game_named(data.game) is None:
        await telegram_io.answer(query, _("I did not understand that button."))
        return
    try:
        await show(context, user.id, data.game, data.full, _)
    except (Forbidden, BadRequest):
        # Never opened (or blocked): the toast's link opens the private chat and shows it there.
        link = create_deep_linked_url(context.bot.username, HowToLink(data.game, data.full, _.language).payload())
        await telegram_io.answer(query, url=link)
        return
    await telegram_io.answer(query, _("I sent it to you in our private chat."))


async def guide_command(update: Update, context: KarataContext) -> None:
    """/guide [GAME]: a game's full guide in the private chat (from a group too); without a game,
    a button per game."""
    chat, user, message = effective(update)
    private = chat.type == Chat.PRIVATE
    _ = await chat_translator(context, chat, user) if private else await group_reader(context, chat, user.id)
    game = game_named(context.args[0]) if context.args else None
    if game is None:
        await telegram_io.reply(message, _("Which game's guide?"), InlineKeyboardMarkup(game_buttons(_, full=True)))
        return
    if private:
        await send_guide(context, chat.id, game, _)
        return
    try:
        await send_guide(context, user.id, game, _)
    except (Forbidden, BadRequest):
        link = create_deep_linked_url(context.bot.username, HowToLink(game, True, _.language).payload())
        button = InlineKeyboardMarkup([[InlineKeyboardButton(_("Open private chat"), url=link)]])
        text = _("Open our private chat and I will send you the guide there.")
        await telegram_io.reply(message, text, button)


async def reply_summary(message: Message, game: str, _: Translator) -> None:
    """`/help GAME`: the summary where it was asked for (one message, on request)."""
    await telegram_io.reply(message, summary_text(game, _), summary_markup(game, _), html=True)
