"""Every word a player reads comes from the catalog.

A pseudo-translator wraps each string it translates in markers. Every screen is rendered with it
(lobby, table, hands with every button of their keyboards, nudges, notices, round results, polls,
/rules, the rule builder's steps, the welcome, /help, the how-to summaries) for states met in
random matches of every game, and what is left outside the markers may only be names, cards,
numbers, punctuation, emoji, HTML and what a player types (commands, option=value). A word left
is a string that never reaches the catalog: a Swahili table would show it in English.
"""

from __future__ import annotations

import copy
import random
import re
from dataclasses import dataclass
from typing import Any

import pytest

from engine.core.options import options_dict, parse_options
from engine.core.protocol import CLOCK, Applied, Event
from engine.registry import available_games, get_game
from handlers.chat import basics, howto, profile
from handlers.chat.rule_builder import DIGITS, builder_message, next_step, replay
from handlers.delivery import screens
from handlers.i18n import Translator
from handlers.presentation.games import renderer_for
from handlers.presentation.render import hand
from handlers.presentation.render.seat import player_view, seen_by
from tables.models import CANCELLED, FINISHED, LOBBY, PLAYING, Loaded, Seat, TableRow
from tables.playing import Play
from tables.table_core import RECENT_EVENTS, TIMED_OUT

OPEN, CLOSE = "\ue000", "\ue001"
NAMES = ["Amina", "Baraka", "Chausiku", "Daudi", "Eshe", "Faraji", "Gati"]
TYPED_RULE = "Wote waimbe"  # a house rule as its author typed it: shown as typed, like a name


@dataclass(frozen=True)
class Marking(Translator):
    """Translates as the catalog does, and marks where each translation begins and ends."""

    def __call__(self, message: str, **values: object) -> str:
        return OPEN + super().__call__(message, **values) + CLOSE

    def plural(self, singular: str, plural: str, count: int, **values: object) -> str:
        return OPEN + super().plural(singular, plural, count, **values) + CLOSE

    def pgettext(self, context: str, message: str, **values: object) -> str:
        return OPEN + super().pgettext(context, message, **values) + CLOSE

    def npgettext(self, context: str, singular: str, plural: str, count: int, **values: object) -> str:
        return OPEN + super().npgettext(context, singular, plural, count, **values) + CLOSE

    def list(self, items: Any) -> str:
        # The words joining a list («na», "and") are Babel's, in the reader's language.
        return OPEN + super().list(items) + CLOSE


MARKED = Marking("en")
CARD = re.compile(r"(10|[2-9JQKA])[♠♥♦♣]\ufe0f?")
TYPED = re.compile(r"/[a-z_]+(@\w+)?|\b[a-z_]+=\S+")  # commands and options, as players type them
# Kadi's calls are the same words in every language (glossary 2.2: never translated).
FIXED_CALLS = ("Kadi Moja!", "Niko Kadi")
WORD = re.compile(r"[^\W\d_]{2,}|(?<![\w])[^\W\d_](?![\w])")


def outside_markers(text: str) -> str:
    """What of `text` no translation produced (an unclosed marker runs to the end)."""
    kept, depth = [], 0
    for char in text:
        if char == OPEN:
            depth += 1
        elif char == CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0:
            kept.append(char)
    return "".join(kept)


def leaks(text: str | None, names: list[str]) -> list[str]:
    rest = outside_markers(text or "")
    rest = re.sub(r"<[^>]+>|&(amp|lt|gt|quot);", " ", rest)
    rest = TYPED.sub(" ", rest)
    for name in (*names, *FIXED_CALLS):
        rest = rest.replace(name, " ")
    rest = CARD.sub(" ", rest)
    return WORD.findall(rest)


