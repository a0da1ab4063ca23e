"""Traced algorithms, one module per family; each module exposes ``TRACES``.

See :mod:`refbench.tracing`.
"""
