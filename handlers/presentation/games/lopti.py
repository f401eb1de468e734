"""Lopti at the table: setup swaps, plays of one rank, blind flips, the pile, burns and house rules."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from handlers.i18n import N_, Translator
from handlers.presentation import cards as show
from handlers.presentation.action_tree import Alone, Card, Pick, Spare, Step
from handlers.presentation.fit import LINE_WIDTH, pack, wrap
from handlers.presentation.games.base import PROPOSALS_KEY, GameRenderer, all_of_a_rank, name, shorten, zone
from handlers.presentation.games.house_rules import AMEND, shown_rule

KIND_ORDER = {
    "throw": 0,
    "champion": 0,
    "ready": 0,
    "swap": 1,
    "play": 2,
    "flip": 3,
    "take": 4,
    "no_rule": 5,
    "delete_rule": 6,
    "propose": 7,
    "amend_rule": 7,
}
MAX_BUTTON = 40  # a change on the Propose button; longer texts are cut between words
MAX_RULE_IN_LOG = 100
# House rules are shown on the table while they are at most this many, this short in all.
MAX_RULES_SHOWN = 2
SIGNS = {"rock": ("✊", N_("Rock")), "paper": ("✋", N_("Paper")), "scissors": ("✌️", N_("Scissors"))}
# The base rules a Rule Vote may change (lopti.md section 6), as players read them.
BASE_OPTIONS = {
    "play_for_places": N_("play on for places"),
    "face_down_may_take": N_("face-down players may take the pile"),
    "sevens_stack_singly": N_("7s go on 7s one at a time"),
    "draw_up_to_three": N_("draw up to three cards"),
    "unlimited_swaps": N_("any number of swaps at the start"),
    "ten_on_seven": N_("a 10 may follow a 7"),
}


# Every seat of every Lopti table is offered the same few proposals at every move, and the
# seats' screens keep the actions they offer (handlers/presentation/render/seat.py): one dict per proposal
# for the whole bot, not one per seat and move. Never changed once made: the engine copies
# what it keeps (`check_action`).
@functools.lru_cache(maxsize=1024)
def _proposal(key: str, value: Any, starts: str) -> dict[str, Any]:
    change = {"remove": value} if key == "remove" else {"option": key, "value": value}
    return {"type": "propose", "change": change, "starts": starts}


@functools.lru_cache(maxsize=256)
def _amending(rule: int) -> dict[str, Any]:
    return {"type": AMEND, "rule": rule}


class LoptiRenderer(GameRenderer):
    game = "lopti"
    title = N_("Lopti")
    quiet_events = {
        **GameRenderer.quiet_events,
        "ready": "the seat is no longer marked ▶️ (the table waits only for those not ready)",
        "swapped": "the seat's face-up cards show the swap",
        "voted": "the poll shows each vote, and the Rule Vote line counts them",
        "vote_withdrawn": "the poll drops the retracted answer, and the Rule Vote line counts again",
        "throw_made": "a throw is secret until both are in; the duel line marks who has thrown",
        "rule_fired": "each effect of the rule has its own line with the rule's number",
    }
    hand_sort_key = staticmethod(show.by_rank)
    rule_vote = True
    refusal_texts = {
        "obligation_pending": N_("Play a 3, or take the pile."),
        "must_play_low": N_("Play a 7 or lower, or take the pile."),
        "ten_on_seven": N_("A 10 cannot follow a 7."),
        "match_needs_more": N_("To match the top, play more cards than the last play (or make four)."),
        "illegal_card": N_("Play higher than the top card, or take the pile."),
        "swap_used": N_("You already swapped."),
        "rule_too_long": N_("A house rule has at most 280 characters."),
        "rule_empty": N_("Write the rule as a message, or press No rule."),
        "not_round_winner": N_("Only the round's winner writes the rule."),
        "not_implemented": N_("Rule votes are not available yet."),
        "already_ready": N_("You are ready: wait for the others."),
        "already_thrown": N_("Your throw is in: wait for the other player."),
        "bad_position": N_("Choose one of your face-down cards with the buttons."),
        "bad_value": N_("A base rule is only switched on or off."),
        "duplicate_cards": N_("A card is named twice: choose each card once."),
        "empty_pile": N_("The pile is empty: play any card instead."),
        "face_up_left": N_("Play your face-up cards before your face-down ones."),
        "hand_not_empty": N_("Play from your hand first; face-down cards come last."),
        "house_rules_off": N_("This table plays without house rules: press No rule."),
        "must_flip": N_("At this table you must flip a face-down card."),
        "no_champion_wait": N_("No rule is waiting for a defender now."),
        "no_change": N_("That would change nothing: propose something else."),
        "no_duel": N_("The duel is over."),
        "no_such_option": N_("There is no such base rule."),
        "no_such_rule": N_("That rule is not in force: see /rules."),
        "no_vote": N_("No Rule Vote is open."),
        "no_ballot": N_("You have not voted in this Rule Vote."),
        "no_vote_now": N_("A Rule Vote can be proposed from the deal until the round ends."),
        "not_a_base_rule": N_("That is a table setting, not a base rule: it cannot be voted on."),
        "not_a_supporter": N_("Only a player who voted no may defend the rule."),
        "not_face_up": N_("Swap with one of your face-up cards."),
        "not_in_duel": N_("Only the two players in the duel throw: watch this one."),
        "not_rule_author": N_("Only the rule's author may delete it; you may propose a Rule Vote."),
        "position_used": N_("That card is already turned up: choose another face-down card."),
        "restore_at_setup_only": N_("Last session's rules can come back only before round 1 starts."),
        "rule_removed": N_("That rule was removed this session; only a Rule Vote can bring it back."),
        "templates_off": N_("This table takes only typed rules: send your rule as a message."),
        "text_rules_off": N_("This table takes only rules I can apply: press Build a rule."),
        "vote_open": N_("A Rule Vote is already running: vote in the group."),
        "vote_procedure_fixed": N_("The Rule Vote and the duel cannot be changed."),
        "vote_used": N_("This round's Rule Vote is used: propose again next round."),
        "not_in_session": N_("You are not in this session: only its players may propose a change."),
        "authoring_over": N_("It is too late to write this rule: the next round has begun."),
        "wrong_phase": N_("That is not possible now: use the buttons you have."),
        # A structured rule the builder would never make (it offers only what the engine accepts).
        **dict.fromkeys(
            (
                "bad_condition",
                "bad_effects",
                "bad_target",
                "bad_when",
                "condition_not_allowed",
                "effect_not_allowed",
                "out_of_bounds",
                "unknown_effect",
                "unknown_event",
            ),
            N_("I cannot apply that rule: build it again with the buttons."),
        ),
    }

    def order_actions(self, actions, view):
        # Votes are cast (and retracted) in the group's poll, not from the private keyboard.
        actions = [action for action in actions if action["type"] not in ("vote", "withdraw_vote")]

        def key(action):
            cards = action.get("cards") or ([action["hand"]] if "hand" in action else [])
            first = show.by_rank(cards[0]) if cards else (0, 0)
            return (
                KIND_ORDER.get(action["type"], 9),
                first,
                len(cards),
                action.get("position", 0),
                action.get("rule", 0),
            )

        return sorted(actions, key=key)

    def builder_button(self, view: Mapping[str, Any], player: str, _: Translator) -> str | None:
        if view.get("phase") == "authoring" and view.get("awaiting_rule") == player and builds_rules(view):
            return "🧩 " + _("Build a rule")
        return None

    def proposal_refusal(self, view: Mapping[str, Any], player: str) -> str | None:
        """A session member may propose when the engine says so (its view carries its refusal)."""
        if player not in (view.get("players") or []):
            return "not_in_session"
        return view.get("proposal_refusal")

    def proposal_branch(self, _: Translator) -> str | None:
        return "🗳 " + _("Propose a change")

    def extra_actions(self, view: Mapping[str, Any], player: str) -> list[dict[str, Any]]:
        """Rule Vote proposals: removing a rule in force or switching a base rule, now or next
        round; and amending a rule, which opens the rule builder (`AMEND`, not an engine action)."""
        if self.proposal_refusal(view, player):
            return []
        rules = view.get("rules") or []
        changes: list[tuple[str, Any]] = [("remove", rule["id"]) for rule in rules]
        options = view.get("options") or {}
        changes += [(name, not options.get(name, False)) for name in BASE_OPTIONS if name in options]
        proposals = [_proposal(key, value, starts) for key, value in changes for starts in ("now", "next_round")]
        if builds_rules(view):
            proposals += [_amending(rule["id"]) for rule in rules]
        return proposals

    def table_buttons(self, view: Mapping[str, Any], names: Mapping[str, str], _: Translator) -> list[tuple[str, str]]:
        """🗳 Vote while the round's Rule Vote may be proposed: it opens the presser's proposals
        in their private chat."""
        if view.get("proposal_refusal") is None:
            return [("🗳 " + _("Vote"), PROPOSALS_KEY)]
        return []

    def carry_over(self, previous: Mapping[str, Any], seated: Mapping[str, str]) -> dict[str, Any] | None:
        """L22.3: the last session's rules in force, offered for restoring by a vote."""
        restore = []
        for rule in previous.get("rules") or []:
            body = dict(rule["rule"]) if rule.get("rule") else {}
            if rule.get("text"):
                body["text"] = rule["text"]
            # The author keeps their rights if they sit at the new table; otherwise their name is kept.
            author = seated.get(rule["author"]) or (previous.get("names") or {}).get(rule["author"], rule["author"])
            restore.append({"author": author, "rule": body})
        if not restore:
            return None
        return {"type": "propose", "change": {"restore": restore[:10]}, "starts": "now"}

    def change_text(self, change: Mapping[str, Any], _: Translator, html: bool = True) -> str:
        """A proposed change as a noun phrase (an infinitive in Swahili: «kuondoa kanuni ya 2»), so
        that the host sentences (the poll, the vote line, proposed / changed / turned down) can
        make their words agree with it. Rules' texts are HTML-escaped unless `html` is False (a
        poll or a button is plain text)."""
        if "restore" in change:
            texts = "; ".join(restored_rule(item["rule"], _, html) for item in change["restore"])
            # TRANSLATORS: a proposed change inside a sentence (a noun or infinitive); {rules}: the rules' texts.
            return _.npgettext(
                "rule change",
                "restore the last session's rule: {rules}",
                "restore the last session's {count} rules: {rules}",
                len(change["restore"]),
                rules=texts,
            )
        if "remove" in change:
            # TRANSLATORS: a proposed change inside a sentence: «Amina anapendekeza kuondoa kanuni ya 2».
            return _.pgettext("rule change", "remove rule {number}", number=change["remove"])
        if "amend" in change:
            # TRANSLATORS: a proposed change inside a sentence (a noun or infinitive).
            return _.pgettext("rule change", "change rule {number}", number=change["amend"])
        label = option_label(change, _)
        if change.get("value"):
            # TRANSLATORS: a proposed change inside a sentence; {rule}: a base rule's description.
            return _.pgettext("rule change", "switch on: {rule}", rule=label)
        # TRANSLATORS: a proposed change inside a sentence; {rule}: a base rule's description.
        return _.pgettext("rule change", "switch off: {rule}", rule=label)

    def change_button(self, change: Mapping[str, Any], _: Translator) -> str:
        """A proposed change on the Propose button (a command), cut between words if long."""
        return shorten(self.change_button_text(change, _), MAX_BUTTON)

    def change_button_text(self, change: Mapping[str, Any], _: Translator) -> str:
        if "remove" in change:
            # TRANSLATORS: a button: propose to remove this rule.
            return _.pgettext("rule change button", "remove rule {number}", number=change["remove"])
        if "option" in change:
            label = option_label(change, _)
            if change.get("value"):
                # TRANSLATORS: a button: propose to switch this base rule on; {rule}: its description.
                return _.pgettext("rule change button", "switch on: {rule}", rule=label)
            # TRANSLATORS: a button: propose to switch this base rule off; {rule}: its description.
            return _.pgettext("rule change button", "switch off: {rule}", rule=label)
        return self.change_text(change, _, html=False)

    def poll_for(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]):
        vote = view.get("vote")
        if not vote:
            return None
        when = _("now") if vote.get("starts") == "now" else _("from next round")
        # A poll is plain text: names and rules as typed, never HTML-escaped.
        question = _(
            "Rule Vote by {name}: {change} ({when})?",
            name=names.get(vote["proposer"], vote["proposer"]),
            change=self.change_text(vote["change"], _, html=False),
            when=when,
        )
        return (f"vote:{vote['id']}", question, [_("Yes"), _("No")])

    def poll_action(self, key: str, option_ids, view: Mapping[str, Any]):
        """An answer is a ballot; a retracted answer (Telegram sends no option) withdraws it."""
        if not key.startswith("vote:"):
            return None
        if not option_ids:
            return {"type": "withdraw_vote"}
        if len(option_ids) != 1 or option_ids[0] not in (0, 1):
            return None
        return {"type": "vote", "yes": option_ids[0] == 0}

    def text_action(self, view: Mapping[str, Any], text: str) -> dict[str, Any] | None:
        if view.get("phase") == "authoring" and view.get("awaiting_rule") == view.get("me"):
            return {"type": "author_rule", "rule": {"text": text}}
        return None

    def action_path(self, action: Mapping[str, Any], view: Mapping[str, Any], _: Translator) -> list[Step]:
        kind = action["type"]
        if kind == "ready":
            return ["✅ " + _("Ready")]
        if kind == "swap":
            return [
                "🔄 " + _("Swap"),
                Card(show.card(action["hand"]), action["hand"]),
                "↔ " + show.card(action["face_up"]),
            ]
        if kind == "play":
            # Cards of one rank go together in any order: each card is one button, marked as it
            # is tapped; a card no other may join plays at once.
            cards = show.sort_hand(action["cards"], show.by_rank)
            return [Pick(tuple(show.card(card) for card in cards), tuple(cards))]
        if kind == "flip":
            return [f"{show.FACE_DOWN} " + _("Flip card {number}", number=action["position"] + 1)]
        if kind == "take":
            return [Alone("🫳 " + _("Take the pile"))]
        if kind == "no_rule":
            return [_("No rule")]
        if kind == "throw":
            symbol, label = SIGNS[action["sign"]]
            return [f"{symbol} {_(label)}"]
        if kind == "champion":
            return ["🛡 " + _("I'll defend it")]
        if kind == "propose":
            when = _("Now") if action["starts"] == "now" else _("Next round")
            return ["🗳 " + _("Propose a change"), self.change_button(action["change"], _), when]
        if kind == "delete_rule":
            return ["📜 " + _("My rules"), _("Delete rule {number}", number=action["rule"])]
        if kind == AMEND:
            # TRANSLATORS: a button: propose a changed version of this house rule (opens the rule builder).
            return [
                "🗳 " + _("Propose a change"),
                "✏️ " + _.pgettext("rule change button", "change rule {number}", number=action["rule"]),
            ]
        return super().action_path(action, view, _)

    def action_paths(self, action: Mapping[str, Any], view: Mapping[str, Any], _: Translator) -> list[list[Step]]:
        """Every card of a rank the player holds also plays with one press (⏩, as in Kadi): the
        common play of a pair or more costs one edit, not one per card marked."""
        path = self.action_path(action, view, _)
        if action["type"] == "play":
            shortcut = all_of_a_rank(show.sort_hand(action["cards"], show.by_rank), view.get("hand") or [])
            if shortcut is not None:
                # A pair on ⏩ is not marked card by card: a tap on either card then plays it alone.
                return [Spare(path) if len(action["cards"]) == 2 else path, [shortcut]]
        return [path]

    def hand_lines(self, view: Mapping[str, Any], _: Translator, active: bool = True) -> list[str]:
        lines = super().hand_lines(view, _, active)
        seat = (view.get("seats") or {}).get(view.get("me"), {})
        if seat.get("face_up"):
            lines.append(_("Face up: {cards}", cards=show.cards(seat["face_up"])))
        if seat.get("face_down"):
            lines.append(
                _(
                    "Face down: {cards}",
                    cards=" ".join(f"{show.FACE_DOWN}{position + 1}" for position in seat["face_down"]),
                )
            )
        if active:
            lines.extend(self._pile(view, _, view.get("names", {})))
        return lines

    def prompt(
        self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], your_turn: bool, _: Translator
    ) -> str:
        """What the keyboard offers now, in one sentence (proposing and deleting rules, always
        there, are left to their buttons)."""
        kinds = {action["type"] for action in legal}
        phase = view.get("phase")
        if "throw" in kinds:
            return _("The duel is on: throw rock, paper or scissors.")
        if "champion" in kinds:
            return _("The rule's author is away: you may defend the rule in a duel.")
        if phase == "setup":
            if "ready" in kinds and "swap" in kinds:
                return _("Swap a hand card with a face-up card if you like, then press Ready.")
            if "ready" in kinds:
                return _("Press Ready when you are set.")
            return _("Waiting for the others to be ready.")
        if phase == "authoring" and view.get("awaiting_rule") == view.get("me") and "no_rule" in kinds:
            mode = (view.get("table_options") or view.get("options") or {}).get("house_rules", "templates_and_text")
            if mode == "templates":
                return _("You won the round! Build your house rule with the button, or press No rule.")
            if mode == "text":
                return _(
                    "You won the round! Send me your house rule as a message (up to 280 characters), or press No rule."
                )
            return _(
                "You won the round! Build your house rule with the button or send it as a message (up to 280 "
                "characters), or press No rule."
            )
        if not your_turn or not kinds & {"play", "flip", "take"}:
            return _("Wait for your turn.")
        if view.get("obligation") == view.get("me"):
            if "play" in kinds:
                return _("A 3 was played: play a 3, or take the pile.")
            return _("A 3 was played and you hold none: take the pile.")
        if "flip" in kinds:
            if "take" in kinds:
                return _("Flip one of your face-down cards, or take the pile.")
            return _("Flip one of your face-down cards.")
        if "play" not in kinds:
            return _("Nothing beats the pile: take it.")
        if "take" not in kinds:
            return _("The pile is empty: play any card.")
        if view.get("low_condition"):
            return _("Play a 7 or lower, or take the pile.")
        return _("Your turn: play higher (or match with more), or take the pile.")

    def seat_detail(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        """«🤚3, up J♣ 6♣ 9♠» or «🤚2, 🎴3»: the hand's count, then the face-up cards or,
        once they are gone, the face-down count. A ready seat in the setup is the one the table no
        longer waits for (▫️, not ▶️)."""
        seat = (view.get("seats") or {}).get(player, {})
        if seat.get("out"):
            return _("out")
        # The hand's count as 🤚3 (as the face-down cards are 🎴3), so that the face-up cards
        # fit the seat's line with their word.
        parts = [f"{show.IN_HAND}{seat.get('hand_count', 0)}"]
        if seat.get("face_up"):
            # The face-down cards wait under them (played only once the face-up ones are gone).
            # TRANSLATORS: Lopti's seat line: the seat's face-up cards (kept short: «wazi J♣ 6♣»).
            parts.append(_("up {cards}", cards=show.cards(seat["face_up"])))
        elif seat.get("face_down"):
            parts.append(f"{show.FACE_DOWN}{len(seat['face_down'])}")
        return ", ".join(parts)

    def board_zones(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[dict[str, Any]]:
        """The pile (its cards, what it asks for), the draw pile, the burned cards, and the
        house rules, vote and duel as the table message tells them."""
        pile = view.get("pile") or []
        asks = self._pile(view, _, names)
        # The centre lines after the pile's and the draw pile's (see centre_lines): rules, vote, duel.
        told = min(2, len(asks) + (0 if asks and view.get("pile_top") else 1))
        rest = self.centre_lines(view, _, names)[told:]
        zones = [
            zone("pile", _("Pile"), pile, note="\n".join(asks[1:] if view.get("pile_top") else asks)),
            zone("stock", _("Stock"), count=view.get("stock_count", 0)),
        ]
        if view.get("burned_count"):
            zones.append(zone("burned", _("Burned"), count=view["burned_count"]))
        if rest:
            zones.append(zone("rules", "", note="\n".join(rest)))
        return zones

    def seat_note(self, view: Mapping[str, Any], player: str, _: Translator) -> str:
        """Out of the round, or ready to play in the setup (the app draws the seat's cards)."""
        seat = (view.get("seats") or {}).get(player, {})
        if seat.get("out"):
            return _("out")
        return "✅" if view.get("phase") == "setup" and seat.get("ready") else ""

    def board_seat(self, view: Mapping[str, Any], player: str, _: Translator) -> dict[str, Any]:
        seat = (view.get("seats") or {}).get(player, {})
        found = super().board_seat(view, player, _)
        found.update(
            cards=seat.get("hand_count"),
            score=self.score_text(seat.get("wins", 0), _),
            face_up=list(seat.get("face_up") or []),
            face_down=len(seat.get("face_down") or []),
        )
        return found

    def rules_lines(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[str]:
        rules = view.get("rules") or []
        if not rules:
            return [_("No house rules yet: the winner of a round writes one.")]
        return [
            _(
                "Rule {number} by {name} (round {round}): {text}",
                number=rule["id"],
                name=name(names, rule["author"]),
                round=rule.get("round", ""),
                text=rule_text(rule, _),
            )
            for rule in rules
        ]

    def score_text(self, score: int, _: Translator) -> str:
        # Rounds won, as the round winner's line shows them (🏆): short enough for a seat's line.
        return f"🏆{score}"

    def centre_lines(
        self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str], compact: bool = False
    ) -> list[str]:
        """The pile and the stock; what the pile asks for; how many house rules are in force
        (their texts are long: /rules has them); a running Rule Vote or duel."""
        pile = self._pile(view, _, names)
        stock = _("Stock: {count}", count=view.get("stock_count", 0))
        parts = [*pile[:1], stock, *pile[1:]] if view.get("pile_top") else [stock, *pile]
        lines = pack(parts)
        lines.extend(self.rules_on_table(view, _, names, compact))
        vote = view.get("vote")
        if vote:
            # Two lines that fit a phone: the change (cut between words; the poll has it whole)
            # and the count.
            # Broken on purpose into at most two lines that fit a phone, the change cut between
            # words if it needs more (the poll under the table has it whole).
            change = self.change_text(vote["change"], _, html=False)
            title = "🗳 " + _("Rule Vote: {change}", change=change)
            first, *rest = pack(title.split(" "), joiner=" ")
            lines.append(escape(first))
            if rest:
                lines.append(escape(shorten(" ".join(rest), LINE_WIDTH)))
            lines.append(
                _(
                    "Yes {yes}, no {no}; {needed} yes votes pass.",
                    yes=vote.get("yes", 0),
                    no=vote.get("no", 0),
                    needed=vote.get("needed", ""),
                )
            )
        duel = view.get("duel")
        if duel:
            score = duel.get("score") or {}
            thrown = duel.get("thrown") or []

            def side(player: str | None) -> str:
                return (name(names, player) + (" ✅" if player in thrown else "")) if player else "?"

            line = "⚔️ " + _(
                "Duel: {a} {x} - {y} {b} (first to {target})",
                a=side(duel["proposer"]),
                x=score.get("proposer", 0),
                y=score.get("defender", 0),
                b=side(duel.get("defender")),
                target=duel.get("target", 16),
            )
            if duel.get("stage") == "champion":
                line += " · " + _("The author is away: a supporter of the rule may defend it.")
            lines.append(line)
        return lines

    def rules_on_table(
        self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str], compact: bool = False
    ) -> list[str]:
        """The house rules in force: their texts while they are few and short and the table has
        room, else how many there are (/rules has the texts), so that the table fits a phone."""
        rules = view.get("rules") or []
        texts = [f"📜 {rule['id']}. {name(names, rule['author'])}: {rule_text(rule, _)}" for rule in rules]
        # Each shown rule is broken between words into at most two lines that fit a phone;
        # longer ones are counted (/rules has them).
        wrapped = [wrap(text) for text in texts]
        if texts and len(texts) <= MAX_RULES_SHOWN and all(wrapped) and not compact:
            return [line for lines in wrapped for line in lines or []]
        if rules:
            return [
                "📜 "
                + _.plural(
                    "{count} house rule in force: /rules shows it.",
                    "{count} house rules in force: /rules shows them.",
                    len(rules),
                )
            ]
        return []

    def _pile(self, view: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> list[str]:
        """The pile's top and size, then what it asks for (the 3s beside it, a 3 to answer, a 7)."""
        lines = []
        top = view.get("pile_top")
        if top:
            run = view.get("top_run") or 1
            count = len(view.get("pile") or [])
            text = _("Pile: {card}", card=show.card(top))
            if run > 1:
                text += f" ×{run}"
            lines.append(text + " · " + _.plural("{count} card", "{count} cards", count))
        elif view.get("phase") == "play":
            lines.append(_("The pile is empty: play anything."))
        if view.get("chain"):
            lines.append(_("3s beside the pile: {cards}", cards=show.cards(view["chain"])))
        if view.get("obligation"):
            lines.append("⚠️ " + _("{name} must play a 3 or take the pile.", name=name(names, view["obligation"])))
        elif view.get("low_condition"):  # under a 3 to answer, the 7 below waits
            lines.append("⬇️ " + _("Under a 7: play 7 or lower."))
        return lines

    def event_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
        kind = event["kind"]
        who = name(names, event.get("player", ""))
        if kind == "played":
            return _("{name} played {cards}.", name=who, cards=show.cards(event["cards"]))
        if kind == "flipped":
            return _("{name} flipped {card}.", name=who, card=show.card(event["card"]))
        if kind == "burned" and event.get("cause") == "rule":
            return "🔥 " + _("A house rule burned the pile: {name} plays again.", name=who)
        if kind == "burned":
            return "🔥 " + _("{name} burned the pile and plays again.", name=who)
        if kind == "took":
            return _.plural(
                "{name} took the pile ({count} card).",
                "{name} took the pile ({count} cards).",
                len(event.get("cards", [])),
                name=who,
            )
        if kind == "extra_play":
            return _("{name} plays again on the empty table.", name=who)
        if kind == "face_up_taken":
            return _("{name} picked up the face-up cards.", name=who)
        if kind == "obligation_passed":
            return _("{name} passed the 3 on to {other}.", name=who, other=name(names, event["to"]))
        if kind == "out":
            return _("{name} is out!", name=who)
        if kind == "round_won" and not event.get("writes_rule", True):
            return "🏆 " + _("{name} wins the round.", name=who)
        if kind == "round_won":
            return "🏆 " + _("{name} wins the round and writes a house rule.", name=who)
        if kind == "rule_authored":
            text = escape(shorten(rule_text(event["rule"], _, html=False), MAX_RULE_IN_LOG))
            return "📜 " + _("New house rule by {name}: {text}", name=who, text=text)
        if kind == "no_rule":
            return _("{name} writes no house rule this time.", name=who)
        if kind == "rule_deleted":
            return _("{name} deleted rule {number}.", name=who, number=event["rule"])
        if kind == "proposed":
            return "🗳 " + _("{name} proposes: {change}.", name=who, change=self.change_text(event["change"], _))
        if kind == "vote_closed":
            return "🗳 " + vote_result(event, _)
        if kind == "change_applied":
            return _("Changed: {change}.", change=self.change_text(event["change"], _))
        if kind == "change_scheduled":
            return _("From next round: {change}.", change=self.change_text(event["change"], _))
        if kind == "change_rejected":
            return _("No change: {change} was turned down.", change=self.change_text(event["change"], _))
        if kind == "throws_revealed":
            signs = event.get("signs") or {}
            shown = " · ".join(f"{name(names, p)} {SIGNS[sign][0]}" for p, sign in signs.items() if sign in SIGNS)
            return "⚔️ " + shown
        if kind == "duel_won":
            return "⚔️ " + _("{name} wins the duel.", name=who)
        if kind == "champion":
            return "🛡 " + _("{name} defends the rule.", name=who)
        if kind == "no_champion":
            return _("Nobody defended the rule: the change passes.")
        if kind == "author_absent":
            return "⚔️ " + _("{name}, the rule's author, is away: a player who voted no may defend it.", name=who)
        if kind == "duel_started":
            return "⚔️ " + _(
                "Duel: {a} against {b}, first to {target}.",
                a=name(names, event.get("proposer", "")),
                b=name(names, event["defender"]) if event.get("defender") else "?",
                target=event.get("target", 16),
            )
        if kind == "duel_unopposed":
            return "🗳 " + _("Nobody opposed {name}'s change: it passes.", name=name(names, event.get("proposer", "")))
        if kind == "vote_void":
            return "🗳 " + _("The Rule Vote is void: rule {number} was deleted.", number=event.get("rule"))
        if kind == "skipped":
            return _("{name} misses this turn.", name=who)
        return self.house_effect_line(event, _, names)

    def house_effect_line(self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str]) -> str | None:
        """What a house rule did, each effect with the rule's number (the rule's text is in /rules)."""
        kind, number = event["kind"], event.get("rule")
        if number is None:
            return None  # a draw up to three after a play: the seat's count shows it
        who = name(names, event.get("player", ""))
        if kind == "drew":
            # TRANSLATORS: a house rule's effect on the table; every game draws with «chota».
            effect = _.npgettext(
                "lopti", "{name} draws {count} card.", "{name} draws {count} cards.", event["count"], name=who
            )
        elif kind == "gave":
            effect = _.plural(
                "{name} gives {count} card to {other}.",
                "{name} gives {count} cards to {other}.",
                event["count"],
                name=who,
                other=name(names, event.get("to", "")),
            )
        elif kind == "skip_set":
            effect = _("{name} will miss a turn.", name=who)
        elif kind == "reversed":
            effect = (
                "↻ " + _("Play now goes clockwise.")
                if event.get("direction") == "clockwise"
                else "↺ " + _("Play now goes anticlockwise.")
            )
        elif kind == "revealed":
            effect = _("{name} shows their hand: {cards}.", name=who, cards=show.cards(event.get("cards") or []))
        elif kind == "burned_returned":
            effect = _("The burned cards go back into the stock.")
        elif kind == "rule_fired":
            return None  # its effects follow, each with its own line
        else:
            return None
        return "📜 " + _("Rule {number}: {effect}", number=number, effect=effect)

    round_end_kinds = ("round_won",)

    def round_summary(self, events, _, names):
        for event in events:
            if event["kind"] == "round_won":
                lines = ["<b>" + _("Round {number} results", number=event["round"]) + "</b>"]
                for place, player in enumerate(event.get("places") or [event["player"]], start=1):
                    lines.append(f"{place}. {name(names, player)}")
                lines.append(
                    _(
                        "Rounds won: {scores}",
                        scores=", ".join(f"{name(names, p)} {n}" for p, n in (event.get("scores") or {}).items()),
                    )
                )
                return lines
        return []

    def private_event_line(
        self, event: Mapping[str, Any], _: Translator, names: Mapping[str, str], reader: str | None = None
    ) -> str | None:
        if event["kind"] == "drew" and event.get("cards"):
            # TRANSLATORS: drawing is «chota» in every game (docs/GLOSSARY.md).
            return _.pgettext("lopti", "You drew {cards}.", cards=show.cards(event["cards"]))
        if event["kind"] == "gave" and event.get("cards"):
            if reader is not None and reader == event.get("to"):
                return _(
                    "{name} gave you {cards}.",
                    name=name(names, event.get("player", "")),
                    cards=show.cards(event["cards"]),
                )
            return _(
                "You gave {cards} to {name}.", name=name(names, event.get("to", "")), cards=show.cards(event["cards"])
            )
        return None


def builds_rules(view: Mapping[str, Any]) -> bool:
    """The table takes rules made with the builder (its `house_rules` option allows templates)."""
    mode = (view.get("options") or view.get("table_options") or {}).get("house_rules", "templates_and_text")
    return mode in ("templates", "templates_and_text")


def option_label(change: Mapping[str, Any], _: Translator) -> str:
    option = change.get("option", "")
    return _(BASE_OPTIONS[option]) if option in BASE_OPTIONS else option


def rule_text(rule: Mapping[str, Any], _: Translator, html: bool = True) -> str:
    """A rule record of a view or event ({"text", "rule": structure or None}) in the reader's
    language: a built rule is rebuilt from its structure, a typed rule is shown as typed."""
    return shown_rule(rule.get("rule"), rule.get("text"), _, html)


def restored_rule(body: Mapping[str, Any], _: Translator, html: bool = True) -> str:
    """A rule offered back from the last session: its structure and text in one object."""
    return shown_rule(body if body.get("event") else None, body.get("text"), _, html)


def vote_result(event: Mapping[str, Any], _: Translator) -> str:
    """A closed Rule Vote as one whole sentence per result, so each can agree in Swahili."""
    yes, no = event.get("yes", 0), event.get("no", 0)
    if event["result"] == "passed":
        return _("The vote passed ({yes} yes, {no} no).", yes=yes, no=no)
    if event["result"] == "failed":
        return _("The vote failed ({yes} yes, {no} no).", yes=yes, no=no)
    return _("The vote is tied ({yes} yes, {no} no): a duel decides.", yes=yes, no=no)


RENDERER = LoptiRenderer()