class Seen:
    """Every text and button label rendered, with where it came from."""

    def __init__(self) -> None:
        self.found: dict[str, str] = {}
        self.count = 0

    def check(self, where: str, text: str | None, names: list[str]) -> None:
        self.count += 1
        for word in leaks(text, names):
            self.found.setdefault(word, f"{where}: {outside_markers(text or '')[:160]!r}")

    def markup(self, where: str, markup: Any, names: list[str]) -> None:
        for row in getattr(markup, "inline_keyboard", None) or []:
            for button in row:
                self.check(where + " button", button.text, names)

    def screen(self, where: str, screen: screens.Screen, names: list[str]) -> None:
        self.check(where, screen.text, names)
        self.markup(where, screen.markup, names)
        if screen.poll is not None:
            for text in (screen.poll.question, *screen.poll.answers):
                self.check(where + " poll", text, names)


# ----- random matches, kept the way the table service keeps a table ---------------------------
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "lopti": [{}, {"play_for_places": True, "draw_up_to_three": True}],
    "kadi": [{}, {"elimination": True, "hiding": True, "points_limit": 25, "niko_kadi_ahead": True}],
    "pitch": [{}, {"partnerships": True, "smudge": True, "win_condition": "anyone"}],
    "euchre3": [{"target": 5}, {"stick_the_dealer": True, "lone_maker_bonus": True}],
    "three_thirteen": [{}, {"jokers": 2, "tie": "tiebreak_round"}],
}
PLAYERS = {"lopti": 3, "kadi": 4, "pitch": 4, "euchre3": 3, "three_thirteen": 3}
# Long enough to see rounds end (and Lopti's rules and votes, Kadi's eliminations); a few states rendered.
STEPS = {"lopti": 4000, "kadi": 1500, "pitch": 800, "euchre3": 800, "three_thirteen": 2000}
SAMPLES = 25


def new_table(game_name: str, players: int, raw: dict[str, Any], seed: str) -> tuple[TableRow, Any, Any]:
    game = get_game(game_name)
    options = parse_options(game.Options, raw)
    seats = [Seat(1001 + index, NAMES[index]) for index in range(players)]
    table = TableRow(1, -100123, 0, game_name, PLAYING, 1001, options_dict(options), 90, seats, seed, join_token="abc")
    state = game.new(table.players, options, seed, None, [])
    table.version = 1
    return table, game, state


def some_rules(rng: random.Random) -> list[dict[str, Any]]:
    """Finished rules the builder can make (its sentence is what a table shows), a few at random."""
    finished, frontier = [], [""]
    while frontier and len(finished) < 200:
        code = frontier.pop(rng.randrange(len(frontier)))
        draft = replay(code, MARKED)
        step = next_step(draft, MARKED) if draft else None
        if draft is not None and step is None:
            finished.append(draft.structure())
        elif step is not None:
            frontier.extend(code + DIGITS[index] for index in range(len(step.choices)))
    return rng.sample(finished, 8)


