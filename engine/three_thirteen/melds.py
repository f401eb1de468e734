"""The meld solver: the arrangement of a hand into sets and runs that leaves the least deadwood.

Natural cards are ordered by suit then rank; a memoized search over the set of natural cards
still to place takes the first one and either leaves it as deadwood or puts it in a group with
later cards: a set (same rank) or a run (same suit, it being the lowest rank; with
`ace: high_or_low` an ace may also top a run). A group costs the wild cards that complete it
(`need`). Wild cards are interchangeable in melds, so the search only counts them; once at least
one group exists every spare wild card fits in some meld (a set takes any number, and a hand of
at most 14 cards can always be rearranged so that a run has room), so:

    deadwood = unmelded naturals (+ every wild card when no group exists, unless
               `wild_only_melds` lets three or more wild cards meld on their own).

Identical cards (two packs) are made canonical: a group may use the second copy of a card only
when the first copy is not still to be placed, so symmetric choices are searched once.
The search is checked against brute force in tests/three_thirteen/test_three_thirteen_solver.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from engine.core.cards import Card
from engine.three_thirteen.rules import RANK_NUMBER, SUIT_ORDER, MeldRules, card_sort_key

Group = tuple[int, int, int, int]  # (member mask, forbidden-if-remaining mask, wilds needed, value)


@dataclass(frozen=True)
class Arrangement:
    """A hand laid out: its melds and its deadwood (unmelded cards) with their penalty."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int

    def to_json(self) -> dict:
        return {
            "melds": [list(meld) for meld in self.melds],
            "deadwood_cards": list(self.deadwood_cards),
            "deadwood": self.deadwood,
        }


