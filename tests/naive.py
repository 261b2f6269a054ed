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
