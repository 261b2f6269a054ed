"""The answers of ``biriba meld --json`` and ``biriba best --json`` as data: one body for
the command line and the web API (:mod:`analysis.web`)."""

from __future__ import annotations

from solver.errors import IllegalMeldError
from solver.melds import analyze_meld, check_trump
from solver.optimizer import Config, Instance, optimize_laydown
from solver.rules import get_rules
from solver.values import check_copies


def meld_answer(cards: str, rules="classic", options=(), trump=None, players: int = 4) -> dict:
    """Is ``cards`` a legal meld, and what is it worth: ``{"valid": False, "reason"}`` or
    the meld's figures (:meth:`solver.melds.MeldInfo.to_dict`)."""
    rules = get_rules(rules, *options) if isinstance(rules, str) else rules
    trump_index = check_trump(trump, rules)
    check_copies([cards], rules, players, "in the meld")
    try:
        info = analyze_meld(cards, rules, trump_index)
    except IllegalMeldError as error:
        return {"valid": False, "reason": str(error).split(": ", 1)[-1]}
    return info.to_dict()


def describe_meld(cards, rules, trump):
    """(its MeldInfo, "run of H, clean, clean run biriba") of a legal meld."""
    info = analyze_meld(cards, rules, trump)
    what = f"run of {info.suit}" if info.kind == "run" else (
        f"set of {info.rank}" if info.rank else "set of wild cards")
    state = "clean" if info.clean else "dirty"
    label = f", {info.biriba}" if info.biriba else ""
    return info, f"{what}, {state}{label}"


def best_instance(hand: str, table=(), rules="classic", options=(), trump=None,
                  opened: bool = False, score: int = 0, keep: int = 1, must_use="",
                  players: int = 4):
    """(rules, trump index, Instance) of a lay-down question, checked."""
    rules = get_rules(rules, *options) if isinstance(rules, str) else rules
    trump_index = check_trump(trump, rules)
    if not isinstance(must_use, str):
        must_use = " ".join(must_use)
    instance = Instance.build(hand, table=list(table), rules=rules, trump=trump_index,
                              opened=opened, score=score, keep=keep, must_use=must_use,
                              players=players)
    return rules, trump_index, instance


def best_answer(instance, rules, trump_index, config: Config | None = None):
    """(the optimizer's result, the laid melds described, the JSON answer)."""
    result = optimize_laydown(instance, config or Config())
    described = [describe_meld(meld.cards, rules, trump_index) for meld in result.melds]
    data = result.to_dict()
    data["melds"] = [info.ordered_cards() for info, _ in described]
    data["seconds"] = round(result.seconds, 6)
    return result, described, data
