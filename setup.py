"""Builds the Cython extension modules of ``kernels/``; metadata is in pyproject.toml.

``kernels._partition`` is one extension compiled from ``kernels/_partition.pyx`` and the
``kernels/_*.pxi`` parts it includes: cythonize regenerates the C++ when any of them
changes, and ``depends`` names them for the build and the source distribution.
"""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
PARTITION_PARTS = sorted(path.relative_to(HERE).as_posix()
                         for path in (HERE / "kernels").glob("_*.pxi"))

EXTENSIONS = [
    Extension("kernels._cardset", ["kernels/_cardset.pyx"], extra_compile_args=["-O3"]),
    Extension(
        "kernels._partition",
        ["kernels/_partition.pyx"],
        depends=PARTITION_PARTS,
        language="c++",
        extra_compile_args=["-O3"],
    ),
]

setup(
    ext_modules=cythonize(
        EXTENSIONS,
        compiler_directives={"language_level": "3", "boundscheck": False, "wraparound": False},
    ),
)
