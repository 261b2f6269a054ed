"""Keeping numba's on-disk cache honest, one module at a time.

numba checks a cached function against its own source file only. But the
machine code of a compiled function holds the code of every compiled function
it calls, from other modules too: after an edit of ``discard.py`` the cached
``legal_actions`` of ``turn.py`` would still run the old discard rule.

So every module of the project that holds numba functions gets a *closure
digest*: a hash of its own code (its syntax tree without docstrings, so comments,
docstrings and layout do not count) and of the closure digests of the project modules
it imports. When a module's closure digest differs from the one recorded beside
its cache, that module's cached functions are deleted, and only they are compiled
again: an edit of ``discard.py`` recompiles ``discard.py`` and the modules that import it,
directly or not, and leaves ``basics.py``, ``deal.py`` and the kernels alone.

:func:`refresh` runs once, when :mod:`kernels` is imported, before any numba
function is loaded.
"""

from __future__ import annotations

import ast
import glob
import hashlib
import json
import os
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("kernels", "solver", "analysis")
STAMP = "biriba-closure-digests.json"
MARKERS = (b"njit", b"@linked")   # a module compiles with either (kernels.jit, kernels.link)


def _declares(text: bytes) -> bool:
    return any(marker in text for marker in MARKERS)


def project_files(root: str = ROOT) -> list[str]:
    """The project's source files (of PACKAGES), sorted."""
    found = []
    for package in PACKAGES:
        for folder, _, files in os.walk(os.path.join(root, package)):
            found.extend(os.path.join(folder, name) for name in files if name.endswith(".py"))
    return sorted(found)


def numba_modules(root: str = ROOT) -> list[str]:
    """The project's source files that declare (or define) ``njit`` or linked functions,
    sorted."""
    found = []
    for path in project_files(root):
        if path == os.path.abspath(__file__):
            continue          # mentions njit, compiles nothing
        try:
            with open(path, "rb") as handle:
                text = handle.read()
        except OSError:
            continue
        if _declares(text):
            found.append(path)
    return found


def _module_file(name: str, root: str) -> str | None:
    """The file of module ``name`` under ``root``; a package's ``__init__.py`` only when it
    defines compiled functions itself (a package that merely groups modules, or sets
    things up at import, adds nothing to its modules' machine code)."""
    base = os.path.join(root, *name.split("."))
    if os.path.isfile(base + ".py"):
        return base + ".py"
    init = os.path.join(base, "__init__.py")
    try:
        with open(init, "rb") as handle:
            return init if _declares(handle.read()) else None
    except OSError:
        return None


def imports_of(tree: ast.AST, root: str = ROOT) -> set[str]:
    """The project files a parsed module imports (``from a.b import c`` counts ``a/b/c.py``
    when c is a module, ``a/b.py``, and ``a/b/__init__.py`` when it defines compiled
    functions or hands on a name ``c`` that is not a module of its own)."""
    found = set()
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            if node.module.split(".")[0] in PACKAGES:
                faces = [alias.name for alias in node.names
                         if _module_file(f"{node.module}.{alias.name}", root) is None]
                init = os.path.join(root, *node.module.split("."), "__init__.py")
                if faces and os.path.isfile(init):
                    found.add(init)        # a name a package's face hands on from its modules
        for name in names:
            if name.split(".")[0] not in PACKAGES:
                continue
            path = _module_file(name, root)
            if path is not None:
                found.add(path)
    return found


def _without_docstrings(tree: ast.AST) -> ast.AST:
    """``tree`` with the docstrings of its module, classes and functions left out: text
    that no machine code holds (comments are not in the tree at all)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return tree


class Digests:
    """Closure digests of the project's modules, each computed once."""

    def __init__(self, root: str = ROOT):
        self.root = root
        self._trees: dict[str, tuple[str, set[str]]] = {}
        self._closure: dict[str, str] = {}

    def _own(self, path: str) -> tuple[str, set[str]]:
        if path not in self._trees:
            with open(path, "rb") as handle:
                source = handle.read()
            try:
                tree = ast.parse(source)
                text = ast.dump(_without_docstrings(tree))
                deps = imports_of(tree, self.root) - {path}
            except SyntaxError:          # numba will say what is wrong; hash the bytes
                text, deps = source.hex(), set()
            self._trees[path] = (hashlib.blake2b(text.encode(), digest_size=16).hexdigest(),
                                 deps)
        return self._trees[path]

    def reachable(self, path: str) -> set[str]:
        """``path`` and every project module it imports, directly or not."""
        seen, todo = {path}, [path]
        while todo:
            for dep in self._own(todo.pop())[1]:
                if dep not in seen:
                    seen.add(dep)
                    todo.append(dep)
        return seen

    def closure(self, path: str) -> str:
        """The digest of ``path``'s code and of everything it imports from the project."""
        if path not in self._closure:
            digest = hashlib.blake2b(digest_size=16)
            for member in sorted(self.reachable(path)):
                digest.update(os.path.relpath(member, self.root).encode())
                digest.update(self._own(member)[0].encode())
            self._closure[path] = digest.hexdigest()
        return self._closure[path]