class HandSolver:
    """Solves one hand and any of its sub-hands (same card indices, shared memo)."""

    def __init__(self, cards: tuple[Card, ...] | list[Card], rules: MeldRules):
        self.rules = rules
        naturals = [card for card in cards if not rules.is_wild(card)]
        naturals.sort(key=lambda card: (SUIT_ORDER[card[-1]], RANK_NUMBER[card[:-1]]))
        self.naturals = naturals
        self.wilds = sorted((card for card in cards if rules.is_wild(card)), key=rules.value, reverse=True)
        self.values = [rules.value(card) for card in naturals]
        self.full = (1 << len(naturals)) - 1
        count = len(naturals)
        self._ranks = [RANK_NUMBER[card[:-1]] for card in naturals]
        self._suits = [card[-1] for card in naturals]
        prev_copy = [-1] * count
        for j in range(1, count):
            for k in range(j - 1, -1, -1):
                if naturals[k] == naturals[j]:
                    prev_copy[j] = k
                    break
        self._prev_copy = prev_copy
        self._group_cache: list[list[Group] | None] = [None] * count
        self._best: dict[int, int] = {}
        self._cover: dict[int, bool] = {}

    # ----- candidate groups (built lazily, per first card) ----------------------------------
    def _make(self, members: list[int], need: int) -> Group:
        mask = 0
        value = 0
        for j in members:
            mask |= 1 << j
            value += self.values[j]
        forbid = 0
        for j in members:
            p = self._prev_copy[j]
            if p >= 0 and not mask >> p & 1:
                forbid |= 1 << p
        return (mask, forbid, need, value)

    def _groups(self, i: int) -> list[Group]:
        """Every group whose first (lowest-index) card is `i`: sets and runs with later cards."""
        found = self._group_cache[i]
        if found is not None:
            return found
        ranks, suits, budget, make = self._ranks, self._suits, len(self.wilds), self._make
        count = len(ranks)
        mine: list[Group] = []
        same = [j for j in range(i + 1, count) if ranks[j] == ranks[i]]
        for size in range(0, len(same) + 1):
            need = max(0, 2 - size)
            if need > budget:
                continue
            for others in combinations(same, size):
                mine.append(make([i, *others], need))
        by_rank: dict[int, list[int]] = {}
        for j in range(i + 1, count):
            if suits[j] == suits[i] and ranks[j] > ranks[i]:
                by_rank.setdefault(ranks[j], []).append(j)
        if by_rank:
            self._runs(mine, make, ranks[i], [i], 0, sorted(by_rank.items()), ranks[i], 1, budget)
            if self.rules.ace_high and ranks[i] == 1:
                self._runs(mine, make, 14, [i], 0, sorted(by_rank.items(), reverse=True), 14, -1, budget)
        self._group_cache[i] = mine
        return mine

    def _runs(self, out, make, start, members, gaps, options, last, step, budget) -> None:
        """Extend a run from `start` through later ranks; record runs of two or more naturals."""
        for index, (rank, copies) in enumerate(options):
            more = gaps + abs(rank - last) - 1
            if more > budget:
                break
            span = abs(rank - start) + 1
            need = more + max(0, 3 - span)
            for copy in copies:
                chosen = [*members, copy]
                if need <= budget:
                    out.append(make(chosen, need))
                self._runs(out, make, start, chosen, more, options[index + 1 :], rank, step, budget)

    # ----- search ---------------------------------------------------------------------------
    def best(self, mask: int, wilds: int) -> int:
        """The greatest natural value that groups can meld from `mask` using at most `wilds`."""
        if not mask:
            return 0
        key = mask << 5 | wilds
        found = self._best.get(key)
        if found is not None:
            return found
        low = mask & -mask
        i = low.bit_length() - 1
        result = self.best(mask ^ low, wilds)
        for gmask, forbid, need, value in self._groups(i):
            if need <= wilds and gmask & mask == gmask and not forbid & mask:
                candidate = value + self.best(mask ^ gmask, wilds - need)
                if candidate > result:
                    result = candidate
        self._best[key] = result
        return result

    def covers(self, mask: int, wilds: int) -> bool:
        """Whether every natural card in `mask` can be melded using at most `wilds` wild cards."""
        if not mask:
            return True
        key = mask << 5 | wilds
        found = self._cover.get(key)
        if found is not None:
            return found
        i = (mask & -mask).bit_length() - 1
        result = False
        for gmask, forbid, need, _ in self._groups(i):
            if need <= wilds and gmask & mask == gmask and not forbid & mask:
                if self.covers(mask ^ gmask, wilds - need):
                    result = True
                    break
        self._cover[key] = result
        return result

    def natural_value(self, mask: int) -> int:
        return sum(value for j, value in enumerate(self.values) if mask >> j & 1)

    def deadwood(self, mask: int | None = None, wild_values: list[int] | None = None) -> int:
        """Least deadwood of the naturals in `mask` with wild cards of `wild_values` (default: all)."""
        mask = self.full if mask is None else mask
        if wild_values is None:
            wild_values = [self.rules.value(card) for card in self.wilds]
        total = self.natural_value(mask)
        wilds = len(wild_values)
        no_group = total + (0 if self.rules.wild_only and wilds >= 3 else sum(wild_values))
        melded = self.best(mask, wilds)
        return min(no_group, total - melded) if melded else no_group

    def melds_fully(self, mask: int | None = None, wilds: int | None = None) -> bool:
        """Whether all naturals of `mask` and `wilds` wild cards form valid melds, nothing left."""
        mask = self.full if mask is None else mask
        wilds = len(self.wilds) if wilds is None else wilds
        if not mask:
            return wilds == 0 or (self.rules.wild_only and wilds >= 3)
        return self.covers(mask, wilds)

    # ----- the arrangement ------------------------------------------------------------------
    def arrangement(self) -> Arrangement:
        mask, wilds = self.full, len(self.wilds)
        groups: list[tuple[list[int], int]] = []
        total = self.natural_value(mask)
        melded = self.best(mask, wilds)
        no_group = total + (0 if self.rules.wild_only and wilds >= 3 else sum(map(self.rules.value, self.wilds)))
        if melded and total - melded <= no_group:
            left = wilds
            while mask:
                low = mask & -mask
                i = low.bit_length() - 1
                target = self.best(mask, left)
                if self.best(mask ^ low, left) == target:
                    mask ^= low
                    continue
                for gmask, forbid, need, value in self._groups(i):
                    if need <= left and gmask & mask == gmask and not forbid & mask:
                        if value + self.best(mask ^ gmask, left - need) == target:
                            groups.append(([j for j in range(len(self.naturals)) if gmask >> j & 1], need))
                            mask ^= gmask
                            left -= need
                            break
                else:  # pragma: no cover - the memo guarantees a matching choice
                    raise AssertionError("meld solver reconstruction failed")
        used = {j for members, _ in groups for j in members}
        deadwood_cards = [card for j, card in enumerate(self.naturals) if j not in used]
        melds = self._place_wilds(groups, deadwood_cards)
        deadwood_cards.sort(key=card_sort_key)
        return Arrangement(
            tuple(tuple(meld) for meld in melds),
            tuple(deadwood_cards),
            sum(self.rules.value(card) for card in deadwood_cards),
        )

    def _place_wilds(self, groups: list[tuple[list[int], int]], deadwood_cards: list[Card]) -> list[list[Card]]:
        """Give each group the wild cards it needs, then put spare wild cards where they fit."""
        spare = list(self.wilds)
        melds: list[list[Card]] = []
        for members, need in groups:
            melds.append([self.naturals[j] for j in members] + [spare.pop() for _ in range(need)])
        if not melds:
            if self.rules.wild_only and len(spare) >= 3:
                return [spare]
            deadwood_cards.extend(spare)
            return []
        valid = self.rules.is_valid_meld
        while spare:
            card = spare.pop()
            for meld in melds:
                if valid([*meld, card]):
                    meld.append(card)
                    break
            else:
                melds = self._make_room(melds)
                spare.append(card)
        return melds

    def _make_room(self, melds: list[list[Card]]) -> list[list[Card]]:
        """Split a full 13-card run so that a spare wild card fits (only with 14-card hands)."""
        valid = self.rules.is_valid_meld
        for index, meld in enumerate(melds):
            naturals = sorted((c for c in meld if not self.rules.is_wild(c)), key=card_sort_key)
            wilds = [c for c in meld if self.rules.is_wild(c)]
            # a set from the lowest natural and two wilds, the rest as before
            if len(wilds) >= 2:
                first, rest = [naturals[0], wilds[0], wilds[1]], naturals[1:] + wilds[2:]
                if valid(first) and (not rest or valid(rest)):
                    return melds[:index] + [first] + ([rest] if rest else []) + melds[index + 1 :]
            for cut in range(1, len(naturals)):
                for take in range(len(wilds) + 1):
                    low, high = naturals[:cut] + wilds[:take], naturals[cut:] + wilds[take:]
                    if valid(low) and valid(high):
                        return melds[:index] + [low, high] + melds[index + 1 :]
        raise AssertionError("no room for a spare wild card")  # pragma: no cover


