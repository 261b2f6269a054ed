"""Meld legality and scoring (RULES.md §2 and §3): the executable spec.

A meld is a multiset of cards. It is legal when at least one *reading* of
it (which cards are natural, which are wild, which rank each wild stands
for) satisfies the rules of its rule set; it is clean when a reading
without wilds exists, and it scores with its best reading.

Positions on a run line are 0..13: 0 is the ace read low, 1..12 are the
ranks 2..K and 13 is the ace read high (the layout of
:mod:`kernels.encoding`).

>>> info = analyze_meld("4H 5H 2C 7H", get_rules())
>>> info.kind, info.clean, info.wild_ranks
('run', False, ('6',))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from kernels.encoding import ACE_HIGH_POSITION, JOKER, RANK_COUNT, RANKS, SUITS
from solver.cards import Hand, as_hand, format_kind, format_kinds
from solver.errors import IllegalMeldError, InvalidRulesError
from solver.rules import RuleSet, get_rules

RUN = "run"
SET = "set"
TWO = 1  # rank index of the 2
BIRIBA_CLASSES = ("biriba", "set_biriba", "full", "trump", "trump_full", "super")


@dataclass(frozen=True)
class Reading:
    """One way to read a meld.

    ``positions``: for a run, the run-line position (0..13) each card in
    ``cards`` stands at; for a set, all ``-1``. ``cards`` and ``positions``
    are in reading order (a run from low to high, a set naturals first).
    """

    kind: str                     # "run" or "set"
    suit_index: int | None        # runs: the suit; sets: None
    rank_index: int | None        # sets: the rank (None for an all-wild set)
    cards: tuple[int, ...]        # kind ids in reading order
    positions: tuple[int, ...]
    wild_flags: tuple[bool, ...]  # True where the card is read as a wild

    @property
    def wild_count(self) -> int:
        return sum(self.wild_flags)

    @property
    def natural_count(self) -> int:
        return len(self.cards) - self.wild_count

    @property
    def clean(self) -> bool:
        return self.wild_count == 0

    @property
    def low(self) -> int:
        return self.positions[0]


@dataclass(frozen=True)
class MeldInfo:
    """A legal meld with its best reading and its score."""

    cards: Hand
    kind: str
    suit: str | None
    rank: str | None
    clean: bool
    wilds: int
    wild_ranks: tuple[str, ...]   # ranks a wild may stand for (runs), else ()
    biriba: str | None            # one of BIRIBA_CLASSES, or None below 7 cards
    bonus: int
    value: int                    # card values
    points: int                   # value + bonus
    reading: Reading

    def ordered_cards(self) -> list[str]:
        """Cards in reading order (a run low to high, the wild in its place)."""
        return [format_kind(kind) for kind in self.reading.cards]

    def to_dict(self) -> dict:
        return {
            "valid": True,
            "kind": self.kind,
            "suit": self.suit,
            "rank": self.rank,
            "clean": self.clean,
            "wilds": self.wilds,
            "biriba": self.biriba,
            "bonus": self.bonus,
            "points": self.points,
            "cards": self.ordered_cards(),
        }


@dataclass(frozen=True)
class ExtensionInfo:
    """Cards added to a meld on the table, and what that adds to the score."""

    before: MeldInfo
    after: MeldInfo
    added: Hand
    points: int                   # card values of the added cards + change of bonus


def _wild_limit_problem(wilds: int, naturals: int, rules: RuleSet) -> str | None:
    if rules.max_wilds_per_meld is not None and wilds > rules.max_wilds_per_meld:
        return f"{wilds} wild cards; a meld holds at most {rules.max_wilds_per_meld}"
    if rules.naturals_per_wild is not None and wilds * rules.naturals_per_wild > naturals:
        return (
            f"{wilds} wild cards for {naturals} natural cards; at most one wild per "
            f"{rules.naturals_per_wild} naturals"
        )
    return None


def _run_readings(counts, suit_index: int, rules: RuleSet, problems: list[str]) -> list[Reading]:
    """Every legal run reading of ``counts`` in one suit (RULES.md §2 runs)."""
    base = suit_index * RANK_COUNT
    own_two = base + TWO
    wild_kinds: list[int] = [JOKER] * counts[JOKER]
    natural_positions: list[int] = []
    ace_count = 0
    for kind in range(JOKER):
        count = counts[kind]
        if not count:
            continue
        rank_index = kind % RANK_COUNT
        if kind == own_two:
            continue
        if rules.wild_twos and rank_index == TWO:
            wild_kinds.extend([kind] * count)
            continue
        if kind // RANK_COUNT != suit_index:
            return []
        if count > 1:
            problems.append(f"rank {RANKS[rank_index]} appears {count} times in a run; each rank at most once")
            return []
        if rank_index == 0:
            ace_count = 1
        else:
            natural_positions.append(rank_index)
    if sum(counts) > RANK_COUNT:
        problems.append(f"{sum(counts)} cards; a run has at most {RANK_COUNT} (A..K, or 2..A)")
        return []
    own_twos = counts[own_two]
    two_choices = []
    if own_twos:
        if rules.wild_twos:
            two_choices = [0, 1]  # how many of the run's own 2s stand at their natural place
        elif own_twos == 1:
            two_choices = [1]
        else:
            problems.append(f"rank 2 appears {own_twos} times in a run; each rank at most once")
            return []
    else:
        two_choices = [0]
    ace_choices = [0, ACE_HIGH_POSITION] if ace_count else [None]
    readings: list[Reading] = []
    saw_wrap = False
    for natural_twos in two_choices:
        wilds = wild_kinds + [own_two] * (own_twos - natural_twos)
        wilds.sort(key=lambda kind: (kind == JOKER, kind))
        wild_count = len(wilds)
        for ace_position in ace_choices:
            positions = list(natural_positions)
            if natural_twos:
                positions.append(TWO)
            if ace_position is not None:
                positions.append(ace_position)
            positions.sort()
            natural_count = len(positions)
            if natural_count == 0:
                continue
            limit_problem = _wild_limit_problem(wild_count, natural_count, rules)
            if limit_problem:
                problems.append(limit_problem)
                continue
            length = natural_count + wild_count
            if length > RANK_COUNT:
                problems.append(f"{length} cards; a run has at most {RANK_COUNT}")
                continue
            low, high = positions[0], positions[-1]
            gaps = high - low + 1 - natural_count
            if gaps > wild_count:
                if ace_position is not None and 12 in positions and (TWO in positions or 2 in positions):
                    saw_wrap = True
                problems.append(
                    f"the ranks leave {gaps} gap(s) and there are {wild_count} wild card(s)"
                )
                continue
            spare = wild_count - gaps
            natural_at = set(positions)
            for below in range(spare + 1):
                window_low, window_high = low - below, high + spare - below
                if window_low < 0 or window_high > ACE_HIGH_POSITION:
                    continue
                cards, card_positions, flags = [], [], []
                wild_iter = iter(wilds)
                for position in range(window_low, window_high + 1):
                    if position in natural_at:
                        rank_index = 0 if position == ACE_HIGH_POSITION else position
                        cards.append(base + rank_index)
                        flags.append(False)
                    else:
                        cards.append(next(wild_iter))
                        flags.append(True)
                    card_positions.append(position)
                readings.append(
                    Reading(RUN, suit_index, None, tuple(cards), tuple(card_positions), tuple(flags))
                )
            if not readings and spare:
                problems.append("the wild card(s) have no room at either end of the run")
    if saw_wrap and not readings:
        problems.insert(0, "a run cannot wrap around the ace (K-A-2)")
    return readings


def _set_readings(counts, rank_index: int | None, rules: RuleSet, problems: list[str]) -> list[Reading]:
    """The set reading of ``counts`` as a set of ``rank_index`` (None: all-wild set)."""
    total = sum(counts)
    if rank_index is None:
        if not rules.wild_sets:
            return []
        if any(counts[kind] and not rules.is_wild_kind(kind) for kind in range(JOKER + 1)):
            return []
        cards = tuple(sorted((kind for kind in range(JOKER + 1) for _ in range(counts[kind])),
                             key=lambda kind: (kind == JOKER, kind)))
        return [Reading(SET, None, None, cards, (-1,) * total, (True,) * total)]
    naturals: list[int] = []
    wilds: list[int] = []
    for kind in range(JOKER + 1):
        count = counts[kind]
        if not count:
            continue
        if kind != JOKER and kind % RANK_COUNT == rank_index:
            naturals.extend([kind] * count)
        elif rules.is_wild_kind(kind) and not (kind != JOKER and rank_index == TWO):
            wilds.extend([kind] * count)
        else:
            return []
    rank_name = RANKS[rank_index]
    if not rules.sets_allowed:
        problems.append(f"sets are not allowed in the {rules.name!r} rules")
        return []
    if not rules.set_rank_allowed(rank_index):
        if rank_index == TWO:
            problems.append(f"a set of 2s is not allowed in the {rules.name!r} rules (every 2 is wild)")
        else:
            problems.append(f"sets of {rank_name} are not allowed in the {rules.name!r} rules")
        return []
    limit_problem = _wild_limit_problem(len(wilds), len(naturals), rules)
    if limit_problem:
        problems.append(limit_problem)
        return []
    if len(wilds) > len(naturals):
        problems.append(f"{len(wilds)} wild cards for {len(naturals)} natural cards in a set")
        return []
    wilds.sort(key=lambda kind: (kind == JOKER, kind))
    cards = tuple(naturals + wilds)
    flags = (False,) * len(naturals) + (True,) * len(wilds)
    return [Reading(SET, None, rank_index, cards, (-1,) * total, flags)]


def _readings(counts, rules: RuleSet) -> tuple[list[Reading], list[str]]:
    """All legal readings, and the problems met when there are none."""
    problems: list[str] = []
    total = sum(counts)
    if total < rules.min_meld_size:
        return [], [f"too short: {total} card(s); a meld needs at least {rules.min_meld_size}"]
    anchors = [kind for kind in range(JOKER) if counts[kind] and not rules.is_wild_kind(kind)]
    anchor_suits = {kind // RANK_COUNT for kind in anchors}
    anchor_ranks = {kind % RANK_COUNT for kind in anchors}
    run_suits: set[int] = set()
    set_ranks: set[int | None] = set()
    if anchors:
        if len(anchor_suits) == 1:
            run_suits = set(anchor_suits)
        if len(anchor_ranks) == 1:
            set_ranks = set(anchor_ranks)
        if not run_suits and not set_ranks:
            suits = " ".join(SUITS[s] for s in sorted(anchor_suits))
            ranks = " ".join(RANKS[r] for r in sorted(anchor_ranks))
            problems.append(
                f"mixed suits ({suits}) and ranks ({ranks}): neither a run nor a set"
            )
    else:
        # Only wild kinds: a set of 2s, an all-wild set, or a run on a natural 2.
        twos = [kind for kind in range(JOKER) if counts[kind]]
        run_suits = {kind // RANK_COUNT for kind in twos}
        if twos:
            set_ranks.add(TWO)
        set_ranks.add(None)
    readings: list[Reading] = []
    set_problems: list[str] = []
    for suit_index in sorted(run_suits):
        readings += _run_readings(counts, suit_index, rules, problems)
    for rank_index in sorted(set_ranks, key=lambda r: -1 if r is None else r):
        readings += _set_readings(counts, rank_index, rules, set_problems)
    # With only wild kinds, or naturals all of one rank, the cards were meant as a
    # set: explain the set first (barimba "3C 3C JK" is a forbidden set of 3s, not a
    # run with a repeated rank).
    natural_count = sum(counts[kind] for kind in anchors)
    set_first = not anchors or (len(anchor_ranks) == 1 and natural_count > 1)
    problems = set_problems + problems if set_first else problems + set_problems
    if not readings and not problems:
        if not anchors:
            problems.append("only wild cards: a meld needs natural cards")
        else:
            problems.append("the cards form neither a run nor a set")
    return readings, problems


def biriba_bonus(
    kind: str,
    suit_index: int | None,
    rank_index: int | None,
    length: int,
    clean: bool,
    rules: RuleSet,
    trump: int | None = None,
    laid_at_once: bool = False,
) -> tuple[str | None, int]:
    """Biriba class and bonus of a meld (RULES.md §3); ``(None, 0)`` below biriba size.

    ``trump`` is a suit index or None. ``laid_at_once`` applies the
    venezuelan bonus for a biriba laid whole from the hand.
    """
    if length < rules.biriba_size:
        return None, 0
    if kind == RUN:
        is_trump = rules.has_trump and trump is not None and suit_index == trump
        full = rules.full_run_bonus and length >= rules.full_run_size
        if full and is_trump:
            label = "trump_full"
            bonus = rules.trump_full_clean if clean else rules.trump_full_dirty
        elif full:
            label = "full"
            bonus = rules.full_run_clean if clean else rules.full_run_dirty
        elif is_trump:
            label = "trump"
            bonus = rules.trump_run_clean if clean else rules.trump_run_dirty
        else:
            label = "biriba"
            bonus = rules.run_biriba_clean if clean else rules.run_biriba_dirty
        if is_trump and rules.hearts_super_trump and trump == SUITS.index("H"):
            bonus *= rules.hearts_trump_multiplier
    else:
        if rank_index is None:
            bonus = rules.wild_set_biriba
            if laid_at_once:
                bonus += rules.at_once_wild_bonus_extra
            return "set_biriba", bonus
        if rules.set_biriba_ranks is not None and RANKS[rank_index] not in rules.set_biriba_ranks:
            return None, 0
        label = "set_biriba"
        bonus = rules.set_biriba_clean if clean else rules.set_biriba_dirty
        if rank_index == 0 and rules.ace_set_biriba_clean is not None:
            bonus = rules.ace_set_biriba_clean if clean else rules.ace_set_biriba_dirty
    if rules.super_biriba and length >= rules.super_biriba_size:
        super_bonus = rules.super_biriba_clean if clean else rules.super_biriba_dirty
        if super_bonus > bonus:
            label, bonus = "super", super_bonus
    if laid_at_once:
        bonus += rules.at_once_bonus_extra
    return label, bonus


def _trump_index(trump) -> int | None:
    if trump is None:
        return None
    if isinstance(trump, int):
        if 0 <= trump < 4:
            return trump
    elif isinstance(trump, str) and trump.strip().upper() in ("S", "H", "D", "C", "♠", "♥", "♦", "♣"):
        text = trump.strip().upper()
        return "SHDC♠♥♦♣".index(text) % 4
    raise IllegalMeldError(f"invalid trump suit {trump!r} (use S, H, D or C)")


def check_trump(trump, rules: RuleSet) -> int | None:
    """Validate a trump suit for a rule set; returns its suit index or None."""
    index = _trump_index(trump)
    if index is not None and not rules.has_trump:
        raise InvalidRulesError(f"the {rules.name!r} rules have no trump, got trump {trump!r}")
    return index


def _score_reading(reading: Reading, rules: RuleSet, trump_index, laid_at_once=False):
    label, bonus = biriba_bonus(
        reading.kind, reading.suit_index, reading.rank_index, len(reading.cards),
        reading.clean, rules, trump_index, laid_at_once,
    )
    return label, bonus


def _best(readings: list[Reading], rules: RuleSet, trump_index, laid_at_once=False):
    """Best reading: most bonus, then clean, then fewest wilds, then wild at the high end."""
    scored = [(_score_reading(r, rules, trump_index, laid_at_once), r) for r in readings]
    return max(
        scored,
        key=lambda item: (item[0][1], item[1].clean, -item[1].wild_count, item[1].low),
    )


def _info(hand: Hand, readings, rules, trump_index, laid_at_once=False) -> MeldInfo:
    (label, bonus), reading = _best(readings, rules, trump_index, laid_at_once)
    wild_positions = sorted(
        {p for r in readings if (r.kind, r.suit_index, r.rank_index, r.clean, r.wild_count) ==
         (reading.kind, reading.suit_index, reading.rank_index, reading.clean,
          reading.wild_count)
         for p, flag in zip(r.positions, r.wild_flags) if flag and p >= 0}
    )
    wild_ranks = tuple(dict.fromkeys(RANKS[0 if p == ACE_HIGH_POSITION else p] for p in wild_positions))
    value = sum(rules.card_value(kind) * count for kind, count in enumerate(hand.counts))
    return MeldInfo(
        cards=hand,
        kind=reading.kind,
        suit=None if reading.suit_index is None else SUITS[reading.suit_index],
        rank=None if reading.rank_index is None else RANKS[reading.rank_index],
        clean=reading.clean,
        wilds=reading.wild_count,
        wild_ranks=wild_ranks if reading.kind == RUN else (),
        biriba=label,
        bonus=bonus,
        value=value,
        points=value + bonus,
        reading=reading,
    )


def _rules(rules) -> RuleSet:
    return rules if isinstance(rules, RuleSet) else get_rules(rules)


def meld_readings(cards, rules: RuleSet | str = "classic") -> list[Reading]:
    """Every legal reading of ``cards`` (empty when they are not a meld)."""
    return _readings(as_hand(cards).counts, _rules(rules))[0]


def analyze_meld(cards, rules: RuleSet | str = "classic", trump=None, laid_at_once=False) -> MeldInfo:
    """Kind, cleanliness, biriba class and points of a legal meld.

    Raises :class:`IllegalMeldError` with the reason when the cards are not a meld.
    """
    rules = _rules(rules)
    hand = as_hand(cards)
    trump_index = check_trump(trump, rules)
    readings, problems = _readings(hand.counts, rules)
    if not readings:
        raise IllegalMeldError(f"{str(hand)!r} is not a legal meld: {problems[0]}")
    return _info(hand, readings, rules, trump_index, laid_at_once)


BIRIBA_NAMES = {"trump_full": "trump full run", "full": "full run", "trump": "trump run biriba",
                "biriba": "run biriba", "set_biriba": "set biriba", "super": "super biriba"}


def describe_biriba(info: MeldInfo) -> str:
    """'clean run biriba +200' for a meld that earns a bonus (RULES.md §3), else ''."""
    if not info.biriba:
        return ""
    name = BIRIBA_NAMES.get(info.biriba, info.biriba.replace("_", " "))
    return f"{'clean' if info.clean else 'dirty'} {name} +{info.bonus}"


def verify_meld(cards, rules: RuleSet | str = "classic") -> None:
    """Raise :class:`IllegalMeldError` (with the reason) unless the cards form a legal meld."""
    analyze_meld(cards, rules)


def can_meld(cards, rules: RuleSet | str = "classic") -> bool:
    """True when the cards form a legal meld."""
    return bool(meld_readings(cards, rules))


def meld_reason(cards, rules: RuleSet | str = "classic") -> str | None:
    """None for a legal meld, else the reason it is not one."""
    readings, problems = _readings(as_hand(cards).counts, _rules(rules))
    return None if readings else problems[0]


def meld_points(cards, rules: RuleSet | str = "classic", trump=None) -> int:
    """Card values + bonus of a legal meld (RULES.md §3)."""
    return analyze_meld(cards, rules, trump).points


def analyze_extension(table_meld, added, rules: RuleSet | str = "classic", trump=None) -> ExtensionInfo:
    """Check adding ``added`` to a meld on the table (RULES.md §2 "Extending").

    The meld keeps its kind (a run stays a run of its suit, a set a set of
    its rank); a foreign wild keeps it dirty; a 2 of the run's own suit may
    fall into its natural place and make the run clean. Raises
    :class:`IllegalMeldError` when the extension is not legal.
    """
    rules = _rules(rules)
    trump_index = check_trump(trump, rules)
    before_hand = as_hand(table_meld)
    added_hand = as_hand(added)
    before_readings, problems = _readings(before_hand.counts, rules)
    if not before_readings:
        raise IllegalMeldError(f"table meld {str(before_hand)!r} is not a legal meld: {problems[0]}")
    before = _info(before_hand, before_readings, rules, trump_index)
    if not added_hand:
        raise IllegalMeldError(f"nothing to add to {str(before_hand)!r}")
    after_hand = before_hand + added_hand
    identity = (before.reading.kind, before.reading.suit_index, before.reading.rank_index)
    after_readings, problems = _readings(after_hand.counts, rules)
    same_kind = [r for r in after_readings if (r.kind, r.suit_index, r.rank_index) == identity]
    if not same_kind:
        reason = problems[0] if problems else f"the meld would stop being a {_describe(before)}"
        raise IllegalMeldError(
            f"cannot add {str(added_hand)!r} to {str(before_hand)!r}: {reason}"
        )
    after = _info(after_hand, same_kind, rules, trump_index)
    return ExtensionInfo(before=before, after=after, added=added_hand, points=after.points - before.points)


def _describe(info: MeldInfo) -> str:
    if info.kind == RUN:
        return f"run of {info.suit}"
    return f"set of {info.rank}" if info.rank else "set of wild cards"


def verify_extension(table_meld, added, rules: RuleSet | str = "classic") -> None:
    analyze_extension(table_meld, added, rules)


def can_extend(table_meld, added, rules: RuleSet | str = "classic") -> bool:
    try:
        analyze_extension(table_meld, added, rules)
    except IllegalMeldError:
        return False
    return True


def extension_points(table_meld, added, rules: RuleSet | str = "classic", trump=None) -> int:
    """Points an extension adds: card values of the added cards + change of bonus."""
    return analyze_extension(table_meld, added, rules, trump).points


def hand_value(cards, rules: RuleSet | str = "classic") -> int:
    """Sum of card values (the penalty of cards left in hand, RULES.md §7)."""
    rules = _rules(rules)
    return sum(rules.card_value(kind) * count for kind, count in enumerate(as_hand(cards).counts))


def format_meld(cards: Iterable[int]) -> str:
    return format_kinds(cards)
