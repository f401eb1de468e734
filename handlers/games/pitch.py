"""Pitch at the table: bid buttons showing only legal bids, trumps, the trick, and each hand's awards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from handlers.i18n import N_, Translator
from handlers import cards as show
from handlers.games.base import GameRenderer, cards_and_tricks, name, names_list, winners_line


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

    def action_path(self, action: Mapping[str, Any], view: Mapping[str, Any], _: Translator) -> list[str]:
        kind = action["type"]
        if kind == "pass":
            return [_("Pass")]
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
        if view.get("awaiting") == "bid":
            if view.get("dealer_forced"):
                return _("Everyone passed: you are the dealer and must bid.")
            return _("Your bid: pass or bid higher.")
        if view.get("pitcher") == view.get("you") and view.get("trump") is None:
            return _("You pitch: your first card sets trumps.")
        return _("Your turn: play a card.")

    def seat_detail(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        parts = []
        if player == view.get("dealer"):
            parts.append(_("dealer"))
        if player == view.get("pitcher"):
            parts.append(_("pitcher ({bid})", bid=view.get("bid")))
        parts.extend(cards_and_tricks(view, player, _))
        return ", ".join(parts)

    def centre_lines(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[str]:
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
            trump = view.get("trump")
            if trump:
                lines.append(_("Trumps: {suit}", suit=show.suit_label(trump, _)))
            trick = view.get("trick") or []
            if trick:
                played = " · ".join(f"{name(names, play['player'])} {show.card(play['card'])}" for play in trick)
                lines.append(_("Trick {number}: {cards}", number=view.get("trick_number"), cards=played) if not for_player
                             else _("On the table: {cards}", cards=show.cards(play["card"] for play in trick)))
        return lines

    def event_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
        kind = event["kind"]
        who = name(names, event.get("player", ""))
        if kind == "auction_won":
            return _("{name} won the auction with {bid}.", name=name(names, event["pitcher"]), bid=event["bid"])
        if kind == "trump_set":
            return _("{name} pitched: {suit} are trumps.", name=who, suit=show.suit_label(event["suit"], _))
        if kind == "trick_won":
            plays = " ".join(show.card(play["card"]) for play in event["plays"])
            return _("{name} took the trick ({cards}).", name=who, cards=plays)
        if kind == "timed_out":
            return _("Time's up for {name}.", name=who)
        if kind == "hand_scored":
            return self._hand_summary(event, _, names)
        if kind == "match_won":
            return winners_line(event["winners"], _, names)
        return None

    def private_event_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
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