# Solvers kept: a table's move solves the same few hands again (each seat's view, the legal
# discards, the prompt), so a few tables' worth is enough; a solver with its memo takes about
# 1.5 KB, and 4,096 of them (mostly the computer players' sampled hands) were 6 MB of a bot.
SOLVERS_KEPT = 256


@lru_cache(maxsize=SOLVERS_KEPT)
def _solver(cards: tuple[Card, ...], rules: MeldRules) -> HandSolver:
    return HandSolver(cards, rules)


def solver_for(cards: list[Card] | tuple[Card, ...], rules: MeldRules) -> HandSolver:
    """A (cached) solver for this hand; the order of the cards does not matter."""
    return _solver(tuple(sorted(cards)), rules)


def least_deadwood(cards: list[Card] | tuple[Card, ...], rules: MeldRules) -> int:
    return solver_for(cards, rules).deadwood()


def best_arrangement(cards: list[Card] | tuple[Card, ...], rules: MeldRules) -> Arrangement:
    return solver_for(cards, rules).arrangement()


def deadwood_without(cards: list[Card], rules: MeldRules) -> dict[Card, int]:
    """For each distinct card of the hand, the least deadwood of the hand without it."""
    solver = solver_for(cards, rules)
    result: dict[Card, int] = {}
    all_wilds = [rules.value(card) for card in solver.wilds]
    for card in set(cards):
        if rules.is_wild(card):
            values = list(all_wilds)
            values.remove(rules.value(card))
            result[card] = solver.deadwood(solver.full, values)
        else:
            j = solver.naturals.index(card)
            result[card] = solver.deadwood(solver.full & ~(1 << j))
    return result


def outable_discards(cards: list[Card], rules: MeldRules) -> set[Card]:
    """The distinct cards whose discard leaves the rest of the hand fully melded (T13-A4)."""
    candidates = _possible_discards(cards, rules)
    if not candidates:
        return set()
    solver = solver_for(cards, rules)
    result: set[Card] = set()
    wilds = len(solver.wilds)
    for card in candidates:
        if rules.is_wild(card):
            if solver.melds_fully(solver.full, wilds - 1):
                result.add(card)
        else:
            j = solver.naturals.index(card)
            if solver.melds_fully(solver.full & ~(1 << j), wilds):
                result.add(card)
    return result


# card -> (rank number, suit index); the joker has rank 0
_CARD_INFO = {
    rank + suit: (number, index) for rank, number in RANK_NUMBER.items() for suit, index in SUIT_ORDER.items()
}
_CARD_INFO["X"] = (0, 4)


def _possible_discards(cards: list[Card], rules: MeldRules) -> set[Card] | list[Card]:
    """A quick necessary condition for going out, before any search.

    A natural card with no other natural of its rank and none of its suit close enough for the
    wild cards to bridge can only meld as a set with two wild cards. So with `isolated` such
    cards and `wilds` wild cards, going out needs 2 * (isolated - 1) <= wilds, and when
    2 * isolated > wilds the discard must be one of the isolated cards.
    """
    wild = rules.wild
    wilds = 0
    naturals: list[tuple[int, int, Card]] = []
    rank_count = [0] * 15
    present: set[int] = set()
    for card in cards:
        rank, suit = _CARD_INFO[card]
        if rank == 0 or rank == wild:
            wilds += 1
        else:
            naturals.append((rank, suit, card))
            rank_count[rank] += 1
            present.add(rank * 4 + suit)
            if rank == 1 and rules.ace_high:
                present.add(56 + suit)  # the ace again, as rank 14
    reach = (wilds + 2) * 4
    isolated: set[Card] = set()
    count = 0
    for rank, suit, card in naturals:
        if rank_count[rank] > 1:
            continue
        key = rank * 4 + suit
        near = False
        for step in range(4, reach, 4):
            if key - step in present or key + step in present:
                near = True
                break
        if not near and rank == 1 and rules.ace_high:
            for step in range(4, reach, 4):
                if 56 + suit - step in present:
                    near = True
                    break
        if not near:
            isolated.add(card)
            count += 1
            if count > 1 + wilds // 2:
                return set()
    if 2 * count > wilds:
        return isolated
    return set(cards)