def cache_dir(path: str) -> str:
    """Where numba caches the functions of the source file ``path`` (numba's own rule:
    ``NUMBA_CACHE_DIR`` if set, else ``__pycache__`` beside the source)."""
    user = os.environ.get("NUMBA_CACHE_DIR")
    folder = os.path.dirname(os.path.abspath(path))
    if user:
        hashed = hashlib.sha1(folder.encode()).hexdigest()
        return os.path.join(user, f"{os.path.basename(folder)}_{hashed}")
    return os.path.join(folder, "__pycache__")


def _read(path: str) -> dict:
    try:
        with open(path) as handle:
            value = json.load(handle)
        return value if isinstance(value, dict) else {}
    except (OSError, ValueError):
        return {}


def _write(path: str, value: dict) -> None:
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".biriba-digests-")
        with os.fdopen(handle, "w") as out:
            json.dump(value, out, indent=0, sort_keys=True)
        os.replace(temporary, path)
    except OSError:
        pass     # a read-only cache: numba cannot write there either


def cached_files(folder: str, module: str) -> list[str]:
    """numba's cache files of one module (``<module>.<function>-<line>.py311.nbi/.nbc``)."""
    pattern = os.path.join(glob.escape(folder), glob.escape(module) + ".*.nb[ic]")
    return glob.glob(pattern)


def _quick_key(paths: list[str]) -> str:
    """Changes whenever one of ``paths`` is edited, touched, added or removed (stat
    only)."""
    key = hashlib.blake2b(digest_size=16)
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            continue
        key.update(f"{path}\0{info.st_mtime_ns}\0{info.st_size}\0".encode())
    return key.hexdigest()


def _ledger(root: str) -> str:
    return os.path.join(cache_dir(os.path.join(root, "kernels", "__init__.py")), STAMP)


def refresh(root: str = ROOT) -> list[str]:
    """Delete the cached functions of every module whose closure digest changed.

    Returns the modules (paths) whose cache was dropped. When no project file changed
    since the last call (same sizes and times), it only stats the files. Never
    raises for an unreadable or read-only cache.
    """
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return []
    ledger = _ledger(root)
    quick = _quick_key(project_files(root))   # every file: a module without numba
    if _read(ledger).get("quick") == quick:   # functions can hold their constants
        return []
    paths = numba_modules(root)
    digests = Digests(root)
    dropped = []
    by_folder: dict[str, list[str]] = {}
    for path in paths:
        by_folder.setdefault(cache_dir(path), []).append(path)
    for folder, members in by_folder.items():
        stamp = os.path.join(folder, STAMP)
        recorded = _read(stamp)
        current = dict(recorded)
        for path in members:
            module = os.path.splitext(os.path.basename(path))[0]
            try:
                digest = digests.closure(path)
            except OSError:
                continue
            if recorded.get(module) == digest:
                continue
            stale = cached_files(folder, module)
            for name in stale:
                try:
                    os.remove(name)
                except OSError:
                    pass
            if stale:
                dropped.append(path)
            current[module] = digest
        if folder == os.path.dirname(ledger):
            current["quick"] = quick
            current["project"] = _project(digests, paths)
        if current != recorded:
            _write(stamp, current)
    if os.path.dirname(ledger) not in by_folder:
        _write(ledger, {"quick": quick, "project": _project(digests, paths)})
    return dropped


def _project(digests: Digests, paths: list[str]) -> str:
    total = hashlib.blake2b(digest_size=16)
    for path in paths:
        total.update(digests.closure(path).encode())
    return total.hexdigest()


def source_key(root: str = ROOT) -> str:
    """Changes whenever a numba module's file changes on disk (stat only), as numba's own
    check of a cached function does: a comment edit or a touch changes it, while the
    closure digests (and so the dependents' caches) stay."""
    return _quick_key(numba_modules(root))


def project_digest(root: str = ROOT) -> str:
    """One digest of every numba module's closure (what ``biriba compile``'s stamps name);
    read from the ledger that :func:`refresh` keeps, computed when it is missing."""
    recorded = _read(_ledger(root)).get("project")
    if isinstance(recorded, str):
        return recorded
    return _project(Digests(root), numba_modules(root))
