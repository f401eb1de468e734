"""Players in the Mini App against the real bot on the fake Bot API, in headless Chromium: whole
matches of Kadi and Euchre-3 with two players in the app and one in chat, a whole Pitch match in
partnerships (bids and passes in the app) with two in each, a Three Thirteen round gone out in
the app, a Lopti round with swaps, refused initData, a table the user does not sit at, and a
dropped connection that catches up."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

import pytest

from bot.demo import DEMO_TOKEN, Simulation
from bot.services import services_of
from fakeapi.webapp import sign_init_data
from tests.e2e.conftest import simulation
from tests.e2e.helpers import hand_line_cards, sensible_player
from tests.webapp.browser.browser import app_url
from tests.webapp.browser.page import Page

pytestmark = pytest.mark.asyncio

APP = {"KARATA_WEBAPP_URL": "https://karata.example/app/"}
# Every open app shows each move, waited for at most this long: a bound against a hung test, not
# a speed (benchmarks/bench_miniapp.py measures how fast a move reaches every screen).
LIVE_SECONDS = 15.0


def init_data(user, auth_date=None, token=DEMO_TOKEN, start_param=None):
    return sign_init_data(
        token, {"id": user.id, "first_name": user.first_name, "language_code": "en"}, auth_date, start_param
    )


def base(application) -> str:
    return f"http://127.0.0.1:{services_of(application).web.port}/app/"


async def open_page(browsers, application, user, **kwargs) -> Page:
    page = Page(browsers())
    await page.open(app_url(base(application), init_data(user, **kwargs)))
    return page


async def play_match(
    application, sim, table_id, pages, chat_users, rng, max_moves=600, until=None, prefer=None, pick=None
):
    """Until the match is over (or `until(loaded)`): whoever is to act moves, in their app
    (`pages`, each move chosen as `Page.play_one` does with `prefer`, and `pick(loaded, player,
    leaves)` when given) or in chat (`chat_users`, through the simulation's chat presses). Each
    move shows in every open app. The table then, and each player's moves: the nodes tapped in
    the app, or "chat"."""
    karata = application.bot_data["karata"]
    chat = Simulation(sim.api, chat_users, sim.group_id, rng)
    chat.application = application
    chat.choose = sensible_player(rng)
    moves = {player: [] for player in pages} | {str(user.id): [] for user in chat_users}
    for _ in range(max_moves):
        loaded = await karata.service.load(table_id)
        if loaded.table.status != "playing" or loaded.game.is_finished(loaded.state) or (until and until(loaded)):
            return loaded, moves
        version = loaded.table.version
        for page in pages.values():
            await page.at_version(version, timeout=LIVE_SECONDS)
        acting = [
            player for player in loaded.game.to_act(loaded.state) if loaded.game.legal_actions(loaded.state, player)
        ]
        movers = [player for player in acting if player in pages]
        if movers:
            mover = movers[0]
            choose = pick and (lambda leaves: pick(loaded, mover, leaves))
            tapped = await pages[mover].play_one(rng, prefer, choose)
            assert tapped, "the app offered no move to a player who has one"
            moves[mover].append(tapped)
        else:
            assert acting, "nobody can move"
            await chat.shown()
            assert await chat.step(), "the chat player had nothing to press"
            moves[acting[0]].append("chat")
    raise AssertionError("the match did not end")


async def whole_match(api, start_bot, browsers, game, options, in_app, seed, count=3, prefer=None):
    """A whole match of `game` at `count` seats: the seats in `in_app` (indexes) play in the app,
    the others in chat. The users, the finished match, each app's last snapshot with the prompt
    it shows, and each player's moves (as `play_match`)."""
    sim = simulation(api, count=count)
    async with start_bot(**APP) as application, leaving(browsers):
        sim.application = application
        await sim.open_table(game, options)
        table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
        pages = {
            str(user.id): await open_page(browsers, application, user)
            for seat, user in enumerate(sim.users)
            if seat in in_app
        }
        chat_users = [user for seat, user in enumerate(sim.users) if seat not in in_app]
        loaded, moves = await play_match(
            application, sim, table.table_id, pages, chat_users, random.Random(seed), prefer=prefer
        )
        assert loaded.game.is_finished(loaded.state)
        # Everyone played their part, in the app or in chat.
        assert all(moves.values()), {player: len(made) for player, made in moves.items()}
        shown = []
        for page in pages.values():
            await page.at_version(loaded.table.version, timeout=LIVE_SECONDS)
            snap = await page.snap()
            shown.append((snap, await page.text("#prompt"), await page.text("#standings")))
    return sim.users, loaded, shown, moves


async def test_kadi_match_two_players_in_the_app_one_in_chat(api, start_bot, browsers):
    users, loaded, shown, _ = await whole_match(
        api, start_bot, browsers, "kadi", "hand_size=5 points_limit=1", (0, 1), 5, prefer=kadi_moves
    )
    winner = next(user for user in users if str(user.id) in loaded.game.winners(loaded.state))
    for snap, prompt, standings in shown:
        assert snap["status"] == "finished" or snap["prompt"] == snap["labels"]["match_over"]
        assert prompt == snap["prompt"]
        # Who won, and everyone's points.
        assert standings.splitlines()[0] == f"🏆 Winner: {winner.first_name}"
        assert all(f"{user.first_name}: " in standings for user in users)
    # The chat player saw the match end in chat, and how it ended for them.
    chausiku = users[2]
    assert any("Match over: " in (message.text or "") for message in api.bot_messages(chausiku.id))


@contextlib.asynccontextmanager
async def leaving(browsers):
    """Every page leaves before the bot stops, whatever happens: leaving closes its live socket,
    and the bot's server would otherwise wait for it."""
    try:
        yield
    finally:
        for browser in browsers.opened:
            await asyncio.to_thread(browser.driver.get, "about:blank")


@pytest.mark.long
async def test_euchre3_match_two_players_in_the_app_one_in_chat(api, start_bot, browsers):
    _, loaded, shown, _ = await whole_match(api, start_bot, browsers, "euchre3", "target=5", (1, 2), 8)
    view = loaded.game.view(loaded.state, None)
    assert max(view["scores"].values()) >= 5
    for snap, prompt, _standings in shown:
        assert prompt == snap["labels"]["match_over"]


@pytest.mark.long
async def test_pitch_match_in_partnerships_two_players_in_the_app_two_in_chat(api, start_bot, browsers):
    users, loaded, shown, moves = await whole_match(
        api,
        start_bot,
        browsers,
        "pitch",
        "target=7 win_condition=anyone partnerships=true",
        (0, 1),
        4,
        count=4,
        prefer=pitch_moves,
    )
    view = loaded.game.view(loaded.state, None)
    assert max(view["scores"].values()) >= 7
    # Partners share a score.
    seats = [str(user.id) for user in users]
    assert view["scores"][seats[0]] == view["scores"][seats[2]] and view["scores"][seats[1]] == view["scores"][seats[3]]
    # The players in the app bid, passed and played their cards through the page's buttons.
    tapped = [move[0] for player in seats[:2] for move in moves[player]]
    assert any(node["label"] == "Pass" for node in tapped)
    assert any(node["label"].startswith(("Bid ", "Steal at ")) for node in tapped)
    assert any(node["kind"] == "card" for node in tapped)
    for snap, prompt, _standings in shown:
        assert prompt == snap["labels"]["match_over"]


def kadi_moves(start):
    """Cards, and “Kadi Moja!” when it may be called, as players do to go out (without the call
    a last card is a penalty, and a match hundreds of moves long)."""
    return start["kind"] == "card" or "Kadi Moja!" in start["label"]


def pitch_moves(start):
    """Cards, passes and bids of 1 or 2, as a cautious bidder does (a failed high bid sets the
    team back and makes the match longer): the dealer everyone passed to still bids what he must."""
    return start["kind"] == "card" or start["label"] in ("Pass", "Bid 1", "Bid 2", "Steal at 1", "Steal at 2")


@pytest.mark.long
async def test_lopti_swaps_and_a_round_in_the_app(api, start_bot, browsers):
    sim = simulation(api, count=2)
    async with start_bot(**APP) as application, leaving(browsers):
        sim.application = application
        await sim.open_table("lopti")
        karata = application.bot_data["karata"]
        table = await karata.store.live_table(sim.group_id, 0)
        amina, baraka = sim.users
        page = await open_page(browsers, application, amina)
        snap = await page.snap()
        me = next(seat for seat in snap["seats"] if seat["you"])
        before_hand, before_up = sorted(snap["hand"]), sorted(me["face_up"])
        # Swap: the Swap button, a card of the hand, then the face-up card it goes with.
        swap = next(key["node"] for key in snap["choices"]["keys"] if "🔄" in key["label"])
        await page.tap(swap)
        snap = await page.snap()
        card = next(key for key in snap["choices"]["keys"] if key["kind"] == "card")
        assert await page.run(
            "return !!document.querySelector('#hand .hand-slot.legal[data-node=\"' + arguments[0] + '\"]')",
            card["node"],
        )
        await page.tap(card["node"])
        snap = await page.snap()
        target = next(key for key in snap["choices"]["keys"] if key["label"].startswith("↔"))
        await page.tap(target["node"])
        snap = await page.snap()
        me = next(seat for seat in snap["seats"] if seat["you"])
        assert card["card"] in me["face_up"] and card["card"] not in snap["hand"]
        assert sorted(snap["hand"] + me["face_up"]) == sorted(before_hand + before_up)
        # The swapped card lies face up on the page, in front of Amina's seat.
        codes = await page.run(
            "return [...document.querySelectorAll('#seats .seat.you .seat-cards .card')].map(c => c.dataset.code)"
        )
        assert card["card"] in codes
        # Then the round: Amina in the app, Baraka in chat, until someone is out.
        rng = random.Random(3)
        chat = Simulation(api, [baraka], sim.group_id, rng)
        chat.application = application
        chat.choose = sensible_player(rng)
        for _ in range(400):
            loaded = await karata.service.load(table.table_id)
            if loaded.table.status != "playing" or loaded.game.round_number(loaded.state) > 1:
                break
            await page.at_version(loaded.table.version, timeout=LIVE_SECONDS)
            if loaded.game.legal_actions(loaded.state, str(amina.id)):
                if not await page.play_one(rng, prefer=lopti_moves):
                    raise AssertionError("the app offered no move to a player who has one")
            else:
                await chat.shown()
                assert await chat.step()
        else:
            raise AssertionError("the round did not end")


@pytest.mark.long
async def test_three_thirteen_round_going_out_in_the_app_shows_the_melds_grouped(api, start_bot, browsers):
    sim = simulation(api, count=2)
    async with start_bot(**APP) as application, leaving(browsers):
        sim.application = application
        await sim.open_table("three_thirteen")
        table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
        pages = {str(user.id): await open_page(browsers, application, user) for user in sim.users}
        rng = random.Random(11)

        def went_out(loaded):  # who went out this round, if anyone has
            return loaded.game.view(loaded.state, None)["went_out"]

        # Both play in the app until one of them goes out (through "🏁 Go out", then the discard).
        loaded, moves = await play_match(
            application, sim, table.table_id, pages, [], rng, until=went_out, prefer=going_out, pick=least_deadwood(rng)
        )
        out = went_out(loaded)
        assert [node["label"] for node in moves[out][-1]][0] == "🏁 Go out"
        melds = loaded.game.view(loaded.state, None)["table_melds"][out]
        assert melds and all(len(meld) >= 3 for meld in melds)
        # Both screens show the melds laid down, each meld a group of its own.
        for page in pages.values():
            await page.at_version(loaded.table.version, timeout=LIVE_SECONDS)
            shown = await page.run(
                "var zone = document.querySelector('#felt .zone[data-zone=\"' + arguments[0] + '\"]');"
                "return zone && [...zone.querySelectorAll('.meld')].map(m => [...m.querySelectorAll('.card')].map(c => c.dataset.code))",
                f"melds:{out}",
            )
            assert shown == melds
        # The other player's last turn ends the round: the next one is dealt (four cards each).
        loaded, _ = await play_match(
            application,
            sim,
            table.table_id,
            pages,
            [],
            rng,
            until=lambda loaded: loaded.game.round_number(loaded.state) > 1,
            prefer=going_out,
            pick=least_deadwood(rng),
        )
        assert loaded.game.round_number(loaded.state) == 2
        for page in pages.values():
            await page.at_version(loaded.table.version, timeout=LIVE_SECONDS)
            snap = await page.snap()
            assert len(snap["hand"]) == 4
            assert any(line.endswith("went out!") for line in snap["lines"])
        # The round's results (the group's post) show under the lines, open by themselves, with
        # every player's points, and the page stays 360 px wide.
        names = [seat["name"] for seat in snap["seats"]]
        for page in pages.values():
            shown = await page.run(RESULTS)
            assert shown["open"] and shown["lines"][0] == "Round 1 results", shown
            assert all(any(line.startswith(name + ":") for line in shown["lines"]) for name in names), shown
            assert shown["width"] <= 360
        # One player closes them; the next move (whose snapshot brings no results) keeps them
        # shown, closed for that player and open for the other.
        closer, other = pages.values()
        await closer.run("document.querySelector('#results summary').click()")
        await closer.until("return !document.querySelector('#results').open", what="the results closed")
        version = loaded.table.version
        loaded, _ = await play_match(
            application,
            sim,
            table.table_id,
            pages,
            [],
            rng,
            until=lambda loaded: loaded.table.version > version,
            pick=least_deadwood(rng),
        )
        for page in pages.values():
            await page.at_version(loaded.table.version, timeout=LIVE_SECONDS)
            assert (await page.snap())["results"] is None
        assert not (await closer.run(RESULTS))["open"]
        assert (await other.run(RESULTS))["lines"][0] == "Round 1 results"
        assert (await other.run(RESULTS))["open"]


RESULTS = """
var box = document.querySelector('#lines + #results');
return box && {open: box.open, lines: [...box.querySelectorAll('.result-line')].map(l => l.textContent),
               width: document.documentElement.scrollWidth};
"""


def going_out(start):
    return start["label"].startswith("🏁")


def least_deadwood(rng):
    """Draws at random, then discards what leaves the fewest points outside melds (as
    `sensible_player` does in chat): random discards can take a round hundreds of moves."""

    def pick(loaded, player, leaves):
        discards = [leaf for leaf in leaves if leaf["kind"] == "card"]
        if not discards:
            return rng.choice(leaves)
        game, state = loaded.game, loaded.state

        def deadwood(leaf):
            after = game.apply(state, player, {"type": "discard", "card": leaf["card"]}).state
            arranged = game.view(after, player).get("best_arrangement")
            return arranged["deadwood"] if arranged else 0

        return min(discards, key=deadwood)

    return pick


def lopti_moves(start):
    """Plays, Ready, taking the pile, flipping, no rule: never a rule proposal (its vote is a
    group poll, outside the app)."""
    return start["kind"] in ("card", "alone") or any(mark in start["label"] for mark in ("✅", "🎴", "No rule"))


# The error screen, all of it in one language: the server's sentence and the page's own button.
REFUSED = {
    "forged": {
        "en": ("Open the table from Telegram: this page could not tell who you are.", "Try again"),
        "sw": ("Fungua meza kutoka Telegram: ukurasa huu haukuweza kujua wewe ni nani.", "Jaribu tena"),
    },
    "expired": {
        "en": ("This page has been open too long: close it and open the table again.", "Try again"),
        "sw": ("Ukurasa huu umekaa wazi muda mrefu mno: ufunge kisha ufungue meza tena.", "Jaribu tena"),
    },
}


@pytest.mark.parametrize("language", ["en", "sw"])
@pytest.mark.parametrize("how", ["forged", "expired"])
async def test_forged_or_expired_init_data_is_refused_in_the_players_language(api, start_bot, browsers, how, language):
    """A forged initData is refused in the language it claims (the browser says English); an
    expired one, signed by Telegram, in the language the player chose with the bot (Telegram
    says English)."""
    sim = simulation(api)
    async with start_bot(**APP) as application, leaving(browsers):
        sim.application = application
        await sim.open_table("kadi")
        amina = sim.users[0]
        if how == "forged":
            data = sign_init_data(
                "123456789:not-the-bot-token",
                {"id": amina.id, "first_name": amina.first_name, "language_code": language},
            )
        else:
            await application.bot_data["karata"].store.set_user_language(amina.id, language)
            data = init_data(amina, auth_date=int(time.time()) - 2 * 86400)
        page = Page(browsers())
        await page.open(app_url(base(application), data))
        assert await page.run("return document.querySelector('#fatal').dataset.error") not in (None, "", "network")
        sentence, button = REFUSED[how][language]
        assert await page.text("#fatal .fatal-text") == sentence
        assert await page.text("#fatal button") == button
        assert await page.run("return document.documentElement.lang") == language
        # Nothing of the table reached the page.
        assert await page.run("return KarataApp.state.snap") is None
        assert not await page.run("return document.querySelector('#hand, #seats')")


async def test_a_table_the_user_does_not_sit_at_stays_invisible(api, start_bot, browsers):
    sim = simulation(api)
    async with start_bot(**APP) as application, leaving(browsers):
        sim.application = application
        await sim.open_table("kadi")
        table = await application.bot_data["karata"].store.live_table(sim.group_id, 0)
        stranger = api.add_user(1009, "Gati", language_code="en")
        page = Page(browsers())
        await page.open(
            app_url(base(application), init_data(stranger, start_param=f"t{table.table_id}")).replace(
                "/app/#", f"/app/?table={table.table_id}#"
            )
        )
        assert await page.run("return document.querySelector('#fatal').dataset.error")
        assert await page.run("return KarataApp.state.snap") is None
        shown = await page.text("body")
        assert "Amina" not in shown and "Baraka" not in shown


async def test_a_dropped_connection_reconnects_and_catches_up(api, start_bot, browsers):
    sim = simulation(api)
    async with start_bot(**APP) as application, leaving(browsers):
        sim.application = application
        await sim.open_table("kadi", "hand_size=5")
        karata = application.bot_data["karata"]
        table = await karata.store.live_table(sim.group_id, 0)
        amina, baraka, chausiku = sim.users
        page = await open_page(browsers, application, baraka)
        await page.until("return KarataApp.state.ws && KarataApp.state.ws.readyState === 1", what="the live socket")
        # The connection drops, and cannot come back for a while (no socket can be opened).
        await page.run(
            "window.RealWebSocket = window.WebSocket;"
            "window.WebSocket = function () { throw new Error('offline'); };"
            "KarataApp.dropLive();"
        )
        await page.until("return !document.querySelector('#offline').hidden", what="the reconnecting notice")
        others = Simulation(api, [amina, chausiku], sim.group_id, random.Random(2))
        others.application = application
        seen = await page.version()
        for _ in range(3):
            loaded = await karata.service.load(table.table_id)
            if str(baraka.id) in loaded.game.to_act(loaded.state):
                break
            await others.shown()
            await others.step()
        loaded = await karata.service.load(table.table_id)
        assert loaded.table.version > seen, "nobody moved while the page was offline"
        # Back online: the page reconnects by itself and shows what it missed.
        await page.run("window.WebSocket = window.RealWebSocket;")
        await page.at_version(loaded.table.version, timeout=15)
        await page.until("return document.querySelector('#offline').hidden", what="the notice gone")
        await page.until(
            "return KarataApp.state.ws && KarataApp.state.ws.readyState === 1", timeout=15, what="the socket back"
        )
        # Live again: the next move arrives through the socket.
        if str(baraka.id) not in loaded.game.to_act(loaded.state):
            await others.shown()
            await others.step()
            loaded = await karata.service.load(table.table_id)
            await page.at_version(loaded.table.version, timeout=LIVE_SECONDS)


async def test_closing_the_app_hands_the_game_back_to_the_chat(api, start_bot, browsers):
    sim = simulation(api)
    async with start_bot(**APP) as application, leaving(browsers):
        sim.application = application
        await sim.open_table("kadi", "hand_size=5")
        karata = application.bot_data["karata"]
        table = await karata.store.live_table(sim.group_id, 0)
        amina, baraka, chausiku = sim.users
        page = await open_page(browsers, application, amina)
        dealt = hand_line_cards(api.bot_messages(amina.id)[-1].text)
        assert await page.play_one(random.Random(4))
        snap = await page.snap()
        # While the app is open, the move costs no edit of her chat hand.
        await karata.publisher.settle(private_only=True)
        assert hand_line_cards(api.bot_messages(amina.id)[-1].text) == dealt
        assert len(snap["hand"]) < len(dealt)
        # Amina closes the app: her chat hand catches up with the move she made in it.
        await page.run("window.location = 'about:blank'")
        await api.wait_until(
            lambda: (
                sorted(hand_line_cards(api.bot_messages(amina.id)[-1].text))
                == sorted(code for code in snap["hand"] if code != "X")
            ),
            timeout=10,
            what="Amina's chat hand caught up",
        )
        # And she plays on from the chat when her turn comes back.
        rng = random.Random(6)
        others = Simulation(api, [baraka, chausiku], sim.group_id, rng)
        others.application = application
        others.choose = sensible_player(rng)
        for _ in range(20):
            loaded = await karata.service.load(table.table_id)
            if str(amina.id) in loaded.game.to_act(loaded.state) and loaded.table.version > snap["version"]:
                break
            await others.shown()
            assert await others.step()
        before = loaded.table.version
        solo = Simulation(api, [amina], sim.group_id, rng)
        solo.application = application
        solo.choose = sensible_player(rng)
        await solo.shown()
        assert await solo.step(), "Amina's chat hand offered her no move"
        assert (await karata.service.load(table.table_id)).table.version > before
