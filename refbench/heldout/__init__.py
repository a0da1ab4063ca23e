"""The held-out validation of the timing models (``refbench held-out``): whole programs with
published real-board cycle counts, built from their registry packages' sources; see
:mod:`refbench.heldout.runner`."""
