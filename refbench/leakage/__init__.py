"""Leakage analysis in emulation: does a kernel's secret reach its timing, its data addresses or
its branches on a given core and board? See ``README.md`` in this folder and :mod:`refbench.leakage.check`."""
