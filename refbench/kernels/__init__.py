"""Cortex-M kernels in freestanding C, one family per folder, variants by sub-folder.

See :mod:`refbench.kernels.catalog` for the manifest (``kernel.toml``) format.
"""
