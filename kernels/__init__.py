"""Numbers in, numbers out: card encodings and compiled kernels.

Nothing in this package knows about Python card objects or rule-set objects;
it works on small ints and numpy arrays (see :mod:`kernels.encoding`).
"""
