"""Compiled functions that are compiled once and called through a symbol.

numba finishes every compiled function as a library of its own: it links the
finished libraries of the functions it calls into the function's module, then
optimizes the whole result and emits its machine code again. A function deep
in a call chain is therefore optimized and emitted once for every compiled
function above it: the lay-down search below the engine's legal moves, the
greedy player and the search, the engine below the search.

A *linked* function (:func:`linked`) is compiled once, into a C-callable entry
(a numba ``cfunc``, cached on disk like every other function). Compiled code
that calls it holds only a small call stub: the stub stores the arguments in
numba's own data layout, reads the entry's address from a *cell* (an 8-byte
word of this process, published to the JIT linker under a fixed symbol name,
so cached machine code finds it again in the next process) and calls it. The
entry is compiled, or loaded from the on-disk cache, at its first call: the
cell is then still 0 and the stub asks :func:`_resolve` (a C callback into
Python) for the address.

A linked function is declared with its signature, since its callers are
compiled without it; an argument of another array layout or integer width is
cast to the declared type where numba can (C-contiguous to any layout, int32 to
int64) and refused at compile time otherwise. An exception raised inside it
comes out of the stub as ``RuntimeError`` naming the function. With
``NUMBA_DISABLE_JIT=1`` a linked function is the plain Python function.

The price is one indirect call and the arguments' reference counts per call
(tens of nanoseconds) and no inlining across the boundary: it is meant for
functions that work for microseconds, not for the small helpers of a hot loop.
"""

from __future__ import annotations

import builtins
import ctypes
import inspect
import sys
import traceback
import types as pytypes

import llvmlite.binding as llvm
import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.errors import TypingError
from numba.extending import intrinsic


DISABLED = bool(numba.config.DISABLE_JIT)

_ENTRY_TYPE = types.int64(types.voidptr, types.voidptr)   # an entry's C signature
_by_cell: dict[int, "Linked"] = {}


def _resolve(cell_address: int) -> int:
    """The C callback a stub calls when its cell is still 0: compile or load the entry."""
    try:
        return _by_cell[cell_address].resolve()
    except BaseException:     # a C callback must not raise: the stub reports the failure
        traceback.print_exc(file=sys.stderr)
        return 0


_RESOLVER = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64)(_resolve)
RESOLVE_SYMBOL = "biriba_link_resolve"


class Linked:
    """One linked function: its body, its signature, its cell and its compiled entry."""

    def __init__(self, function, signature, borrow=None):
        self.function = function
        self.signature = signature
        # the arrays passed in are borrowed (no reference counting across the call) where
        # nothing returned can be one of them: an answer without arrays, or ``borrow``
        self.borrow = not _holds_array(signature.return_type) if borrow is None else borrow
        self.name = f"{function.__module__}.{function.__qualname__}"
        self.symbol = "biriba_link__" + self.name.replace(".", "__")
        self.cell = np.zeros(1, dtype=np.int64)
        self.entry = None
        _by_cell[self.cell.ctypes.data] = self
        llvm.add_symbol(self.symbol, self.cell.ctypes.data)
        self.body = _njit_named(function, f"{function.__qualname__}__body")
        self.stub = self._make_stub()

    def resolve(self) -> int:
        if self.entry is None:
            names = [f"a{i}" for i in range(len(self.signature.args))]
            unpacked = ", ".join(names) + ("," if len(names) == 1 else "")
            # an exception in the body makes numba's C wrapper print it and return 0
            source = ("def entry(arguments, result):\n"
                      f"    {unpacked} = _load(arguments)\n"
                      f"    _store(result, _body({', '.join(names)}))\n"
                      "    return 1\n")
            entry = self._generated(source, "entry", f"{self.function.__qualname__}__entry",
                                    {"_body": self.body, "_load": _loader(self.signature.args),
                                     "_store": _storer(self.signature.return_type)})
            self.entry = numba.cfunc(_ENTRY_TYPE, cache=True)(entry)
            self.cell[0] = self.entry.address
        return int(self.cell[0])

    def _make_stub(self):
        parameters = inspect.signature(self.function).parameters
        if any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
               for p in parameters.values()):
            raise TypeError(f"{self.name}: a linked function takes positional parameters only")
        if len(parameters) != len(self.signature.args):
            raise TypeError(f"{self.name}: {len(parameters)} parameters, "
                            f"{len(self.signature.args)} types declared")
        names = list(parameters)
        source = (f"def {self.function.__name__}({', '.join(names)}):\n"
                  f"    status, value = _call(({', '.join(names)},))\n"
                  f"    if status != 1:\n"
                  f"        raise RuntimeError('{self.name} failed: its exception is printed"
                  f" above')\n"
                  f"    return value\n")
        stub = self._generated(source, self.function.__name__, self.function.__qualname__,
                               {"_call": _caller(self)})
        stub.__defaults__ = self.function.__defaults__
        stub.__doc__ = self.function.__doc__
        from kernels.jit import njit

        dispatcher = njit(stub)
        dispatcher.linked = self
        return dispatcher

    def _generated(self, source, name, qualname, names):
        """The function ``name`` defined by ``source``, as if written in the linked
        function's file at its first line (numba caches a function by file, qualified name
        and line), with ``names`` as its globals."""
        namespace = dict(names, __builtins__=builtins)
        exec(compile(source, inspect.getfile(self.function), "exec"), namespace)  # noqa: S102
        function = namespace[name]
        code = function.__code__.replace(co_firstlineno=self.function.__code__.co_firstlineno)
        if hasattr(code, "co_qualname"):
            code = code.replace(co_qualname=qualname)
        function.__code__ = code
        function.__qualname__ = qualname
        function.__module__ = self.function.__module__
        return function


