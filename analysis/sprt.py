"""A sequential probability ratio test on deal pairs: does A gain at least ``elo1`` over B,
or at most ``elo0``?

Each deal pair is a game of A against B, scored 1, 0.5 or 0 by the sign of A's mean lead
over its two rounds. The test is the generalized SPRT of fishtest (the Stockfish testing
framework) on these pair scores, in its normal approximation (M. Van den Bergh, "Comments
on normalized Elo"): with ``n`` pairs of mean score ``x`` and variance ``v``, and
``s(elo) = 1 / (1 + 10^(-elo / 400))``,

    LLR = n (s1 - s0) (2 x - s0 - s1) / (2 v)

(the scores with one virtual pair won and one lost, so that a sweep has a variance) and
the test stops when LLR leaves ``[log(beta / (1 - alpha)), log((1 - beta) / alpha)]``:
above, A gains at least ``elo1`` (H1); below, at most ``elo0`` (H0).
"""

from __future__ import annotations

import math

from solver.errors import OutOfRangeError

ALPHA = 0.05
BETA = 0.05
MAX_ELO = 2000.0
PRIOR = (1.0, 0.0)     # the virtual pairs every test counts, one won and one lost


def parse(text: str) -> tuple[float, float]:
    """``"ELO0,ELO1"`` as two floats, ``ELO0 < ELO1`` (OutOfRangeError otherwise)."""
    try:
        elo0, elo1 = (float(part) for part in text.split(","))
    except ValueError:
        raise OutOfRangeError(f"--sprt takes ELO0,ELO1 (two numbers), got {text!r}") from None
    if not (math.isfinite(elo0) and math.isfinite(elo1) and -MAX_ELO <= elo0 < elo1 <= MAX_ELO):
        raise OutOfRangeError(f"--sprt needs -{MAX_ELO:.0f} <= ELO0 < ELO1 <= {MAX_ELO:.0f}, "
                              f"got {text!r}")
    return elo0, elo1


def expected(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def bounds(alpha: float = ALPHA, beta: float = BETA) -> tuple[float, float]:
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def llr(scores, elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 against H0 after the pair ``scores``. The scores
    count one virtual pair won and one lost besides (PRIOR), so that a sweep, whose scores
    do not vary, has the variance the approximation needs."""
    scores = [*scores, *PRIOR]
    n = len(scores)
    mean = sum(scores) / n
    variance = sum((x - mean) ** 2 for x in scores) / n
    if variance <= 0:
        return 0.0
    s0, s1 = expected(elo0), expected(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def verdict(scores, elo0: float, elo1: float) -> dict:
    """The test after ``scores``: its LLR, bounds, and "H1", "H0" or "continue"."""
    value = llr(scores, elo0, elo1)
    lower, upper = bounds()
    said = "H1" if value >= upper else "H0" if value <= lower else "continue"
    return {"elo0": elo0, "elo1": elo1, "llr": value, "lower": lower, "upper": upper,
            "verdict": said, "pairs": len(scores)}
