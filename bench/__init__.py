"""Benchmarks run by `make bench`; each module exposes run() -> list of printed lines."""
