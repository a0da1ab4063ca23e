"""X448 (RFC 7748) vector suites.

Sources
-------
* ``cryptography_vectors/asymmetric/X448/rfc7748.txt``: the §5.2 single-shot vectors.
* ``vectors/rfc7748/x448.txt`` (transcribed from the RFC): the §6.2 Alice–Bob
  exchange and the §5.2 iterated test — 1 and 1,000 iterations by default,
  1,000,000 as a ``slow`` suite (about two hours in pure Python).
* Wycheproof ``Protocol/wycheproof/x448_test.json``: all-zero expected secrets
  (small-order points) must raise ``ValueError`` (RFC 7748 §6.2).
"""

from __future__ import annotations

from refbench.ref import montgomery
from refbench.suites.x25519 import xdh_suites
from refbench.verification import Suite

SUITES: list[Suite] = xdh_suites("X448", montgomery.x448, montgomery.x448_public_key, 5, 56, "6.2")
