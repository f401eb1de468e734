"""Three Thirteen at the table: draw from the stock or the discard, discard, go out, best melds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from handlers.i18n import N_, Translator
from handlers.presentation import cards as show
from handlers.presentation.action_tree import Alone, Card, Step
from handlers.presentation.fit import pack
from handlers.presentation.games.base import (
    GameRenderer,
    cards_and_tricks,
    name,
    names_list,
    signed,
    winners_line,
    zone,
)

KIND_ORDER = {"draw": 0, "go_out": 1, "discard": 2}


class ThreeThirteenRenderer(GameRenderer):
    game = "three_thirteen"
    title = N_("Three Thirteen")
    refusal_texts = {
        "must_draw_first": N_("You must draw first."),
        "cannot_go_out": N_("These cards don't make sets or runs yet."),
        "cannot_discard_taken_card": N_("You cannot discard the card you just took."),
        "first_turn_no_go_out": N_("Nobody may go out on their first turn at this table."),
        "already_drew": N_("You have drawn already: discard a card or go out."),
        "discard_pile_empty": N_("The discard pile is empty: draw from the stock."),
        "invalid_meld": N_("Each meld must be a set or a run of 3 or more cards: discard a card instead."),
        "melds_do_not_match_hand": N_("Your melds must use every card but the discard: discard a card instead."),
        "not_at_table": N_("Only players at this table can act."),
        "stock_empty": N_("The stock is empty: take the top discard."),
        "unknown_source": N_("Draw from the stock or the discard pile."),
    }

    def order_actions(self, actions, view):
        def key(action):
            card = action.get("card") or action.get("discard")
            return (
                KIND_ORDER.get(action["type"], 9),
                action.get("from", ""),
                show.by_suit_then_rank(card) if card else (0, 0),
            )

        return sorted(actions, key=key)

    def action_path(self, action: Mapping[str, Any], view: Mapping[str, Any], _: Translator) -> list[Step]:
        kind = action["type"]
        if kind == "draw":
            if action["from"] == "discard":
                return [Alone(_("Take {card}", card=show.card(view.get("discard_top") or "")))]
            return [Alone(_("Draw from the stock"))]
        if kind == "discard":
            return [Card(show.card(action["card"]), action["card"])]
        if kind == "go_out":
            return [Alone("🏁 " + _("Go out")), _("Discard {card}", card=show.card(action["discard"]))]
        return super().action_path(action, view, _)

    def hand_lines(self, view: Mapping[str, Any], _: Translator, active: bool = True) -> list[str]:
        lines = super().hand_lines(view, _, active)
        lines.append(self._round_line(view, _))
        if active and view.get("discard_top"):
            lines.append(_("Discard pile: {card}", card=show.card(view["discard_top"])))
        best = view.get("best_arrangement")
        if best and best.get("melds"):
            melds = "  ".join("[" + show.cards(meld) + "]" for meld in best["melds"])
            lines.append(_("Best melds: {melds}", melds=melds))
        if best is not None:
            # TRANSLATORS: Three Thirteen: what the cards outside the best melds would cost now.
            lines.append(
                _.plural(
                    "Cards outside melds: {count} point", "Cards outside melds: {count} points", best.get("deadwood", 0)
                )
            )
        return lines

    def _round_line(self, view: Mapping[str, Any], _: Translator) -> str:
        wild = view.get("wild_rank")
        if view.get("tiebreak"):
            return _("Tie-break round: {wild}s are wild.", wild=wild)
        return _(
            "Round {number} of {rounds}: {wild}s are wild.",
            number=view.get("round"),
            rounds=view.get("rounds", 11),
            wild=wild,
        )

    def round_text(self, view: Mapping[str, Any], number: int, _: Translator) -> str:
        # The wild rank heads the centre: heading and rank on one line do not fit a phone.
        if view.get("tiebreak"):
            return _("Tie-break round")
        return _("Round {number} of {rounds}", number=view.get("round"), rounds=view.get("rounds", 11))

    def prompt(
        self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], your_turn: bool, _: Translator
    ) -> str:
        if not your_turn and view.get("went_out"):
            # Someone went out: the round ends after the others' last turns.
            if view.get("you") == view["went_out"]:
                return _("You went out: the others have one more turn each, then the round is scored.")
            if view.get("you") not in (view.get("final_turns") or []):
                return _("Your last turn is over: the round is scored once the others have had theirs.")
        if not your_turn:
            return _("Wait for your turn.")
        kinds = {action["type"] for action in legal}
        sources = {action["from"] for action in legal if action["type"] == "draw"}
        if sources == {"stock", "discard"}:
            return _("Draw from the stock or take the discard.")
        if sources == {"stock"}:
            return _("Draw from the stock.")
        if sources == {"discard"}:
            return _("Take the top discard.")
        if "go_out" in kinds:
            return _("You can go out! Or discard a card.")
        return _("Discard a card.")

    def seat_detail(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        if player not in (view.get("seated") or view.get("players") or []):
            return _("sits out")
        return ", ".join(cards_and_tricks(view, player, _) + self._roles(view, player, _))

    def seat_note(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        """Sitting out, gone out, the dealer (the app draws the card count)."""
        if player not in (view.get("seated") or view.get("players") or []):
            return _("sits out")
        return ", ".join(self._roles(view, player, _))

    def _roles(self, view: Mapping[str, Any], player: str, _: Translator) -> list[str]:
        parts = []
        if player in (view.get("went_out") or []):
            parts.append("🏁")
        if player == view.get("dealer"):
            parts.append(_("dealer"))
        return parts

    def centre_lines(
        self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str], compact: bool = False
    ) -> list[str]:
        parts = []  # the round is in the heading
        if view.get("wild_rank"):
            parts.append(_("{wild}s are wild", wild=view["wild_rank"]))
        if view.get("discard_top"):
            parts.append(_("Discard pile: {card}", card=show.card(view["discard_top"])))
        parts.append(_("Stock: {count}", count=view.get("stock_count", 0)))
        lines = pack(parts)
        for player, melds in (view.get("table_melds") or {}).items():
            lines.extend(
                pack([f"🏁 {name(names, player)}:", *("[" + show.cards(meld) + "]" for meld in melds)], joiner=" ")
            )
        if view.get("final_turns"):
            last = view["final_turns"]
            listed = names_list(last, names, _)
            lines.append(_.plural("Last turn: {names}", "Last turns: {names}", len(last), names=listed))
        return lines

    def board_zones(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[dict[str, Any]]:
        """The discard pile's top (and how many cards it holds), the wild rank, the stock, the melds
        laid down (grouped, by player), and this player's best arrangement of their hand: the
        melds grouped, the cards in no meld in a zone of their own."""
        pile = view.get("discard_count")
        zones = [
            zone(
                "discard",
                _("Discard pile"),
                [view["discard_top"]] if view.get("discard_top") else [],
                note=_.plural("{count} card", "{count} cards", pile) if pile else None,
            ),
            zone("wild", _("Wild"), note=str(view.get("wild_rank") or "")),
            zone("stock", _("Stock"), count=view.get("stock_count", 0)),
        ]
        for player, melds in (view.get("table_melds") or {}).items():
            zones.append(zone(f"melds:{player}", "🏁 " + names.get(player, player), groups=melds))
        arrangement = view.get("best_arrangement")
        if arrangement and arrangement.get("melds"):
            zones.append(zone("arrangement", _("Your melds"), groups=arrangement["melds"]))
            if arrangement.get("deadwood_cards"):
                zones.append(zone("deadwood", _("Not in a meld"), arrangement["deadwood_cards"]))
        last = view.get("final_turns")
        if last:
            listed = names_list(last, names, _)
            zones.append(
                zone(
                    "final",
                    "",
                    note=_.plural("{names}: one more turn.", "{names}: one more turn each.", len(last), names=listed),
                )
            )
        return zones

    def score_text(self, score: int, _: Translator) -> str:
        return _.plural("{count} point", "{count} points", score)

    def event_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
        kind = event["kind"]
        who = name(names, event.get("player", ""))
        if kind == "drew" and event.get("from") == "discard":
            return _("{name} took {card}.", name=who, card=show.card(event["card"]))
        if kind == "drew":
            return _("{name} drew from the stock.", name=who)
        if kind == "discarded":
            return _("{name} discarded {card}.", name=who, card=show.card(event["card"]))
        if kind == "went_out":
            return "🏁 " + _("{name} went out!", name=who)
        if kind == "round_scored":
            return "🏁 " + _("Round {number} is over: the results are below.", number=event["round"])
        if kind == "tie_break":
            listed = names_list(event.get("players") or [], names, _)
            return _("{names} are tied: they play a tie-break round.", names=listed)
        if kind == "stock_reshuffled":
            return _("The discard pile was shuffled into a new stock.")
        if kind == "match_over":
            return winners_line(event["winners"], _, names)
        return None

    def round_score_lines(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[str]:
        """One line per player: the total and this round's points, then the melds and the cards
        left over that the points come from."""
        points = event.get("points") or {}
        totals = event.get("totals") or {}
        hands = event.get("hands") or {}
        lines = []
        for player in totals or points:
            parts = [f"{name(names, player)}: {totals.get(player, points.get(player))}{signed(points.get(player))}"]
            hand = hands.get(player) or {}
            if hand.get("melds"):
                # TRANSLATORS: Three Thirteen's round results: the melds a hand made, each in brackets.
                parts.append(_("melds {melds}", melds=" ".join("[" + show.cards(meld) + "]" for meld in hand["melds"])))
            if hand.get("deadwood_cards"):
                # TRANSLATORS: Three Thirteen's round results: the cards outside melds, which cost the points.
                parts.append(_("outside melds {cards}", cards=show.cards(hand["deadwood_cards"])))
            lines.append(" · ".join(parts))
        return lines

    def private_event_line(
        self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str], reader: str | None = None
    ) -> str | None:
        if event["kind"] == "drew" and event.get("from") == "stock" and event.get("card"):
            return _("You drew {card}.", card=show.card(event["card"]))
        return None

    def result_lines(self, view, scores, winners, _, names):
        # Lowest total wins.
        return [
            f"{'🏆 ' if player in winners else ''}{name(names, player)}: {score}"
            for player, score in sorted(scores.items(), key=lambda item: item[1])
        ]


RENDERER = ThreeThirteenRenderer()
