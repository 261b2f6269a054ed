"""``biriba replay``: replay a saved record and check it."""

from __future__ import annotations

import json

from analysis.warm import ensure_compiled
from solver.engine import records


def add(commands) -> None:
    replay = commands.add_parser("replay", help="replay a saved JSON record and check it")
    replay.add_argument("record", help="the record file")
    replay.add_argument("--moves", action="store_true", help="list every move and who played it")
    replay.add_argument("--json", action="store_true", help="one JSON object")
    replay.set_defaults(handler=run)


def run(args) -> int:
    data = records.read(args.record)
    ensure_compiled("replay")      # before the replay, which runs the engine
    state = records.from_record(data)
    if args.moves:
        replay = state.game.new_initial_state(state.seed, state.dealer)
        rounds = 0
        for index, action in enumerate(state.history):
            seat = replay.current_player()
            print(f"{index:>5}  round {replay.round_index + 1}  seat {seat}: "
                  f"{replay.action_to_string(action)}")
            replay.apply_trusted(action)
            if replay.round_index != rounds:
                rounds = replay.round_index
    if args.json:
        print(json.dumps({"actions": len(state.history), "terminal": state.is_terminal(),
                          "end_reason": state.end_reason, "round_scores": state.round_scores(),
                          "match_scores": state.match_scores()}))
        return 0
    print(str(state))
    print(f"replayed {len(state.history)} actions: {state.end_reason or 'not finished'}; "
          f"round scores {state.round_scores()}, match {state.match_scores()}")
    return 0
