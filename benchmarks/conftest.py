"""Benchmarks: fixed seeds, every backend side by side. Run with

    python -m pytest benchmarks -o addopts="" --benchmark-columns=median,mean,rounds
"""
