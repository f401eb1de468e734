"""The sentence above a player's keyboard says exactly what the keyboard offers, in both
languages, at every decision of random matches of every game: a move is named in the prompt if
and only if a button makes it. Kadi's prompt also names the penalty or the Jack's command in force.

Moves that are always there and speak for themselves (proposing a Rule Vote, deleting your own
rule, accusing in Kadi's hiding mode) are left to their buttons.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handlers.i18n import translator
from handlers.presentation.games import renderer_for
from handlers.presentation.render.seat import player_view, seen_by
from tests.render.playouts import play

# game -> language -> offered move -> the words that name it in the prompt.
NAMED = {
    "kadi": {
        "en": {
            "play": r"\bplay\b",
            "draw": r"\bdraw\b",
            "pass": r"end your turn",
            "call": r"call “Kadi Moja!” now",
            "play+call": r"plays and calls",
            "accept": r"accept the win",
            "hide": r"hide a card",
            "unhide": r"take back your hidden card",
        },
        "sw": {
            "play": r"\b(cheza|icheze)\b",
            "draw": r"\bchota\b",
            "pass": r"maliza zamu",
            "call": r"ita “Kadi Moja!” sasa",
            "play+call": r"kinacheza na kuita",
            "accept": r"kubali ushindi",
            "hide": r"kuficha karata",
            "unhide": r"kurudisha karata uliyoficha",
        },
    },
    "lopti": {
        "en": {
            "play": r"\bplay\b",
            "flip": r"\bflip\b",
            "take": r"\btake (the pile|it)\b",
            "swap": r"\bswap\b",
            "ready": r"\bReady\b",
            "no_rule": r"No rule",
            "throw": r"rock, paper or scissors",
            "champion": r"defend the rule",
        },
        "sw": {
            "play": r"\bcheza\b",
            "flip": r"\bfunua\b",
            "take": r"\b(chukua rundo|lichukue)\b",
            "swap": r"\bbadilisha\b",
            "ready": r"\bTayari\b",
            "no_rule": r"Sina kanuni",
            "throw": r"jiwe, karatasi au mkasi",
            "champion": r"kuitetea kanuni",
        },
    },
    "pitch": {
        "en": {"bid": r"\bbid\b", "pass": r"\bpass\b", "play": r"\bplay\b"},
        "sw": {"bid": r"\b(toa|utoe) zabuni", "pass": r"\bpita\b", "play": r"\bcheza\b"},
    },
    "euchre3": {
        "en": {
            "accept": r"suit trumps",
            "pass": r"\bpass\b",
            "pick_up": r"pick up",
            "leave": r"leave it",
            "name": r"name trumps",
            "alone": r"\balone\b",
            "with_dummy": r"take the dummy",
            "keep": r"cards you keep",
            "play": r"play a card",
        },
        "sw": {
            "accept": r"iwe turufu",
            "pass": r"\bpita\b",
            "pick_up": r"chukua karata iliyogeuzwa",
            "leave": r"\biache\b",
            "name": r"taje turufu|taja turufu",
            "alone": r"peke (yako|yake)",
            "with_dummy": r"mkono wa ziada",
            "keep": r"utakazobaki nazo",
            "play": r"cheza karata",
        },
    },
    "three_thirteen": {
        "en": {
            "draw:stock": r"draw from the stock",
            "draw:discard": r"take the (top )?discard",
            "go_out": r"go out",
            "discard": r"discard a card",
        },
        "sw": {
            "draw:stock": r"chota kwenye fungu la kuchota",
            "draw:discard": r"chukua karata (ya juu )?ya rundo",
            "go_out": r"kutoka",
            "discard": r"tupa karata",
        },
    },
}


def offered(game: str, actions) -> set[str]:
    """The moves a keyboard offers, named as in NAMED."""
    moves = set()
    for action in actions:
        kind = action["type"]
        if game == "kadi" and kind == "play" and action.get("call"):
            moves.add("play+call")
        if game == "three_thirteen" and kind == "draw":
            kind = f"draw:{action['from']}"
        moves.add(kind)
    return moves


def check_decision(frame, player: str, language: str) -> None:
    _ = translator(language)
    table, game, state = frame.table, frame.game, frame.state
    renderer = renderer_for(table.game)
    seen = seen_by(table, game, state, player, _)
    view = player_view(table, game, state, player)
    actions = [node.action for node in seen.tree.nodes if node.action is not None]
    prompt = renderer.prompt(view, seen.legal, player in game.to_act(state), _)
    moves = offered(table.game, actions)
    for move, words in NAMED[table.game][language].items():
        named = re.search(words, prompt, re.IGNORECASE if move not in ("ready",) else 0) is not None
        assert named == (move in moves), (
            f"{table.game} ({language}): the prompt {prompt!r} {'names' if named else 'does not name'} "
            f"{move!r}, and the keyboard {'offers' if move in moves else 'does not offer'} it"
        )
    if table.game == "kadi" and player in game.to_act(state) and seen.legal and view.get("phase") == "play":
        penalty, command = view.get("penalty"), view.get("command")
        if penalty:
            assert str(penalty["amount"]) in prompt and _("Penalty: draw {count}", count=penalty["amount"]) in prompt
        if command:
            assert renderer._command_label(command, _) in prompt, (prompt, command)


def check_match(game: str, count: int, seed: int, options: dict | None = None) -> None:
    for frame in play(game, count, seed, options, max_moves=150):
        if frame.table.status != "playing":
            break
        # Everyone who may act, and one who waits (their prompt must offer nothing).
        game_, state = frame.game, frame.state
        acting = [player for player in frame.table.players if game_.legal_actions(state, player)]
        waiting = [player for player in frame.table.players if player not in acting][:1]
        for player in acting + waiting:
            for language in ("en", "sw"):
                check_decision(frame, player, language)


GAMES = [
    ("kadi", 4, {}),
    ("kadi", 3, {"voluntary_draw": True, "hiding": True, "hand_size": 5}),
    ("kadi", 2, {"niko_kadi_ahead": True, "hand_size": 5}),
    ("lopti", 3, {}),
    ("lopti", 2, {"house_rules": "templates"}),
    ("pitch", 4, {}),
    ("pitch", 3, {"smudge": True, "min_bid": 2}),
    ("euchre3", 3, {}),
    ("euchre3", 3, {"stick_the_dealer": True, "dealer_must_pick_up": True}),
    ("three_thirteen", 3, {}),
]


@pytest.mark.parametrize(
    "game, count, options", GAMES, ids=[f"{g}-{n}-{'-'.join(o) or 'standard'}" for g, n, o in GAMES]
)
@settings(deadline=None, max_examples=2, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_the_prompt_names_exactly_what_the_keyboard_offers(game, count, options, seed):
    check_match(game, count, seed, options)
