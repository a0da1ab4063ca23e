"""Exceptions raised by refbench, one class for each thing that can go wrong.

All derive from :class:`RefbenchError`. Parameter errors are plain ``ValueError``
(as in pyca/cryptography): ``ValueError("Invalid key size (15 bytes) for AES; accepted: 16, 24, 32")``.
"""

from __future__ import annotations


class RefbenchError(Exception):
    """Base class of every refbench exception."""


class InvalidTag(RefbenchError):
    """An authentication tag (GCM, CCM, CMAC, Poly1305, Ascon, HMAC) did not verify.

    Raised without a message and without releasing any plaintext.
    """


class InvalidSignature(RefbenchError):
    """A signature did not verify."""
