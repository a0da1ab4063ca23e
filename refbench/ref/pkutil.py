"""Small pieces shared by the public-key references: integer/octet conversion, hash names, DER.

* :func:`i2osp` / :func:`os2ip` — RFC 8017 §4.1 and §4.2.
* :func:`hash_name` — maps the spellings used by vector files ("SHA256",
  "SHA-512/224", "SHA3-256") to the names of :mod:`refbench.ref.hashes`.
* :func:`digest` / :func:`hmac_digest` — the one place where the public-key code
  reaches the hash functions (refbench's own SHA-1/2/3, SM3 and HMAC).
* A strict DER reader and writer for the few structures signatures use
  (ITU-T X.690 §8.1–8.3, §10: definite, minimal lengths; minimal INTEGERs).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "DerElement",
    "der_decode_signature",
    "der_encode_signature",
    "der_integer",
    "der_oid",
    "der_parse",
    "der_sequence",
    "digest",
    "digest_size",
    "hash_name",
    "hmac_digest",
    "i2osp",
    "os2ip",
]


def i2osp(x: int, length: int) -> bytes:
    """Integer-to-Octet-String primitive (RFC 8017 §4.1): big-endian, exactly ``length`` bytes."""
    if x < 0 or x >= 1 << (8 * length):
        raise ValueError(
            f"Invalid integer ({x}) for I2OSP with length {length}; accepted: 0 <= x < 256^{length}"
        )
    return x.to_bytes(length, "big")


def os2ip(octets: bytes) -> int:
    """Octet-String-to-Integer primitive (RFC 8017 §4.2)."""
    return int.from_bytes(octets, "big")


_HASH_ALIASES = {
    "sha1": "sha-1",
    "sha224": "sha-224",
    "sha256": "sha-256",
    "sha384": "sha-384",
    "sha512": "sha-512",
    "sha512/224": "sha-512/224",
    "sha512/256": "sha-512/256",
    "sha512224": "sha-512/224",
    "sha512256": "sha-512/256",
    "sha3224": "sha3-224",
    "sha3256": "sha3-256",
    "sha3384": "sha3-384",
    "sha3512": "sha3-512",
    "sm3": "sm3",
    "shake256": "shake256",
    "shake128": "shake128",
}


def hash_name(text: str) -> str:
    """The :mod:`refbench.ref.hashes` name for a spelling such as ``SHA-256``, ``SHA256`` or ``SHA-512/224``."""
    key = text.strip().lower().replace("-", "").replace("_", "")
    if key in _HASH_ALIASES:
        return _HASH_ALIASES[key]
    accepted = ", ".join(sorted(set(_HASH_ALIASES.values())))
    raise ValueError(f"Invalid hash name ({text!r}); accepted: {accepted}")


def digest(name: str, data: bytes, length: int | None = None) -> bytes:
    """Hash ``data`` with refbench's own implementation of ``name`` (``length`` for SHAKE)."""
    from refbench.ref import hashes

    return hashes.digest(hash_name(name), data, length)


def digest_size(name: str) -> int:
    from refbench.ref import hashes

    return hashes.digest_size(hash_name(name))


def hmac_digest(name: str, key: bytes, message: bytes) -> bytes:
    """HMAC (FIPS 198-1) with refbench's own implementation."""
    from refbench.ref import hmac

    return hmac.hmac(hash_name(name), key, message)


# --- DER -------------------------------------------------------------------


@dataclass(frozen=True)
class DerElement:
    """One DER TLV: ``tag`` byte, ``content`` bytes, and the parsed children for constructed tags."""

    tag: int
    content: bytes

    @property
    def constructed(self) -> bool:
        return bool(self.tag & 0x20)

    def children(self) -> list[DerElement]:
        return der_parse_all(self.content)


