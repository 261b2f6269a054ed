"""Compiling less and only what changed: the project's njit, the cache's closure digests,
the parallel compile's schedule and the first-use warning."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

from kernels import jit, numba_cache
from kernels.jit import njit
from analysis import warm
from solver.engine import compiled


@njit(cache=False)
def _scaled(x, factor):
    return x * factor


@njit(cache=False)
def _calls_with_constants(x):
    return _scaled(x, 2) + _scaled(x, 3) + _scaled(x, -1)


@njit(cache=False)
def _pick(pair, index):
    return pair[index]


@njit(cache=False)
def _needs_a_literal(flag):
    pair = (1, "one")
    return _pick(pair, 0) + len(_pick(pair, 1)) + flag


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled only")
def test_constants_passed_between_compiled_functions_compile_the_callee_once():
    assert _calls_with_constants(np.int64(5)) == 5 * 2 + 5 * 3 - 5
    signatures = [str(s) for s in _scaled.signatures]
    assert signatures == ["(int64, int64)"], signatures     # numba alone compiles three


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled only")
def test_a_callee_that_needs_the_literal_still_compiles():
    assert _needs_a_literal(1) == 1 + 3 + 1
    assert any("Literal" in str(s) for s in _pick.signatures)


# --- the cache's closure digests ---------------------------------------------------------


def _project(root):
    files = {
        "kernels/__init__.py": "",
        "kernels/low.py": "from kernels.jit import njit\n\n@njit\ndef f(x):\n    return x\n",
        "solver/__init__.py": "",
        "solver/mid.py": "from kernels.jit import njit\nfrom kernels.low import f\n\n"
                         "@njit\ndef g(x):\n    return f(x)\n",
        "solver/top.py": "from kernels.jit import njit\nfrom solver.mid import g\n\n"
                         "@njit\ndef h(x):\n    return g(x)\n",
        "solver/apart.py": "from kernels.jit import njit\n\n@njit\ndef k(x):\n    return x\n",
        "solver/numbers.py": "WEIGHT = 1\n",
        "solver/weighed.py": "from kernels.jit import njit\nfrom solver.numbers import WEIGHT\n\n"
                             "@njit\ndef w(x):\n    return x * WEIGHT\n",
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _fake_cache(root):
    for folder, module, function in (("kernels", "low", "f"), ("solver", "mid", "g"),
                                     ("solver", "top", "h"), ("solver", "apart", "k"),
                                     ("solver", "weighed", "w")):
        cache = root / folder / "__pycache__"
        cache.mkdir(exist_ok=True)
        for suffix in (".nbi", ".1.nbc"):
            (cache / f"{module}.{function}-4.py311{suffix}").write_text("x")


def _cached(root):
    return sorted(name.split(".")[0] for folder in ("kernels", "solver")
                  for name in os.listdir(root / folder / "__pycache__")
                  if name.endswith(".nbi"))


@pytest.fixture
def cached_project(tmp_path, monkeypatch):
    """A small project whose digests are recorded and whose functions are all cached."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    _project(tmp_path)
    numba_cache.refresh(str(tmp_path))              # records the digests
    _fake_cache(tmp_path)
    return tmp_path


def test_an_edit_drops_the_module_and_its_importers_not_the_rest(cached_project):
    tmp_path = cached_project
    assert numba_cache.refresh(str(tmp_path)) == []
    assert _cached(tmp_path) == ["apart", "low", "mid", "top", "weighed"]

    mid = tmp_path / "solver" / "mid.py"
    mid.write_text(mid.read_text().replace("return f(x)", "return f(x) + 1"))
    dropped = numba_cache.refresh(str(tmp_path))
    assert sorted(os.path.basename(p) for p in dropped) == ["mid.py", "top.py"]
    assert _cached(tmp_path) == ["apart", "low", "weighed"]


def test_an_edit_below_reaches_every_importer(cached_project):
    tmp_path = cached_project
    low = tmp_path / "kernels" / "low.py"
    low.write_text(low.read_text().replace("return x", "return x * 2"))
    numba_cache.refresh(str(tmp_path))
    assert _cached(tmp_path) == ["apart", "weighed"]


def test_an_edit_of_constants_without_numba_functions_reaches_their_importers(cached_project):
    """numba freezes a global it reads into the machine code: a module that only holds
    numbers (the learned value's weights) is code of every numba module importing it."""
    numbers = cached_project / "solver" / "numbers.py"
    numbers.write_text("WEIGHT = 2\n")
    dropped = numba_cache.refresh(str(cached_project))
    assert [os.path.basename(p) for p in dropped] == ["weighed.py"]
    assert _cached(cached_project) == ["apart", "low", "mid", "top"]


