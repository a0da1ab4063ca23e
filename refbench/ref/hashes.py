"""One registry of every hash function in refbench, and the streaming base they share.

Everyone who needs a hash by name (HMAC, Hash_DRBG, signatures, the vector
suites) goes through this module::

    >>> from refbench.ref import hashes
    >>> hashes.digest("sha-256", b"abc").hex()[:16]
    'ba7816bf8f01cfea'
    >>> h = hashes.new("sha3-256"); h.update(b"ab"); h.update(b"c"); h.hexdigest()[:8]
    '3a985da7'
    >>> hashes.new("shake128", b"").digest(4).hex()
    '7f9c2ba4'

Names are lower case with dashes, as listed in :data:`NAMES` (fixed-length
hashes) and :data:`XOF_NAMES` (extendable-output functions, whose ``digest``
takes the output length in bytes).

The algorithm modules are imported only when a name is first asked for, so
that they may themselves import :class:`MerkleDamgardHash` from here.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from typing import Literal, Protocol, Self, get_args

#: The registry's names of fixed-length hash functions, in the order of their standards.
HashName = Literal[
    "md5",
    "sha-1",
    "sha-224",
    "sha-256",
    "sha-384",
    "sha-512",
    "sha-512/224",
    "sha-512/256",
    "sha3-224",
    "sha3-256",
    "sha3-384",
    "sha3-512",
    "sm3",
]
#: The registry's names of extendable-output functions (FIPS 202 §6.2).
XofName = Literal["shake128", "shake256"]

#: Fixed-length hash functions, in the order of their standards.
NAMES: tuple[str, ...] = get_args(HashName)

#: Extendable-output functions; ``digest(length)`` chooses the output size.
XOF_NAMES: tuple[str, ...] = get_args(XofName)

# name -> (module, class) implementing it.
_IMPLEMENTATIONS: dict[str, tuple[str, str]] = {
    "md5": ("refbench.ref.md5", "MD5"),
    "sha-1": ("refbench.ref.sha1", "SHA1"),
    "sha-224": ("refbench.ref.sha2", "SHA224"),
    "sha-256": ("refbench.ref.sha2", "SHA256"),
    "sha-384": ("refbench.ref.sha2", "SHA384"),
    "sha-512": ("refbench.ref.sha2", "SHA512"),
    "sha-512/224": ("refbench.ref.sha2", "SHA512_224"),
    "sha-512/256": ("refbench.ref.sha2", "SHA512_256"),
    "sha3-224": ("refbench.ref.sha3", "SHA3_224"),
    "sha3-256": ("refbench.ref.sha3", "SHA3_256"),
    "sha3-384": ("refbench.ref.sha3", "SHA3_384"),
    "sha3-512": ("refbench.ref.sha3", "SHA3_512"),
    "sm3": ("refbench.ref.sm3", "SM3"),
    "shake128": ("refbench.ref.sha3", "SHAKE128"),
    "shake256": ("refbench.ref.sha3", "SHAKE256"),
}


class Hash(Protocol):
    """What every hash object offers (the shape of :mod:`hashlib`'s objects)."""

    name: str
    digest_size: int
    block_size: int

    def update(self, data: bytes) -> None: ...

    def digest(self) -> bytes: ...

    def hexdigest(self) -> str: ...

    def copy(self) -> Self: ...


def _class_of(name: str) -> type:
    if not isinstance(name, str) or name not in _IMPLEMENTATIONS:
        valid = ", ".join(NAMES + XOF_NAMES)
        raise ValueError(f"Unknown hash name ({name!r}); accepted: {valid}")
    module_name, class_name = _IMPLEMENTATIONS[name]
    return getattr(importlib.import_module(module_name), class_name)


def new(name: HashName | XofName, data: bytes = b"") -> Hash:
    """A fresh streaming object for hash ``name``, already fed ``data``."""
    return _class_of(name)(data)


def digest(name: HashName | XofName, data: bytes, length: int | None = None) -> bytes:
    """The hash of ``data`` in one call.

    ``length`` (output bytes) is required for the XOFs ``shake128``/``shake256``; for a
    fixed-length hash it is either omitted or equal to the digest size.
    """
    obj = new(name, data)
    if name in XOF_NAMES:
        if length is None:
            raise ValueError(
                f"Invalid length (None) for {name}; accepted: an output length in bytes >= 0"
            )
        return obj.digest(length)  # type: ignore[call-arg]
    if length is not None and length != obj.digest_size:
        raise ValueError(
            f"Invalid length ({length}) for {name}; accepted: {obj.digest_size} (or None)"
        )
    return obj.digest()


def digest_size(name: HashName) -> int:
    """Output length in bytes of a fixed-length hash (XOFs have none: ``ValueError``)."""
    cls = _class_of(name)
    if name in XOF_NAMES:
        valid = ", ".join(NAMES)
        raise ValueError(
            f"Invalid hash name ({name!r}) for digest_size: an XOF has no fixed output length; accepted: {valid}"
        )
    return cls.digest_size


def block_size(name: HashName | XofName) -> int:
    """Input block length in bytes (the rate r/8 for SHA-3 and SHAKE), as HMAC's B."""
    return _class_of(name).block_size


def as_bytes(data: object) -> bytes:
    """Accept bytes-like input as :mod:`hashlib` does; refuse ``str`` and others."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"data must be bytes-like, not {type(data).__name__}")


class MerkleDamgardHash(ABC):
    """Streaming engine shared by MD5, SHA-1, SHA-2 and SM3.

    All of them split the padded message into ``block_size``-byte blocks and
    fold each into a chaining value with a compression function. They differ in
    the compression function, the initial value, the word byte order and the
    width of the length field appended by the padding (RFC 1321 §3.1-3.2,
    FIPS 180-4 §5.1, GB/T 32905-2016 §5.2):

    message || 0x80 || 0x00 ... || length in bits (``length_size`` bytes, ``byte_order``)

    Subclasses set the class attributes and implement :meth:`initial_hash_value`,
    :meth:`compress` and :meth:`output`.
    """

    name: str = ""
    digest_size: int = 0
    block_size: int = 64
    length_size: int = 8
    byte_order: Literal["big", "little"] = "big"

    def __init__(self, data: bytes = b"") -> None:
        self._state: list[int] = list(self.initial_hash_value())
        self._pending = b""
        self._message_bytes = 0
        if data:
            self.update(data)

    # --- what each algorithm supplies ---------------------------------------------------------
    @abstractmethod
    def initial_hash_value(self) -> list[int]:
        """H(0), the initial chaining value."""

    @abstractmethod
    def compress(self, state: list[int], block: bytes) -> list[int]:
        """The compression function: the next chaining value from one block."""

    @abstractmethod
    def output(self, state: list[int]) -> bytes:
        """The digest from the final chaining value."""

    # --- hashlib-style interface ----------------------------------------------------------------
    def update(self, data: bytes) -> None:
        """Absorb more message bytes; whole blocks are compressed at once."""
        data = self._pending + as_bytes(data)
        self._message_bytes += len(data) - len(self._pending)
        whole = len(data) - len(data) % self.block_size
        state = self._state
        for start in range(0, whole, self.block_size):
            state = self.compress(state, data[start : start + self.block_size])
        self._state = state
        self._pending = data[whole:]

    def padding(self) -> bytes:
        """The bytes appended to the message so far: 0x80, zeros, and the length in bits."""
        length_bits = (self._message_bytes * 8) % (1 << (8 * self.length_size))
        zeros = (self.block_size - self.length_size - 1 - self._message_bytes) % self.block_size
        return b"\x80" + bytes(zeros) + length_bits.to_bytes(self.length_size, self.byte_order)

    def digest(self) -> bytes:
        """The hash of everything absorbed so far (the object can still be updated)."""
        final = self.copy()
        final.update(self.padding())  # ends exactly on a block boundary
        return self.output(final._state)

    def hexdigest(self) -> str:
        return self.digest().hex()

    def copy(self) -> Self:
        """An independent object in the same state."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._state = list(self._state)
        return twin

    def __repr__(self) -> str:
        return f"<{self.name} hash object, {self._message_bytes} bytes absorbed>"
