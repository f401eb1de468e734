"""Euchre for three at the table: seat-labelled bids, the dealer's pick-up, alone or with the dummy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.euchre3 import strongest_first
from handlers.i18n import N_, Translator
from handlers.presentation import cards as show
from handlers.presentation.action_tree import Alone, Card, Pick, Shortcut, Step
from handlers.presentation.fit import pack
from handlers.presentation.games.base import (
    ALL_AT_ONCE,
    GameRenderer,
    name,
    trick_zone,
    tricks_taken,
    winners_line,
    zone,
)

ACCEPT_LABELS = {"order_up": N_("I order it up"), "assist": N_("I assist"), "accept": N_("I accept")}
KIND_ORDER = {
    "accept": 0,
    "name": 0,
    "pick_up": 0,
    "alone": 1,
    "with_dummy": 2,
    "keep": 3,
    "play": 4,
    "leave": 5,
    "pass": 6,
}


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
        # Five to keep are shown as the hand and the dummy are: each sorted, the hand first.
        shown = [*show.sort_hand(view.get("hand") or []), *show.sort_hand(view.get("dummy") or [])]
        hand_order = {card: index for index, card in enumerate(shown)}

        def key(action):
            card = action.get("card") or action.get("discard")
            kept = tuple(sorted(hand_order.get(c, 99) for c in action.get("cards") or []))
            return (
                KIND_ORDER.get(action["type"], 9),
                show.by_suit_then_rank(card) if card else (0, 0),
                action.get("suit", ""),
                kept,
            )

        ordered = sorted(actions, key=key)
        return [
            {**action, "cards": sorted(action["cards"], key=lambda c: hand_order.get(c, 99))}
            if action["type"] == "keep"
            else action
            for action in ordered
        ]

    def action_path(self, action: Mapping[str, Any], view: Mapping[str, Any], _: Translator) -> list[Step]:
        kind = action["type"]
        if kind == "accept":
            label = (view.get("accept_labels") or {}).get(view.get("you"), "accept")
            return [_(ACCEPT_LABELS.get(label, ACCEPT_LABELS["accept"]))]
        if kind == "pass":
            return [Alone(_("Pass"))]
        if kind == "pick_up":
            # One press: the card to discard for the up-card (the up-card itself among them).
            return [Card(show.card(action["discard"]), action["discard"])]
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
            # Five of the ten in any order: every card is a button from the start, in hand then
            # dummy order; each tap marks one, and ✔ keeps the five marked.
            return [Pick(tuple(show.card(card) for card in action["cards"]), tuple(action["cards"]))]
        return super().action_path(action, view, _)

    def action_paths(self, action: Mapping[str, Any], view: Mapping[str, Any], _: Translator) -> list[list[Step]]:
        """The five strongest to keep are also one press (⏩), the keep a timeout makes."""
        path = self.action_path(action, view, _)
        if action["type"] == "keep" and view.get("trump"):
            best = strongest_first([*(view.get("hand") or []), *(view.get("dummy") or [])], view["trump"])[:5]
            if sorted(best) == sorted(action["cards"]):
                return [path, [Shortcut(f"{ALL_AT_ONCE} " + show.cards(action["cards"]), tuple(action["cards"]))]]
        return [path]

    def hand_lines(self, view: Mapping[str, Any], _: Translator, active: bool = True) -> list[str]:
        lines = super().hand_lines(view, _, active)
        if view.get("dummy"):
            lines.append(_("Dummy: {cards}", cards=show.cards(show.sort_hand(view["dummy"]))))
        if active:
            lines.extend(self._centre(view, _, view.get("names", {}), for_player=True))
        return lines

    def prompt(
        self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], your_turn: bool, _: Translator
    ) -> str:
        if not your_turn:
            return _("Wait for your turn.")
        kinds = {action["type"] for action in legal}
        phase = view.get("phase")
        if phase == "bid1":
            return _("Make {card}'s suit trumps, or pass.", card=show.card(view.get("up_card") or ""))
        if phase == "pickup":
            up = show.card(view.get("up_card") or "")
            if "leave" in kinds:
                return _(
                    "You are the dealer: to pick up {card}, tap the card you discard for it, or leave it.", card=up
                )
            return _("You are the dealer: to pick up {card}, tap the card you discard for it.", card=up)
        if phase == "bid2":
            if "pass" in kinds:
                return _("Name trumps, or pass.")
            return _("Everyone passed: as the dealer you must name trumps.")
        if phase == "maker_choice":
            return _("You made trumps: play alone, or take the dummy and keep your best five.")
        if phase == "keep":
            return _("Tap the five cards you keep, then press ✔; ⏩ keeps your five strongest at once.")
        if phase == "defend":
            return _("Defend alone against the maker, or pass.")
        return _("Your turn: play a card.")

    quiet_events = {
        **GameRenderer.quiet_events,
        "played": "each seat shows the card it played to the trick",
    }

    def goal_text(self, view: Mapping[str, Any], _: Translator) -> str | None:
        return _("Target: {target}", target=view["target"]) if view.get("target") else None

    def seat_detail(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        """The card this seat played to the trick, its tricks, and the dealer while trumps are
        chosen. The maker and a lone defender are named in the centre, and card counts are left
        out (every hand holds 5 less the tricks played), so that a seat fits a phone's line."""
        if player == view.get("sitting_out"):
            return _("sits out")
        parts = []
        if player == view.get("dealer") and view.get("phase") in ("bid1", "pickup", "bid2"):
            parts.append(_("dealer"))
        tricks = (view.get("tricks_won") or {}).get(player)
        if tricks:
            parts.append(_.plural("{count} trick", "{count} tricks", tricks))
        played = next((play["card"] for play in view.get("trick") or [] if play["player"] == player), None)
        return " · ".join(([show.card(played)] if played else []) + ([", ".join(parts)] if parts else []))

    def seat_note(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        """The seat's roles and tricks (the app draws its cards and the trick's)."""
        return ", ".join(self._roles(view, player, _) + tricks_taken(view, player, _))

    def _roles(self, view: Mapping[str, Any], player: str, _: Translator) -> list[str]:
        parts = []
        if player == view.get("dealer") and view.get("phase") in ("bid1", "pickup", "bid2"):
            parts.append(_("dealer"))  # while trumps are chosen, as the group's table says
        if player == view.get("maker"):
            parts.append(_("maker") + (" (" + _("alone") + ")" if view.get("maker_alone") else ""))
        if player == view.get("lone_defender"):
            parts.append(_("defends alone"))
        if player == view.get("sitting_out"):
            parts.append(_("sits out"))
        return parts

    def centre_lines(
        self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str], compact: bool = False
    ) -> list[str]:
        # The seats show the trick's cards.
        parts = self._centre(view, _, names, for_player=False)
        if view.get("maker"):
            maker = _("Maker: {name}", name=name(names, view["maker"]))
            parts.append(maker + (" (" + _("alone") + ")" if view.get("maker_alone") else ""))
        if view.get("lone_defender"):
            parts.append(_("Defends alone: {name}", name=name(names, view["lone_defender"])))
        if view.get("phase") == "play":
            played = sum((view.get("tricks_won") or {}).values())
            parts.append(_("Trick {number} of {tricks}", number=min(played + 1, 5), tricks=5))
        return pack(parts)

    def board_zones(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[dict[str, Any]]:
        """The up-card while trumps are being made, trumps, the trick, the dummy (its cards when
        this player may see them, else how many)."""
        zones = []
        if view.get("up_card") and view.get("phase") in ("bid1", "pickup", "bid2"):
            status = _("turned down") if view.get("up_card_status") == "turned_down" else None
            zones.append(zone("up_card", _("Up-card"), [view["up_card"]], note=status))
        if view.get("trump"):
            zones.append(zone("trump", _("Trumps"), note=show.suit_label(view["trump"], _)))
        if view.get("trick") or view.get("phase") == "play":
            zones.append(trick_zone(view, _))
        if view.get("dummy") is not None or view.get("dummy_count") is not None:
            zones.append(zone("dummy", _("Dummy"), view.get("dummy") or [], count=view.get("dummy_count")))
        return zones

    def _centre(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str], for_player: bool) -> list[str]:
        lines = []
        if view.get("up_card") and view.get("phase") in ("bid1", "pickup", "bid2"):
            status = _("turned down") if view.get("up_card_status") == "turned_down" else ""
            lines.append(_("Up-card: {card}", card=show.card(view["up_card"])) + (f" ({status})" if status else ""))
        if view.get("trump"):
            lines.append(_("Trumps: {suit}", suit=show.suit_label(view["trump"], _)))
        trick = view.get("trick") or []
        if trick and for_player:
            lines.append(
                _(
                    "On the table: {cards}",
                    cards=" · ".join(f"{name(names, play['player'])} {show.card(play['card'])}" for play in trick),
                )
            )
        return lines

    def event_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
        kind = event["kind"]
        who = name(names, event.get("player", ""))
        if kind == "passed":
            return _("{name} passed.", name=who)
        if kind == "up_card_turned_down":
            return _("Nobody took {card}: it is turned down.", card=show.card(event["card"]))
        if kind == "trump_made":
            return _("{name} made {suit} trumps.", name=who, suit=show.suit_label(event["trump"], _))
        if kind in ("took_up_card", "picked_up"):
            return _("{name} picked up {card}.", name=who, card=show.card(event["card"]))
        if kind == "left_up_card":
            return _("{name} left {card} on the table.", name=who, card=show.card(event["card"]))
        if kind == "thrown_in":
            return _("Everyone passed: the cards are dealt again.")
        if kind == "maker_alone":
            return _("{name} plays alone.", name=who)
        if kind == "maker_with_dummy":
            return _("{name} takes the dummy.", name=who)
        if kind == "kept":
            return _("{name} kept five cards and put the rest aside.", name=who)
        if kind == "defender_alone":
            return _("{name} defends alone.", name=who)
        if kind == "defender_passed":
            return _("{name} does not defend alone.", name=who)
        if kind == "trick_won":
            return _("{name} took the trick ({cards}).", name=who, cards=show.cards(event["cards"]))
        if kind == "round_scored":
            maker = name(names, event["maker"])
            if event.get("euchred"):
                return _("{name} was euchred!", name=maker)
            return _.plural(
                "{name} took {count} trick.", "{name} took {count} tricks.", event["maker_tricks"], name=maker
            )
        if kind == "match_won":
            return winners_line(event["winners"], _, names)
        return None

    def private_event_line(
        self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str], reader: str | None = None
    ) -> str | None:
        """In the reader's own chat their moves read «You passed.», never their name."""
        own = (
            self._own_line(event, _)
            if reader is not None and reader == event.get("player", event.get("maker"))
            else None
        )
        return own or self.event_line(event, _, names)

    def _own_line(self, event: Mapping[str, Any], _: Translator) -> str | None:
        kind = event["kind"]
        if kind == "passed":
            return _("You passed.")
        if kind == "trump_made":
            return _("You made {suit} trumps.", suit=show.suit_label(event["trump"], _))
        if kind in ("took_up_card", "picked_up"):
            return _("You picked up {card}.", card=show.card(event["card"]))
        if kind == "left_up_card":
            return _("You left {card} on the table.", card=show.card(event["card"]))
        if kind == "maker_alone":
            return _("You play alone.")
        if kind == "maker_with_dummy":
            return _("You take the dummy.")
        if kind == "kept":
            return _("You kept five cards and put the rest aside.")
        if kind == "defender_alone":
            return _("You defend alone.")
        if kind == "defender_passed":
            return _("You do not defend alone.")
        if kind == "trick_won":
            return _("You took the trick ({cards}).", cards=show.cards(event["cards"]))
        if kind == "round_scored":
            if event.get("euchred"):
                return _("You were euchred: fewer than 3 tricks!")
            return _.plural("You took {count} trick.", "You took {count} tricks.", event["maker_tricks"])
        return None

    def round_summary(self, events: Sequence[Mapping[str, Any]], _: Translator, names: Mapping[str, str]) -> list[str]:
        lines = super().round_summary(events, _, names)
        scored = next((event for event in events if event["kind"] == "round_scored"), None)
        if lines and scored is not None:
            lines.insert(1, self.event_line(scored, _, names) or "")
        return lines

    def timeout_move_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
        if event["kind"] == "played":
            return _("{name} played {card}.", name=name(names, event.get("player", "")), card=show.card(event["card"]))
        return None


RENDERER = Euchre3Renderer()
