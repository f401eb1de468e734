"""The `karata` command as a newcomer and a developer meet it: the demo, the arena, replay files.

Demos here play Three Thirteen's first round (three cards each, two players): about a second.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import bot.demo
from bot.cli import TOKEN_STEPS, main
from bot.demo import shown_text
from bot.progress import progress_bar
from fakeapi import MessageRecord

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = ROOT / "tests" / "kadi" / "replays"
SHORT_DEMO = ["demo", "three_thirteen", "--players", "2"]


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exit:  # argparse's refusals and --help
        code = exit.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_an_unknown_arena_game_is_named_with_the_games(capsys):
    code, out, err = run(["arena", "poker"], capsys)
    assert code == 2 and out == ""
    assert "unknown game poker; games: lopti, kadi, pitch, euchre3, three_thirteen" in err


@pytest.mark.parametrize("matches", ["-1", "0", "many"])
def test_arena_refuses_a_number_of_matches_below_one(capsys, matches):
    code, out, err = run(["arena", "kadi", "--matches", matches], capsys)
    assert code == 2 and out == ""
    assert "--matches" in err and "%" not in err


def test_help_shows_every_options_default(capsys):
    code, out, _ = run(["demo", "--help"], capsys)
    out = " ".join(out.split())  # argparse wraps to the terminal's width
    assert code == 0
    for shown in ("(default: kadi)", "(default: 3)", "(default: 1)", "(default: sw)", "(default: False)"):
        assert shown in out, shown
    code, out, _ = run(["arena", "--help"], capsys)
    out = " ".join(out.split())
    assert code == 0
    for shown in ("(default: strong,random)", "(default: 20; Lopti: 6", "(default: 1)"):
        assert shown in out, shown


def test_karata_replay_plays_a_file_with_engine_replays_exit_codes(capsys):
    code, out, _ = run(["replay", str(REPLAYS / "quick_round.json")], capsys)
    assert code == 0 and json.loads(out)["ok"] is True
    code, out, _ = run(["replay", str(REPLAYS / "refused_card.json")], capsys)
    assert code == 1 and json.loads(out)["error"]["code"]
    code, out, err = run(["replay", str(REPLAYS / "malformed_command.json")], capsys)
    assert code == 2 and out == "" and err.startswith("karata replay: ") and "malformed_command.json" in err
    code, out, err = run(["replay", "--help"], capsys)
    assert code == 0 and "Exit status: 0" in " ".join(out.split()) and "scores" in out


def test_a_missing_replay_file_is_said_to_be_missing(capsys, tmp_path):
    missing = tmp_path / "gone.json"
    code, out, err = run(["replay", str(missing)], capsys)
    assert code == 2 and out == ""
    assert err.strip() == f"karata replay: cannot read {missing}: no such file or directory"


def test_python_m_engine_replay_help_prints_its_usage():
    done = subprocess.run([sys.executable, "-m", "engine.replay", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("usage: python -m engine.replay FILE")
    assert "Exit status" in done.stdout


def test_a_player_count_the_game_cannot_seat_is_refused_with_its_range(capsys):
    code, out, err = run(["demo", "--players", "7"], capsys)
    assert code == 2 and out == ""
    # Kadi seats seven only with hands of six or fewer; the demo deals the standard seven.
    assert "Kadi seats 2 to 6 players in the demo, not 7" in err
    code, out, err = run(["demo", "euchre3", "--players", "4"], capsys)
    assert code == 2 and "Euchre for three seats exactly 3 players" in err and "3-3" not in err


def test_a_demo_that_never_deals_says_why_and_fails(capsys, monkeypatch):
    # As before the demo checked the count: the bot refuses to start seven at Kadi's hands of seven.
    monkeypatch.setattr(bot.demo, "demo_players_problem", lambda game, players: None)
    code, out, err = run(["demo", "--players", "7"], capsys)
    assert code == 1
    assert "the table never started" in err
    assert "raundi imekwisha" not in out


def test_the_same_seed_gives_the_same_swahili_transcript(capsys):
    first = run([*SHORT_DEMO, "--seed", "6"], capsys)
    again = run([*SHORT_DEMO, "--seed", "6"], capsys)
    other = run([*SHORT_DEMO, "--seed", "1"], capsys)
    assert first[0] == again[0] == other[0] == 0
    assert first[1] == again[1]
    assert first[1] != other[1], "the seed chooses the deal"
    # Swahili, the bot's default, and short: the start and the end of the round.
    assert first[1].startswith("── kikundi ──\n")
    assert first[1].endswith("── raundi imekwisha ──\n")
    assert "(gumzo binafsi) ──" in first[1]
    assert len(first[1].splitlines()) < 80
    # Captured output is no terminal: no progress bar.
    assert first[2] == ""


def test_verbose_prints_every_message_in_english_on_request(capsys):
    short = run([*SHORT_DEMO, "--language", "en"], capsys)
    verbose = run([*SHORT_DEMO, "--language", "en", "--verbose"], capsys)
    assert short[0] == verbose[0] == 0
    assert verbose[1].endswith("── the round is over ──\n")
    assert "A new table is open" in verbose[1] and "A new table is open" not in short[1]
    assert len(verbose[1].splitlines()) > 2 * len(short[1].splitlines())


def test_without_a_token_the_steps_come_first_and_last(capsys, monkeypatch):
    monkeypatch.delenv("BOT_TOKEN", raising=False)
    monkeypatch.setattr(bot.demo, "_demo", _short_demo(bot.demo._demo))
    code, out, _ = run([], capsys)
    assert code == 0
    assert "@BotFather" in out.split("── kikundi ──")[0]
    assert out.endswith(TOKEN_STEPS)
    assert "--language en" in TOKEN_STEPS


def _short_demo(demo):
    """The no-token demo with Three Thirteen's short first round instead of Kadi's."""

    async def short(game, players, seed, language, verbose):
        return await demo("three_thirteen", 2, seed, language, verbose)

    return short


def test_progress_is_shown_on_a_terminal_only():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal, pipe = Terminal(), io.StringIO()
    for file in (terminal, pipe):
        with progress_bar(3, "kadi arena", "matches", file=file) as bar:
            bar.update(3)
    assert "kadi arena:" in terminal.getvalue() and "/3" in terminal.getvalue()
    assert pipe.getvalue() == ""


def test_a_piped_arena_prints_a_line_per_match_and_no_progress_bar():
    environment = {key: value for key, value in os.environ.items() if key != "BOT_TOKEN"}
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "arena", "pitch", "--seats", "random,random", "--matches", "2"],
        cwd=ROOT, capture_output=True, text=True, env=environment,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert [line.split(" (")[0] for line in lines] == [
        "pitch arena: match 1 of 2 played",
        "pitch arena: match 2 of 2 played",
    ]
    assert "\r" not in done.stderr and "it/s" not in done.stderr
    assert done.stdout.startswith("pitch: 2 matches")


class _Polls:
    polls = {"7": {"question": "Rule Vote: switch on a 10 may follow a 7?", "options": ["Yes", "No"]}}


def test_a_poll_is_shown_with_its_question_and_options():
    message = MessageRecord(
        chat_id=-1, message_id=3, from_bot=True, sender_id=1, date=0, text=None, parse_mode=None, plain=None,
        entities=[], reply_markup=None, poll_id="7",
    )  # fmt: skip
    message.snapshot(0.0)
    shown = shown_text(_Polls(), message, message.versions[0])  # type: ignore[arg-type]
    assert shown == "📊 Rule Vote: switch on a 10 may follow a 7?\n○ Yes\n○ No"


# Each refusal: the command line, and what its one line must say.
REFUSED = [
    (["demo", "--language", "fr"], "karata demo: --language: 'fr' is not one of sw, en"),
    (["demo", "--seed", "x"], "karata demo: --seed: 'x' is not a whole number"),
    (["demo", "--webapp", "x"], "karata demo: --webapp: 'x' is not a whole number"),
    (["demo", "--bogus"], "karata demo: unknown option or argument --bogus"),
    (["demo", "euchre3", "--players", "4"], "karata demo: --players: Euchre for three seats exactly 3 players"),
    (["arena", "euchre3"], "karata arena: euchre3 needs exactly 3 seats"),
    (["arena", "kadi", "--seats", "strong,bogus"], "karata arena: --seats: unknown seat kind 'bogus'"),
    (["arena"], "karata arena: missing GAME"),
    (["backup"], "karata backup: missing FILE"),
    (["replay", "README.md"], "karata replay: README.md is not a replay file"),
    (["bogus"], "karata: unknown command 'bogus'; commands: run, backup"),
]


@pytest.mark.parametrize("argv, said", REFUSED, ids=[" ".join(argv) for argv, _said in REFUSED])
def test_every_refusal_is_one_line_in_the_commands_voice(capsys, monkeypatch, argv, said):
    monkeypatch.chdir(ROOT)
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(said), err
    for internal in ("usage:", "invalid int value", "invalid choice", "error:", "Traceback"):
        assert internal not in err, err


def test_the_arena_says_how_to_name_the_seats(capsys):
    _code, _out, err = run(["arena", "euchre3"], capsys)
    assert "--seats names 2 (strong,random)" in err and "e.g. --seats strong,easy,random" in err


@pytest.mark.parametrize(
    "variable, value, said",
    [
        ("KARATA_GROUP_LANGUAGE", "fr", "must be sw or en"),
        ("KARATA_HTTP_PORT", "x", "must be a whole number"),
        ("KARATA_HTTP_PORT", "99999", "must be at most 65535"),
        ("KARATA_VOTE_SECONDS", "0", "must be more than 0"),
        ("KARATA_WEBAPP_NAME", "a", "must be 3 to 30 letters, digits or _"),
    ],
)
def test_a_bad_setting_is_said_in_plain_words(capsys, monkeypatch, variable, value, said):
    monkeypatch.setenv("BOT_TOKEN", "123456:ABCdefGhIJKlmnoPQRstuVWXyz_0123456789")
    monkeypatch.setenv(variable, value)
    code, out, err = run(["run"], capsys)
    assert code == 2 and out == ""
    assert err == f"karata run: bad setting {variable}: {said}\n"
    assert "should" not in err and "pattern" not in err


def test_run_without_a_token_shows_the_botfather_steps(capsys, monkeypatch):
    monkeypatch.delenv("BOT_TOKEN", raising=False)
    code, out, err = run(["run"], capsys)
    assert code == 2 and out == ""
    assert err == "karata run: BOT_TOKEN is not set\n" + TOKEN_STEPS
