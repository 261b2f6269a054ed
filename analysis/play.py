"""``biriba play``: a game at the terminal against the computer players.

The screen shows the table with its biribas marked, the card just drawn,
the legal moves in groups with their points, and takes a move by number,
by its text, or as a meld typed in any card order. A refused move gets the
engine's reason. ``hint`` gives the evaluation's best decision (the one of ``biriba
analyze`` and the review) with its reason; ``--coach`` grades each of the person's
decisions as the review does and says what was better and why;
``q`` or Ctrl-C leaves,
and the record is saved (``--save``) whatever way the game ends; ``--resume``
continues a saved game.
"""

from __future__ import annotations

import sys

from analysis.moves import Refusal, describe, listing, parse_move
from analysis.specs import parse_spec
from solver.cards import Hand
from solver.engine import layout as L
from solver.engine import records
from solver.engine.api import Game
from solver.engine.scoring import ending_clone, round_breakdown
from analysis.warm import ensure_compiled
from solver.errors import BiribaError

HELP = """commands:
  NUMBER or the move's text     play that move (e.g. 12, draw, pile, discard 7H)
  lay CARDS                     lay a meld, cards in any order (lay QS KS AS)
  extend N CARDS                add cards to your team's table meld N (extend 2 JC)
  pile with CARDS               threes: take a frozen pile with a new clean meld of its top
  lay | extend | extend N | discard | all     list those moves
  hint                          the best decision and why, the top three, the best lay-down
  table                         show the table again
  q                             leave (the record is saved with --save)"""


def _say(text: str = "") -> None:
    print(text, flush=True)


