"""Player specifications for the command line: ``NAME`` or ``NAME:KEY=VALUE,KEY=VALUE``.

Players: ``random``, ``greedy``, ``expert`` (all three also run inside the playout kernel),
``ismcts`` with the options ``iterations``, ``seconds``, ``workers``, ``exploration``,
``epsilon``, ``scale``, ``cutoff``, ``plans``, ``match``, ``multi``, ``infer`` and
``rollout`` (``ismcts:rollout=expert``: the expert player's rollouts) and ``value``
(``ismcts:cutoff=20,value=1``: the learned value where a rollout is cut)
(``ismcts:iterations=400``,
``ismcts:seconds=0.5,workers=2``, ``ismcts:plans=63``: the mask of
:mod:`solver.search.plans`; ``ismcts:match=1``: the match-aware reward;
``ismcts:multi=1``: one tree per player, MO-ISMCTS; ``ismcts:infer=0.8``:
determinizations weighted by the greedy model), and
``openspiel``
(OpenSpiel's ISMCTSBot with random rollouts; options ``simulations``, ``uct_c``; the optional
extra). A bad specification raises :class:`PlayerSpecError` quoting it.
"""

from __future__ import annotations

from typing import NamedTuple

from solver.engine.players import POLICY_CODES, ExpertPlayer, GreedyPlayer, RandomPlayer
from solver.errors import BiribaError
from solver.search import ISMCTSPlayer
from solver.search.match import unfit
from solver.search.value import value_unfit

OPTIONS = {
    "ismcts": {"iterations": int, "seconds": float, "workers": int, "exploration": float,
               "epsilon": float, "scale": float, "cutoff": int, "plans": int,
               "match": int, "multi": int, "infer": float,
               "rollout": str, "value": int},
    "openspiel": {"simulations": int, "uct_c": float},
}


def _openspiel(seed: int = 0, **options):
    """OpenSpiel's ISMCTSBot (the optional extra: pip install -e ".[openspiel]")."""
    try:
        from solver.openspiel_game import OpenSpielPlayer
    except ImportError:
        raise PlayerSpecError("player 'openspiel' needs OpenSpiel: "
                              "pip install -e \".[openspiel]\"") from None
    return OpenSpielPlayer(seed, **options)


MAKERS = {"random": RandomPlayer, "greedy": GreedyPlayer, "expert": ExpertPlayer,
          "ismcts": ISMCTSPlayer,
          "openspiel": _openspiel}


class PlayerSpecError(BiribaError):
    """A player specification that names no player, or a bad option or value."""


class PlayerSpec(NamedTuple):
    name: str
    options: dict
    text: str

    @property
    def in_kernel(self) -> bool:
        """Plays inside the numba playout kernel (random, greedy)."""
        return self.name in POLICY_CODES

    @property
    def parts(self) -> tuple[str, ...]:
        """The compiled parts beyond a simulation's that this player needs (the expert
        player's, for ``expert`` and for expert rollouts)."""
        uses = self.name == "expert" or self.options.get("rollout") == "expert"
        return ("expert",) if uses else ()

    def make(self, seed: int = 0):
        return MAKERS[self.name](seed, **self.options)


def parse_spec(text: str, game=None, make: bool = True) -> PlayerSpec:
    """``greedy``, ``ismcts:iterations=400,seconds=1`` (checked, values converted); with a
    ``game``, also checked against it (the match-aware reward needs a match of two teams),
    so a bad pairing is refused before the first card is played. ``make=False`` checks the
    text only, not the player's ranges, so that a player whose extra is not installed can
    still be named (in a finished tournament's log)."""
    if not isinstance(text, str) or not text.strip():
        raise PlayerSpecError(f"empty player specification {text!r}")
    name, _, rest = text.strip().partition(":")
    name = name.strip().lower()
    if name not in MAKERS:
        raise PlayerSpecError(f"unknown player {name!r} in {text!r} "
                              f"(known: {', '.join(MAKERS)})")
    known = OPTIONS.get(name, {})
    options = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = item.partition("=")
        key = key.strip().lower()
        if key not in known:
            allowed = ", ".join(known) if known else "none"
            raise PlayerSpecError(f"unknown option {key!r} for {name} in {text!r} "
                                  f"(options: {allowed})")
        if not equals:
            raise PlayerSpecError(f"option {key!r} in {text!r} needs a value ({key}=...)")
        try:
            options[key] = known[key](value.strip())
        except ValueError:
            raise PlayerSpecError(f"option {key}={value.strip()!r} in {text!r} is not "
                                  f"{'an integer' if known[key] is int else 'a number'}") from None
    spec = PlayerSpec(name, options, text.strip())
    if make:
        spec.make(0)                      # the player checks its own ranges (a BiribaError)
    if game is not None and options.get("match") and unfit(game):
        raise PlayerSpecError(f"{text.strip()!r}: {unfit(game)}")
    if game is not None and options.get("value") and value_unfit(game):
        raise PlayerSpecError(f"{text.strip()!r}: {value_unfit(game)}")
    return spec
