"""HMAC over any hash of the registry (FIPS 198-1, July 2008; RFC 2104).

FIPS 198-1 §4, Table 1 and Steps 1-9:

* K0: the key padded with zeros to B bytes, or H(K) padded to B bytes when K is longer than B
  (Steps 1-3); B is the hash's block size (:func:`refbench.ref.hashes.block_size`);
* HMAC(K, text) = H((K0 XOR opad) || H((K0 XOR ipad) || text)) with ipad = 0x36 and
  opad = 0x5c repeated B times (Steps 4-9).

``HMAC(name, key)`` streams (``update`` / ``digest`` / ``copy``); :func:`hmac` is one call;
:func:`hmac_verify` compares in constant time and raises :class:`refbench.errors.InvalidTag`.
Truncated MACs (FIPS 198-1 §5, the CAVP ``Tlen``) are the leftmost bytes of the full MAC.
"""

from __future__ import annotations

from typing import Self

from refbench.errors import InvalidTag
from refbench.ref import hashes
from refbench.ref.hashes import as_bytes

IPAD = 0x36
OPAD = 0x5C


def K0(name: str, key: bytes) -> bytes:
    """FIPS 198-1 Steps 1-3: the key brought to exactly B bytes."""
    B = hashes.block_size(name)
    key = as_bytes(key)
    if len(key) > B:
        key = hashes.new(name, key).digest()
    return key + bytes(B - len(key))


class HMAC:
    """Streaming HMAC with hash ``name`` (any of :data:`refbench.ref.hashes.NAMES`)."""

    def __init__(self, name: str, key: bytes, message: bytes = b"") -> None:
        if name in hashes.XOF_NAMES:
            valid = ", ".join(hashes.NAMES)
            raise ValueError(
                f"Invalid hash name ({name!r}) for HMAC: an XOF has no fixed output; accepted: {valid}"
            )
        k0 = K0(name, key)
        self.name = name
        self.digest_size = hashes.digest_size(name)
        self.block_size = hashes.block_size(name)
        self._inner = hashes.new(
            name, bytes(b ^ IPAD for b in k0)
        )  # Steps 4-5: H((K0 ^ ipad) || ...
        self._outer = hashes.new(
            name, bytes(b ^ OPAD for b in k0)
        )  # Steps 7-8: H((K0 ^ opad) || ...
        if message:
            self.update(message)

    def update(self, message: bytes) -> None:
        """Step 5-6: more text for the inner hash."""
        self._inner.update(message)

    def digest(self) -> bytes:
        """Step 9: H((K0 ^ opad) || H((K0 ^ ipad) || text)); the object can still be updated."""
        outer = self._outer.copy()
        outer.update(self._inner.digest())
        return outer.digest()

    def hexdigest(self) -> str:
        return self.digest().hex()

    def copy(self) -> Self:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._inner = self._inner.copy()
        twin._outer = self._outer.copy()
        return twin


def hmac(name: str, key: bytes, message: bytes) -> bytes:
    """HMAC(K, text) with hash ``name`` in one call (full length)."""
    return HMAC(name, key, message).digest()


def hmac_verify(name: str, key: bytes, message: bytes, tag: bytes) -> None:
    """Check ``tag`` (full length, or truncated to its leftmost bytes per FIPS 198-1 §5).

    Raises :class:`InvalidTag` when it does not match. A ``tag`` shorter than 4 bytes (the
    smallest truncation here; RFC 2104 §5 recommends at least half the output and 80 bits) or
    longer than the hash output is a ``ValueError``.
    """
    full = hmac(name, key, message)
    tag = as_bytes(tag)
    if not 4 <= len(tag) <= len(full):
        raise ValueError(
            f"Invalid tag length ({len(tag)} bytes) for HMAC-{name}; accepted: 4 to {len(full)}"
        )
    if not equal_constant_time(full[: len(tag)], tag):
        raise InvalidTag()


def equal_constant_time(a: bytes, b: bytes) -> bool:
    """True when ``a == b``, looking at every byte whatever the first difference.

    The OR of the byte-wise XORs is zero only for equal strings; unlike ``==`` it does not
    stop at the first differing byte, so the time does not tell an attacker how many
    leading bytes of a forged tag were right. (Lengths are public and compared first.
    CPython's integers give no hard timing guarantee; C kernels use the same loop.)
    """
    if len(a) != len(b):
        return False
    difference = 0
    for x, y in zip(a, b, strict=True):
        difference |= x ^ y
    return difference == 0