def _read_tlv(data: bytes, pos: int) -> tuple[DerElement, int]:
    if pos + 2 > len(data):
        raise ValueError("Invalid DER: truncated tag or length")
    tag = data[pos]
    if tag & 0x1F == 0x1F:
        raise ValueError("Invalid DER: multi-byte tags are not accepted")
    first = data[pos + 1]
    pos += 2
    if first < 0x80:
        length = first
    elif first == 0x80:
        raise ValueError("Invalid DER: indefinite length")
    else:
        count = first & 0x7F
        if count > 4 or pos + count > len(data):
            raise ValueError("Invalid DER: length field too long or truncated")
        length = int.from_bytes(data[pos : pos + count], "big")
        if data[pos] == 0 or length < 0x80:
            raise ValueError("Invalid DER: length not minimally encoded")
        pos += count
    if pos + length > len(data):
        raise ValueError("Invalid DER: content truncated")
    return DerElement(tag, bytes(data[pos : pos + length])), pos + length


def der_parse_all(data: bytes) -> list[DerElement]:
    """Every TLV in ``data``, in order; the whole buffer must be consumed."""
    out = []
    pos = 0
    while pos < len(data):
        element, pos = _read_tlv(data, pos)
        out.append(element)
    return out


def der_parse(data: bytes) -> DerElement:
    """Exactly one TLV filling ``data``."""
    element, end = _read_tlv(data, 0)
    if end != len(data):
        raise ValueError("Invalid DER: trailing bytes after the element")
    return element


def der_read_integer(element: DerElement) -> int:
    """A minimal, non-negative INTEGER (X.690 §8.3)."""
    if element.tag != 0x02:
        raise ValueError(f"Invalid DER: expected INTEGER (tag 0x02), found tag 0x{element.tag:02x}")
    c = element.content
    if not c:
        raise ValueError("Invalid DER: empty INTEGER")
    if len(c) > 1 and ((c[0] == 0 and c[1] < 0x80) or (c[0] == 0xFF and c[1] >= 0x80)):
        raise ValueError("Invalid DER: INTEGER not minimally encoded")
    if c[0] & 0x80:
        raise ValueError("Invalid DER: negative INTEGER where a non-negative one is required")
    return int.from_bytes(c, "big")


def _length(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def der_tlv(tag: int, content: bytes) -> bytes:
    return bytes([tag]) + _length(len(content)) + content


def der_integer(x: int) -> bytes:
    if x < 0:
        raise ValueError(f"Invalid INTEGER ({x}); accepted: x >= 0")
    body = x.to_bytes(x.bit_length() // 8 + 1, "big")  # one extra byte keeps the sign bit clear
    return der_tlv(0x02, body)


def der_sequence(*parts: bytes) -> bytes:
    return der_tlv(0x30, b"".join(parts))


def der_oid(dotted: str) -> bytes:
    """An OBJECT IDENTIFIER (X.690 §8.19) from its dotted form."""
    arcs = [int(a) for a in dotted.split(".")]
    body = bytearray([40 * arcs[0] + arcs[1]])
    for arc in arcs[2:]:
        chunk = [arc & 0x7F]
        arc >>= 7
        while arc:
            chunk.append(0x80 | (arc & 0x7F))
            arc >>= 7
        body.extend(reversed(chunk))
    return der_tlv(0x06, bytes(body))


def der_encode_signature(r: int, s: int) -> bytes:
    """SEQUENCE { r INTEGER, s INTEGER } (the ECDSA-Sig-Value of SEC 1 §C.8 / Dss-Sig-Value of RFC 3279)."""
    return der_sequence(der_integer(r), der_integer(s))


def der_decode_signature(data: bytes) -> tuple[int, int]:
    """(r, s) from a strict DER SEQUENCE of two non-negative INTEGERs; ``ValueError`` otherwise."""
    outer = der_parse(data)
    if outer.tag != 0x30:
        raise ValueError(f"Invalid DER signature: expected SEQUENCE, found tag 0x{outer.tag:02x}")
    items = outer.children()
    if len(items) != 2:
        raise ValueError(f"Invalid DER signature: expected 2 INTEGERs, found {len(items)} elements")
    return der_read_integer(items[0]), der_read_integer(items[1])
