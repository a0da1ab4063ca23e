"""Vector suites, one module per algorithm family; each module exposes ``SUITES``.

See :mod:`refbench.verification` for the registry.
"""
