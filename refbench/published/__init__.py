"""Every figure of the five published benchmark pages as data (``figures.json``), with
the sources' unit semantics (``sources.toml``), part facts derived from the board profiles
and part files (``cortexm_emu/boards/``, ``refbench/parts/``, :func:`load_parts`), a loader with a schema check, and
normalisation to cycles per byte / per operation."""

from refbench.published.model import Figure, load_figures, load_parts, load_sources
from refbench.published.normalise import Normalised, normalise

__all__ = ["Figure", "Normalised", "load_figures", "load_parts", "load_sources", "normalise"]
