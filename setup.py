"""Builds the Cython extension modules of ``kernels/``; metadata is in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

EXTENSIONS = [
    Extension("kernels._cardset", ["kernels/_cardset.pyx"], extra_compile_args=["-O3"]),
    Extension(
        "kernels._partition",
        ["kernels/_partition.pyx"],
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
