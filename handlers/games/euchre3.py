"""Euchre for three at the table: seat-labelled bids, the dealer's pick-up, alone or with the dummy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from handlers.i18n import N_, Translator
from handlers import cards as show
from handlers.games.base import (
    CONFIRM,
    GameRenderer,
    cards_and_tricks,
    name,
    winners_line,
)

ACCEPT_LABELS = {"order_up": N_("I order it up"), "assist": N_("I assist"), "accept": N_("I accept")}
KIND_ORDER = {"accept": 0, "name": 0, "pick_up": 0, "alone": 1, "with_dummy": 2, "keep": 3, "play": 4, "leave": 5, "pass": 6}


class Euchre3Renderer(GameRenderer):
    game = "euchre3"
    title = N_("Euchre for three")
    refusal_texts = {
        "turned_down_suit": N_("You cannot name the turned-down suit."),
        "dealer_must_name": N_("Stuck dealer: you must name trumps."),
        "must_pick_up": N_("At this table the dealer must pick up."),
        "wrong_keep_size": N_("Keep exactly five cards."),
        "bad_action": N_("I cannot do that here. Use the buttons under your cards."),
        "discard_required": N_("You hold six cards: choose a card to discard as you go alone."),
        "duplicate_card": N_("Keep five different cards."),
        "no_discard": N_("You go alone without a discard: press Go alone."),
        "not_now": N_("That is not possible now: use the buttons you have."),
        "unknown_suit": N_("Choose a suit with the buttons."),
    }

    def order_actions(self, actions, view):
        hand_order = {card: index for index, card in enumerate([*(view.get("hand") or []), *(view.get("dummy") or [])])}

        def key(action):
            card = action.get("card") or action.get("discard")
            return (KIND_ORDER.get(action["type"], 9), show.by_suit_then_rank(card) if card else (0, 0), action.get("suit", ""))

        ordered = sorted(actions, key=key)
        return [
            {**action, "cards": sorted(action["cards"], key=lambda c: hand_order.get(c, 99))} if action["type"] == "keep" else action
            for action in ordered
        ]

    def action_path(self, action: Mapping[str, Any], view: Mapping[str, Any], _: Translator) -> list[str]:
        kind = action["type"]
        if kind == "accept":
            label = (view.get("accept_labels") or {}).get(view.get("you"), "accept")
            return [_(ACCEPT_LABELS.get(label, ACCEPT_LABELS["accept"]))]
        if kind == "pass":
            return [_("Pass")]
        if kind == "pick_up":
            return [_("Pick up {card}", card=show.card(view.get("up_card") or "")), _("Discard {card}", card=show.card(action["discard"]))]
        if kind == "leave":
            return [_("Leave it")]
        if kind == "name":
            return [show.suit_label(action["suit"], _)]
        if kind == "alone":
            if "discard" in action:
                return [_("Go alone"), _("Discard {card}", card=show.card(action["discard"]))]
            return [_("Go alone")]
        if kind == "with_dummy":
            return [_("Take the dummy")]
        if kind == "keep":
            return [show.card(card) for card in action["cards"]] + [CONFIRM]
        return super().action_path(action, view, _)

    def hand_lines(self, view: Mapping[str, Any], _: Translator, active: bool = True) -> list[str]:
        lines = super().hand_lines(view, _, active)
        if view.get("dummy"):
            lines.append(_("Dummy: {cards}", cards=show.cards(view["dummy"])))
        if active:
            lines.extend(self._centre(view, _, view.get("names", {}), for_player=True))
        return lines

    def prompt(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], your_turn: bool, _: Translator) -> str:
        if not your_turn:
            return _("Wait for your turn.")
        phase = view.get("phase")
        if phase == "bid1":
            return _("Make {card}'s suit trumps, or pass.", card=show.card(view.get("up_card") or ""))
        if phase == "pickup":
            return _("You are the dealer: pick up the up-card (and discard one), or leave it.")
        if phase == "bid2":
            return _("Name trumps, or pass.")
        if phase == "maker_choice":
            return _("You made trumps: play alone, or take the dummy and keep your best five.")
        if phase == "keep":
            return _("Tap five cards to keep, one by one.")
        if phase == "defend":
            return _("Defend alone against the maker, or pass.")
        return _("Your turn: play a card.")

    def seat_detail(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        parts = []
        if player == view.get("dealer"):
            parts.append(_("dealer"))
        if player == view.get("maker"):
            parts.append(_("maker") + (" (" + _("alone") + ")" if view.get("maker_alone") else ""))
        if player == view.get("lone_defender"):
            parts.append(_("defends alone"))
        if player == view.get("sitting_out"):
            parts.append(_("sits out"))
        parts.extend(cards_and_tricks(view, player, _))
        return ", ".join(parts)

    def centre_lines(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[str]:
        return self._centre(view, _, names, for_player=False)

    def _centre(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str], for_player: bool) -> list[str]:
        lines = []
        if view.get("up_card") and view.get("phase") in ("bid1", "pickup", "bid2"):
            status = _("turned down") if view.get("up_card_status") == "turned_down" else ""
            lines.append(_("Up-card: {card}", card=show.card(view["up_card"])) + (f" ({status})" if status else ""))
        if view.get("trump"):
            lines.append(_("Trumps: {suit}", suit=show.suit_label(view["trump"], _)))
        trick = view.get("trick") or []
        if trick:
            lines.append(_("On the table: {cards}", cards=" · ".join(
                f"{name(names, play['player'])} {show.card(play['card'])}" for play in trick)))
        return lines

    def event_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
        kind = event["kind"]
        who = name(names, event.get("player", ""))
        if kind == "trump_made":
            return _("{name} made {suit} trumps.", name=who, suit=show.suit_label(event["trump"], _))
        if kind == "thrown_in":
            return _("Everyone passed: the cards are dealt again.")
        if kind == "maker_alone":
            return _("{name} plays alone.", name=who)
        if kind == "maker_with_dummy":
            return _("{name} takes the dummy.", name=who)
        if kind == "defender_alone":
            return _("{name} defends alone.", name=who)
        if kind == "trick_won":
            return _("{name} took the trick ({cards}).", name=who, cards=show.cards(event["cards"]))
        if kind == "round_scored":
            maker = name(names, event["maker"])
            if event.get("euchred"):
                return _("{name} was euchred!", name=maker)
            return _.plural("{name} took {count} trick.", "{name} took {count} tricks.", event["maker_tricks"], name=maker)
        if kind == "match_won":
            return winners_line(event["winners"], _, names)
        if kind == "timed_out":
            return _("Time's up for {name}.", name=who)
        return None


RENDERER = Euchre3Renderer()
