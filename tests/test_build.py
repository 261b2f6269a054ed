"""The compiled extension was built by setup.py and is the one in use."""

import importlib
import os

import pytest

from kernels import cardset


@pytest.mark.skipif(
    os.environ.get("BIRIBA_PURE_PYTHON", "") not in ("", "0"),
    reason="the pure-Python fallback was forced",
)
def test_cython_cardset_built_and_in_use():
    compiled = importlib.import_module("kernels._cardset")
    assert compiled.COMPILED is True
    assert compiled.__file__.endswith((".so", ".pyd"))
    assert cardset.BACKEND == "cython"
    assert cardset.counts_to_masks is compiled.counts_to_masks
