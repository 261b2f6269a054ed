"""Regenerate the tables of benchmarks/README.md from the report scripts.

    python -m benchmarks.tables [AREA ...] [--list] [--dry-run] [--readme PATH]

Each regenerated area names the report command that measures it. The command runs as a
subprocess (its stdout captured; its stderr, the progress lines, passes through) and its
output, as Markdown, replaces the area's table in the README between

    <!-- table: AREA -->
    ...
    <!-- /table -->

leaving everything outside the markers as it is. The first line inside the markers is a
"Measured on" line written from this machine. With no AREA every regenerated area runs,
in the order of ``--list``. An area whose figures come from a long duel, a study or a
shell timing that no script regenerates is *recorded*: ``--list`` says so and names the
commands, and the README says so next to its table; asking for it runs nothing.

A command that fails leaves its table as it was; the README is written after every area
that succeeds, so a long run that stops keeps what it finished.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

README = Path(__file__).with_name("README.md")
PY = "python"   # shown in --list; the run uses sys.executable

OPEN = "<!-- table: {name} -->"
CLOSE = "<!-- /table -->"
# a marker is a line of its own (a marker quoted inside prose is not one)
MARKER = re.compile(r"^(?:<!-- table: ([a-z0-9-]+) -->|<!-- /table -->)[ \t]*$", re.M)


# ---------------------------------------------------------------- marker handling

class MarkerError(ValueError):
    """The README's markers are missing, repeated, unclosed or nested."""


def _spans(text: str) -> dict[str, tuple[int, int]]:
    """name -> (start, end) of the text between each table's opening and closing marker
    lines (from the end of the opening line to the start of the closing one)."""
    found: dict[str, tuple[int, int]] = {}
    name = None
    start = 0
    for match in MARKER.finditer(text):
        if match.group(1):
            if name is not None:
                raise MarkerError(f"table {match.group(1)!r} opens inside table {name!r}")
            if match.group(1) in found:
                raise MarkerError(f"table {match.group(1)!r} is marked twice")
            name, start = match.group(1), match.end()
        else:
            if name is None:
                line = text.count("\n", 0, match.start()) + 1
                raise MarkerError(f"the closing marker on line {line} closes nothing")
            found[name] = (start, match.start())
            name = None
    if name is not None:
        raise MarkerError(f"table {name!r} is not closed")
    return found


def tables_in(text: str) -> dict[str, str]:
    """Every marked table of ``text``: name -> the text between its markers."""
    return {name: text[start:end] for name, (start, end) in _spans(text).items()}


def replace_table(text: str, name: str, table: str) -> str:
    """``text`` with the content between table ``name``'s markers replaced by ``table``
    (on lines of its own); everything else unchanged."""
    spans = _spans(text)          # validates every marker pair
    if name not in spans:
        raise MarkerError(f"no table {name!r} ({OPEN.format(name=name)} ... {CLOSE})")
    start, end = spans[name]
    return text[:start] + "\n" + table.strip("\n") + "\n" + text[end:]


# ---------------------------------------------------------------- output to Markdown

def _is_row(line: str) -> bool:
    return line.lstrip().startswith("|")


def as_markdown(stdout: str) -> str:
    """A report's stdout as Markdown: trailing spaces dropped, runs of blank lines
    folded, and a blank line between a table and a line of prose on either side of it
    (so a prose line is not read as part of a table)."""
    out: list[str] = []
    for line in stdout.splitlines():
        line = line.rstrip()
        if not line:
            if out and out[-1]:
                out.append("")
            continue
        if out and out[-1] and _is_row(out[-1]) != _is_row(line):
            out.append("")
        out.append(line)
    return "\n".join(out).strip("\n")


def pick_table(markdown: str, header: str) -> str:
    """The one table of ``markdown`` whose header row starts with ``header``."""
    blocks = markdown.split("\n\n")
    for block in blocks:
        if block.startswith(header) and all(_is_row(line) for line in block.splitlines()):
            return block
    raise ValueError(f"no table starting {header!r} in the output")


