"""The project's numba decorator: ``njit`` compiles one signature where numba would compile many.

numba types a constant that one compiled function passes to another as a
literal (``Literal[int](0)``, ``Literal[bool](True)``) and compiles the callee
again for every such constant: a caller that passes ``mode=0`` and one that
passes ``mode=1`` cost two compilations of the callee and of everything it
calls, each optimized over its whole call tree. :func:`njit` makes
dispatchers that type such arguments as plain ``int64`` or ``bool``, so a
function is compiled once for every caller; only a function that cannot be
typed without the literal (a tuple indexed by it, say) falls back to numba's
literal compile.

Every compiled function of the project is declared with this ``njit``
(cached on disk, ``cache=True`` by default).

The first call from Python that has to compile (no machine code cached on disk
for the function) warns once per process with :class:`CompileWarning`, saying
what compiles and about how long it takes; the engine installs the text with
:func:`set_first_compile_note` (``biriba compile`` compiles the engine ahead).
"""

from __future__ import annotations

import os
import warnings

import numba
from numba.core import errors, types, typing
from numba.core.registry import CPUDispatcher


class CompileWarning(UserWarning):
    """numba is about to compile project code at its first use (minutes, not milliseconds)."""


_warned = False
_note = None


def set_first_compile_note(note) -> None:
    """``note(module_name, function_name) -> str | None``: the text of the first-compile
    warning for a function of that module (None: the generic text)."""
    global _note
    _note = note


def _announce(dispatcher) -> None:
    global _warned
    cache_file = getattr(dispatcher._cache, "_cache_file", None)
    index = getattr(cache_file, "_index_path", None)
    if _warned or index is None or os.path.exists(index):
        return
    _warned = True
    module, name = dispatcher.py_func.__module__, dispatcher.py_func.__qualname__
    text = _note(module, name) if _note is not None else None
    warnings.warn(text or (f"numba compiles {module}.{name} and the functions it calls at "
                           "this first call (seconds to minutes; the machine code is cached "
                           "on disk for later runs)"), CompileWarning, stacklevel=4)


def _plain(argument):
    return types.unliteral(argument)


class PlainDispatcher(CPUDispatcher):
    """A CPU dispatcher whose calls from compiled code never specialize on literals."""

    def get_call_template(self, args, kws):
        pysig, folded = self._compiler.fold_argument_types(args, kws)
        plain = tuple(_plain(a) for a in folded)
        chosen = plain
        if self._can_compile:
            try:
                self.compile(plain)
            except errors.TypingError:
                if plain == tuple(folded):
                    raise
                self.compile(tuple(folded))      # the literal is needed to type it
                chosen = tuple(folded)
        template = typing.make_concrete_template(
            f"CallTemplate({self.py_func.__name__})", key=self.py_func.__name__,
            signatures=self.nopython_signatures)
        return template, pysig, chosen, {}

    def _compile_for_args(self, *args, **kws):
        _announce(self)
        return super()._compile_for_args(*args, **kws)


def njit(function=None, *, specialize: bool = False, **options):
    """``numba.njit`` with ``cache=True`` and literal-free calls between compiled functions.

    Used as ``@njit`` or ``@njit(inline="always")``; with ``NUMBA_DISABLE_JIT=1`` the
    function stays plain Python. ``specialize=True`` keeps numba's compile per constant
    for a hot function whose constants fold into faster code (the lay-down search's
    ``mode``), at the price of a compile each.
    """
    options.setdefault("cache", True)

    def wrap(fn):
        dispatcher = numba.njit(**options)(fn)
        if isinstance(dispatcher, CPUDispatcher) and not specialize:
            dispatcher.__class__ = PlainDispatcher
        return dispatcher

    return wrap(function) if function is not None else wrap