def random_match(game_name: str, raw: dict[str, Any], seed: int) -> list[Loaded]:
    """States of a random match, sampled; the service's bookkeeping of events and notes kept."""
    rng = random.Random(seed)
    table, game, state = new_table(game_name, PLAYERS[game_name], raw, str(seed))
    renderer = renderer_for(game_name)
    rules = some_rules(rng) if game_name == "lopti" else []
    samples = [Loaded(copy.deepcopy(table), game, state)]
    kinds: set[str] = set()
    stride = max(1, STEPS[game_name] // SAMPLES)
    for step in range(STEPS[game_name]):
        if game.is_finished(state):
            break
        waiting = game.to_act(state)
        player = rng.choice(waiting)
        others = [p for p in table.players if p not in waiting]
        if others and rng.random() < 0.3:
            player = rng.choice(others)  # votes, accusations, throws: out of turn
        view = player_view(table, game, state, player)
        actions = [*game.legal_actions(state, player), *renderer.extra_actions(view, player)]
        if rng.random() < 0.95:
            # An author may delete their rule at any time: random players would leave none standing.
            actions = [action for action in actions if action["type"] != "delete_rule"] or actions
        if any(action["type"] == "no_rule" for action in actions) and rules:
            rule = rules.pop()
            typed = {"type": "author_rule", "rule": {"text": TYPED_RULE}}
            built = {"type": "author_rule", "rule": {**rule, "text": "the author's own words, never shown"}}
            actions = [built if rng.random() < 0.7 else typed, *actions]
        clock = game.legal_actions(state, CLOCK) if rng.random() < 0.1 else []
        if clock:
            player, actions = CLOCK, clock
        if not actions:
            continue
        action = actions[0] if actions[0]["type"] == "author_rule" else rng.choice(actions)
        before = game.round_number(state)
        result = game.apply(state, player, action)
        if not isinstance(result, Applied):
            continue
        state, events = result.state, list(result.events)
        if player == CLOCK and action["type"] == "timeout":
            events = [Event(TIMED_OUT, {"players": list(waiting)}), *events]
        commit(table, game, state, events, player, before)
        new_kinds = {event.kind for event in events} - kinds
        kinds |= new_kinds
        # Every kind of event is rendered at least once, right after it happened.
        if step % stride == 0 or new_kinds or game.is_finished(state):
            samples.append(Loaded(copy.deepcopy(table), game, state))
    return samples


def commit(table: TableRow, game: Any, state: Any, events: list[Event], player: str, before: int) -> None:
    """What Play._commit keeps of a move, without the store."""
    table.version += 1
    spectator = [event.view(None) for event in events]
    table.recent_events = (table.recent_events + spectator)[-RECENT_EVENTS:]
    if game.round_number(state) != before or game.is_finished(state):
        table.round_events = {"round": before, "version": table.version, "events": spectator}
    Play._keep_notes(table, events, player, game.round_number(state))
    if game.is_finished(state):
        table.status = FINISHED


def render_everything(loaded: Loaded, seen: Seen, where: str, rng: random.Random) -> None:
    table, game, state = loaded.table, loaded.game, loaded.state
    names = [seat.name for seat in table.seats] + [TYPED_RULE]
    readers = screens.Readers(MARKED, {}, "karata_bot")
    now = 1000.0
    variants = [dict(), dict(deadline=now + 45), dict(deadline=now + 10, warned=True), dict(paused_until=now + 3)]
    extra = variants[rng.randrange(len(variants))]
    shown = copy.deepcopy(table)
    for key, value in extra.items():
        setattr(shown, key, value)
    shown.nudged = list(game.to_act(state))[:1]
    shown.unreachable = [table.seats[-1].user_id] if rng.random() < 0.3 else []
    for slot, screen in screens.table_screens(Loaded(shown, game, state), readers, now).items():
        seen.screen(f"{where} {slot}", screen, names)
    view = player_view(table, game, state, None)
    renderer = renderer_for(table.game)
    seen.check(f"{where} /rules", "\n".join(renderer.rules_lines(view, MARKED, view["names"])), names)
    for seat in table.seats:
        # Every button of every branch of the player's keyboard, and a branch opened.
        tree = seen_by(table, game, state, seat.player, MARKED).tree
        for node in tree.nodes[1:]:
            seen.check(f"{where} {seat.name}'s keyboard", node.label, names)
        inner = next((node for node in tree.nodes[1:] if node.children), None)
        if inner is not None:
            keyboard = seen_by(table, game, state, seat.player, MARKED).keyboard
            text, markup = hand.render_hand(table, game, state, seat.player, MARKED, (keyboard, inner.number))
            seen.check(f"{where} {seat.name}'s opened branch", text, names)
            seen.markup(f"{where} {seat.name}'s opened branch", markup, names)


@pytest.mark.parametrize("game_name", available_games())
def test_every_screen_of_a_random_match_reads_from_the_catalog(game_name):
    seen = Seen()
    rng = random.Random(7)
    for index, raw in enumerate(VARIANTS[game_name]):
        samples = random_match(game_name, raw, seed=11 + index)
        for number, loaded in enumerate(samples):
            render_everything(loaded, seen, f"{game_name} {raw} sample {number}", rng)
        last = samples[-1]
        ended = copy.deepcopy(last.table)
        ended.status = FINISHED if not last.game.is_finished(last.state) else ended.status
        ended.closed_reason = "session_ended"
        render_everything(Loaded(ended, last.game, last.state), seen, f"{game_name} session ended", rng)
        cancelled = copy.deepcopy(last.table)
        cancelled.status, cancelled.closed_reason = CANCELLED, "cancelled"
        render_everything(Loaded(cancelled, last.game, last.state), seen, f"{game_name} cancelled", rng)
    assert seen.count > 100
    assert not seen.found, "words shown without the catalog:\n" + "\n".join(
        f"  {word!r} in {where}" for word, where in sorted(seen.found.items())
    )


@pytest.mark.parametrize("game_name", available_games())
def test_the_lobby_and_a_closed_table_read_from_the_catalog(game_name):
    seen = Seen()
    table, game, _state = new_table(game_name, PLAYERS[game_name], {}, "1")
    names = [seat.name for seat in table.seats]
    readers = screens.Readers(MARKED, {}, "karata_bot")
    for status, consents, reason in (
        (LOBBY, None, None),
        (LOBBY, {"1001": True}, None),
        (CANCELLED, None, "empty"),
        (CANCELLED, None, "cancelled"),
    ):
        table.status, table.consents, table.closed_reason = status, consents, reason
        table.options = {**table.options, "changed_for_the_test": 5}
        for slot, screen in screens.table_screens(Loaded(table, game, None), readers, 0).items():
            seen.screen(f"{game_name} {status} {slot}", screen, names)
    assert not seen.found, seen.found


def test_the_rule_builder_reads_from_the_catalog():
    seen = Seen()
    frontier, visited = [""], 0
    while frontier and visited < 600:
        code = frontier.pop(0)
        visited += 1
        built = builder_message(1, 1, code, MARKED)
        if built is None:
            continue
        text, markup = built
        seen.check(f"builder {code!r}", text, [])
        seen.markup(f"builder {code!r}", markup, [])
        draft = replay(code, MARKED)
        step = next_step(draft, MARKED) if draft else None
        if step is not None:
            frontier.extend(code + DIGITS[index] for index in range(len(step.choices)))
    assert visited > 100 and not seen.found, seen.found


def test_the_welcome_help_and_how_to_play_read_from_the_catalog():
    seen = Seen()
    seen.check("welcome", basics.welcome_text(MARKED), [])
    seen.markup("welcome", basics.welcome_markup(MARKED, "karata_bot"), [])
    for private in (True, False):
        seen.check("help", basics.help_text(MARKED, private), [])
        seen.markup("help", basics.help_markup(MARKED), [])
    for game in available_games():
        seen.check(f"how to play {game}", howto.summary_text(game, MARKED), [])
        seen.markup(f"how to play {game}", howto.summary_markup(game, MARKED), [])
    seen.markup("guide chooser", howto.InlineKeyboardMarkup(howto.game_buttons(MARKED, full=True)), [])
    for text in (profile.bot_name(MARKED), profile.description(MARKED), profile.short_description(MARKED)):
        seen.check("profile", text, [])
    for private in (True, False):
        for command in profile.menu(profile.commands_of(private), MARKED):
            seen.check("menu", command.description, [])
    assert not seen.found, seen.found


def test_a_leak_is_caught():
    """The check itself: an English word outside the markers is reported, names and cards are not."""
    assert leaks(OPEN + "Your hand:" + CLOSE + " 7♥️ K♠ 🃏 · Amina (+3) /newgame hand_size=5", ["Amina"]) == []
    assert leaks(OPEN + "Bids:" + CLOSE + " Amina pass", ["Amina"]) == ["pass"]
    assert leaks("<b>Round 2</b>", []) == ["Round"]