def _njit_named(function, qualname):
    from kernels.jit import njit

    clone = pytypes.FunctionType(function.__code__, function.__globals__, function.__name__,
                                 function.__defaults__, function.__closure__)
    clone.__qualname__ = qualname
    clone.__module__ = function.__module__
    clone.__doc__ = function.__doc__
    return njit(clone)


def prepare(*functions) -> None:
    """Compile (or load from the cache) the entries of linked ``functions`` now, and their
    stubs for calls from Python with the declared types, without calling them: what
    ``biriba compile`` does for each part's linked functions."""
    for function in functions:
        if not DISABLED:
            function.linked.resolve()
            function.compile(function.linked.signature.args)


def linked(signature, borrow=None):
    """Declare a compiled function that is compiled once and reached through a symbol.

    ``signature`` is a numba signature, ``return_type(arg_type, ...)``. The decorated name
    is a compiled function (callable from Python and from compiled code) with the same
    parameters and defaults; its body compiles at its first call. ``borrow=True`` says that
    the arrays it returns are always new ones, never an argument or a view of one: its
    arguments then cross without reference counting, as they do for a function that
    returns no array.
    """
    def wrap(function):
        if DISABLED:
            return function
        return Linked(function, signature, borrow).stub

    return wrap


# --- the intrinsics: numba's data layout in, numba's data layout out ---------------------

def _holds_array(typ) -> bool:
    if isinstance(typ, types.Array):
        return True
    return isinstance(typ, types.BaseTuple) and any(_holds_array(t) for t in typ.types)


def _borrowed(context, builder, typ, value):
    """``value`` with every array's owner (its meminfo) cleared: numba's reference
    counting skips an array without one, and the caller's own reference keeps the array
    alive for the call."""
    if isinstance(typ, types.Array):
        array = context.make_array(typ)(context, builder, value=value)
        array.meminfo = cgutils.get_null_value(array.meminfo.type)
        return array._getvalue()
    if isinstance(typ, types.BaseTuple) and _holds_array(typ):
        for index, inner in enumerate(typ.types):
            item = builder.extract_value(value, index)
            value = builder.insert_value(value, _borrowed(context, builder, inner, item), index)
    return value


def _packed(argument_types):
    return types.Tuple(tuple(argument_types))


