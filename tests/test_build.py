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


def test_numba_cache_dir_falls_back_when_install_is_read_only(monkeypatch, tmp_path):
    import kernels

    monkeypatch.setenv("NUMBA_CACHE_DIR", "")      # recorded, so the test's own value is undone
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    package_dir = os.path.dirname(os.path.abspath(kernels.__file__))
    real_access = os.access
    monkeypatch.setattr(
        os, "access",
        lambda path, mode: False if str(path).startswith(package_dir) else real_access(path, mode),
    )
    kernels._ensure_numba_cache_dir()
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "biriba" / "numba")
    assert os.path.isdir(os.environ["NUMBA_CACHE_DIR"])


def test_numba_cache_dir_respects_the_user_choice(monkeypatch):
    import kernels

    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere/chosen")
    kernels._ensure_numba_cache_dir()
    assert os.environ["NUMBA_CACHE_DIR"] == "/somewhere/chosen"
