"""Pitch at the table: bid buttons showing only legal bids, trumps, the trick, and each hand's awards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from handlers.i18n import N_, Translator
from handlers.presentation import cards as show
from handlers.presentation.action_tree import Alone, Step
from handlers.presentation.fit import LINE_WIDTH, broken, pack, phone_width
from handlers.presentation.games.base import (
    GameRenderer,
    name,
    names_list,
    trick_zone,
    tricks_taken,
    winners_line,
    zone,
)

KIND_ORDER = {"bid": 0, "pass": 1, "play": 2}


class PitchRenderer(GameRenderer):
    game = "pitch"
    title = N_("Pitch")
    refusal_texts = {
        "bid_too_low": N_("Bid higher than the current bid, or pass."),
        "bid_below_minimum": N_("The lowest bid at this table is 2: bid 2 or more, or pass."),
        "dealer_must_bid": N_("Everyone passed: as dealer you must bid."),
        "steal_not_allowed": N_("Stealing the bid is off at this table."),
        "cannot_steal_from_partner": N_("You cannot steal your partner's bid."),
        "must_follow_suit": N_("You must follow suit (or play a trump)."),
        "auction_over": N_("The bidding is over: play a card."),
        "bid_out_of_range": N_("Choose one of the bids on the buttons, or pass."),
        "bidding_in_progress": N_("The bidding is not over: bid or pass first."),
        "unknown_player": N_("You are not playing at this table."),
    }

    def action_path(self, action: Mapping[str, Any], view: Mapping[str, Any], _: Translator) -> list[Step]:
        kind = action["type"]
        if kind == "pass":
            return [Alone(_("Pass"))]
        if kind == "bid":
            value = action["value"]
            high = view.get("high_bid")
            if value == 5:
                return [_("Smudge (5)")]
            if view.get("you") == view.get("dealer") and high and high.get("value") == value:
                return [_("Steal at {value}", value=value)]
            return [_("Bid {value}", value=value)]
        return super().action_path(action, view, _)

    def hand_lines(self, view: Mapping[str, Any], _: Translator, active: bool = True) -> list[str]:
        lines = super().hand_lines(view, _, active)
        if active:
            lines.extend(self._centre(view, _, view.get("names", {}), for_player=True))
        return lines

    def prompt(
        self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], your_turn: bool, _: Translator
    ) -> str:
        if not your_turn:
            return _("Wait for your turn.")
        kinds = {action["type"] for action in legal}
        if view.get("awaiting") == "bid":
            if "pass" not in kinds:
                return _("Everyone passed: you are the dealer and must bid.")
            if "bid" not in kinds:
                return _("Nobody can go higher now: pass.")
            return _("Your bid: bid higher, or pass.")
        if view.get("pitcher") == view.get("you") and view.get("trump") is None:
            return _("You pitch: play a card, and its suit is trumps.")
        plays = [action for action in legal if action["type"] == "play"]
        trick, trump = view.get("trick") or [], view.get("trump")
        if trick and trump and len(plays) < len(view.get("hand") or []):
            # Only some cards are offered: say why (PIT-A7/PIT-A8).
            led = trick[0]["card"][-1]
            if led == trump:
                return _(
                    "Your turn: trumps were led and you hold {suit}, so play a trump.", suit=show.suit_label(led, _)
                )
            return _("Your turn: you hold {suit}, so follow suit or play a trump.", suit=show.suit_label(led, _))
        return _("Your turn: play a card.")

    quiet_events = {
        **GameRenderer.quiet_events,
        "played": "each seat shows the card it played to the trick",
        # A forced bid and a steal still have a line (event_line): they say why.
        "bid": "each seat shows its bid while the auction runs; the auction's end has its own line",
        "passed": "each seat shows its pass while the auction runs",
    }

    def order_actions(self, actions: Sequence[Mapping[str, Any]], view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        """Bids from the lowest, then pass; cards in the order the hand lists them."""

        def key(action: Mapping[str, Any]) -> tuple:
            card = action.get("card")
            return (
                KIND_ORDER.get(action["type"], 9),
                action.get("value") or 0,
                self.hand_sort_key(card) if card else (0, 0),
            )

        return sorted(actions, key=key)

    def goal_text(self, view: Mapping[str, Any], _: Translator) -> str | None:
        return _("Target: {target}", target=view["target"]) if view.get("target") else None

    def seat_detail(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        """While bidding: «dealer, bid 3» or «pass»; while playing: the card this seat played to
        the trick and the tricks it took («10♦️ · 2 tricks»). Card counts are left out (every hand
        holds 6 less the tricks played, and the trick's number is in the centre), and the pitcher
        is named there too, so that a seat fits a phone's line with seven players."""
        if view.get("phase") == "bidding":
            parts = [_("dealer")] if player == view.get("dealer") else []
            bid = next((bid for bid in reversed(view.get("bids") or []) if bid["player"] == player), None)
            if bid is not None:
                # TRANSLATORS: a seat's pass in Pitch's auction: «amepita».
                parts.append(_("pass") if bid["value"] is None else _("bid {value}", value=bid["value"]))
            return ", ".join(parts)
        played = next((play["card"] for play in view.get("trick") or [] if play["player"] == player), None)
        return " · ".join(([show.card(played)] if played else []) + tricks_taken(view, player, _))

    def seat_note(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        """The seat's roles and tricks (the app draws its cards, the trick's and the bids)."""
        return ", ".join(self._roles(view, player, _) + tricks_taken(view, player, _))

    def _roles(self, view: Mapping[str, Any], player: str, _: Translator) -> list[str]:
        parts = []
        if player == view.get("dealer") and view.get("phase") == "bidding":
            parts.append(_("dealer"))  # while bidding, as the group's table says
        if player == view.get("pitcher"):
            parts.append(_("pitcher ({bid})", bid=view.get("bid")))
        return parts

    def centre_lines(
        self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str], compact: bool = False
    ) -> list[str]:
        lines = []
        teams = view.get("teams")
        if teams:
            first, second = (names_list(team, names, _) for team in teams[:2])
            teams_line = _("Teams: {first} v {second}", first=first, second=second)
            if phone_width(teams_line) > LINE_WIDTH:  # a line per team, to fit a phone
                lines.extend(
                    _("Team {number}: {names}", number=number, names=names)
                    for number, names in ((1, first), (2, second))
                )
            else:
                lines.append(teams_line)
        return lines + self._centre(view, _, names, for_player=False)

    def _centre(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str], for_player: bool) -> list[str]:
        lines = []
        if view.get("phase") == "bidding":
            high = view.get("high_bid")
            if for_player and view.get("bids"):
                lines.append(_("High bid: {value}", value=high["value"]) if high else _("Nobody has bid yet."))
        elif view.get("phase") == "playing":
            parts = []
            if view.get("pitcher") and not for_player:
                parts.append(_("Pitcher: {name} ({bid})", name=name(names, view["pitcher"]), bid=view.get("bid")))
            trump = view.get("trump")
            if trump:
                parts.append(_("Trumps: {suit}", suit=show.suit_label(trump, _)))
            trick = view.get("trick") or []
            if for_player and trick:
                parts.append(_("On the table: {cards}", cards=show.cards(play["card"] for play in trick)))
            elif view.get("trick_number"):
                # The seats show the cards of the trick.
                parts.append(_("Trick {number} of {tricks}", number=view["trick_number"], tricks=6))
            lines.extend(parts if for_player else pack(parts))
        return lines

    def board_zones(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[dict[str, Any]]:
        """The bids while bidding; then trumps and the trick, each card with who played it."""
        zones = []
        if view.get("phase") == "bidding":
            passed = _("pass")
            said = [
                f"{names.get(bid['player'], bid['player'])} {passed if bid['value'] is None else bid['value']}"
                for bid in view.get("bids") or []
            ]
            zones.append(zone("bids", _("Bids"), note=" · ".join(said)))
        if view.get("trump"):
            zones.append(zone("trump", _("Trumps"), note=show.suit_label(view["trump"], _)))
        if view.get("phase") == "playing":
            number = (
                _("Trick {number} of {tricks}", number=view["trick_number"], tricks=6)
                if view.get("trick_number")
                else None
            )
            zones.append({**trick_zone(view, _), "note": number})
        teams = [line for line in self.centre_lines(view, _, names) if line not in self._centre(view, _, names, False)]
        if teams:
            zones.append(zone("teams", "", note="\n".join(teams)))
        return zones

    def event_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
        kind = event["kind"]
        who = name(names, event.get("player", ""))
        if kind == "bid" and event.get("steal"):
            return _("{name} (dealer) takes the bid at {value}.", name=who, value=event["value"])
        if kind == "bid" and event.get("forced"):
            return _("Everyone passed: {name} (dealer) bids {value}.", name=who, value=event["value"])
        if kind == "auction_won":
            return _("{name} won the auction with {bid}.", name=name(names, event["pitcher"]), bid=event["bid"])
        if kind == "trump_set":
            return _("{name} pitched: {suit} are trumps.", name=who, suit=show.suit_label(event["suit"], _))
        if kind == "trick_won":
            plays = " ".join(show.card(play["card"]) for play in event["plays"])
            return _("{name} took the trick ({cards}).", name=who, cards=plays)
        if kind == "hand_scored":
            return self._hand_summary(event, _, names)
        if kind == "match_won":
            return winners_line(event["winners"], _, names)  # log_lines gives it its reason
        return None

    def timeout_move_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
        who = name(names, event.get("player", ""))
        if event["kind"] == "played":
            return _("{name} played {card}.", name=who, card=show.card(event["card"]))
        if event["kind"] == "passed":
            return _("{name} passed.", name=who)
        if event["kind"] == "bid":
            return _("{name} bid {value}.", name=who, value=event["value"])
        return None

    def log_lines(self, events: Sequence[Mapping[str, Any]], _: Translator, names: Mapping[str, str]) -> list[str]:
        """A win is told in one sentence with its reason, read from the hand that ended the match."""
        lines = super().log_lines(events, _, names)
        scored = next((event for event in events if event["kind"] == "hand_scored"), None)
        won = next((event for event in events if event["kind"] == "match_won"), None)
        if scored is not None and won is not None and lines:
            lines[-1] = self.win_line(scored, won, _, names)
        return lines

    def win_line(
        self, scored: Mapping[str, Any], won: Mapping[str, Any], _: Translator, names: Mapping[str, str]
    ) -> str:
        """«🏆 Amina and Chausiku win with 8 points as the pitchers.»: who won, and why, once."""
        winners = list(won.get("winners") or [])
        listed = names_list(winners, names, _)
        if scored.get("smudge") and scored.get("made"):
            return "🏆 " + _.plural(
                "{names} wins at once with a smudge: all six tricks.",
                "{names} win at once with a smudge: all six tricks.",
                len(winners),
                names=listed,
            )
        scores = won.get("scores") or {}
        total = max((scores.get(player, 0) for player in winners), default=0)
        if scored.get("pitcher") in winners:
            return "🏆 " + _.plural(
                "{names} wins with {total} points as the pitcher.",
                "{names} win with {total} points as the pitchers.",
                len(winners),
                names=listed,
                total=total,
            )
        return "🏆 " + _.plural(
            "{names} wins with {total} points, the best score.",
            "{names} win with {total} points, the best score.",
            len(winners),
            names=listed,
            total=total,
        )

    def round_summary(self, events: Sequence[Mapping[str, Any]], _: Translator, names: Mapping[str, str]) -> list[str]:
        """The hand's results: what the pitcher did and who won each point, then every score
        with what this hand changed it by (a set-back pitcher loses the bid), and a win's reason."""
        lines = super().round_summary(events, _, names)
        scored = next((event for event in events if event["kind"] == "hand_scored"), None)
        if not lines or scored is None:
            return lines
        summary = self._hand_lines(scored, _, names)
        if scored.get("hand") == 1:
            # The first hand's results say once what the four points are, a line each.
            summary += ["<i>" + line + "</i>" for line in self._points_explained(_)]
        lines[1:1] = summary
        won = next((event for event in events if event["kind"] == "match_won"), None)
        if won is not None and won.get("winners"):
            lines[-1] = self.win_line(scored, won, _, names)  # in place of the bare winners line
        return lines

    def _points_explained(self, _: Translator) -> list[str]:
        explained = [
            _("High: the highest trump played."),
            _("Low: the lowest trump played."),
            _("Jack: the J of trumps."),
            _("Game: the most card points in tricks won."),
            _("Card points: 10=10, A=4, K=3, Q=2, J=1."),
        ]
        return broken(explained)

    def private_event_line(
        self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str], reader: str | None = None
    ) -> str | None:
        return None  # a new hand is already the hand shown

    def _hand_summary(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str:
        """The table's event line: «Amina made the bid of 3. High A♥️ Amina · Low 2♥️ Baraka»."""
        return " ".join([self._verdict(event, _, names), " · ".join(self._awards(event, _, names))])

    def _hand_lines(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[str]:
        """The results' lines: the verdict, then who won each point, packed into lines that fit a
        phone: «Amina made the bid of 3.», «High A♥️ Amina · Low 2♥️ Baraka», «Jack J♥️ Amina»."""
        return broken([self._verdict(event, _, names), *pack(self._awards(event, _, names))])

    def _verdict(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str:
        pitcher = name(names, event["pitcher"])
        if event.get("made"):
            return _("{name} made the bid of {bid}.", name=pitcher, bid=event["bid"])
        return _("{name} was set back {bid}!", name=pitcher, bid=event["bid"])

    def _awards(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[str]:
        """«High A♥️ Amina», «Jack J♥️ Chausiku», «Game Baraka»: each point won, and by whom."""
        awards = []
        # TRANSLATORS: Pitch's points, each before its card and who won it: four distinct words
        # (the Jack's is not the card's letter J, the Game point is not the match).
        for key, label in (("high", _("High")), ("low", _("Low")), ("jack", _("Jack"))):
            award = event.get(key)
            if award:
                awards.append(f"{label} {show.card(award['card'])} {name(names, award['by'])}")
        game = event.get("game") or {}
        if game.get("by"):
            # TRANSLATORS: Pitch's Game point (the most card points), next to High, Low and Jack.
            label = _("Game")
            awards.append(f"{label} {names_list(game['by'], names, _)}")
        return awards


RENDERER = PitchRenderer()
