"""``biriba play``: a game in the terminal against computer players (:mod:`analysis.play`)."""

from __future__ import annotations

from analysis.cli.common import add_rules_arguments
from analysis.play import cmd_play as run


def add(commands) -> None:
    play = commands.add_parser("play", help="play a round (or a match) against the computer")
    play.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 6))
    add_rules_arguments(play)
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--seed", type=int, default=0, help="deal seed (default 0)")
    play.add_argument("--opponents", default="greedy", metavar="PLAYER",
                      help="the computer players: greedy (default), random, expert, ismcts or "
                           "ismcts:iterations=N,seconds=S")
    play.add_argument("--match", action="store_true", help="play rounds until the target")
    play.add_argument("--coach", action="store_true",
                      help="after each of your decisions, say whether it lost points and "
                           "what was better (a short search)")
    play.add_argument("--save", metavar="FILE",
                      help="write the game's JSON record here (checked before the game starts)")
    play.add_argument("--resume", metavar="FILE",
                      help="continue the unfinished game of this record")
    play.set_defaults(handler=run)
