"""benchmarks/tables.py: the README's marked tables are replaced, and nothing else is.

Pure string handling: no benchmark runs here."""

import pytest

from benchmarks import tables
from benchmarks.tables import (AREAS, MarkerError, as_markdown, benchmark_table, pick_table,
                               replace_table, tables_in)

README = """# Benchmarks

Markers look like `<!-- table: AREA -->` … `<!-- /table -->` (quoted, so not markers);
a table ends at a line of its own, not at the end of a line like this <!-- /table -->

## One

before one
<!-- table: one -->
| a | b |
|---|---|
| 1 | 2 |
<!-- /table -->
after one

## Two

<!-- table: two -->
old two
<!-- /table -->
tail
"""


def test_only_the_named_table_changes():
    new = replace_table(README, "one", "| a | b |\n|---|---|\n| 3 | 4 |")
    assert tables_in(new)["one"] == "\n| a | b |\n|---|---|\n| 3 | 4 |\n"
    assert tables_in(new)["two"] == tables_in(README)["two"]
    # everything outside the table's markers is byte for byte what it was
    head, _, rest = README.partition("<!-- table: one -->")
    new_head, _, new_rest = new.partition("<!-- table: one -->")
    assert new_head == head
    assert new_rest.split("<!-- /table -->", 1)[1] == rest.split("<!-- /table -->", 1)[1]
    assert "| 1 | 2 |" not in new and "old two" in new


def test_replacing_is_idempotent_and_strips_surrounding_blank_lines():
    once = replace_table(README, "two", "\n\nnew two\n\n")
    assert tables_in(once)["two"] == "\nnew two\n"
    assert replace_table(once, "two", "new two") == once


def test_a_table_may_grow_or_shrink_without_touching_its_neighbours():
    long = "\n".join(f"| {i} |" for i in range(50))
    grown = replace_table(README, "one", long)
    shrunk = replace_table(grown, "one", "| 1 | 2 |")
    assert shrunk.endswith("<!-- table: two -->\nold two\n<!-- /table -->\ntail\n")
    assert tables_in(shrunk) == {"one": "\n| 1 | 2 |\n", "two": "\nold two\n"}


def test_markers_quoted_in_prose_are_not_markers():
    assert set(tables_in(README)) == {"one", "two"}


@pytest.mark.parametrize("broken, message", [
    ("<!-- table: x -->\nno end\n", "not closed"),
    ("text\n<!-- /table -->\n", "closes nothing"),
    ("<!-- table: x -->\n<!-- table: y -->\n<!-- /table -->\n", "opens inside"),
    ("<!-- table: x -->\n<!-- /table -->\n<!-- table: x -->\n<!-- /table -->\n",
     "marked twice"),
])
def test_broken_markers_are_refused(broken, message):
    with pytest.raises(MarkerError, match=message):
        tables_in(broken)
    with pytest.raises(MarkerError):
        replace_table(broken, "x", "new")


def test_an_unknown_table_is_refused():
    with pytest.raises(MarkerError, match="no table 'three'"):
        replace_table(README, "three", "x")


def test_prose_and_tables_are_kept_apart():
    out = as_markdown("greedy pickup: 2 ms  \n| a |\n|---|\n| 1 |\npeak 400 MB\n\n\n\n| b |\n")
    assert out == "greedy pickup: 2 ms\n\n| a |\n|---|\n| 1 |\n\npeak 400 MB\n\n| b |"
    assert pick_table(out, "| b") == "| b |"
    with pytest.raises(ValueError):
        pick_table(out, "| c")


def test_benchmark_json_becomes_medians_and_ratios():
    data = {"benchmarks": [
        {"group": "count 16 cards x20", "params": {"backend": "python"},
         "stats": {"median": 16.2e-3}},
        {"group": "count 16 cards x20", "params": {"backend": "numba"},
         "stats": {"median": 111e-6}},
        {"group": "count 16 cards x20", "params": {"backend": "cython"},
         "stats": {"median": 72.1e-6}},
        {"group": "count 30 cards x20", "params": {"backend": "cython"},
         "stats": {"median": 10.2e-3}},
    ]}
    table = benchmark_table(data, tables._partition_task, "task").splitlines()
    assert table[0] == "| task | python | numba | cython | numba × | cython × |"
    assert table[2] == "| count 16 | 16.2 ms | 111 µs | 72.1 µs | 146 | 225 |"
    assert table[3] == "| count 30 | – | – | 10.2 ms | – | – |"


def test_regenerate_writes_the_machine_line_and_the_run(tmp_path):
    path = tmp_path / "README.md"
    path.write_text(README)
    area = tables.Area("two", "Two", ("python", "-c", "pass"))
    tables.regenerate(path, area, run=lambda _: "| new |")
    content = tables_in(path.read_text())["two"]
    assert content.startswith("\nMeasured on ") and content.endswith("\n\n| new |\n")
    assert "`python -m benchmarks.tables two`" in content
    assert tables_in(path.read_text())["one"] == tables_in(README)["one"]


def test_every_regenerated_area_has_its_table_in_the_readme():
    marked = tables_in(tables.README.read_text())
    regenerated = {area.name for area in AREAS if area.regenerated}
    assert set(marked) == regenerated
    for area in AREAS:
        assert area.regenerated or area.recorded, area.name


def test_group_names_become_short_task_names():
    assert tables._partition_task("best 22 cards x20") == "best 22"
    assert tables._partition_task("priced best 60 cards + 10 table melds x4") == \
        "priced best 60 + 10 (4 instances)"
    assert tables._cardset_task("cardset: counts_subset x200") == "`counts_subset` (200 hands)"
