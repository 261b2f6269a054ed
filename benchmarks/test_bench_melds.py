"""Meld analysis (the pure-Python rules spec): how long one verdict takes."""

import pytest

from solver.melds import analyze_meld, can_meld
from solver.rules import get_rules

CASES = {
    "run7": "4H 5H 6H 2C 8H 9H 10H",
    "full13": "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH",
    "set4": "7S 7H 7D JK",
    "illegal": "5H 6H JK JK",
}


@pytest.mark.parametrize("name", list(CASES))
def test_meld_verdict(benchmark, name):
    rules = get_rules("classic")
    benchmark.group = "meld verdict"
    result = benchmark(can_meld, CASES[name], rules)
    assert result == (name != "illegal")


def test_analyze_meld_trump(benchmark):
    rules = get_rules("classic")
    info = benchmark(analyze_meld, CASES["run7"], rules, "H")
    assert info.biriba == "trump"
