"""Linked functions (kernels.link): compiled once, called through a symbol, the same answers
as the plain function, from Python and from compiled code."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import types
from numba.core.errors import TypingError

from kernels import link
from kernels.jit import njit
from kernels.link import linked

COMPILED = not link.DISABLED
compiled_only = pytest.mark.skipif(not COMPILED, reason="compiled only")

_V = types.int64[::1]


@linked(types.Tuple((types.int64, _V))(_V, types.int64))
def scaled_total(values, factor):
    """(factor times the sum, the values times factor); a negative factor is refused."""
    if factor < 0:
        raise ValueError("a negative factor")
    out = values * factor
    return out.sum(), out


def _plain(values, factor):
    out = values * factor
    return int(out.sum()), out


@njit(cache=False)
def _caller(values, factor):
    total, out = scaled_total(values, factor)
    return total + out[0] if len(out) else total


@njit(cache=False)
def _narrow_caller(values):
    return scaled_total(values, np.int32(3))[0]     # int32 is cast to the declared int64


@njit(cache=False)
def _wrong_caller(values):
    return scaled_total(values, 2)[0]


arrays = st.lists(st.integers(-10**6, 10**6), min_size=0, max_size=40).map(
    lambda xs: np.array(xs, dtype=np.int64))


@settings(deadline=None)      # the first example compiles
@given(arrays, st.integers(0, 1000))
def test_a_linked_function_answers_like_the_plain_one(values, factor):
    total, out = scaled_total(values, factor)
    want_total, want_out = _plain(values, factor)
    assert total == want_total
    assert np.array_equal(out, want_out)
    assert _caller(values, factor) == want_total + (want_out[0] if len(values) else 0)


@compiled_only
def test_it_is_compiled_once_into_an_entry_reached_through_its_cell():
    scaled_total(np.arange(3, dtype=np.int64), 1)
    record = scaled_total.linked
    assert record.entry is not None
    assert record.cell[0] == record.entry.address != 0
    link.prepare(scaled_total)          # already there: nothing compiles again
    assert record.cell[0] == record.entry.address


@compiled_only
def test_arguments_are_cast_to_the_declared_types_where_numba_can():
    assert _narrow_caller(np.arange(4, dtype=np.int64)) == 3 * 6


@compiled_only
def test_an_argument_of_another_type_is_refused_when_the_caller_compiles():
    with pytest.raises(TypingError, match="argument 1 is array"):
        _wrong_caller(np.ones(3))      # float64 values, declared int64


def test_an_exception_inside_comes_out_naming_the_function(monkeypatch):
    reported = []       # numba's C wrapper reports the exception as unraisable, then returns
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    expected = RuntimeError if COMPILED else ValueError
    with pytest.raises(expected, match="scaled_total failed" if COMPILED else "negative"):
        _caller(np.arange(3, dtype=np.int64), -1)
    if COMPILED:
        assert [str(r.exc_value) for r in reported] == ["a negative factor"]


@compiled_only
def test_a_positional_signature_that_does_not_match_is_refused():
    with pytest.raises(TypeError, match="2 parameters, 1 types declared"):
        linked(types.int64(types.int64))(lambda a, b: a + b)
    with pytest.raises(TypeError, match="positional parameters only"):
        linked(types.int64(types.int64))(lambda *a: 0)


@compiled_only
def test_the_entry_loads_from_the_disk_cache_in_the_next_process(tmp_path):
    program = ("import numpy as np\n"
               "from tests.test_link import scaled_total\n"
               "print(scaled_total(np.arange(5, dtype=np.int64), 2)[0],"
               " scaled_total.linked.entry.cache_hits)\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    answers = [subprocess.run([sys.executable, "-c", program], env=env, cwd=root,
                              capture_output=True, text=True, check=True).stdout.split()
               for _ in range(2)]
    assert answers[0] == ["20", "0"]           # compiled
    assert answers[1] == ["20", "1"]           # loaded


@linked(_V(_V))
def _same(values):
    return values              # an argument returned: its reference must cross counted


@linked(types.int64(_V, _V))
def _dot(a, b):
    return (a * b).sum()       # no array returned: the arguments cross borrowed


@njit(cache=False)
def _dots(a, b, times):
    total = 0
    for _ in range(times):
        total += _dot(a, b)
    return total


@njit(cache=False)
def _kept(n):
    return _same(np.arange(n))     # the only reference to the array is the one returned


def test_reference_counts_hold_across_the_call():
    kept = _kept(5)
    assert list(kept) == [0, 1, 2, 3, 4]
    assert list(_same(np.arange(3))) == [0, 1, 2]
    a, b = np.arange(4), np.ones(4, dtype=np.int64)
    before = sys.getrefcount(a)
    assert _dots(a, b, 1000) == 6 * 1000
    assert sys.getrefcount(a) == before
    if COMPILED:
        assert _dot.linked.borrow and not _same.linked.borrow
