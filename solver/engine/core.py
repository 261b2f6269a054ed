"""The rules of play, written once as numba functions over the state array, by the turn.

Where each rule lives:

- :mod:`solver.engine.basics`: reading the state (hands, melds, team counts, who may
  close, which packet), random numbers, action codes;
- :mod:`solver.engine.deal`: the deal (rules §4);
- :mod:`solver.engine.pile`: drawing and the discard pile (§5.1);
- :mod:`solver.engine.melding`: melding, extending, the packet (§2, §5.2, §5.4, §6);
- :mod:`solver.engine.discard`: the discard (§5.3, §7);
- :mod:`solver.engine.ending`: the end of a turn and of a round, scoring (§7);
- :mod:`solver.engine.turn`: the legal actions and applying one.

This module gathers their public functions under one name: the API, the
players and the playout kernel call ``core.legal_actions`` and the like.
With ``NUMBA_DISABLE_JIT=1`` everything runs as plain Python.
"""

from __future__ import annotations

from solver.engine.basics import (  # noqa: F401
    LCG_ADD,
    LCG_MASK,
    LCG_MUL,
    Mover,
    Play,
    close_ready,
    encode,
    forget_known,
    hand_of,
    info_of,
    is_wild,
    key_counts,
    meld_of,
    meld_reading,
    minimum_for,
    packet_after,
    packet_for,
    pile_counts,
    red_threes_of,
    reset_turn,
    rng_below,
    seed_rng,
    team_additions,
    team_melds,
    team_stats,
    trump_bonus,
    vulnerable_minimum,
)
from solver.engine.deal import (  # noqa: F401
    deal_round,
    new_game,
)
from solver.engine.discard import (  # noqa: F401
    discard_ok,
)
from solver.engine.melding import (  # noqa: F401
    RULE_BUDGET,
    addition_ok,
    lay,
    new_meld_ok,
    play_actions,
    play_ok,
    take_packet,
)
from solver.engine.pile import (  # noqa: F401
    draw,
    frozen,
    pile_actions,
    take_pile,
    take_pile_ok,
)
from solver.engine.ending import (  # noqa: F401
    best_biriba_bonus,
    end_round,
    red_three_points,
    end_turn,
)
from solver.engine.turn import (  # noqa: F401
    apply_action,
    legal_actions,
)
