"""Every event an engine emits is told where players should learn of it: a line on the table in
both languages, or it is one of the renderer's quiet events, each with where the table shows
it instead. The kinds are read from the engines' code, so a new kind fails here until it has
a sample below and a text (or a reason to be quiet).

A timeout is told by the table service's own event: who ran out of time, and in the same line
what the bot did for them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from handlers.i18n import translator
from handlers.presentation.games import renderer_for
from tests.render.playouts import NAMES, play

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("kadi", "lopti", "pitch", "euchre3", "three_thirteen")
PLAYERS = {str(1001 + index): name for index, name in enumerate(NAMES)}
A, B, C = "1001", "1002", "1003"
RULE = {
    "id": 2,
    "author": A,
    "round": 1,
    "text": "After a play: the next player draws 1 card.",
    "rule": {"when": "after", "event": "play", "if": {}, "do": [{"effect": "draw", "who": "next", "n": 1}]},
}

# One event of each kind, as the engines' docstrings describe them (spectator views).
SAMPLES = {
    "kadi": {
        "dealt": {
            "round": 2,
            "dealer": A,
            "seats": [A, B],
            "hand_size": 7,
            "start_card": "6H",
            "buried": [],
            "first": B,
        },
        "played": {"player": A, "cards": ["7H", "7S"], "left": 3, "skipped": [B, C]},
        "drew": {"player": A, "count": 1},
        "penalty_drawn": {"player": A, "owed": 4, "count": 4},
        "power_finish_draw": {"player": A, "count": 1},
        "missed_call": {"player": A, "count": 2},
        "called": {"player": A},
        "passed": {"player": A},
        "reshuffled": {"cards": 30},
        "hid": {"player": A, "left": 4},
        "unhid": {"player": A, "left": 5},
        "accused": {"accuser": A, "target": B, "caught": True, "payer": B, "count": 5},
        "provisional_win": {"player": A},
        "accepted": {"player": B},
        "win_voided": {"player": A},
        "won": {"player": A},
        "blocked": {"round": 2},
        "round_scored": {"round": 2, "winner": A, "points": {A: 0, B: 12}, "totals": {A: 3, B: 40}, "hands": {}},
        "eliminated": {"players": [B]},
        "match_over": {"winners": [A], "totals": {A: 3, B: 140}},
    },
    "lopti": {
        "dealt": {"round": 1, "dealer": A, "starter": B, "face_up": {}, "stock_count": 20},
        "swapped": {"player": A, "to_face_up": "4H", "to_hand": "AS"},
        "ready": {"player": A},
        "play_started": {"player": B},
        "played": {"player": A, "cards": ["9H", "9S"], "extra": False},
        "flipped": {"player": A, "position": 1, "card": "KD", "legal": True, "extra": False},
        "obligation_passed": {"player": A, "to": B},
        "burned": {"player": A, "cause": "ten", "cards": ["4S", "10H"]},
        "took": {"player": A, "cards": ["4S", "5S"], "forced": False},
        "drew": {"player": B, "count": 1, "rule": 2},
        "face_up_taken": {"player": A, "cards": ["4S"]},
        "extra_play": {"player": A},
        "out": {"player": A, "place": 1},
        "round_won": {"player": A, "round": 1, "places": [A, B], "scores": {A: 1, B: 0}},
        "rule_authored": {"player": A, "rule": RULE},
        "no_rule": {"player": A},
        "rule_deleted": {"player": A, "rule": 2},
        "timed_out": {"players": [A], "phase": "play"},
        "rule_fired": {"rule": 2, "event": "play", "when": "after", "player": A},
        "gave": {"player": A, "to": B, "count": 2, "rule": 2},
        "skip_set": {"player": B, "rule": 2},
        "skipped": {"player": B},
        "reversed": {"direction": "anticlockwise", "rule": 2},
        "revealed": {"player": B, "cards": ["4S", "QH"], "rule": 2},
        "burned_returned": {"cards": ["4S"], "stock_count": 5, "rule": 2},
        "proposed": {
            "player": A,
            "vote": 1,
            "change": {"remove": 2},
            "starts": "now",
            "members": [A, B, C],
            "needed": 2,
        },
        "voted": {"player": B, "yes": True, "vote": 1, "counts": {"yes": 1, "no": 0}},
        "vote_withdrawn": {"player": B, "vote": 1, "counts": {"yes": 0, "no": 0}},
        "vote_closed": {"vote": 1, "result": "tie", "yes": 1, "no": 1, "members": [A, B], "ballots": {}},
        "vote_void": {"vote": 1, "rule": 2},
        "change_applied": {"change": {"remove": 2}},
        "change_scheduled": {"change": {"option": "ten_on_seven", "value": True}},
        "change_rejected": {"change": {"remove": 2}, "vote": 1},
        "duel_started": {
            "vote": 1,
            "change": {"remove": 2},
            "starts": "now",
            "proposer": A,
            "defender": B,
            "stage": "author",
            "target": 16,
        },
        "duel_unopposed": {"vote": 1, "proposer": A},
        "author_absent": {"player": B, "vote": 1, "supporters": [C]},
        "champion": {"player": C, "vote": 1},
        "no_champion": {"vote": 1},
        "throw_made": {"player": A, "vote": 1},
        "throws_revealed": {"signs": {A: "rock", B: "paper"}, "winner": B, "score": {A: 0, B: 1}},
        "duel_won": {"player": A, "side": "proposer", "score": {A: 16, B: 3}, "vote": 1},
    },
    "pitch": {
        "dealt": {"hand": 2, "dealer": A, "counts": {A: 6, B: 6}},
        "timed_out": {"player": A},
        "passed": {"player": A},
        "bid": {"player": A, "value": 3, "steal": False, "forced": False},
        "auction_won": {"pitcher": A, "bid": 3, "smudge": False},
        "played": {"player": A, "card": "AS", "trick": 1},
        "trump_set": {"player": A, "suit": "S"},
        "trick_won": {"player": A, "trick": 1, "plays": [{"player": A, "card": "AS"}, {"player": B, "card": "2S"}]},
        "hand_scored": {
            "hand": 2,
            "dealer": B,
            "pitcher": A,
            "bid": 3,
            "smudge": False,
            "made": False,
            "trump": "S",
            "high": {"card": "AS", "by": A},
            "low": {"card": "2S", "by": B},
            "jack": None,
            "game": {"by": [B], "trick_points": {A: 4, B: 10}},
            "tricks": {A: 3, B: 3},
            "points": {A: 1, B: 2},
            "change": {A: -3, B: 2},
            "scores": {A: 4, B: 6},
        },
        "match_won": {"winners": [A], "scores": {A: 7, B: 3}},
    },
    "euchre3": {
        "dealt": {"round": 2, "dealer": A, "up_card": "9H", "hand_size": 5},
        "passed": {"player": A, "bidding_round": 1},
        "up_card_turned_down": {"card": "9H"},
        "trump_made": {"player": A, "trump": "H", "bidding_round": 1, "label": "order_up"},
        "took_up_card": {"player": A, "card": "9H"},
        "picked_up": {"player": A, "card": "9H"},
        "left_up_card": {"player": A, "card": "9H"},
        "thrown_in": {"round": 2, "next_dealer": B},
        "maker_alone": {"player": A},
        "maker_with_dummy": {"player": A},
        "kept": {"player": A, "discarded": 5},
        "defender_alone": {"player": B, "sitting_out": C},
        "defender_passed": {"player": B},
        "play_started": {
            "leader": B,
            "trump": "H",
            "maker": A,
            "maker_alone": False,
            "lone_defender": None,
            "sitting_out": None,
        },
        "played": {"player": A, "card": "9H"},
        "trick_won": {"player": A, "trick": 1, "cards": ["9H", "10H", "QH"]},
        "round_scored": {
            "round": 2,
            "maker": A,
            "maker_tricks": 3,
            "euchred": False,
            "points": {A: 1},
            "scores": {A: 5},
        },
        "match_won": {"winners": [A], "scores": {A: 10}},
        "timed_out": {"player": A, "phase": "play"},
    },
    "three_thirteen": {
        "round_started": {
            "round": 2,
            "dealer": A,
            "players": [A, B],
            "deal_size": 4,
            "wild_rank": "4",
            "upcard": "9H",
            "stock_count": 40,
            "turn": B,
        },
        "timed_out": {"player": A, "phase": "draw"},
        "stock_reshuffled": {"stock_count": 30},
        "drew": {"player": A, "from": "discard", "card": "9H"},
        "discarded": {"player": A, "card": "9H"},
        "went_out": {"player": A, "melds": [["3S", "3H", "3D"]], "discard": "9H", "first": True, "final_turns": [B]},
        "round_scored": {
            "round": 2,
            "went_out": [A],
            "hands": {A: {"melds": [["3S", "3H", "3D"]], "deadwood_cards": [], "deadwood": 0}},
            "points": {A: 0},
            "totals": {A: 10},
        },
        "tie_break": {"players": [A, B]},
        "match_over": {"winners": [A], "totals": {A: 50, B: 60}},
    },
}


def emitted_kinds(game: str) -> set[str]:
    """Every event kind the engine's code makes: the first argument of its event calls."""
    kinds = set()
    for path in (ROOT / "engine" / game).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if called.lower().endswith("event") and isinstance(node.args[0].value, str):
                    kinds.add(node.args[0].value)
    return kinds


