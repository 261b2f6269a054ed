"""Slow, obviously-correct references that the partition kernels are checked against."""

from itertools import product

from kernels.encoding import KIND_COUNT
from solver.cards import Hand
from solver.melds import meld_points, meld_readings


def naive_catalogue(counts, rules, trump=None):
    """Every sub-multiset of the hand that is a legal meld, with its points (dict by counts)."""
    kinds = [kind for kind in range(KIND_COUNT) if counts[kind]]
    found = {}
    for choice in product(*[range(counts[kind] + 1) for kind in kinds]):
        if sum(choice) < rules.min_meld_size:
            continue
        sub = [0] * KIND_COUNT
        for kind, count in zip(kinds, choice):
            sub[kind] = count
        if meld_readings(Hand(tuple(sub)), rules):
            found[tuple(sub)] = meld_points(Hand(tuple(sub)), rules, trump)
    return found


def naive_laydowns(counts, melds):
    """Every lay-down (multiset of melds, by index) by plain include/exclude recursion."""
    result = []

    def walk(index, remaining, chosen):
        if index == len(melds):
            result.append(list(chosen))
            return
        walk(index + 1, remaining, chosen)
        meld = melds[index]
        taken = 0
        while all(remaining[k] >= meld[k] for k in range(KIND_COUNT)):
            for k in range(KIND_COUNT):
                remaining[k] -= meld[k]
            taken += 1
            chosen.append(index)
            walk(index + 1, remaining, chosen)
        for _ in range(taken):
            chosen.pop()
            for k in range(KIND_COUNT):
                remaining[k] += meld[k]

    walk(0, list(counts), [])
    return result


def _sub_multisets(counts):
    kinds = [kind for kind in range(KIND_COUNT) if counts[kind]]
    for choice in product(*[range(counts[kind] + 1) for kind in kinds]):
        sub = [0] * KIND_COUNT
        for kind, count in zip(kinds, choice):
            sub[kind] = count
        yield sub


def naive_turn_best(instance, weight_per_card=0):
    """Best value of a turn by brute force over the rules spec (small hands only).

    Every addition to each table meld is a sub-multiset of the hand that
    ``analyze_extension`` accepts; every new meld a sub-multiset ``meld_readings``
    accepts. Returns the best ``points + weight_per_card * cards laid`` over the
    lay-downs meeting keep, must-use and the vulnerability minimum, or None.
    """
    from solver.melds import IllegalMeldError, analyze_extension

    rules, hand = instance.rules, list(instance.hand.counts)
    options = []
    for meld in instance.table:
        found = [None]
        for sub in _sub_multisets(hand):
            if not any(sub):
                continue
            try:
                info = analyze_extension(meld, Hand(tuple(sub)), rules, instance.trump)
            except IllegalMeldError:
                continue
            found.append((sub, info.points))
        options.append(found)
    best = None
    for combo in product(*options):
        remaining = list(hand)
        points = laid = 0
        for option in combo:
            if option is None:
                continue
            sub, gained = option
            remaining = [a - b for a, b in zip(remaining, sub)]
            points += gained
            laid += sum(sub)
        if min(remaining) < 0:
            continue
        catalogue = naive_catalogue(remaining, rules, instance.trump)
        melds = list(catalogue)
        for laydown in naive_laydowns(remaining, melds):
            left = list(remaining)
            total, cards = points, laid
            for index in laydown:
                left = [a - b for a, b in zip(left, melds[index])]
                total += catalogue[melds[index]]
                cards += sum(melds[index])
            if sum(left) < instance.keep:
                continue
            if any(left[k] > hand[k] - instance.must_use.counts[k] for k in range(KIND_COUNT)):
                continue
            if instance.minimum and cards and total < instance.minimum:
                continue
            value = total + weight_per_card * cards
            best = value if best is None else max(best, value)
    return best