def _number(seconds: float) -> str:
    """A pytest-benchmark median in the README's units: s, ms or µs, three figures."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            value = seconds / scale
            return f"{value:.3g} {unit}" if value < 100 else f"{value:.0f} {unit}"
    return f"{seconds * 1e9:.0f} ns"


def benchmark_table(data: dict, task: Callable[[str], str], first: str) -> str:
    """pytest-benchmark's JSON as one row per group: the medians of python, numba and
    cython, and the reference's median over each compiled backend's."""
    groups: dict[str, dict[str, float]] = {}
    for bench in data["benchmarks"]:
        backend = bench["params"]["backend"]
        groups.setdefault(bench["group"], {})[backend] = bench["stats"]["median"]
    backends = [b for b in ("python", "numba", "cython")
                if any(b in row for row in groups.values())]
    compiled = [b for b in backends if b != "python"]
    head = [first] + backends + ([f"{b} ×" for b in compiled] if "python" in backends else [])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for group, row in groups.items():
        cells = [task(group)] + [_number(row[b]) if b in row else "–" for b in backends]
        if "python" in backends:
            cells += [f"{row['python'] / row[b]:.0f}" if "python" in row and b in row else "–"
                      for b in compiled]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _partition_task(group: str) -> str:
    # "count 16 cards x20" -> "count 16"; "priced best 45 cards + 10 table melds x4" ->
    # "priced best 45 + 10 (4 instances)"
    match = re.fullmatch(r"(.*?) (\d+) cards( \+ \d+) table melds x(\d+)", group)
    if match:
        return f"{match.group(1)} {match.group(2)}{match.group(3)} ({match.group(4)} instances)"
    return re.sub(r" cards x\d+$", "", group)


def _cardset_task(group: str) -> str:
    # "cardset: counts_to_masks x200" -> "counts_to_masks (200 hands)"
    match = re.fullmatch(r"cardset: (\S+) x(\d+)", group)
    return f"`{match.group(1)}` ({match.group(2)} hands)" if match else group


# ---------------------------------------------------------------- the areas

@dataclass(frozen=True)
class Area:
    name: str
    title: str
    command: tuple[str, ...] = ()      # () : recorded, not regenerated
    recorded: str = ""                 # for a recorded area: where its figures come from
    pick: str = ""                     # keep only the output's table whose header starts so
    benchmark: Callable[[str], str] | None = None   # pytest-benchmark: the group -> first cell
    first: str = "task"
    minutes: str = ""                  # about how long the command runs

    @property
    def regenerated(self) -> bool:
        return bool(self.command)

    def shown(self, json_path: str = "BENCH.json") -> str:
        return " ".join(shlex.quote(part) for part in self.argv(json_path, PY))

    def argv(self, json_path: str, python: str = sys.executable) -> list[str]:
        return [python if part == "python" else part.replace("{json}", json_path)
                for part in self.command]


PYTEST = ("python", "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider",
          "--benchmark-only", "--benchmark-json={json}")

AREAS: tuple[Area, ...] = (
    Area("partition", "Partition kernels, per hand",
         ("python", "-m", "benchmarks.report"), minutes="1-2 min"),
    Area("partition-set", "Partition kernels, whole set",
         PYTEST + ("benchmarks/test_bench_partition.py",),
         benchmark=_partition_task, minutes="2-4 min"),
    Area("large-hands", "Large hands",
         recorded="a study: `biriba best` and `optimize_laydown` on seeded 45-card hands, "
                  "`partition.count` on numba; the optimizer and bounded tables carry the "
                  "45-card lay-down times that a script regenerates"),
    Area("optimizer", "Turn optimizer",
         ("python", "-m", "benchmarks.optimizer_report", "--sizes", "11", "20", "24", "30",
          "35", "40", "45", "--tables", "0", "5", "10", "--count", "12", "--repeat", "3"),
         minutes="5-10 min"),
    Area("optimizer-six", "Turn optimizer, six players",
         recorded="50-60 cards with six players, the optimizer report's measurement in a "
                  "script of its own (`benchmarks.optimizer_report` has no players option)"),
    Area("engine", "Game engine",
         ("python", "-m", "benchmarks.engine_report"), minutes="under 1 min"),
    Area("bounded", "Bounded time",
         ("python", "-m", "benchmarks.bounded_report"), minutes="2-3 min"),
    Area("sweep", "Rank-sweep states",
         ("python", "-m", "benchmarks.bounded_report", "--sweep"),
         pick="| cards | table melds | largest layer", minutes="5-10 min"),
    Area("lp-bound", "The linear-programme bound",
         recorded="a study of the root bound against CP-SAT's optimum on seeded "
                  "`random_instance(seed, 30 or 45, 10)`; no script prints it"),
    Area("compile", "Compiling and cold start",
         recorded="wall seconds from the shell: `biriba compile` in a fresh clone with an "
                  "empty NUMBA_CACHE_DIR, `farm-bench -n 5 -- biriba play --seed 1`, "
                  "`.ci/run` on a fresh clone; where the time goes per function: "
                  "`python -m benchmarks.compile_profile` (docs/compile.md)"),
    Area("search", "ISMCTS search speed",
         ("python", "-m", "benchmarks.search_report", "--positions", "20", "--openspiel", "40",
          "--infer", "0.8", "--markdown"), minutes="2-3 min; needs the openspiel extra"),
    Area("strength", "ISMCTS strength",
         recorded="duplicate-deal duels, `biriba duel ...` (hours each; commands in the "
                  "table)"),
    Area("search-options", "ISMCTS options",
         recorded="duels and speed runs per option (commands in the table)"),
    Area("yardstick", "The yardstick",
         ("python", "-m", "benchmarks.yardstick", "curve", "--markdown"), minutes="10-15 min"),
    Area("trust", "Trust: the one evaluation",
         recorded="the five runs of `python -m benchmarks.trust {stability,examples,"
                  "review-time,agreement,calibration}` (JSON summaries; 25 minutes to hours "
                  "each), composed by hand against the targets"),
    Area("analyzer", "The hand analyzer",
         recorded="the trust runs (`python -m benchmarks.trust examples`, `review-time`, "
                  "`agreement`) by command; the analyzer before that evaluation is in "
                  "JOURNAL.md (its script, benchmarks/analyzer_report.py, is removed)"),
    Area("web", "The web server",
         ("python", "-m", "benchmarks.web_report", "--markdown"), minutes="1-2 min"),
    Area("cardset", "Card-set operations",
         PYTEST + ("benchmarks/test_bench_cardset.py",),
         benchmark=_cardset_task, first="operation", minutes="under 1 min"),
)
BY_NAME = {area.name: area for area in AREAS}


# ---------------------------------------------------------------- running

def machine_line(area: Area) -> str:
    """The 'Measured on' line written inside a regenerated table's markers."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kib / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    from importlib import metadata

    versions = []
    for package in ("numpy", "numba", "Cython", "ortools"):
        try:
            versions.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            pass
    day = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    return (f"Measured on {model}, {os.cpu_count()} CPUs{memory}, Python "
            f"{platform.python_version()}, {', '.join(versions)}, {day}: "
            f"`python -m benchmarks.tables {area.name}`.")


