"""Lopti: a Palace-family shedding game (spec ../shared/rules/lopti.md), base game and round flow.

`GAME` is the `engine.core.protocol.Game` for Lopti. This docstring is the contract the
Telegram renderer builds on.

Fast path
    `advance(state, player, action)` is `apply` changing `state` in place (same code; `apply`
    copies first); a refusal leaves `state` unchanged. The dicts in a `legal_actions` list are
    shared between calls: read them, do not change them.

Session
    A table is a session with no end: `is_finished` is always False, `winners` always empty,
    `scores` counts rounds won. Round 1 is opened by the dealer, later rounds by the previous
    winner; the dealer rotates clockwise every round. Phases: "setup" (swaps and ready),
    "play", "authoring" (the round's winner gives a text rule or no rule; skipped when the
    option `house_rules` is "off"), then the next round is dealt.

Actions (canonical form; `legal_actions` lists them, except `author_rule` whose text is free)
    {"type": "swap", "hand": C, "face_up": C}   setup, once (any number with `unlimited_swaps`)
    {"type": "ready"}                            setup; when all are ready play starts
    {"type": "play", "cards": [C, ...]}          cards of one rank from the hand, suit order S H D C
    {"type": "flip", "position": 0-2}            hand and face-up cards gone; blind, always accepted
    {"type": "take"}                             pile not empty
    {"type": "author_rule", "rule": {"text": T}} the round's winner, 1-280 characters
    {"type": "no_rule"}                          the round's winner
    {"type": "delete_rule", "rule": id}          a rule's author, any time
    ["@clock", {"type": "timeout"}]              setup: all become ready; play: take the pile if
                                                 not empty (a face-down player who may not take
                                                 flips), else play the lowest card, else flip the
                                                 first unused position; authoring: no rule
    propose / vote / champion / throw, and @clock close_vote / close_champion, are accepted as
    vocabulary but refused with `not_implemented` (Rule Votes and duels come later).

View keys (`GAME.view(state, player)`; player None = spectator)
    game, me, round, phase, players, dealer, starter, to_act, turn (None outside play),
    hand (own hand sorted, None for spectators),
    seats: {name: {hand_count, face_up: [cards], face_down: [unused positions], ready, swaps,
    out, wins}},
    pile (bottom to top), pile_top, previous_play (m: size of the play on top), top_run (k),
    chain (the 3s of the current chain, shown beside the pile), stock_count, burned_count,
    obligation (the player who must take or pass on with a 3, else None), low_condition (top
    is a 7), extra_play (the player to act is making a burn's extra play), out (players out,
    in order), round_winner, awaiting_rule (the winner while authoring), scores, rules
    (active house rules: {id, author, text, round}), options.

Events (`Event.kind`: public fields; private fields only for the named player)
    dealt: round, dealer, starter, face_up {name: cards}, stock_count; private hand (own cards)
    swapped: player, to_face_up (the hand card now face up), to_hand (the face-up card taken)
    ready: player
    play_started: player (who opens)
    played: player, cards, extra (was an extra play)
    flipped: player, position, card, legal, extra
    obligation_passed: player, to
    burned: player, cause ("ten" | "four" | "sevens" | "threes"), cards (all cards removed)
    took: player, cards (the whole pile), forced (after an illegal face-down flip)
    drew: player, count; private cards
    face_up_taken: player, cards
    extra_play: player (the same player plays again on the empty table)
    out: player, place
    round_won: player, round, places, scores
    rule_authored: player, rule {id, author, text, round}
    no_rule: player
    rule_deleted: player, rule (id)
    timed_out: players, phase

Refusal codes
    wrong_phase, not_your_turn, already_ready, swap_used, not_in_hand, not_face_up,
    empty_play, duplicate_cards, mixed_ranks, obligation_pending, must_play_low, ten_on_seven,
    match_needs_more, illegal_card, hand_not_empty, face_up_left, bad_position, position_used,
    empty_pile, must_flip, not_round_winner, house_rules_off, templates_off, text_rules_off,
    rule_empty, rule_too_long, no_such_rule, not_rule_author, not_implemented.
"""

from engine.lopti.game import Lopti
from engine.lopti.options import LoptiOptions

GAME = Lopti()

__all__ = ["GAME", "Lopti", "LoptiOptions"]
