"""Kadi at the table: cards sorted by suit, Jack commands, penalties, "Kadi Moja!", hiding mode."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any

from engine.core.cards import JOKER
from handlers.i18n import N_, Translator
from handlers.presentation import cards as show
from handlers.presentation.action_tree import Alone, Call, Card, Spare, Step
from handlers.presentation.fit import pack
from handlers.presentation.games.base import (
    NAME_LIMIT,
    GameRenderer,
    all_of_a_rank,
    name,
    names_list,
    shorten,
    winners_line,
    zone,
)

CALL = "📣"
KADI_CALL = re.compile(r"^\s*(kadi\s+moja|niko\s+kadi)\s*!*\s*$", re.IGNORECASE)
KIND_ORDER = {"call": 0, "play": 1, "draw": 2, "pass": 3, "accept": 4, "hide": 5, "unhide": 6, "accuse": 7}


class KadiRenderer(GameRenderer):
    game = "kadi"
    title = N_("Kadi")
    call_actions = frozenset({"call"})
    refusal_texts = {
        "penalty_pending": N_("Answer the penalty with a matching card, or draw."),
        "must_follow_command": N_("Follow the Jack's command, or draw."),
        "power_card_required": N_("A power card was demanded: play a 2, 7, 8, J or joker, or draw."),
        "illegal_card": N_("That card does not match the top card."),
        "no_call_due": N_("\u201cKadi Moja!\u201d is called only when you hold one card."),
        "command_required": N_("Choose a command: name a suit or demand a power card."),
        "power_finish_forbidden": N_("You cannot finish on a power card at this table."),
        "not_announced": N_("Say \u201cNiko Kadi\u201d a turn before you finish."),
        "must_play_drawn": N_("Only the card you drew may be played now."),
        "already_drew": N_("You already drew this turn."),
        "challenge_open": N_("Wait: a win is being challenged."),
        "cannot_accuse_self": N_("You cannot accuse yourself."),
        "target_not_seated": N_("That player is not at this table: accuse someone who is playing."),
        "hiding_off": N_("Hiding is off at this table."),
        "already_hiding": N_("You already hide a card: press Unhide first."),
        "bad_command": N_("Choose a command with the buttons: a suit or a power card."),
        "card_hidden": N_("That card is hidden: unhide it on a later turn, or play another."),
        "clock_only_times_out": N_("That happens only when the turn timer runs out."),
        "command_not_allowed": N_("Only a J carries a command: play this card without one."),
        "eliminated": N_("You are out of this match (over the points limit): watch the others finish."),
        "hide_used": N_("You already hid or unhid a card this turn: try again next turn."),
        "must_play": N_("A card of yours fits: play it. Draw only when nothing fits."),
        "no_challenge": N_("There is no win to accept now."),
        "not_before_acting": N_("Hide or unhide at the start of your turn, before you play or draw."),
        "not_hiding": N_("You are not hiding a card, so there is nothing to unhide."),
        "not_waiting_for_you": N_("You have nothing to accept: wait for the others."),
        "nothing_to_pass": N_("You can end your turn only after drawing a card you could play."),
        "too_few_cards": N_("Hide a card only while two or more others stay in your hand."),
    }

    def order_actions(self, actions, view):
        def key(action):
            cards = action.get("cards") or ([action["card"]] if "card" in action else [])
            first = show.by_suit_then_rank(cards[0]) if cards else (0, 0)
            return (KIND_ORDER.get(action["type"], 9), first, len(cards), bool(action.get("call")))

        return sorted(actions, key=key)

    def _command_label(self, command: Mapping[str, Any], _: Translator) -> str:
        if command.get("power"):
            return "⚡ " + _("Power card")
        return show.suit_label(command["suit"], _)

    def play_and_call_label(self, _: Translator) -> str:
        # TRANSLATORS: Kadi: a button that opens the cards to play while calling “Kadi Moja!” at once.
        return f"{CALL} " + _("Play + Kadi Moja!")

    def action_path(self, action: Mapping[str, Any], view: Mapping[str, Any], _: Translator) -> list[Step]:
        kind = action["type"]
        if kind == "play":
            # Each card once: several of a rank are tapped one by one (the last is the new top),
            # then ✔; a play that calls “Kadi Moja!” at once starts from its own button.
            path: list[Step] = [Card(show.card(card), card) for card in action["cards"]]
            if "command" in action:
                path.append(self._command_label(action["command"], _))
            if action.get("call"):
                path.insert(0, Call(self.play_and_call_label(_)))
            return path
        if kind == "draw":
            penalty = view.get("penalty")
            if penalty:
                return [Alone(_("Draw {count}", count=penalty["amount"]))]
            return [Alone(_("Draw"))]
        if kind == "pass":
            return [Alone(_("End turn"))]
        if kind == "call":
            return [Call(f"{CALL} Kadi Moja!")]
        if kind == "hide":
            return ["🙈 " + _("Hide a card"), Card(show.card(action["card"]), action["card"])]
        if kind == "unhide":
            return ["🙈 " + _("Unhide")]
        if kind == "accuse":
            return ["⚖️ " + _("Accuse"), view.get("names", {}).get(action["target"], action["target"])]
        if kind == "accept":
            return [_("Accept the win")]
        return super().action_path(action, view, _)

    def action_paths(self, action: Mapping[str, Any], view: Mapping[str, Any], _: Translator) -> list[list[Step]]:
        """A play of three or more cards may be tapped with its middle cards in any order: only
        the first (it must fit) and the last (the new top) change the game."""
        path = self.action_path(action, view, _)
        cards = action.get("cards") or []
        shortcut = self._all_of_a_rank(action, view, _)
        if action["type"] != "play" or len(cards) < 3:
            # A pair on ⏩ is not marked card by card: a tap on either card then plays it alone.
            return [Spare(path) if shortcut and len(cards) == 2 else path, *shortcut]
        at = 1 if action.get("call") else 0
        first, middle, rest = path[: at + 1], path[at + 1 : at + len(cards) - 1], path[at + len(cards) - 1 :]
        return [[*first, *order, *rest] for order in dict.fromkeys(permutations(middle))] + shortcut

    def _all_of_a_rank(self, action: Mapping[str, Any], view: Mapping[str, Any], _: Translator) -> list[list[Step]]:
        """One press for the common play of every card of a rank the player holds: a button
        naming the cards in the order played (the last is the new top), beside the single cards
        (which still mark and wait for ✔ when another may join them). One button per card that
        may go first; the others follow in the hand's order. A Jack's command follows it."""
        cards = action.get("cards") or []
        if action["type"] != "play" or len(cards) < 2 or action.get("call") or JOKER in cards:
            return []
        shortcut = all_of_a_rank(cards, view.get("hand") or [])
        rest = list(cards[1:])
        if shortcut is None or rest != sorted(rest, key=show.by_suit_then_rank):
            return []
        path: list[Step] = [shortcut]
        if "command" in action:
            path.append(self._command_label(action["command"], _))
        return [path]

    def hand_lines(self, view: Mapping[str, Any], _: Translator, active: bool = True) -> list[str]:
        if _out(view):
            points = (view.get("scores") or {}).get(view["you"], 0)
            return [
                "🚫 "
                + _(
                    "You are out of this match: {points} points, over the limit of {limit}.",
                    points=points,
                    limit=view.get("points_limit"),
                )
            ]
        lines = super().hand_lines(view, _, active)
        if view.get("hidden"):
            lines.append("🙈 " + _("Hidden: {card}", card=show.card(view["hidden"])))
        if active:
            # The penalty or command in force is in the prompt, below.
            lines.extend(self._centre(view, _)[:1])
        return lines

    def prompt(
        self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], your_turn: bool, _: Translator
    ) -> str:
        """What the keyboard offers, and the penalty or command in force, in whole sentences."""
        kinds = {action["type"] for action in legal}
        if _out(view) and not view.get("finished"):
            return _(
                "You watch the others play on until one of them is left: the group's table shows the match to its end."
            )
        if view.get("phase") == "challenge":
            if "accept" in kinds:
                return _(
                    "{name} says they are out. Accept the win, or accuse them if you think they hide a card.",
                    name=name(view.get("names", {}), view.get("provisional_winner") or ""),
                )
            return _("Waiting for the others to accept the win.")
        if not your_turn:
            if "call" in kinds:
                return _("You hold one card: call \u201cKadi Moja!\u201d now!")
            return _("Wait for your turn.")
        lines = []
        penalty, command = view.get("penalty"), view.get("command")
        if penalty:
            lines.append("⚠️ " + _("Penalty: draw {count}", count=penalty["amount"]))
        if command:
            lines.append("👑 " + _("Command: {command}", command=self._command_label(command, _)))
        plays = "play" in kinds
        if view.get("drawn") and "pass" in kinds:
            if plays:
                lines.append(_("You drew {card}: play it, or end your turn.", card=show.card(view["drawn"])))
            else:
                lines.append(_("You drew {card}: end your turn.", card=show.card(view["drawn"])))
        elif penalty:
            if plays:
                lines.append(_("Your turn: play a card that answers it, or draw {count}.", count=penalty["amount"]))
            else:
                lines.append(_("Your turn: nothing answers it, so draw {count}.", count=penalty["amount"]))
        elif plays and "draw" in kinds:
            lines.append(_("Your turn: play a card, or draw."))
        elif plays:
            lines.append(_("Your turn: play a card."))
        elif "draw" in kinds:
            lines.append(_("Your turn: nothing fits, so draw a card."))
        if any(action.get("call") for action in legal):
            lines.append(
                _("{button} plays and calls \u201cKadi Moja!\u201d at once.", button=self.play_and_call_label(_))
            )
        if "call" in kinds:
            lines.append(_("You hold one card: call \u201cKadi Moja!\u201d now!"))
        if "hide" in kinds:
            lines.append("🙈 " + _("You may hide a card first."))
        if "unhide" in kinds:
            lines.append("🙈 " + _("You may take back your hidden card first."))
        return "\n".join(lines)

    def seat_detail(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        """«3 cards» or «📣 Kadi Moja!» (which says one card): the dealer is not marked, the first
        player's ▶️ shows where play began, and the line must fit a phone."""
        if player in (view.get("eliminated") or []):
            return _("eliminated")
        parts = []
        count = (view.get("counts") or {}).get(player)
        kadi_moja = player == view.get("call_window") and not view.get("call_due") and count == 1
        if not kadi_moja and count is not None:
            parts.append(_.plural("{count} card", "{count} cards", count))
        return ", ".join(parts + self._calls(view, player, _))

    def seat_note(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        """Out of the match, Kadi Moja / Niko Kadi (the app draws the card count); the dealer is
        not marked, as in the group's table."""
        if player in (view.get("eliminated") or []):
            return _("eliminated")
        return ", ".join(self._calls(view, player, _))

    def _calls(self, view: Mapping[str, Any], player: str, _: Translator) -> list[str]:
        parts = []
        count = (view.get("counts") or {}).get(player)
        if player == view.get("call_window") and not view.get("call_due") and count == 1:
            parts.append(f"{CALL} Kadi Moja!")
        if player in (view.get("announced") or []):
            parts.append(f"{CALL} Niko Kadi")
        return parts

    def goal_text(self, view: Mapping[str, Any], _: Translator) -> str | None:
        return _("Points limit: {limit}", limit=view["points_limit"]) if view.get("points_limit") else None

    def centre_lines(
        self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str], compact: bool = False
    ) -> list[str]:
        """The top card, the stock and the penalty or command in force, packed into lines that
        fit a phone."""
        stock = (
            _("Stock: {count}", count=view.get("stock_size", 0))
            + " "
            + ("↻" if view.get("direction") == "clockwise" else "↺")
        )
        lines = pack([*self._centre(view, _), stock])
        if view.get("provisional_winner"):
            lines.append(
                "⚖️ "
                + _(
                    "{name} is out: anyone may accuse before the win stands.",
                    name=name(names, view["provisional_winner"]),
                )
            )
        return lines

    def _centre(self, view: Mapping[str, Any], _: Translator) -> list[str]:
        """The top card (and the card a play must match, under jokers), the penalty, the command."""
        lines = []
        top = view.get("top")
        if top:
            line = _("Top card: {card}", card=show.card(top))
            match = view.get("match_top")
            if match and match != top:
                line += " · " + _("match {card}", card=show.card(match))
            lines.append(line)
        penalty = view.get("penalty")
        if penalty:
            lines.append("⚠️ " + _("Penalty: draw {count}", count=penalty["amount"]))
        command = view.get("command")
        if command:
            lines.append("👑 " + _("Command: {command}", command=self._command_label(command, _)))
        return lines

    def board_zones(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[dict[str, Any]]:
        """The top card (with the penalty or command in force), the stock and the play's direction."""
        notes = self._centre(view, _)[1:]
        if view.get("match_top") and view.get("match_top") != view.get("top"):
            notes.insert(0, _("match {card}", card=show.card(view["match_top"])))
        if view.get("provisional_winner"):
            notes.append(
                "⚖️ "
                + _(
                    "{name} is out: anyone may accuse before the win stands.",
                    name=name(names, view["provisional_winner"]),
                )
            )
        direction = "↻ " + _("clockwise") if view.get("direction") == "clockwise" else "↺ " + _("anticlockwise")
        return [
            zone("top", _("Top card"), [view["top"]] if view.get("top") else [], note="\n".join(notes)),
            zone("stock", _("Stock"), count=view.get("stock_size", 0), note=direction),
        ]

    def table_buttons(self, view: Mapping[str, Any], names: Mapping[str, str], _: Translator) -> list[tuple[str, str]]:
        buttons = []
        if view.get("call_due"):
            buttons.append((f"{CALL} Kadi Moja!", "call"))
        if (view.get("table_options") or {}).get("hiding"):
            for index, player in enumerate(view.get("players", [])):
                if player in (view.get("seats") or []):
                    # A button is plain text: the name as typed, cut between words if long.
                    buttons.append(("⚖️ " + shorten(names.get(player, player), NAME_LIMIT), f"accuse:{index}"))
        return buttons

    def group_text_action(self, view: Mapping[str, Any], text: str) -> dict[str, Any] | None:
        """K: "Kadi Moja!" may be said in the group: /kadi, or a reply "Kadi Moja" / "Niko Kadi"."""
        command = text.split()[0].split("@")[0].lower() if text.startswith("/") and text.split() else ""
        if command == "/kadi" or KADI_CALL.match(text):
            return {"type": "call"}
        return None

    def table_action(self, key: str, view: Mapping[str, Any]) -> dict[str, Any] | None:
        if key == "call":
            return {"type": "call"}
        if key.startswith("accuse:") and key[7:].isdigit():
            players = view.get("players", [])
            index = int(key[7:])
            if index < len(players):
                return {"type": "accuse", "target": players[index]}
        return None

    def table_button_warning(self, key: str, _: Translator) -> str | None:
        if key.startswith("accuse:"):
            return _("Accuse? If they hide a card they draw the penalty; if not, you do. Press again to accuse.")
        return None

    def event_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
        kind = event["kind"]
        who = name(names, event.get("player", ""))
        if kind == "played":
            line = _("{name} played {cards}.", name=who, cards=show.cards(event["cards"]))
            if event.get("command"):
                line += " " + _("Command: {command}", command=self._command_label(event["command"], _))
            if event.get("penalty"):
                line += " " + _("Penalty now {count}.", count=event["penalty"])
            skipped = event.get("skipped") or []
            if skipped:
                listed = names_list(skipped, names, _)
                line += " " + _.plural("{names} is skipped.", "{names} are skipped.", len(skipped), names=listed)
            if event.get("direction") == "clockwise":
                line += " ↻ " + _("Play now goes clockwise.")
            elif event.get("direction"):
                line += " ↺ " + _("Play now goes anticlockwise.")
            return line
        if kind == "drew":
            return _.plural("{name} drew {count} card.", "{name} drew {count} cards.", event["count"], name=who)
        if kind == "penalty_drawn":
            return _.plural(
                "{name} took the penalty: {count} card.",
                "{name} took the penalty: {count} cards.",
                event["count"],
                name=who,
            )
        if kind == "missed_call":
            return _("{name} missed \u201cKadi Moja!\u201d and draws {count}.", name=who, count=event["count"])
        if kind == "called":
            return _("{name}: \u201cKadi Moja!\u201d", name=who)
        if kind == "power_finish_draw":
            return _("{name} finished on a power card and draws {count}.", name=who, count=event["count"])
        if kind == "reshuffled":
            return _("The discard pile was shuffled into a new stock.")
        if kind == "hid":
            return _("{name} hid a card.", name=who)
        if kind == "unhid":
            return _("{name} took back a hidden card.", name=who)
        if kind == "accused":
            accuser, target, payer = (name(names, event[k]) for k in ("accuser", "target", "payer"))
            if event.get("caught"):
                return _(
                    "{accuser} accused {target}: caught hiding! {payer} draws {count}.",
                    accuser=accuser,
                    target=target,
                    payer=payer,
                    count=event["count"],
                )
            return _(
                "{accuser} accused {target}, who hid nothing. {payer} draws {count}.",
                accuser=accuser,
                target=target,
                payer=payer,
                count=event["count"],
            )
        if kind == "provisional_win":
            return _("{name} is out! Anyone may accuse before the win stands.", name=who)
        if kind == "won":
            return "🏆 " + _("{name} wins the round!", name=who)
        if kind == "blocked":
            return _("Nobody could play or draw: the round ends.")
        if kind == "round_scored":
            return "🏁 " + _("Round {number} is over: the results are below.", number=event["round"])
        if kind == "accepted":
            return _("{name} accepts the win.", name=who)
        if kind == "win_voided":
            return _("{name}'s win does not stand: the round goes on.", name=who)
        if kind == "eliminated":
            return eliminated_line(event["players"], _, names)
        if kind == "match_over":
            return winners_line(event["winners"], _, names)
        if kind == "passed":
            return _("{name} kept the drawn card.", name=who)
        return None

    def private_event_line(
        self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str], reader: str | None = None
    ) -> str | None:
        kind = event["kind"]
        if kind in ("drew", "penalty_drawn", "missed_call", "power_finish_draw") and event.get("cards"):
            return _("You drew {cards}.", cards=show.cards(event["cards"]))
        if kind == "accused" and event.get("cards"):
            return _("You drew {cards}.", cards=show.cards(event["cards"]))
        return None

    def round_summary(self, events, _, names):
        lines = super().round_summary(events, _, names)
        if not lines:
            return lines
        for event in events:
            if event["kind"] == "round_scored" and event.get("winner"):
                lines.insert(1, "🏆 " + _("{name} went out.", name=name(names, event["winner"])))
            if event["kind"] == "eliminated":
                lines.append(eliminated_line(event["players"], _, names))
        return lines

    def result_lines(self, view, scores, winners, _, names):
        # Kadi scores are penalty points: fewest is best.
        lines = []
        for player, score in sorted(scores.items(), key=lambda item: item[1]):
            crown = "🏆 " if player in winners else ""
            lines.append(f"{crown}{name(names, player)}: {score}")
        return lines


def _out(view: Mapping[str, Any]) -> bool:
    """The reader was eliminated (over the points limit) and only watches."""
    return view.get("you") is not None and view["you"] in (view.get("eliminated") or [])


def eliminated_line(players: Sequence[str], _: Translator, names: Mapping[str, str]) -> str:
    """«Aliyetolewa: Baraka» / «Waliotolewa: Baraka na Neema»: the word agrees with how many are out."""
    listed = names_list(players, names, _)  # not inside the call: Babel stops reading a call at a `_` argument
    return _.plural("Eliminated: {names}", "Eliminated: {names}", len(players), names=listed)


RENDERER = KadiRenderer()
