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
from refbench.suites.x25519 import run_dh, run_iterated, run_single, run_wycheproof
from refbench.verification import Suite

_BASE = bytes([5]) + bytes(55)
_FILE = "rfc7748/x448.txt"

SUITES: list[Suite] = [
    Suite(
        "X448",
        "RFC 7748 sec. 5.2 rfc7748.txt",
        lambda: run_single("asymmetric/X448/rfc7748.txt", montgomery.x448),
    ),
    Suite(
        "X448",
        "RFC 7748 sec. 6.2 vectors/rfc7748/x448.txt",
        lambda: run_dh(_FILE, montgomery.x448, montgomery.x448_public_key),
    ),
    Suite(
        "X448",
        "RFC 7748 sec. 5.2 iterated 1 and 1,000",
        lambda: run_iterated(_FILE, montgomery.x448, _BASE, (1, 1000)),
    ),
    Suite(
        "X448",
        "RFC 7748 sec. 5.2 iterated 1,000,000",
        lambda: run_iterated(_FILE, montgomery.x448, _BASE, (1000000,)),
        slow=True,
    ),
    Suite(
        "X448",
        "Wycheproof x448_test.json",
        lambda: run_wycheproof("x448_test.json", montgomery.x448),
    ),
]