def _ask(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def _start(args):
    """(game, state) of a new game, or of the record given to --resume; the engine is
    compiled first where it is not yet (a new game's arguments are checked before)."""
    if args.resume:
        data = records.read(args.resume)
        _compile_first()                 # loading a record replays it in the engine
        state = records.from_record(data)
        if state.is_terminal():
            raise BiribaError(f"the game in {args.resume!r} is over: nothing to resume")
        return state.game, state
    game = Game(args.players, args.rules, *args.option, match=args.match)
    _check(args, game)
    _compile_first()
    return game, game.new_initial_state(args.seed)


def _compile_first() -> None:
    ensure_compiled("play")


def _check(args, game) -> None:
    if not 0 <= args.seat < game.players:
        raise BiribaError(f"--seat must be 0..{game.players - 1}, got {args.seat}")
    if args.save:
        records.check_writable(args.save)
    parse_spec(args.opponents, game)


def cmd_play(args) -> int:
    game, state = _start(args)
    _check(args, game)
    opponents = parse_spec(args.opponents, game)
    computers = {seat: opponents.make(args.seed + seat)
                 for seat in range(game.players) if seat != args.seat}
    outcome = 0
    try:
        left = _play(state, args.seat, computers, coach=args.coach)
        if left:
            _say("game left")
    except KeyboardInterrupt:
        print("\ninterrupted: game left", file=sys.stderr)
        outcome = 130
    except BaseException:
        if args.save:           # whatever went wrong, what was played is kept
            records.save(state, args.save)
        raise
    if state.is_terminal():
        _say(str(state))
        _say(f"{state.end_reason}: match {state.match_scores()}")
    if args.save:
        records.save(state, args.save)
        _say(f"record written to {args.save}"
             + ("" if state.is_terminal() else f" (resume with: biriba play --resume "
                f"{args.save} --seat {args.seat})"))
    elif not state.is_terminal():
        _say("not saved (play with --save FILE to keep a record you can resume)")
    return outcome


def _play(state, seat: int, computers, coach: bool = False) -> bool:
    """Play until the game ends (False) or the player leaves (True)."""
    taken: list[str] = []
    play_start = None           # where the person's play phase began (the coach's window)
    while not state.is_terminal():
        current = state.current_player()
        index = len(state.history)
        pickup = state.phase == "draw"
        if current == seat:
            action = _human_turn(state, seat, taken)
            if action is None:
                return True
            if not pickup and play_start is None:
                play_start = index
        else:
            action = computers[current].choose(state)
            play_start = None
        text = state.action_to_string(action)
        if text == "pile" and current == seat:
            taken = [str(card) for card in _pile_cards(state)]
        # Only a discard ends a round; in a match the next deal follows at once, so the
        # finished round is read from a copy that stops there.
        discard = text.startswith("discard")
        ended = ending_clone(state, action) if discard and state.game.match else state
        state.apply_action(action)
        if current != seat:
            _say(f"seat {current}: {text}")
        elif coach and (pickup or discard):
            _coach(state, seat, index if pickup else play_start, index)
        if discard and current == seat:
            play_start = None
        if ended.phase == "round_over":
            _round_summary(ended)
        if discard:
            taken = []
    return False


def _coach(state, seat: int, first: int, last: int) -> None:
    """The coach's words on the decisions just made (a short search each)."""
    from analysis.reviewer import coach

    try:
        for line in coach(state, seat, first, last):
            _say(line)
    except BiribaError as error:     # the game goes on whatever the coach says
        _say(f"  coach: no verdict ({error})")


def _pile_cards(state):
    return [Hand.from_kinds([kind]) for kind in state.pile()]


def _round_summary(ended) -> None:
    _say(f"round over ({ended.end_reason}):")
    reds = ended.game.rules.red_threes_out
    _say(f"  {'team':<12} {'melds':>6} {'bonuses':>8} {'closing':>8} {'in hand':>8} "
         f"{'packet':>7}" + (f" {'red 3s':>7}" if reds else "") + f" {'total':>7}")
    for row in round_breakdown(ended):
        seats = "seats " + "+".join(map(str, row.seats)) if len(row.seats) > 1 else \
            f"seat {row.seats[0]}"
        _say(f"  {seats:<12} {row.melds:>6} {row.bonuses:>8} {row.closing:>8} "
             f"{row.hands:>8} {row.packet:>7}" + (f" {row.red_threes:>7}" if reds else "")
             + f" {row.total:>7}")


def _screen(state, seat: int, taken: list[str]) -> None:
    _say()
    _say(str(state))
    drawn = state.last_drawn()
    if state.phase == "play" and drawn:
        _say(f"you drew: {drawn}")
    if state.phase == "play" and taken:
        _say(f"you took the pile: {' '.join(taken)}")


def _human_turn(state, seat: int, taken: list[str]):
    moves = describe(state)
    _screen(state, seat, taken)
    for line in listing(moves):
        _say(line)
    while True:
        answer = _ask("your move (number, text, 'help', 'q'): ")
        if answer is None:
            return None
        word = " ".join(answer.lower().split())
        if word in ("q", "quit", "exit"):
            return None
        if word in ("help", "?"):
            _say(HELP)
            continue
        if word == "table":
            _screen(state, seat, taken)
            continue
        if word == "hint":
            _say(_hint(state))
            continue
        if word in ("all", "lay", "extend", "discard") or (
                word.startswith("extend ") and word[7:].isdigit()):
            group = None if word == "all" else word.split()[0]
            target = int(word.split()[1]) if " " in word else None
            for line in listing(moves, group, target) or ["  (none)"]:
                _say(line)
            continue
        try:
            return parse_move(state, answer, moves).action
        except Refusal as refusal:
            _say(f"  refused: {refusal}")
        except BiribaError as error:
            _say(f"  {error}")


def _hint(state) -> str:
    """The evaluation's best decision with its reason and figures (the analysis's and the
    review's evaluation, at the review's budget, seed 0), and the best lay-down the
    optimizer finds this turn."""
    from analysis.analyzer import label
    from analysis.reasons import sentence
    from analysis.reviewer import ITERATIONS, WORKERS
    from solver.optimizer import Instance, optimize_laydown
    from solver.search.evaluate import evaluate
    from solver.search.plans import PLANS_ALL

    result = evaluate(state, iterations=ITERATIONS, seed=0, workers=WORKERS, plans=PLANS_ALL)
    best = result.best
    lines = [f"  hint: {label(best)}" + (f" ({sentence(state, best.code, best.actions)})"
                                         if sentence(state, best.code, best.actions) else "")]
    if result.verdict == "too close to call" and len(result.ranked) > 1:
        lines.append(f"  (too close to call against {label(result.ranked[1])})")
    lines.append(f"  the evaluation ({result.iterations} iterations) ranks:")
    for figure in result.ranked[:3]:
        lines.append(f"    {label(figure)}: {figure.mean:+.0f} ± {figure.half:.0f} points, "
                     f"wins {figure.win:.0%}")
    text = "\n".join(lines)
    if state.phase != "play":
        return text
    seat = state.current_player()
    team = state.team_of(seat)
    array = state.array
    must = int(array[L.MUST])
    instance = Instance.build(
        state.hand(seat), table=state.table(team), rules=state.game.rules,
        trump=state.trump, opened=bool(array[L.OPENED + team]) or bool(array[L.TURN_POINTS]),
        score=state.match_scores()[state.entity_of(seat)], keep=1,
        must_use=Hand.from_kinds([must]) if must >= 0 else (), players=state.game.players)
    best = optimize_laydown(instance)
    return text + f"\n  the best lay-down now is worth {best.points} points" + (
        f": {' | '.join(str(m.cards) for m in best.melds)}" if best.melds else "") + (
        f" {' '.join('+' + str(e.cards) + ' on ' + str(e.table_index) for e in best.extensions)}"
        if best.extensions else "")
