"""Subcommands of ``refbench``, one module each, discovered by :mod:`refbench.cli`."""
