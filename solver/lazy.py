"""Names a package hands on but loads at first use (PEP 562 module ``__getattr__``)."""

from __future__ import annotations

import importlib


def lazy_names(package: dict, table: dict[str, tuple[str, str]]):
    """The ``__getattr__`` and ``__dir__`` of the package whose globals are ``package``:
    ``table`` maps a public name to its (module, attribute), imported when first asked for
    and kept in the package's globals afterwards."""
    name_of_package = package["__name__"]

    def __getattr__(name):
        if name not in table:
            raise AttributeError(f"module {name_of_package!r} has no attribute {name!r}")
        module, attribute = table[name]
        value = getattr(importlib.import_module(module), attribute)
        package[name] = value
        return value

    def __dir__():
        return sorted(package["__all__"])

    return __getattr__, __dir__