def generate(area: Area) -> str:
    """Run the area's command; its figures as Markdown (without the machine line)."""
    with tempfile.TemporaryDirectory(prefix="biriba-tables-") as folder:
        path = os.path.join(folder, "bench.json")
        done = subprocess.run(area.argv(path), stdout=subprocess.PIPE, text=True,
                              cwd=Path(__file__).resolve().parent.parent)
        if done.returncode:
            raise RuntimeError(f"{area.shown()} exited with {done.returncode}:\n"
                               f"{done.stdout[-2000:]}")
        if area.benchmark:
            with open(path) as handle:
                return benchmark_table(json.load(handle), area.benchmark, area.first)
    markdown = as_markdown(done.stdout)
    return pick_table(markdown, area.pick) if area.pick else markdown


def regenerate(readme: Path, area: Area, run: Callable[[Area], str] = generate) -> None:
    text = readme.read_text()
    if area.name not in tables_in(text):
        raise MarkerError(f"{readme} has no table {area.name!r}")
    table = machine_line(area) + "\n\n" + run(area)
    readme.write_text(replace_table(readme.read_text(), area.name, table))


def listing() -> str:
    lines = []
    for area in AREAS:
        if area.regenerated:
            lines.append(f"{area.name:15} {area.shown()}  [{area.minutes}]")
        else:
            lines.append(f"{area.name:15} recorded, not regenerated: {area.recorded}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tables",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("areas", nargs="*", metavar="AREA",
                        help="the areas to regenerate (default: every regenerated area)")
    parser.add_argument("--list", action="store_true", help="print the areas and commands")
    parser.add_argument("--dry-run", action="store_true", help="print what would run")
    parser.add_argument("--readme", type=Path, default=README,
                        help="the file whose tables to replace (default: benchmarks/README.md)")
    args = parser.parse_args(argv)
    if args.list:
        print(listing())
        return 0
    unknown = [name for name in args.areas if name not in BY_NAME]
    if unknown:
        parser.error(f"unknown area(s) {', '.join(unknown)}; --list names them")
    chosen = [BY_NAME[name] for name in args.areas] if args.areas else list(AREAS)
    try:
        marked = tables_in(args.readme.read_text())
    except MarkerError as error:
        print(f"{args.readme}: {error}", file=sys.stderr)
        return 1
    failed = 0
    for area in chosen:
        if not area.regenerated:
            print(f"{area.name}: recorded, not regenerated: {area.recorded}")
            continue
        if area.name not in marked:
            print(f"{area.name}: {args.readme} has no {OPEN.format(name=area.name)} marker",
                  file=sys.stderr)
            failed += 1
            continue
        if args.dry_run:
            print(f"{area.name}: would run {area.shown()} and replace its table in "
                  f"{args.readme}")
            continue
        print(f"{area.name}: running {area.shown()}", file=sys.stderr, flush=True)
        try:
            regenerate(args.readme, area)
        except (RuntimeError, ValueError, OSError) as error:
            print(f"{area.name}: table left as it was: {error}", file=sys.stderr)
            failed += 1
            continue
        print(f"{area.name}: table replaced in {args.readme}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
