"""Where numba's compile time goes, per function and per signature.

    python -m benchmarks.compile_profile [--parts kernels,rules,...] [--json FILE] [--top 20]

Runs ``biriba compile``'s parts in this process with a cold, temporary
``NUMBA_CACHE_DIR`` and attributes every second of compiling to the function
being compiled, *exclusive* of the callees it compiles on the way (numba
compiles a callee while it types the caller). Each function's time is split
into numba's passes (type inference, lowering, the rest) and, inside
lowering, LLVM's work: the per-function passes, the module passes run over the
function's whole linked call tree (numba links each callee's finished module
into its caller and optimizes the result again), and machine-code emission.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import defaultdict


def _install(stats):
    """Hook numba's compile events and LLVM steps; return nothing, fill ``stats``."""
    from numba.core import codegen, event

    stack = []   # frames: [key, started, child_seconds]

    def _key(dispatcher):
        fn = dispatcher.py_func
        module = fn.__module__ or "?"
        return f"{module}.{fn.__qualname__}"

    class Compile(event.Listener):
        def on_start(self, ev):
            stack.append([("compile", _key(ev.data["dispatcher"])), time.perf_counter(), 0.0])

        def on_end(self, ev):
            key, started, children = stack.pop()
            total = time.perf_counter() - started
            entry = stats[key[1]]
            entry["signatures"].append(str(ev.data["args"]))
            entry["inclusive"] += total
            entry["exclusive"] += total - children
            if stack:
                stack[-1][2] += total     # a nested compile counts against every frame above

    class Pass(event.Listener):
        def on_start(self, ev):
            stack.append([("pass", ev.data["name"].split(" [")[0]), time.perf_counter(), 0.0])

        def on_end(self, ev):
            key, started, children = stack.pop()
            total = time.perf_counter() - started
            owner = next((f[0][1] for f in reversed(stack) if f[0][0] == "compile"), None)
            if owner is not None:
                stats[owner]["passes"][key[1]] += total - children
            if stack:
                stack[-1][2] += children  # only nested compiles leave the frames above

    from kernels import link

    resolve = link.Linked.resolve

    def resolve_timed(self):
        if self.entry is not None:
            return resolve(self)
        stack.append([("compile", f"{self.name} (linked entry)"), time.perf_counter(), 0.0])
        try:
            return resolve(self)
        finally:
            key, started, children = stack.pop()
            total = time.perf_counter() - started
            entry = stats[key[1]]
            entry["signatures"].append("entry")
            entry["inclusive"] += total
            entry["exclusive"] += total - children
            if stack:
                stack[-1][2] += total

    link.Linked.resolve = resolve_timed
    event.register("numba:compile", Compile())
    event.register("numba:run_pass", Pass())

    def timed(name, original):
        def wrapper(self, *args, **kwargs):
            stack.append([("llvm", name), time.perf_counter(), 0.0, 0.0])
            try:
                return original(self, *args, **kwargs)
            finally:
                key, started, children, inner = stack.pop()
                total = time.perf_counter() - started
                owner = next((f[0][1] for f in reversed(stack) if f[0][0] == "compile"), None)
                if owner is not None:
                    stats[owner]["llvm"][name] += total - children - inner
                if stack:
                    stack[-1][2] += children
                    if stack[-1][0][0] == "llvm":
                        stack[-1][3] += total - children   # LLVM steps nest in finalize
        return wrapper

    library = codegen.CPUCodeLibrary
    library._optimize_functions = timed("function passes", library._optimize_functions)
    library._optimize_final_module = timed("module passes", library._optimize_final_module)
    library.finalize = timed("linking", library.finalize)
    library.serialize_using_object_code = timed("cache write",
                                                library.serialize_using_object_code)
    jit = codegen.JITCodeLibrary
    jit._finalize_specific = timed("machine code", jit._finalize_specific)


def _new_entry():
    return {"signatures": [], "inclusive": 0.0, "exclusive": 0.0,
            "passes": defaultdict(float), "llvm": defaultdict(float)}


def profile(parts):
    """Compile ``parts`` cold and return (per-part seconds, per-function stats)."""
    stats = defaultdict(_new_entry)
    _install(stats)
    from analysis import warm

    seconds = {}
    for part in parts:
        started = time.perf_counter()
        warm._compile(part)
        seconds[part] = time.perf_counter() - started
        print(f"{part}: {seconds[part]:.1f} s", file=sys.stderr, flush=True)
    return seconds, stats


def rows(stats):
    out = []
    for name, entry in stats.items():
        passes = entry["passes"]
        typing = passes.get("nopython_type_inference", 0.0)
        lowering = passes.get("native_lowering", 0.0)
        llvm = dict(entry["llvm"])
        out.append({
            "function": name,
            "signatures": len(entry["signatures"]),
            "signature_list": sorted(set(entry["signatures"])),
            "exclusive": entry["exclusive"],
            "inclusive": entry["inclusive"],
            "typing": typing,
            "lowering": lowering,
            "other_passes": sum(passes.values()) - typing - lowering,
            "function_passes": llvm.get("function passes", 0.0),
            "module_passes": llvm.get("module passes", 0.0),
            "machine_code": llvm.get("machine code", 0.0),
            "linking": llvm.get("linking", 0.0),
            "cache_write": llvm.get("cache write", 0.0),
        })
    out.sort(key=lambda row: -row["exclusive"])
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="kernels,rules,greedy,priced,search,playout")
    parser.add_argument("--json", help="write every function's figures to this file")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args(argv)
    if not os.environ.get("NUMBA_CACHE_DIR"):
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="biriba-cold-cache-")
    started = time.perf_counter()
    seconds, stats = profile(args.parts.split(","))
    wall = time.perf_counter() - started
    table = rows(stats)
    total = sum(row["exclusive"] for row in table)
    sums = {k: sum(row[k] for row in table) for k in
            ("typing", "lowering", "other_passes", "function_passes", "module_passes",
             "machine_code", "linking", "cache_write")}
    print(f"\nwall {wall:.1f} s; {len(table)} functions, "
          f"{sum(r['signatures'] for r in table)} signatures; compile time attributed {total:.1f} s")
    print("parts: " + ", ".join(f"{p} {s:.1f} s" for p, s in seconds.items()))
    print("split: " + ", ".join(f"{k} {v:.1f} s" for k, v in sums.items()))
    print(f"\n| function | sigs | exclusive s | typing | lowering | of which LLVM module"
          f" | machine code |")
    print("|---|---|---|---|---|---|---|")
    for row in table[:args.top]:
        print(f"| `{row['function']}` | {row['signatures']} | {row['exclusive']:.2f} | "
              f"{row['typing']:.2f} | {row['lowering']:.2f} | {row['module_passes']:.2f} | "
              f"{row['machine_code']:.2f} |")
    multi = [r for r in table if len(r["signature_list"]) > 1]
    if multi:
        print("\nfunctions compiled for more than one signature:")
        for row in multi:
            print(f"  {row['function']}: " + " | ".join(row["signature_list"]))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"wall": wall, "parts": seconds, "functions": table}, handle, indent=1)


if __name__ == "__main__":
    main()
