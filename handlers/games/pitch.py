"""Pitch at the table: bid buttons showing only legal bids, trumps, the trick, and each hand's awards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from handlers.i18n import N_, Translator
from handlers import cards as show
from handlers.games.base import (
    GameRenderer, cards_and_tricks, name, names_list, trick_zone, tricks_taken, winners_line, zone,
)
from handlers.render.action_tree import Alone, Step


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

    def prompt(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], your_turn: bool, _: Translator) -> str:
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
        return _("Your turn: play a card.")

    quiet_events = {
        **GameRenderer.quiet_events,
        "played": "each seat shows the card it played to the trick",
    }

    def goal_text(self, view: Mapping[str, Any], _: Translator) -> str | None:
        return _("Target: {target}", target=view["target"]) if view.get("target") else None

    def seat_detail(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        """«3♦️ · pitcher (4), 1 card, 1 trick»: the card this seat played to the trick first."""
        parts = self._roles(view, player, _)
        parts.extend(cards_and_tricks(view, player, _))
        played = next((play["card"] for play in view.get("trick") or [] if play["player"] == player), None)
        return " · ".join(([show.card(played)] if played else []) + [", ".join(parts)])

    def seat_note(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        """The seat's roles and tricks (the app draws its cards, the trick's and the bids)."""
        return ", ".join(self._roles(view, player, _) + tricks_taken(view, player, _))

    def _roles(self, view: Mapping[str, Any], player: str, _: Translator) -> list[str]:
        parts = []
        if player == view.get("dealer"):
            parts.append(_("dealer"))
        if player == view.get("pitcher"):
            parts.append(_("pitcher ({bid})", bid=view.get("bid")))
        return parts

    def centre_lines(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str], compact: bool = False) -> list[str]:
        lines = []
        teams = view.get("teams")
        if teams:
            first, second = (names_list(team, names, _) for team in teams[:2])
            lines.append(_("Teams: {first} v {second}", first=first, second=second))
        return lines + self._centre(view, _, names, for_player=False)

    def _centre(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str], for_player: bool) -> list[str]:
        lines = []
        if view.get("phase") == "bidding":
            bids = view.get("bids") or []
            if bids and not for_player:
                # TRANSLATORS: in the bid list after a player's name: «Zabuni: Amina 2 · Baraka amepita».
                passed = _("pass")
                said = [f"{name(names, bid['player'])} {passed if bid['value'] is None else bid['value']}" for bid in bids]
                lines.append(_("Bids: {bids}", bids=" · ".join(said)))
            elif bids:
                high = view.get("high_bid")
                lines.append(_("High bid: {value}", value=high["value"]) if high else _("Nobody has bid yet."))
        elif view.get("phase") == "playing":
            parts = []
            trump = view.get("trump")
            if trump:
                parts.append(_("Trumps: {suit}", suit=show.suit_label(trump, _)))
            trick = view.get("trick") or []
            if for_player and trick:
                parts.append(_("On the table: {cards}", cards=show.cards(play["card"] for play in trick)))
            elif view.get("trick_number"):
                # The seats show the cards of the trick.
                parts.append(_("Trick {number} of 6", number=view["trick_number"]))
            if parts:
                lines.append(" · ".join(parts) if not for_player else parts[0])
                lines.extend(parts[1:] if for_player else [])
        return lines

    def board_zones(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[dict[str, Any]]:
        """The bids while bidding; then trumps and the trick, each card with who played it."""
        zones = []
        if view.get("phase") == "bidding":
            passed = _("pass")
            said = [f"{names.get(bid['player'], bid['player'])} {passed if bid['value'] is None else bid['value']}"
                    for bid in view.get("bids") or []]
            zones.append(zone("bids", _("Bids"), note=" · ".join(said)))
        if view.get("trump"):
            zones.append(zone("trump", _("Trumps"), note=show.suit_label(view["trump"], _)))
        if view.get("phase") == "playing":
            number = _("Trick {number} of 6", number=view["trick_number"]) if view.get("trick_number") else None
            zones.append({**trick_zone(view, _), "note": number})
        teams = [line for line in self.centre_lines(view, _, names) if line not in self._centre(view, _, names, False)]
        if teams:
            zones.append(zone("teams", "", note="\n".join(teams)))
        return zones

    def event_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
        kind = event["kind"]
        who = name(names, event.get("player", ""))
        if kind == "passed":
            return _("{name} passed.", name=who)
        if kind == "bid" and event.get("steal"):
            return _("{name} (dealer) takes the bid at {value}.", name=who, value=event["value"])
        if kind == "bid" and event.get("forced"):
            return _("Everyone passed: {name} (dealer) bids {value}.", name=who, value=event["value"])
        if kind == "bid":
            return _("{name} bid {value}.", name=who, value=event["value"])
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
            return winners_line(event["winners"], _, names)
        return None

    def timeout_move_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
        if event["kind"] == "played":
            return _("{name} played {card}.", name=name(names, event.get("player", "")), card=show.card(event["card"]))
        return None

    def log_lines(self, events: Sequence[Mapping[str, Any]], _: Translator, names: Mapping[str, str]) -> list[str]:
        """A win is told with its reason, read from the hand that ended the match."""
        lines = super().log_lines(events, _, names)
        scored = next((event for event in events if event["kind"] == "hand_scored"), None)
        won = next((event for event in events if event["kind"] == "match_won"), None)
        if scored is not None and won is not None and lines:
            lines[-1] += " " + self.win_reason(scored, won, _, names)
        return lines

    def win_reason(self, scored: Mapping[str, Any], won: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str:
        winners = list(won.get("winners") or [])
        listed = names_list(winners, names, _)
        if scored.get("smudge") and scored.get("made"):
            return _.plural("{names} made a smudge: all six tricks win at once.",
                            "{names} made a smudge: all six tricks win at once.", len(winners), names=listed)
        scores = won.get("scores") or {}
        total = max((scores.get(player, 0) for player in winners), default=0)
        if scored.get("pitcher") in winners:
            return _.plural("{names} reached {total} points as the pitcher.", "{names} reached {total} points as the pitchers.",
                            len(winners), names=listed, total=total)
        return _.plural("{names} reached {total} points, the best score.", "{names} reached {total} points, the best score.",
                        len(winners), names=listed, total=total)

    def round_summary(self, events: Sequence[Mapping[str, Any]], _: Translator, names: Mapping[str, str]) -> list[str]:
        """The hand's results: what the pitcher did and who won each point, then every score
        with what this hand changed it by (a set-back pitcher loses the bid), and a win's reason."""
        lines = super().round_summary(events, _, names)
        scored = next((event for event in events if event["kind"] == "hand_scored"), None)
        if not lines or scored is None:
            return lines
        lines.insert(1, self._hand_summary(scored, _, names))
        won = next((event for event in events if event["kind"] == "match_won"), None)
        if won is not None:
            lines.append(winners_line(won["winners"], _, names) + " " + self.win_reason(scored, won, _, names))
        return lines

    def private_event_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str], reader: str | None = None) -> str | None:
        return None  # a new hand is already the hand shown

    def _hand_summary(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str:
        awards = []
        for key, label in (("high", _("High")), ("low", _("Low")), ("jack", _("Jack"))):
            award = event.get(key)
            if award:
                awards.append(f"{label} {show.card(award['card'])} {name(names, award['by'])}")
        game = event.get("game") or {}
        if game.get("by"):
            # TRANSLATORS: Pitch's Game point, next to High, Low and Jack in a hand's summary.
            label = _("Game")
            awards.append(f"{label} {names_list(game['by'], names, _)}")
        pitcher = name(names, event["pitcher"])
        if event.get("made"):
            verdict = _("{name} made the bid of {bid}.", name=pitcher, bid=event["bid"])
        else:
            verdict = _("{name} was set back {bid}!", name=pitcher, bid=event["bid"])
        return verdict + " " + "; ".join(awards)


RENDERER = PitchRenderer()
