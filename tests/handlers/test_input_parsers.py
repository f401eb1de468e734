"""Whatever arrives over the Bot API, the parsers answer with a value we made or a clean refusal."""

from __future__ import annotations

import sqlite3

from hypothesis import given
from hypothesis import strategies as st

from handlers.chat.lobby import parse_option_args
from handlers.presentation.callback_data import (
    KINDS,
    BadCallbackData,
    HandLink,
    HowTo,
    HowToLink,
    JoinLink,
    LobbyOp,
    MatchReplay,
    PickGame,
    PlayAgain,
    TableButton,
    TreeNode,
    decode,
    parse_start,
)

SQLITE_MAX = 2**63 - 1
# Text that looks like ours: our kinds and separators, digits of every script, huge numbers.
pieces = st.sampled_from(
    [
        "T",
        "P",
        "B",
        "L",
        "N",
        "G",
        "A",
        "H",
        "R",
        "j",
        "h",
        "how",
        "guide",
        ":",
        "_",
        "-",
        "!",
        "0",
        "1",
        "9",
        "²",
        "٣",
        "𝟗",
        "9" * 20,
        str(2**63),
        "start",
        "call",
        "accuse",
        "kadi",
        "en",
        " ",
        "\x00",
        "é",
    ]
)
crafted = st.one_of(st.text(max_size=80), st.lists(pieces, max_size=12).map("".join))


def numbers_of(value: object) -> list[int]:
    return [getattr(value, name) for name in ("table_id", "keyboard", "node", "version") if hasattr(value, name)]


@given(crafted)
def test_callback_data_is_ours_or_refused(data):
    try:
        parsed = decode(data)
    except BadCallbackData:
        return
    assert type(parsed) in KINDS
    for number in numbers_of(parsed):
        assert -SQLITE_MAX <= number <= SQLITE_MAX
        sqlite3.connect(":memory:").execute("SELECT ?", (number,))
    assert parsed.encode() == data, "only data we would have made is accepted"


@given(crafted)
def test_start_payloads_are_ours_or_nothing(payload):
    link = parse_start(payload)
    assert link is None or isinstance(link, (JoinLink, HandLink, HowToLink))
    if isinstance(link, (JoinLink, HandLink)):
        assert 0 <= link.table_id <= SQLITE_MAX
    if isinstance(link, HowToLink):
        assert link.payload() == payload, "only links we would have made are accepted"


@given(st.lists(crafted, max_size=6))
def test_newgame_options_parse_or_name_the_bad_word(words):
    options, timer, bad = parse_option_args(words)
    assert timer is None or 0 <= timer <= 3600
    assert bad is None or bad in [word[: len(bad)] for word in words]


def test_what_an_attacker_tried_is_refused():
    for forged in (
        "T:9999999999999999999:0:1",
        "A:" + str(2**63),
        "T:²:1:1",
        "T:1:1",
        "L:1:explode",
        "N:../../etc",
        "P:1:1:",
        "B:1:1:ZZ",
        "G:english",
        "T:" + "9" * 70,
        "H:kadi:rules",
        "H:Kadi",
        "H:kadi:guide:x",
        "H:",
        "R:0",
        "R:-1",
        "R:1:2",
        "R:٣",
    ):
        try:
            decode(forged)
        except BadCallbackData:
            continue
        raise AssertionError(f"accepted {forged!r}")
    assert parse_start("j9999999999999999999") is None
    assert parse_start("j²") is None
    assert parse_start("j12") is None, "joining needs the link's secret"
    assert (
        parse_start("how-sw-../kadi") is None and parse_start("guide-en-") is None and parse_start("how-kadi") is None
    )


def test_everything_we_make_parses_back():
    for made in (
        TreeNode(5, 123456789, -3),
        TableButton(5, 7, "accuse:2"),
        LobbyOp(5, "start"),
        PickGame("kadi"),
        PlayAgain(5),
        HowTo("three_thirteen"),
        HowTo("kadi", full=True),
        MatchReplay(5),
    ):
        assert decode(made.encode()) == made
    for link in (HowToLink("three_thirteen", False, "sw"), HowToLink("kadi", True, "en")):
        assert parse_start(link.payload()) == link
