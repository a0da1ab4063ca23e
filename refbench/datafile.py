"""The data-file error of refbench's loaders (vectors, published figures, part files, manifests).

Kept apart from :mod:`refbench.errors` so that the references (:mod:`refbench.ref`), which raise
only :class:`~refbench.errors.InvalidTag` and :class:`~refbench.errors.InvalidSignature`, do not
import the emulator package.
"""

from __future__ import annotations

import cortexm_emu.datafile
from refbench.errors import RefbenchError


class DataFileError(RefbenchError, cortexm_emu.datafile.DataFileError):
    """A vector or data file is malformed. Names the file, the line and the field.

    The message and attributes (path, line, field, problem, text) come from
    :class:`cortexm_emu.datafile.DataFileError`, the project's one data-file error.
    """