def test_a_name_handed_on_by_a_package_face_reaches_its_importers(tmp_path):
    """``from kernels.pack import f``, where the package's __init__ only re-exports f from
    a module of its own: an edit of that module reaches the importer."""
    (tmp_path / "kernels" / "pack").mkdir(parents=True)
    (tmp_path / "kernels" / "pack" / "__init__.py").write_text(
        "from kernels.pack.inner import f  # noqa: F401\n")
    inner = tmp_path / "kernels" / "pack" / "inner.py"
    inner.write_text("from kernels.jit import njit\n\n@njit\ndef f(x):\n    return x\n")
    user = tmp_path / "kernels" / "user.py"
    user.write_text("from kernels.jit import njit\nfrom kernels.pack import f\n\n"
                    "@njit\ndef g(x):\n    return f(x)\n")
    before = numba_cache.Digests(str(tmp_path)).closure(str(user))
    inner.write_text(inner.read_text().replace("return x", "return x + 1"))
    assert numba_cache.Digests(str(tmp_path)).closure(str(user)) != before


def test_a_comment_or_a_touch_drops_nothing(cached_project):
    """Comments and layout are not code: numba itself recompiles the edited file's own
    functions (it hashes their file), the importers keep their machine code."""
    tmp_path = cached_project
    low = tmp_path / "kernels" / "low.py"
    low.write_text("# a comment\n" + low.read_text() + "\n\n")
    os.utime(low)
    assert numba_cache.refresh(str(tmp_path)) == []
    assert _cached(tmp_path) == ["apart", "low", "mid", "top", "weighed"]


def test_a_docstring_edit_drops_nothing_and_a_string_in_code_does(tmp_path):
    """Docstrings are text no machine code holds; a string the code uses is code."""
    module = tmp_path / "kernels" / "doc.py"
    module.parent.mkdir(parents=True)
    module.write_text('"""One."""\nfrom kernels.jit import njit\n\n\n@njit\ndef f(x):\n'
                      '    """Two."""\n    return x\n\n\nclass C:\n    """Three."""\n')
    before = numba_cache.Digests(str(tmp_path)).closure(str(module))
    module.write_text(module.read_text().replace("One", "Uno").replace("Two", "Dos")
                      .replace("Three", "Tres"))
    assert numba_cache.Digests(str(tmp_path)).closure(str(module)) == before
    module.write_text(module.read_text().replace("return x", "return len('x') + x"))
    assert numba_cache.Digests(str(tmp_path)).closure(str(module)) != before


