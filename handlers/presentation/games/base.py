"""What a game's renderer provides, with plain defaults that make any engine playable.

A renderer turns views and events (never raw states) into localized text, and each legal action
into a path of button labels (see handlers/presentation/action_tree.py). Adding a game is an engine
package plus a subclass of this (docs/ARCHITECTURE.md, "add a game").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from handlers.i18n import N_, Translator
from handlers.presentation import cards as show
from handlers.presentation.action_tree import Alone, Card, Shortcut, Step

ACTION_LABELS: dict[str, str] = {
    "draw": N_("Draw"),
    "pass": N_("Pass"),
    "take": N_("Take the pile"),
    "ready": N_("Ready"),
    "call": N_("Kadi Moja!"),
    "accept": N_("Accept"),
    "leave": N_("Leave it"),
    "alone": N_("Go alone"),
    "with_dummy": N_("Take the dummy"),
    "no_rule": N_("No rule"),
    "unhide": N_("Unhide"),
    "timeout": N_("Time out"),
}


# The table service's event for a timeout, first in the events of the move it made
# (tables/table_core.py TIMED_OUT); engines emit their own `timed_out`, with a phase or a player.
TIMED_OUT = "timed_out"
# The table service's event for a player who left a running match (tables/table_core.py REPLACED).
REPLACED = "replaced"
NAME_LIMIT = 20
MATCH_END_KINDS = ("match_over", "match_won")

# The key of a table button that opens the presser's proposals in their private chat (it stands
# for no move: play.py answers it before the table service is asked).
PROPOSALS_KEY = "propose"

# Moves that stand on a row of their own, away from the cards.
LONE_MOVES = ("draw", "take", "pass", "go_out")


class GameRenderer:
    game: str = ""
    title: str = ""
    # Localized answers to this game's refusal codes (code -> N_ message).
    refusal_texts: dict[str, str] = {}
    # Cards in a hand are shown sorted by this key.
    hand_sort_key = staticmethod(show.by_suit_then_rank)
    # Action types players race to make (Kadi's "Kadi Moja!"): the Mini App gives them a big button.
    call_actions: frozenset[str] = frozenset()

    # ----- the private hand message -------------------------------------------------------
    def hand_cards(self, view: Mapping[str, Any]) -> list[str]:
        hand = view.get("hand")
        if isinstance(hand, list):
            return show.sort_hand(hand, self.hand_sort_key)
        return []

    def hand_lines(self, view: Mapping[str, Any], _: Translator, active: bool = True) -> list[str]:
        hand = self.hand_cards(view)
        if not hand:
            return [_("Your hand is empty.")]
        return [_("Your hand: {cards}", cards=show.cards(hand))]

    def prompt(
        self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], your_turn: bool, _: Translator
    ) -> str:
        if your_turn:
            return _("Your turn: choose below.")
        if legal:
            return _("You may act now.")
        return _("Wait for your turn.")

    def builder_button(self, view: Mapping[str, Any], player: str, _: Translator) -> str | None:
        """The label of a button that opens a step-by-step builder for this player now, if any."""
        return None

    def carry_over(self, previous: Mapping[str, Any], seated: Mapping[str, str]) -> dict[str, Any] | None:
        """What the opener proposes at a new session's start from the last session's final
        (spectator) view; `seated` maps the previous session's names to players seated now."""
        return None

    def extra_actions(self, view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
        """Actions the engine accepts but cannot list (they carry free data): offered as buttons
        too, and checked by the engine like any other press."""
        return []

    def order_actions(self, actions: Sequence[Mapping[str, Any]], view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        """The order buttons appear in (the tree is numbered in this order, so it must be stable)."""
        return list(actions)

    # The game's rules can be changed by a vote of its players (Lopti's Rule Vote).
    rule_vote = False

    def proposal_refusal(self, view: Mapping[str, Any], player: str) -> str | None:
        """Why `player` cannot propose a change to the rules now (a refusal code), or None when
        they can: /vote and the table's vote button then open `proposal_branch` in private."""
        return "no_rule_vote"

    def proposal_branch(self, _: Translator) -> str | None:
        """The label of the private keyboard's branch that holds the player's proposals."""
        return None

    def table_buttons(self, view: Mapping[str, Any], names: Mapping[str, str], _: Translator) -> list[tuple[str, str]]:
        """Buttons on the group table that any player may press: (label, key); see `table_action`."""
        return []

    def text_action(self, view: Mapping[str, Any], text: str) -> dict[str, Any] | None:
        """The action a message typed in the private chat stands for now (e.g. a house rule)."""
        return None

    def group_text_action(self, view: Mapping[str, Any], text: str) -> dict[str, Any] | None:
        """The action a seated player's message in the group stands for (a reply to the table,
        or a command of this game such as /kadi), or None when it means nothing here."""
        return None

    def poll_for(
        self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]
    ) -> tuple[str, str, list[str]] | None:
        """The poll the group should see now: (key, question, answers), or None."""
        return None

    def poll_action(self, key: str, option_ids: Sequence[int], view: Mapping[str, Any]) -> dict[str, Any] | None:
        """The action a poll answer stands for (the voter is the actor), or None."""
        return None

    def table_action(self, key: str, view: Mapping[str, Any]) -> dict[str, Any] | None:
        """The action a table button's key stands for (the presser is the actor), or None."""
        return None

    def table_button_warning(self, key: str, _: Translator) -> str | None:
        """A toast to show on the first press of a costly table button; a second press confirms."""
        return None

    def action_path(self, action: Mapping[str, Any], view: Mapping[str, Any], _: Translator) -> list[Step]:
        """The taps that make `action`: `Card` steps for cards (several in a row are chosen
        together, in that order), `Alone` for a move that needs a row of its own."""
        kind = action["type"]
        if "cards" in action:
            return [Card(show.card(code), code) for code in action["cards"]]
        if "card" in action:
            return [Card(show.card(action["card"]), action["card"])]
        label = _(ACTION_LABELS[kind]) if kind in ACTION_LABELS else kind
        extras = [f"{value}" for key, value in action.items() if key != "type"]
        text = " ".join([label, *extras])
        return [Alone(text) if kind in LONE_MOVES else text]

    def action_paths(self, action: Mapping[str, Any], view: Mapping[str, Any], _: Translator) -> list[list[Step]]:
        """Every way of tapping `action` (one, unless the order of some taps does not matter)."""
        return [self.action_path(action, view, _)]

    # ----- the table drawn as cards (the Mini App: handlers/webapp/snapshot.py) -------------
    def board(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> dict[str, Any]:
        """The centre of the table as zones of cards, and what everyone may know of each seat:
        {"zones": [zone(...)], "seats": {player: {"cards", "score", "note", "face_up", "face_down"}}}."""
        players = view.get("players") or []
        return {
            "zones": self.board_zones(view, _, names),
            "seats": {player: self.board_seat(view, player, _) for player in players},
        }

    def board_zones(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[dict[str, Any]]:
        """By default the table message's centre lines, as one zone of text."""
        lines = self.centre_lines(view, _, names)
        return [zone("centre", "", note="\n".join(lines))] if lines else []

    def board_seat(self, view: Mapping[str, Any], player: str, _: Translator) -> dict[str, Any]:
        counts = view.get("hand_counts") or view.get("counts") or {}
        scores = view.get("scores") or {}
        return {
            "cards": counts.get(player),
            "score": self.score_text(scores[player], _) if player in scores else None,
            "note": self.seat_note(view, player, _) or None,
            "face_up": [],
            "face_down": 0,
        }

    def seat_note(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        """What the app writes beside a seat: only what it does not draw (the seat's card count,
        score and cards, the trick's cards are drawn), e.g. roles and tricks taken."""
        return ", ".join(tricks_taken(view, player, _))

    # ----- the group table message --------------------------------------------------------
    # Event kinds that never get a line of their own, each with where players learn of it. Any
    # other kind an engine emits must have a line (tests/render/test_every_event_is_told.py).
    quiet_events: dict[str, str] = {
        "dealt": "the new hands and the table show the deal",
        "round_started": "the new hands and the table show the deal",
        "play_started": "the table marks whose turn it is",
        "timed_out": "the table service's own timed_out event tells who ran out of time",
    }

    def round_text(self, view: Mapping[str, Any], number: int, _: Translator) -> str:
        return _("Round {number}", number=number)

    def goal_text(self, view: Mapping[str, Any], _: Translator) -> str | None:
        """The score that ends the match, shown from round 1 (None: a game without one)."""
        return None

    def seat_detail(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        return ", ".join(cards_and_tricks(view, player, _))

    def rules_lines(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[str]:
        """The table's house rules, for /rules (games without house rules have none)."""
        return []

    def score_text(self, score: int, _: Translator) -> str:
        return _.plural("{count} point", "{count} points", score)

    def centre_lines(
        self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str], compact: bool = False
    ) -> list[str]:
        """The centre of the table; `compact` when the full one leaves the events no room."""
        return []

    def event_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
        return None

    def timeout_move_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
        """A line for a move the table does not usually tell (a card the seats show), when the
        bot made it for a player who ran out of time."""
        return None

    def log_lines(self, events: Sequence[Mapping[str, Any]], _: Translator, names: Mapping[str, str]) -> list[str]:
        """The table's lines for these events, oldest first. A timeout's line says who ran out
        of time and, in the same line, what the bot did for them."""
        lines: list[str] = []
        timed_out: Mapping[str, Any] | None = None
        for event in events:
            if event["kind"] == TIMED_OUT and "phase" not in event and "player" not in event:
                if timed_out is not None:
                    lines.append(timed_out_line(timed_out, None, _, names))
                timed_out = event
                continue
            if event["kind"] == TIMED_OUT:
                continue  # the engine's own note of a timeout: the table's says it already
            if event["kind"] == REPLACED:
                lines.append(replaced_line(event, _))
                continue
            line = self.event_line(event, _, names)
            if line is None and timed_out is not None:
                line = self.timeout_move_line(event, _, names)
            if line is None:
                continue
            if timed_out is not None:
                line, timed_out = timed_out_line(timed_out, line, _, names), None
            lines.append(line)
        if timed_out is not None:
            lines.append(timed_out_line(timed_out, None, _, names))
        return lines

    def private_event_line(
        self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str], reader: str | None = None
    ) -> str | None:
        """A line of the reader's private message for an event of their last move (their view of it)."""
        return self.event_line(event, _, names)

    # Event kinds that close a round, and the names of their per-player points and totals.
    round_end_kinds: tuple[str, ...] = ("round_scored", "hand_scored")

    def round_summary(self, events: Sequence[Mapping[str, Any]], _: Translator, names: Mapping[str, str]) -> list[str]:
        """The score table posted between rounds (empty when no round ended): each player's
        total and what this round changed it by."""
        for event in events:
            if event["kind"] not in self.round_end_kinds:
                continue
            lines = ["<b>" + _("Round {number} results", number=event.get("round") or event.get("hand") or "") + "</b>"]
            lines.extend(self.round_score_lines(event, _, names))
            won = next((later for later in events if later["kind"] in MATCH_END_KINDS), None)
            if won is not None and won.get("winners"):
                lines.append(winners_line(won["winners"], _, names))
            return lines
        return []

    def round_score_lines(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[str]:
        # `change` is what a round did to a total (Pitch's set-back is negative); `points`
        # what it won, which for the other games is the change.
        changes = event.get("change") or event.get("points") or {}
        totals = event.get("totals") or event.get("scores") or {}
        return [
            f"{name(names, player)}: {totals.get(player, changes.get(player))}{signed(changes.get(player))}"
            for player in totals or changes
        ]

    def match_end_line(
        self, scores: Mapping[str, int], winners: Sequence[str], player: str, _: Translator, names: Mapping[str, str]
    ) -> str:
        """The reader's last private line: how the match ended for them, with their score."""
        score = self.score_text(scores.get(player, 0), _)
        if player in winners:
            return _("Match over: you won ({score}).", score=score)
        if not winners:
            return _("Match over: you finished with {score}.", score=score)
        listed = names_list(winners, names, _)
        return _.plural(
            "Match over: {names} won; you finished with {score}.",
            "Match over: {names} won; you finished with {score}.",
            len(winners),
            names=listed,
            score=score,
        )

    def result_lines(
        self,
        view: Mapping[str, Any],
        scores: Mapping[str, int],
        winners: Sequence[str],
        _: Translator,
        names: Mapping[str, str],
    ) -> list[str]:
        lines = []
        for player, score in sorted(scores.items(), key=lambda item: -item[1]):
            crown = "🏆 " if player in winners else ""
            lines.append(f"{crown}{name(names, player)}: {score}")
        return lines


def zone(
    zone_id: str,
    title: str,
    cards: Sequence[str] = (),
    count: int | None = None,
    note: str | None = None,
    groups: Sequence[Sequence[str]] | None = None,
    players: Sequence[str] | None = None,
) -> dict[str, Any]:
    """A zone of the table in the Mini App: its cards (engine codes), a count of cards not shown
    (a stock), a line of text, melds in groups, and who played each card (a trick)."""
    found: dict[str, Any] = {"id": zone_id, "title": title, "cards": list(cards), "count": count, "note": note or None}
    if groups is not None:
        found["groups"] = [list(group) for group in groups]
    if players is not None:
        found["players"] = list(players)
    return found


def trick_zone(view: Mapping[str, Any], _: Translator) -> dict[str, Any]:
    plays = view.get("trick") or []
    return zone(
        "trick", _("On the table"), [play["card"] for play in plays], players=[play["player"] for play in plays]
    )


def signed(change: int | None) -> str:
    """ " (+3)", " (-4)", or nothing when the round did not say."""
    if change is None:
        return ""
    return f" ({'+' if change >= 0 else '-'}{abs(change)})"


def timed_out_line(event: Mapping[str, Any], then: str | None, _: Translator, names: Mapping[str, str]) -> str:
    """«⏰ Time's up for Amina, so I moved for them: Amina drew 1 card.»"""
    players = list(event.get("players") or [])
    listed = names_list(players, names, _)
    if then is None:
        return "⏰ " + _("Time's up for {names}.", names=listed)
    return "⏰ " + _.plural(
        "Time's up for {names}, so I moved for them: {move}",
        "Time's up for {names}, so I moved for them: {move}",
        len(players),
        names=listed,
        move=then,
    )


def replaced_line(event: Mapping[str, Any], _: Translator) -> str:
    """«🚪 Amina left the game; 🤖 Juma plays on in that seat.» (the names as they sat then)."""
    left = escape(shorten(str(event.get("left", "")), NAME_LIMIT))
    by = escape(shorten(str(event.get("by", "")), NAME_LIMIT))
    return "🚪 " + _("{name} left the game; {computer} plays on in that seat.", name=left, computer=by)


def cards_and_tricks(view: Mapping[str, Any], player: str, _: Translator) -> list[str]:
    """ "5 cards", "2 tricks": what everyone may know of a seat, from `hand_counts` and `tricks_won`."""
    parts = []
    count = (view.get("hand_counts") or {}).get(player)
    if count:  # a seat that played its last card shows none
        parts.append(_.plural("{count} card", "{count} cards", count))
    tricks = (view.get("tricks_won") or {}).get(player)
    if tricks:
        parts.append(_.plural("{count} trick", "{count} tricks", tricks))
    return parts


def tricks_taken(view: Mapping[str, Any], player: str, _: Translator) -> list[str]:
    """ "2 tricks", or nothing before the seat takes one."""
    tricks = (view.get("tricks_won") or {}).get(player)
    return [_.plural("{count} trick", "{count} tricks", tricks)] if tricks else []


def winners_line(winners: Sequence[str], _: Translator, names: Mapping[str, str]) -> str:
    """«Mshindi: Amina» or «Washindi: Amina na Baraka»: a shared win reads in the plural."""
    listed = names_list(winners, names, _)
    return "🏆 " + _.plural("Winner: {names}", "Winners: {names}", len(winners), names=listed)


def name(names: Mapping[str, str], player: str) -> str:
    """A player's name for an HTML message: escaped, and cut so a long name cannot crowd a phone."""
    return escape(shorten(names.get(player, player), NAME_LIMIT))


def names_list(players: Sequence[str], names: Mapping[str, str], _: Translator) -> str:
    """Players' names (escaped) joined as the reader's language lists them: «Amina, Baraka na
    Chausiku», "Amina, Baraka, and Chausiku". Use it wherever several names share a sentence."""
    return _.list(name(names, player) for player in players)


def shorten(text: str, limit: int) -> str:
    """`text` in at most `limit` characters, cut between words and marked with «…»: a button
    label is never cut in the middle of a word."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > 0:
        cut = cut[:space]
    return cut.rstrip(" :;,.") + "…"


ALL_AT_ONCE = "⏩"


def all_of_a_rank(cards: Sequence[str], hand: Sequence[str]) -> Shortcut | None:
    """The one-press button for a play of `cards` that are every card of one rank in `hand` (two
    or more), naming them in the order given: «⏩ 5♥️ 5♠» (Kadi, Lopti). None for any other play."""
    if len(cards) < 2:
        return None
    rank = cards[0][:-1]
    if any(card[:-1] != rank for card in cards) or sum(card[:-1] == rank for card in hand) != len(cards):
        return None
    return Shortcut(f"{ALL_AT_ONCE} " + show.cards(cards), tuple(cards))
