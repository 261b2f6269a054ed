"""benchmarks/ladder.py: logs of one tournament on other deals are rated as one."""

import pytest

from analysis import tournament as T
from benchmarks import ladder


def test_two_logs_on_other_deals_rate_as_one_tournament_on_all_of_them(tmp_path):
    entrants = ["greedy", "random"]
    first, second, whole = (str(tmp_path / name) for name in ("a.jsonl", "b.jsonl", "c.jsonl"))
    T.run(T.settings(entrants, "gauntlet", deals=2, seed=10), first)
    T.run(T.settings(entrants, "gauntlet", deals=2, seed=12), second)
    T.run(T.settings(entrants, "gauntlet", deals=4, seed=10), whole)
    strip = lambda rows: [{k: v for k, v in r.items() if k not in ("log", "seconds")}  # noqa
                          for r in rows]
    together = ladder.rungs([first, second])
    assert strip(together) == strip(ladder.rungs([whole]))
    assert together[0]["deals"] == 4 and together[0]["player"] == "random"
    with pytest.raises(SystemExit, match="replays deal seeds"):
        ladder.rungs([first, whole])
    assert "| 2 | random |" in ladder.markdown(together)