def test_the_user_cache_directory_is_kept_honest_too(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    root = tmp_path / "project"
    root.mkdir()
    _project(root)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    numba_cache.refresh(str(root))
    folder = numba_cache.cache_dir(str(root / "solver" / "top.py"))
    assert folder.startswith(str(tmp_path / "cache"))
    os.makedirs(folder, exist_ok=True)
    (open(os.path.join(folder, "top.h-4.py311.nbi"), "w")).close()
    mid = root / "solver" / "mid.py"
    mid.write_text(mid.read_text().replace("return f(x)", "return -f(x)"))
    numba_cache.refresh(str(root))
    assert not os.path.exists(os.path.join(folder, "top.h-4.py311.nbi"))


def test_the_projects_numba_modules_are_found_with_their_imports():
    digests = numba_cache.Digests()
    root = numba_cache.ROOT
    turn = os.path.join(root, "solver", "engine", "turn.py")
    assert turn in numba_cache.numba_modules()      # its functions are linked, not njit
    reach = {os.path.relpath(p, root) for p in digests.reachable(turn)}
    assert {os.path.join("solver", "engine", "discard.py"),
            os.path.join("kernels", "partition_numba.py")} <= reach
    deal = os.path.join(root, "solver", "engine", "deal.py")
    assert os.path.join("solver", "engine", "discard.py") not in {
        os.path.relpath(p, root) for p in digests.reachable(deal)}


# --- the parallel compile's schedule -------------------------------------------------------


def test_parts_start_in_order_and_every_prerequisite_comes_first():
    todo = list(compiled.PARTS)
    assert warm.schedule(todo, 2) == ["kernels", "rules"]
    assert warm.schedule(todo, 2, done={"rules"}, started={"kernels"}) == ["greedy", "priced"]
    assert warm.schedule(todo, 6, started=set(todo)) == []
    # a part's run step waits for parts that start before it: no two can wait on each other
    for part, needs in compiled.AFTER.items():
        assert all(todo.index(p) < todo.index(part) for p in needs), part


def test_a_run_step_waits_for_the_stamps_of_its_prerequisites(monkeypatch):
    stamped = set()
    monkeypatch.setattr(warm, "is_compiled", lambda part: part in stamped)
    calls = []
    monkeypatch.setattr(warm, "_build", lambda part: calls.append(("build", part)))
    monkeypatch.setattr(warm, "_run", lambda part: calls.append(("run", part)))
    monkeypatch.setattr(warm, "WAIT_SECONDS", 0.3)
    monkeypatch.setattr(warm.time, "sleep", lambda s: stamped.add("kernels"))
    warm._compile("priced", wait=True)
    assert calls == [("build", "priced"), ("run", "priced")] and stamped == {"kernels"}
    warm._compile("rules", wait=True)                 # no run step
    assert calls[-1] == ("build", "rules")
    with pytest.raises(KeyError):
        warm._compile("nonsense")


def test_every_part_reaches_the_parts_it_needs():
    assert compiled.with_prerequisites(["search"]) == {"kernels", "priced", "rules", "greedy",
                                                    "search"}
    assert compiled.with_prerequisites(["greedy"]) == {"greedy"}
    with pytest.raises(KeyError):
        compiled.with_prerequisites(["nonsense"])


def test_the_default_compile_leaves_the_options_to_their_first_use(monkeypatch):
    asked = []
    monkeypatch.setattr(warm, "is_compiled", lambda part: False)
    monkeypatch.setattr(warm, "_compile_here", lambda todo, report: asked.append(todo) or {})
    warm.compile_engine(workers=1)
    warm.compile_engine(("expert",), workers=1)
    assert asked == [list(compiled.DEFAULT_PARTS), ["expert"]]
    assert "count" not in compiled.DEFAULT_PARTS and "expert" not in compiled.NEEDS["simulate"]


def test_a_player_names_the_expert_part_where_it_uses_it():
    from analysis.specs import parse_spec

    assert parse_spec("expert").parts == ("expert",)
    assert parse_spec("ismcts:rollout=expert,iterations=5").parts == ("expert",)
    assert parse_spec("ismcts:iterations=5").parts == parse_spec("greedy").parts == ()


def test_the_estimate_is_the_longest_part_or_the_shared_total():
    parts = list(compiled.PARTS)
    assert compiled.estimate(parts, 1) == sum(compiled.SECONDS.values())
    S, run = compiled.SECONDS, compiled.RUN_SECONDS
    priced = max(S["priced"], S["kernels"] + run)
    search = max(S["search"], S["kernels"] + run, priced + run, S["rules"] + run,
                 S["greedy"] + run)
    assert compiled.estimate(parts, 2) == max(sum(S.values()) / 2, search)
    assert compiled.estimate(["greedy"], 2) == compiled.SECONDS["greedy"]


# --- the first compiling call from Python warns ---------------------------------------------


def _announced(index_path, monkeypatch):
    """The warnings _announce gives, twice called, for a dispatcher whose cache index is at
    ``index_path``."""
    cache_file = type("F", (), {"_index_path": str(index_path)})()
    fake = type("D", (), {"_cache": type("C", (), {"_cache_file": cache_file})(),
                          "py_func": getattr(_scaled, "py_func", _scaled)})()
    monkeypatch.setattr(jit, "_warned", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        jit._announce(fake)
        jit._announce(fake)
    return caught


def test_the_first_compile_from_python_warns_once(tmp_path, monkeypatch):
    caught = _announced(tmp_path / "missing.nbi", monkeypatch)
    assert len(caught) == 1 and issubclass(caught[0].category, jit.CompileWarning)
    assert "first call" in str(caught[0].message)


def test_a_cached_function_does_not_warn(tmp_path, monkeypatch):
    index = tmp_path / "present.nbi"
    index.write_text("x")
    assert _announced(index, monkeypatch) == []


def test_the_engine_names_the_part_and_its_time():
    text = compiled.first_use_note("solver.engine.turn", "legal_actions")
    assert text.startswith("numba compiles solver.engine.turn.legal_actions")
    assert " s on one core" in text
    assert compiled.first_use_note("numpy", "x") is None
    expert = compiled.first_use_note("solver.engine.expert", "expert_action")
    assert "`biriba compile expert` compiles it ahead" in expert


def test_a_parts_stamp_follows_the_files_and_a_revert_compiles_again(tmp_path, monkeypatch):
    """`biriba compile` trusts a part's stamp only for the sources it was made for: a
    touched file (numba recompiles its functions) or a revert to older sources (their
    dependents' caches were dropped meanwhile) makes the part compile again."""
    from analysis import warm

    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.setattr(compiled.numba.config, "CACHE_DIR", str(tmp_path))
    sources = {"key": "a" * 32}
    monkeypatch.setattr(compiled.numba_cache, "source_key", lambda root=None: sources["key"])
    monkeypatch.setattr(compiled.numba_cache, "project_digest", lambda root=None: "p" * 32)
    compiled.mark_compiled("rules")
    assert compiled.is_compiled("rules")
    sources["key"] = "b" * 32                 # a file touched or edited
    assert not compiled.is_compiled("rules")
    compiled.mark_compiled("rules")
    sources["key"] = "a" * 32                 # back to the first sources
    assert not compiled.is_compiled("rules")
    assert len([name for name in os.listdir(tmp_path) if "-rules-" in name]) == 1