def _loader(argument_types):
    """An intrinsic reading the arguments' tuple from an entry's ``arguments`` pointer."""
    tuple_type = _packed(argument_types)

    @intrinsic
    def load(typingctx, address):
        def codegen(context, builder, signature, args):
            model = context.data_model_manager[tuple_type]
            pointer = builder.bitcast(args[0], model.get_data_type().as_pointer())
            value = model.from_data(builder, builder.load(pointer))
            context.nrt.incref(builder, tuple_type, value)
            return value
        return tuple_type(types.voidptr), codegen
    return load


def _storer(return_type):
    """An intrinsic writing an entry's answer to its ``result`` pointer."""
    @intrinsic
    def store(typingctx, address, value):
        if not typingctx.can_convert(value, return_type):
            raise TypingError(f"a linked function returns {value}, declared {return_type}")

        def codegen(context, builder, signature, args):
            model = context.data_model_manager[return_type]
            result = context.cast(builder, args[1], signature.args[1], return_type)
            pointer = builder.bitcast(args[0], model.get_data_type().as_pointer())
            builder.store(model.as_data(builder, result), pointer)
            context.nrt.incref(builder, return_type, result)
            return context.get_dummy_value()
        return types.none(types.voidptr, value), codegen
    return store


def _caller(linked_function):
    """An intrinsic calling ``linked_function``'s entry through its cell: (status, value)."""
    declared = linked_function.signature.args
    return_type = linked_function.signature.return_type
    tuple_type = _packed(declared)
    answer = types.Tuple((types.int64, return_type))
    symbol = linked_function.symbol

    @intrinsic
    def call(typingctx, arguments):
        given = arguments.types
        for position, (have, want) in enumerate(zip(given, declared)):
            if have != want and typingctx.can_convert(have, want) is None:
                raise TypingError(f"{linked_function.name}: argument {position + 1} is "
                                  f"{have}, declared {want}")

        def codegen(context, builder, signature, args):
            word = ir.IntType(64)
            items = cgutils.unpack_tuple(builder, args[0], len(given))
            cast = [context.cast(builder, v, have, want)
                    for v, have, want in zip(items, given, declared)]
            if linked_function.borrow:
                cast = [_borrowed(context, builder, want, v) for v, want in zip(cast, declared)]
            in_model = context.data_model_manager[tuple_type]
            out_model = context.data_model_manager[return_type]
            packed_in = cgutils.alloca_once(builder, in_model.get_data_type())
            builder.store(in_model.as_data(builder, context.make_tuple(
                builder, tuple_type, cast)), packed_in)
            packed_out = cgutils.alloca_once(builder, out_model.get_data_type())
            builder.store(cgutils.get_null_value(out_model.get_data_type()), packed_out)
            module = builder.module
            cell = module.globals.get(symbol)
            if cell is None:
                cell = ir.GlobalVariable(module, word, name=symbol)
                cell.linkage = "external"
            resolve = cgutils.get_or_insert_function(
                module, ir.FunctionType(word, [word]), RESOLVE_SYMBOL)
            address = cgutils.alloca_once(builder, word)
            builder.store(builder.load(cell), address)
            with builder.if_then(builder.icmp_unsigned(
                    "==", builder.load(address), word(0)), likely=False):
                builder.store(builder.call(resolve, [builder.ptrtoint(cell, word)]), address)
            status = cgutils.alloca_once_value(builder, word(0))
            entry_type = ir.FunctionType(word, [cgutils.voidptr_t, cgutils.voidptr_t])
            target = builder.load(address)
            with builder.if_then(builder.icmp_unsigned("!=", target, word(0)), likely=True):
                entry = builder.inttoptr(target, entry_type.as_pointer())
                builder.store(builder.call(entry, [
                    builder.bitcast(packed_in, cgutils.voidptr_t),
                    builder.bitcast(packed_out, cgutils.voidptr_t)]), status)
            value = out_model.from_data(builder, builder.load(packed_out))
            return context.make_tuple(builder, answer, [builder.load(status), value])
        return answer(arguments), codegen
    return call


if not DISABLED:
    llvm.add_symbol(RESOLVE_SYMBOL, ctypes.cast(_RESOLVER, ctypes.c_void_p).value)
