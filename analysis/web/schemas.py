"""The API's request bodies (pydantic models: checked, and shown on the OpenAPI page).

Cards are text as on the command line (``"4H 5H 2C"``); the bounds here are the cheap ones
(lengths, ranges); the rules' own checks (a card named twice too often, an impossible
position) answer with the command line's message.
"""

from __future__ import annotations

from typing import Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from solver.limits import MAX_SCORE, MAX_SEED
from solver.limits import SERVE_DEFAULT_SECONDS as DEFAULT_SECONDS
from solver.limits import SERVE_MAX_ITERATIONS as MAX_ITERATIONS
from solver.limits import SERVE_MAX_SECONDS as MAX_SECONDS

CARDS = 1000            # characters of one card text at most (a pydantic bound, cheap)
LIST = 60               # items of one list at most

Cards = Field(max_length=CARDS)


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Ruled(Body):
    rules: str = Field("classic", max_length=40, description="the rule preset")
    options: list[str] = Field(default_factory=list, max_length=LIST,
                               description="rule options (RULES.md §8)")
    trump: Optional[str] = Field(None, max_length=8, description="S, H, D or C")
    players: int = Field(4, ge=2, le=6, description="2, 3, 4 or 6")


class MeldBody(Ruled):
    cards: str = Field(max_length=CARDS, examples=["4H 5H 2C 7H"])


class BestBody(Ruled):
    hand: str = Field(max_length=CARDS, examples=["4H 5H 2C 7H 8H 9H 10H KS KD KC AS 3S"])
    table: list[str] = Field(default_factory=list, max_length=LIST,
                             description="the team's table melds")
    opened: bool = False
    score: int = Field(0, ge=-MAX_SCORE, le=MAX_SCORE,
                       description="the team's match score (the vulnerability minimum)")
    keep: int = Field(1, ge=0, le=200, description="cards to keep in hand")
    must_use: Union[list[str], str] = Field(default_factory=list,
                                            description="cards that must be laid")


class Budget(Body):
    seconds: Optional[float] = Field(None, gt=0, le=MAX_SECONDS,
                                     description=f"the cap (default {DEFAULT_SECONDS:g} s)")
    iterations: Optional[int] = Field(None, ge=1, le=MAX_ITERATIONS,
                                      description="the cap in rollouts instead (the time cap "
                                                  f"of {MAX_SECONDS:g} s still holds)")
    seed: int = Field(0, ge=0, le=MAX_SEED)


class AnalyzeBody(Budget):
    """A position file's object (``examples/*.json``) and the search's budget."""

    hand: str = Field(max_length=CARDS, examples=["JC 4D 9H"])
    rules: str = Field("classic", max_length=40)
    options: list[str] = Field(default_factory=list, max_length=LIST)
    players: int = Field(4, ge=2, le=6)
    seat: int = Field(0, ge=0, le=5)
    phase: str = Field("draw", max_length=8, description="draw or play")
    table: dict[str, list[str]] = Field(default_factory=dict, max_length=6,
                                        description="{team: [meld, ...]}")
    pile: str = Field("", max_length=CARDS, description="the top card last")
    trump: Optional[str] = Field(None, max_length=8)
    opened: list[int] = Field(default_factory=list, max_length=6)
    scores: Optional[list[int]] = Field(None, max_length=6)
    hand_sizes: Optional[list[int]] = Field(None, max_length=6)
    stock: Optional[int] = None
    packets_taken: list[int] = Field(default_factory=list, max_length=6)

    def position(self) -> dict:
        return self.model_dump(exclude={"seconds", "iterations", "seed"})


class PositionBody(Body):
    record: dict = Field(description="a game record (biriba play --save)")
    at: int = Field(ge=0, description="the position before this action")


class GameBody(Body):
    players: int = Field(4, ge=2, le=6)
    rules: str = Field("classic", max_length=40)
    options: list[str] = Field(default_factory=list, max_length=LIST)
    seat: int = Field(0, ge=0, le=5, description="the person's seat")
    opponents: str = Field("greedy", max_length=200,
                           description="random, greedy, expert or ismcts:seconds=S (S at most 1)")
    seed: Optional[int] = Field(None, ge=0, le=MAX_SEED, description="default: a random one")
    match: bool = False
    coach: bool = Field(False, description="grade each of the person's decisions")


class MoveBody(Body):
    move: Union[str, int] = Field(description="its number, or its text: draw, pile, "
                                              "discard 7H, lay KS QS JS, extend 2 JC",
                                  examples=["draw"])
