"""What a person uses: the ``biriba`` command line, the analyzer, the review and the coach.

The public Python API is importable from here::

    from analysis import analyze, load_position, review

Names load on first use, so ``import analysis`` stays light.
"""

from solver.lazy import lazy_names

# name -> (module, attribute): loaded when first asked for
_LAZY = {
    "Position": ("analysis.analyzer", "Position"),
    "analyze": ("analysis.analyzer", "analyze"),
    "build_state": ("analysis.analyzer", "build_state"),
    "load_position": ("analysis.analyzer", "load_position"),
    "position_of_record": ("analysis.analyzer", "position_of_record"),
    "review": ("analysis.reviewer", "review"),
    "coach": ("analysis.reviewer", "coach"),
    "simulate": ("analysis.simulation", "simulate"),
    "duel": ("analysis.duels", "duel"),
    "compile_engine": ("analysis.warm", "compile_engine"),
}

__all__ = list(_LAZY)


__getattr__, __dir__ = lazy_names(globals(), _LAZY)
