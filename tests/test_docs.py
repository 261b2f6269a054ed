"""The manual: every Python example of README.md and docs/ runs and shows what it says, and
neither the manual nor the code's comments hold dates or work-log words."""

from __future__ import annotations

import ast
import os
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks(text: str) -> list[str]:
    return FENCE.findall(text)


def expected_values(block: str) -> dict[int, str]:
    """{line number of an expression's last line: the literal its comment shows}: a comment
    after the expression on its line, or alone on the next line, that is a Python literal."""
    lines = block.split("\n")
    found = {}
    for number, line in enumerate(lines, start=1):
        code, _, comment = line.partition("  # ")
        if line.lstrip().startswith("# "):
            code, comment = "", line.lstrip()[2:]
            target = number - 1
        else:
            target = number
        comment = comment.strip()
        if not comment:
            continue
        try:
            ast.literal_eval(comment)
        except (ValueError, SyntaxError):
            continue
        found.setdefault(target, comment)
    return found


def run_block(block: str, namespace: dict) -> None:
    expected = expected_values(block)
    tree = ast.parse(block)
    for statement in tree.body:
        want = expected.get(statement.end_lineno)
        if isinstance(statement, ast.Expr) and want is not None:
            got = eval(compile(ast.Expression(statement.value), "<example>", "eval"), namespace)
            assert got == ast.literal_eval(want), (ast.unparse(statement), got, want)
        else:
            exec(compile(ast.Module([statement], []), "<example>", "exec"), namespace)


def test_expected_values_are_read_from_comments():
    block = "x = 1\nx + 1    # 2\n(x,\n x)\n# (1, 1)\nx  # not a literal\n"
    assert expected_values(block) == {2: "2", 4: "(1, 1)"}
    with pytest.raises(AssertionError):
        run_block("1 + 1    # 3\n", {})
    run_block("1 + 1    # 2\n", {})


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_example_runs(page, monkeypatch):
    blocks = python_blocks(page.read_text(encoding="utf-8"))
    monkeypatch.chdir(ROOT)
    namespace: dict = {"__name__": "__example__"}
    for block in blocks:
        run_block(block, namespace)


WORK_LOG = re.compile(
    r"\b20\d\d-\d\d-\d\d\b|\bsessions?\b|\bVM\b|\bEPYC\b|\bXeon\b|\btoday\b|\byesterday\b"
    r"|\bwe tried\b|\bused to\b|\b[Ii]ssues? \d+|\bthe [a-z-]+ issue\b", re.I)
CODE_DIRS = ("solver", "kernels", "analysis", "benchmarks", "tests")
CODE_SUFFIXES = (".py", ".pyx", ".pxi", ".pxd")


def _code_files():
    for folder in CODE_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in CODE_SUFFIXES and path.name != pathlib.Path(__file__).name:
                yield path
    yield ROOT / "setup.py"


def test_no_dates_or_work_log_words_in_the_manual_or_the_code():
    found = []
    for path in [*PAGES, *_code_files()]:
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
            if WORK_LOG.search(line):
                found.append(f"{os.path.relpath(path, ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_work_log_pattern_catches_what_it_should():
    for text in ("measured 2026-12-01", "the ninth session", "on the project's VM",
                 "see issue 14", "the rank-sweep issue", "what we tried"):
        assert WORK_LOG.search(text), text
    for text in ("no longer known", "the issue of a card", "a version 2026"):
        assert not WORK_LOG.search(text), text


LINK = re.compile(r"\]\(([^)#\s`]+\.(?:md|json|py|png|html|toml))(?:#[^)]*)?\)")


def test_every_relative_link_of_the_manual_points_at_a_file():
    missing = []
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (page.parent / target).exists():
                missing.append(f"{page.relative_to(ROOT)} -> {target}")
    assert not missing, "\n".join(missing)


def test_the_front_doors_names_are_not_shadowed_by_modules():
    """``from analysis import review`` must give the function even after the module that
    holds it is imported: no public name of a package is also one of its modules."""
    import importlib

    for package in ("solver", "analysis"):
        module = importlib.import_module(package)
        for name, (where, _) in module._LAZY.items():
            importlib.import_module(where)
            folder = ROOT / package
            assert not (folder / f"{name}.py").exists() and not (folder / name).is_dir(), name
            assert callable(getattr(module, name)), name