@pytest.mark.parametrize("game", GAMES)
def test_every_event_kind_has_a_sample(game):
    kinds = emitted_kinds(game)
    assert kinds, f"no event kinds found in engine/{game}"
    assert kinds <= set(SAMPLES[game]), f"add a sample (and a text) for {sorted(kinds - set(SAMPLES[game]))}"


@pytest.mark.parametrize("game", GAMES)
def test_every_event_has_a_line_or_a_reason_to_be_quiet(game):
    renderer = renderer_for(game)
    untold = []
    for kind in sorted(emitted_kinds(game)):
        if kind in renderer.quiet_events:
            assert renderer.quiet_events[kind], f"{kind}: say where the table shows it"
            continue
        event = {"kind": kind, **SAMPLES[game][kind]}
        for language in ("en", "sw"):
            lines = renderer.log_lines([event], translator(language), PLAYERS)
            if not lines or any("{" in line for line in lines):
                untold.append(f"{kind} ({language}): {lines}")
    assert not untold, f"{game} events the table never tells: {untold}"


@pytest.mark.parametrize("game", GAMES)
def test_a_timeout_says_who_ran_out_of_time_and_what_the_bot_did(game):
    renderer = renderer_for(game)
    moves = {"kadi": "drew", "lopti": "took", "pitch": "played", "euchre3": "played", "three_thirteen": "drew"}
    move = {"kind": moves[game], **SAMPLES[game][moves[game]]}
    engine_note = {"kind": "timed_out", **SAMPLES[game].get("timed_out", {"player": A})}
    events = [{"kind": "timed_out", "players": [A]}, engine_note, move]
    english = renderer.log_lines(events, translator("en"), PLAYERS)
    swahili = renderer.log_lines(events, translator("sw"), PLAYERS)
    assert len(english) == 1 and english[0].startswith("⏰ Time's up for Amina, so I moved for them: Amina "), english
    assert len(swahili) == 1 and swahili[0].startswith("⏰ Muda wa Amina umekwisha, kwa hiyo nimemchezea: Amina "), (
        swahili
    )


def test_every_kind_a_random_match_shows_has_its_sample_and_a_line():
    """The samples keep up with what the engines really emit, and what they emit is told."""
    for game in GAMES:
        seen: dict[str, dict] = {}
        for frame in play(game, 3, 7, max_moves=300, timeouts=0.1):
            for event in frame.events:
                seen.setdefault(event["kind"], event)
        for kind, event in seen.items():
            if kind == "timed_out" and "phase" not in event and "player" not in event:
                continue  # the table service's
            assert kind in SAMPLES[game], f"{game}: {kind}"
            quiet = kind in renderer_for(game).quiet_events or (
                game == "lopti" and kind == "drew" and "rule" not in event
            )
            assert quiet or renderer_for(game).log_lines([event], translator("sw"), PLAYERS), (game, event)
