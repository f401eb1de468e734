"""The page draws a snapshot as a player needs it on a 360 px phone, and taps what the tree
allows: against the stub API (a fixed Kadi snapshot), so no bot is needed."""

from __future__ import annotations

import time

import pytest

from tests.webapp.browser.browser import ServerThread, app_url
from tests.webapp.browser.stub import PRESSES, fixture, stub_app

GOOD = "user=amina&hash=ok"


@pytest.fixture
def kadi_page(browsers):
    snap = fixture("kadi")
    snap["deadline"] = time.time() + 75
    app = stub_app(snap, GOOD, refuse=frozenset({3}))
    with ServerThread(app) as server:
        browser = browsers()
        browser.driver.get(app_url(server.base, GOOD))
        wait(browser, "return !!document.querySelector('#prompt')")
        yield browser, app[PRESSES]
        browser.driver.get("about:blank")  # closes the page's live socket before the server stops


def wait(browser, script, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not (found := browser.driver.execute_script(script)):
        assert time.monotonic() < deadline, f"the page never showed: {script}"
        time.sleep(0.03)
    return found


def hand(browser):
    return browser.driver.execute_script("""
        return [...document.querySelectorAll('#hand .hand-slot')].map(slot => ({
            code: slot.querySelector('.card').dataset.code, legal: slot.classList.contains('legal'),
            dim: slot.classList.contains('dim'), marked: slot.classList.contains('marked'),
            red: slot.querySelector('.card').classList.contains('red'),
            joker: slot.querySelector('.card').classList.contains('joker')}));""")


def test_the_hand_is_drawn_as_cards_and_only_legal_ones_can_be_tapped(kadi_page):
    browser, presses = kadi_page
    cards = hand(browser)
    assert [card["code"] for card in cards] == ["3S", "8S", "QH", "10H", "KC", "X"]
    assert [card["code"] for card in cards if card["legal"]] == ["8S", "QH", "10H", "X"]
    assert all(card["dim"] for card in cards if not card["legal"])
    assert [card["red"] for card in cards] == [False, False, True, True, False, False]
    assert [card["joker"] for card in cards] == [False] * 5 + [True]
    # A dimmed card does nothing when tapped.
    browser.driver.execute_script("document.querySelector('#hand .hand-slot.dim').click()")
    time.sleep(0.2)
    assert presses == []


def test_a_phone_screen_needs_no_sideways_scrolling_and_shows_the_whole_table(kadi_page):
    browser, _ = kadi_page
    width = browser.driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= 360
    seats = browser.driver.execute_script("return [...document.querySelectorAll('#seats .seat')].map(s => s.innerText)")
    assert len(seats) == 3 and "Amina" in seats[0] and "12" in seats[1]
    assert (
        browser.driver.execute_script("return document.querySelector('#seats .seat.acting .name').textContent")
        == "Amina"
    )
    felt = browser.driver.execute_script("return document.querySelector('#felt').innerText")
    assert "31" in felt and "Command" in felt
    assert (
        browser.driver.execute_script("return document.querySelector('#felt [data-zone=top] .card').dataset.code")
        == "8H"
    )
    assert "Your turn: play a card, or draw." in browser.driver.execute_script(
        "return document.querySelector('#prompt').innerText"
    )
    # The turn timer counts down from the deadline (75 s after the fixture made it), whatever the
    # time the page took to load.
    deadline = browser.driver.execute_script("return KarataApp.state.snap.deadline")
    first = shown_seconds(browser)
    assert abs(first - (deadline - time.time())) <= 2 and first <= 75
    wait(browser, f"return !document.querySelector('#timer').textContent.endsWith('{first // 60}:{first % 60:02d}')")
    assert shown_seconds(browser) < first


def shown_seconds(browser) -> int:
    minutes, seconds = (
        browser.driver.execute_script("return document.querySelector('#timer').textContent").split()[-1].split(":")
    )
    return int(minutes) * 60 + int(seconds)


def test_cards_of_a_play_are_tapped_one_by_one_then_confirmed(kadi_page):
    browser, presses = kadi_page
    browser.driver.execute_script("document.querySelector('#hand .hand-slot[data-node=\"2\"]').click()")
    wait(browser, "return KarataApp.state.snap.choices.at === 2")
    cards = hand(browser)
    assert [card["code"] for card in cards if card["marked"]] == ["QH"]
    assert [card["code"] for card in cards if card["legal"]] == ["10H"]
    buttons = browser.driver.execute_script(
        "return [...document.querySelectorAll('#moves button')].map(b => b.className + ':' + b.dataset.node)"
    )
    assert "btn confirm:7" in buttons and "btn back:0" in buttons
    assert presses[-1] == {"version": 12, "digest": "abc", "node": 2}


def test_a_refused_tap_says_why(kadi_page):
    browser, presses = kadi_page
    browser.driver.execute_script("document.querySelector('#hand .hand-slot[data-node=\"3\"]').click()")
    toast = wait(browser, "var t = document.querySelector('#toast'); return !t.hidden && t.textContent")
    assert toast == "That card does not match the top card."
    assert presses[-1]["node"] == 3


def test_kadi_moja_is_a_big_button_and_colours_follow_the_dark_theme(browsers):
    snap = fixture("kadi")
    snap["choices"]["keys"].append(
        {
            "label": "📣 Kadi Moja!",
            "node": 9,
            "kind": "call",
            "card": None,
            "cards": None,
            "marked": False,
            "opens": False,
        }
    )
    with ServerThread(stub_app(snap, GOOD)) as server:
        browser = browsers()
        browser.driver.get(app_url(server.base, GOOD, "dark"))
        wait(browser, "return !!document.querySelector('#prompt')")
        call = browser.driver.execute_script(
            "var b = document.querySelector('#moves .btn.call'); return b && [b.textContent, b.offsetWidth, b.offsetHeight]"
        )
        draw = browser.driver.execute_script(
            "var b = document.querySelector('#moves .btn.alone'); return [b.offsetHeight]"
        )
        assert call[0] == "📣 Kadi Moja!" and call[1] > 300 and call[2] > draw[0]
        background = browser.driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(23, 33, 43)"  # the theme's bg_color, #17212b
        assert browser.driver.execute_script("return document.documentElement.dataset.scheme") == "dark"
        browser.driver.get("about:blank")


def test_the_chat_link_opens_the_private_chat_in_telegram(kadi_page):
    browser, _ = kadi_page
    browser.driver.execute_script(
        "window.opened = []; Telegram.WebApp.openTelegramLink = function (url) { window.opened.push(url); };"
        "document.querySelector('#to-chat').click()"
    )
    assert browser.driver.execute_script("return window.opened") == ["https://t.me/karata_demo_bot"]


def test_round_results_show_open_under_the_lines_as_text_within_the_phones_width(browsers):
    snap = fixture("kadi")
    long = "High: the highest trump played. Low: the lowest trump played. Game: the most card points " * 2
    snap["results"] = {"edition": 7, "lines": ["Round 1 results", "<b>Amina</b>: 12 (+12)", long.strip()]}
    snap["labels"]["results"] = "Round results"
    with ServerThread(stub_app(snap, GOOD)) as server:
        browser = browsers()
        browser.driver.get(app_url(server.base, GOOD))
        wait(browser, "return !!document.querySelector('#prompt')")
        shown = browser.driver.execute_script("""
            var box = document.querySelector('#lines + details#results');
            return box && {open: box.open, summary: box.querySelector('summary').textContent,
                           lines: [...box.querySelectorAll('.result-line')].map(l => l.textContent),
                           tags: box.querySelectorAll('b').length, width: document.documentElement.scrollWidth};""")
        browser.driver.get("about:blank")
    assert shown["open"] and shown["summary"] == "Round results"
    assert shown["lines"][1] == "<b>Amina</b>: 12 (+12)" and shown["tags"] == 0, "text, never HTML"
    assert shown["width"] <= 360, "a long line wraps"


def lopti_snapshot_on_your_turn() -> dict:
    """A real Lopti snapshot (handlers/webapp/snapshot.py) of a player whose turn it is, holding
    several cards, with long event lines and a round's results: a full screen and more."""
    from engine.registry import get_game
    from handlers.i18n import translator
    from handlers.webapp.snapshot import snapshot
    from tests.webapp.test_snapshot import random_play

    game = get_game("lopti")
    found = None
    for table, state in random_play("lopti", ["11", "12", "13"], 2, 40):
        if "11" in game.to_act(state) and len(game.view(state, "11").get("hand") or []) >= 4:
            found = snapshot(table, game, state, "11", translator("en"), 0.0)
    assert found, "no position of Lopti with Amina to play"
    found["lines"] = ["Baraka proposes: switch on: any number of swaps at the start of a round, now"] * 5
    won = [f"Player {n}: 🏆 1 round won" for n in range(8)]
    found["results"] = {"edition": 3, "lines": ["Round 1 results", *won]}
    return found


def test_on_your_turn_the_hand_and_its_buttons_stay_on_the_screen_and_a_toast_never_covers_them(browsers):
    snap = lopti_snapshot_on_your_turn()
    with ServerThread(stub_app(snap, GOOD, refuse=frozenset(range(10_000)))) as server:  # every tap
        browser = browsers()
        browser.driver.get(app_url(server.base, GOOD))
        wait(browser, "return !!document.querySelector('#prompt')")
        run = browser.driver.execute_script
        assert run("return document.querySelector('#results').open")
        assert run("return document.documentElement.scrollHeight") > 740, "more than a screen to show"
        assert run("return document.querySelectorAll('#moves button').length") >= 2, "Lopti's buttons"
        on_screen = (
            "var r = document.querySelector(arguments[0]).getBoundingClientRect();return [r.top, r.bottom, innerHeight]"
        )
        for scroll in ("0", "document.documentElement.scrollHeight"):
            run(f"window.scrollTo(0, {scroll})")
            for part in ("#hand", "#moves", "#prompt"):
                top, bottom, height = run(on_screen, part)
                assert 0 <= top and bottom <= height, (part, scroll, top, bottom)
        # Every line is whole: wrapped, never cut.
        assert run(
            "return [...document.querySelectorAll('#lines .line')].every(l => l.scrollWidth <= l.clientWidth"
            " && getComputedStyle(l).textOverflow !== 'ellipsis' && l.offsetHeight > 20)"
        )
        # A refused tap's toast leaves the hand and its buttons in sight.
        run("document.querySelector('#hand .hand-slot.legal').click()")
        wait(browser, "return !document.querySelector('#toast').hidden")
        toast = run(on_screen, "#toast")
        dock = run(on_screen, ".dock")
        assert toast[1] <= dock[0], (toast, dock)
        browser.driver.get("about:blank")


def test_loptis_ready_is_a_button_and_seats_show_one_icon_per_number(browsers):
    from engine.registry import get_game
    from handlers.i18n import translator
    from handlers.webapp.snapshot import snapshot
    from tables.models import Seat
    from tests.webapp.test_snapshot import random_play

    table, state = next(random_play("lopti", ["11", "12"], 1, 1))
    table.seats[1] = Seat(-12, "🤖 Juma", plays_for="12")  # a computer took the seat
    snap = snapshot(table, get_game("lopti"), state, "11", translator("en"), 0.0)
    with ServerThread(stub_app(snap, GOOD)) as server:
        browser = browsers()
        browser.driver.get(app_url(server.base, GOOD))
        wait(browser, "return !!document.querySelector('#prompt')")
        run = browser.driver.execute_script
        buttons = run("return [...document.querySelectorAll('#moves button.btn')].map(b => b.textContent)")
        assert "✅ Ready" in buttons and "🗳 Propose a change" in buttons
        assert not run("return document.querySelector('#moves .card.back')"), "no card stands for a move"
        assert run("return document.querySelector('#moves [data-button]')") is None, "no Vote in the app"
        seats = run("return [...document.querySelectorAll('#seats .seat-name')].map(s => s.textContent)")
        assert [seat.count("🤖") for seat in seats] == [0, 1], seats
        info = run("return [...document.querySelectorAll('#seats .seat-info')].map(s => s.textContent)")
        assert all("★" not in text and text.count("🏆") == 1 for text in info), info
        browser.driver.get("about:blank")
