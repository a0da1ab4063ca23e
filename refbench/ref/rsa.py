"""RSA (RFC 8017, PKCS #1 v2.2): key generation, RSASP1/RSAVP1 with and without CRT, PKCS#1 v1.5 and PSS signatures.

* Key generation follows FIPS 186-4 Appendix B.3.3 (random probable primes):
  p, q of nlen/2 bits with the two top bits set, gcd(p − 1, e) = 1,
  |p − q| > 2^(nlen/2 − 100), Miller-Rabin from :mod:`refbench.ref.modarith`;
  d = e⁻¹ mod lcm(p − 1, q − 1).
* RSASP1 (RFC 8017 §5.2.1) computes s = m^d mod n either directly (one
  nlen-bit exponentiation) or by the CRT (two nlen/2-bit exponentiations with
  dP, dQ and Garner's recombination — about 4× fewer word operations).
* EMSA-PKCS1-v1_5 (§9.2) and EMSA-PSS with MGF1 (§9.1, Appendix B.2.1).
  Verification re-encodes (v1.5) or decodes strictly (PSS); every failure
  raises :class:`refbench.errors.InvalidSignature`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from math import gcd

from refbench.errors import InvalidSignature
from refbench.ref import modarith
from refbench.ref.pkutil import (
    der_oid,
    der_sequence,
    der_tlv,
    digest,
    digest_size,
    hash_name,
    i2osp,
    os2ip,
)

__all__ = [
    "KEY_SIZES",
    "RSAPrivateKey",
    "RSAPublicKey",
    "emsa_pkcs1_v15_encode",
    "emsa_pss_encode",
    "emsa_pss_verify",
    "generate_private_key",
    "mgf1",
    "private_key_from_primes",
    "recover_primes",
    "rsasp1",
    "rsavp1",
    "sign_pkcs1v15",
    "sign_pss",
    "verify_pkcs1v15",
    "verify_pss",
]

#: Modulus sizes for key generation (the sizes of the published tables).
KEY_SIZES: tuple[int, ...] = (1024, 2048, 3072, 4096)


@dataclass(frozen=True)
class RSAPublicKey:
    n: int
    e: int

    @property
    def k(self) -> int:
        """Length of the modulus in octets."""
        return (self.n.bit_length() + 7) // 8


@dataclass(frozen=True)
class RSAPrivateKey:
    """The private key in both forms of RFC 8017 §3.2: (n, d) and the quintuple (p, q, dP, dQ, qInv)."""

    n: int
    e: int
    d: int
    p: int
    q: int
    dP: int
    dQ: int
    qInv: int

    @property
    def public_key(self) -> RSAPublicKey:
        return RSAPublicKey(self.n, self.e)

    @property
    def k(self) -> int:
        return (self.n.bit_length() + 7) // 8


def private_key_from_primes(p: int, q: int, e: int = 65537, d: int | None = None) -> RSAPrivateKey:
    """The full private key for primes p, q (d defaults to e⁻¹ mod lcm(p − 1, q − 1))."""
    if p == q:
        raise ValueError("Invalid primes (p = q); accepted: two distinct primes")
    lam = (p - 1) * (q - 1) // gcd(p - 1, q - 1)
    if d is None:
        d = modarith.inverse(e, lam)
    return RSAPrivateKey(p * q, e, d, p, q, d % (p - 1), d % (q - 1), modarith.inverse(q, p))


def recover_primes(
    n: int, e: int, d: int, rng: Callable[[int], int] | None = None
) -> tuple[int, int]:
    """Factor n from (e, d) (NIST SP 800-56B Rev. 2 Appendix C.2): p > q."""
    k = d * e - 1
    if k <= 0 or k % 2:
        raise ValueError(
            "Invalid key (d·e − 1 is not a positive even number); accepted: a consistent (n, e, d)"
        )
    t = 0
    r = k
    while r % 2 == 0:
        r //= 2
        t += 1
    rng = rng or secrets.randbelow
    for _ in range(100):
        g = 2 + rng(n - 3)
        y = modarith.mod_pow(g, r, n)
        if y in (1, n - 1):
            continue
        for _ in range(t):
            x = modarith.mod_sqr(y, n)
            if x == 1:
                p = gcd(y - 1, n)
                q = n // p
                return (p, q) if p > q else (q, p)
            if x == n - 1:
                break
            y = x
    raise ValueError("Invalid key: could not factor n from (e, d)")


def _random_prime(bits: int, e: int, rng: Callable[[int], int]) -> int:
    """A probable prime of ``bits`` bits with gcd(p − 1, e) = 1 (FIPS 186-4 Appendix B.3.3 steps 4–5).

    The two top bits are set, so p ≥ √2·2^(bits−1) (step 4.4) and p·q has exactly 2·bits bits.
    """
    while True:
        candidate = rng(1 << bits) | (3 << (bits - 2)) | 1
        if gcd(candidate - 1, e) == 1 and modarith.is_probable_prime(candidate, rng=rng):
            return candidate


def generate_private_key(
    bits: int = 2048, e: int = 65537, rng: Callable[[int], int] | None = None
) -> RSAPrivateKey:
    """A new key of ``bits`` bits (FIPS 186-4 Appendix B.3.3, probable primes)."""
    if bits not in KEY_SIZES:
        raise ValueError(
            f"Invalid key size ({bits} bits) for RSA; accepted: {', '.join(map(str, KEY_SIZES))}"
        )
    if e < 65537 or e % 2 == 0 or e >= 1 << 256:
        raise ValueError(f"Invalid public exponent ({e}); accepted: odd, 2^16 < e < 2^256")
    rng = rng or secrets.randbelow
    half = bits // 2
    while True:
        p = _random_prime(half, e, rng)
        q = _random_prime(half, e, rng)
        if abs(p - q) <= 1 << (half - 100):
            continue
        key = private_key_from_primes(max(p, q), min(p, q), e)
        if key.d > 1 << half:  # FIPS 186-4 B.3.1: d > 2^(nlen/2)
            return key


def rsavp1(key: RSAPublicKey, s: int) -> int:
    """m = s^e mod n (RFC 8017 §5.2.2); ``ValueError`` when s is not in [0, n − 1]."""
    if not 0 <= s < key.n:
        raise ValueError(
            "Invalid signature representative (not in [0, n − 1]); accepted: 0 <= s < n"
        )
    return modarith.mod_pow(s, key.e, key.n)


def rsasp1(key: RSAPrivateKey, m: int, crt: bool = True) -> int:
    """s = m^d mod n (RFC 8017 §5.2.1), by the CRT (step 2.b) or directly (step 2.a)."""
    if not 0 <= m < key.n:
        raise ValueError("Invalid message representative (not in [0, n − 1]); accepted: 0 <= m < n")
    if not crt:
        return modarith.mod_pow(m, key.d, key.n)
    s1 = modarith.mod_pow(m % key.p, key.dP, key.p)
    s2 = modarith.mod_pow(m % key.q, key.dQ, key.q)
    return modarith.crt(s1, s2, key.p, key.q, key.qInv)


# --- encodings ----------------------------------------------------------------

# Hash algorithm object identifiers (RFC 8017 Appendix A.2.4; NIST CSOR for SHA-512/t and SHA-3).
_HASH_OIDS = {
    "sha-1": "1.3.14.3.2.26",
    "sha-224": "2.16.840.1.101.3.4.2.4",
    "sha-256": "2.16.840.1.101.3.4.2.1",
    "sha-384": "2.16.840.1.101.3.4.2.2",
    "sha-512": "2.16.840.1.101.3.4.2.3",
    "sha-512/224": "2.16.840.1.101.3.4.2.5",
    "sha-512/256": "2.16.840.1.101.3.4.2.6",
    "sha3-224": "2.16.840.1.101.3.4.2.7",
    "sha3-256": "2.16.840.1.101.3.4.2.8",
    "sha3-384": "2.16.840.1.101.3.4.2.9",
    "sha3-512": "2.16.840.1.101.3.4.2.10",
}


def digest_info(hash_alg: str, h: bytes) -> bytes:
    """DER of DigestInfo ::= SEQUENCE { AlgorithmIdentifier {oid, NULL}, OCTET STRING h } (§9.2 step 2)."""
    name = hash_name(hash_alg)
    if name not in _HASH_OIDS:
        raise ValueError(
            f"Invalid hash ({hash_alg!r}) for PKCS#1 v1.5; accepted: {', '.join(_HASH_OIDS)}"
        )
    algorithm = der_sequence(der_oid(_HASH_OIDS[name]), b"\x05\x00")
    return der_sequence(algorithm, der_tlv(0x04, h))


def emsa_pkcs1_v15_encode(message: bytes, em_len: int, hash_alg: str) -> bytes:
    """EM = 0x00 ∥ 0x01 ∥ PS (0xff…, ≥ 8 octets) ∥ 0x00 ∥ DigestInfo (RFC 8017 §9.2)."""
    T = digest_info(hash_alg, digest(hash_alg, message))
    if em_len < len(T) + 11:
        raise ValueError(
            f"Invalid modulus length ({em_len} octets) for this hash; accepted: >= {len(T) + 11}"
        )
    return b"\x00\x01" + b"\xff" * (em_len - len(T) - 3) + b"\x00" + T


def mgf1(seed: bytes, length: int, hash_alg: str) -> bytes:
    """MGF1 (RFC 8017 Appendix B.2.1): Hash(seed ∥ C) for C = 0, 1, … truncated to ``length``."""
    out = b""
    counter = 0
    while len(out) < length:
        out += digest(hash_alg, seed + counter.to_bytes(4, "big"))
        counter += 1
    return out[:length]


def emsa_pss_encode(
    message: bytes, em_bits: int, hash_alg: str, salt: bytes, mgf_hash: str | None = None
) -> bytes:
    """EMSA-PSS-ENCODE (RFC 8017 §9.1.1) with the given salt."""
    mgf_hash = mgf_hash or hash_alg
    m_hash = digest(hash_alg, message)
    h_len = len(m_hash)
    em_len = (em_bits + 7) // 8
    if em_len < h_len + len(salt) + 2:
        raise ValueError(
            f"Invalid salt length ({len(salt)}) for a {em_bits}-bit encoding; accepted: <= {em_len - h_len - 2}"
        )
    H = digest(hash_alg, b"\x00" * 8 + m_hash + salt)
    DB = b"\x00" * (em_len - len(salt) - h_len - 2) + b"\x01" + salt
    masked = bytes(a ^ b for a, b in zip(DB, mgf1(H, em_len - h_len - 1, mgf_hash)))
    masked = bytes([masked[0] & (0xFF >> (8 * em_len - em_bits))]) + masked[1:]
    return masked + H + b"\xbc"


def emsa_pss_verify(
    message: bytes,
    em: bytes,
    em_bits: int,
    hash_alg: str,
    salt_length: int,
    mgf_hash: str | None = None,
) -> None:
    """EMSA-PSS-VERIFY (RFC 8017 §9.1.2); raises ``InvalidSignature`` on "inconsistent"."""
    mgf_hash = mgf_hash or hash_alg
    m_hash = digest(hash_alg, message)
    h_len = len(m_hash)
    em_len = (em_bits + 7) // 8
    if len(em) != em_len or em_len < h_len + salt_length + 2 or em[-1] != 0xBC:  # steps 3-4
        raise InvalidSignature()
    masked, H = em[: em_len - h_len - 1], em[em_len - h_len - 1 : -1]
    top_mask = (0xFF << (8 - (8 * em_len - em_bits))) & 0xFF
    if masked[0] & top_mask:  # step 6
        raise InvalidSignature()
    DB = bytes(a ^ b for a, b in zip(masked, mgf1(H, em_len - h_len - 1, mgf_hash)))
    DB = bytes([DB[0] & (0xFF >> (8 * em_len - em_bits))]) + DB[1:]
    zeros = em_len - h_len - salt_length - 2
    if any(DB[:zeros]) or DB[zeros] != 0x01:  # step 10
        raise InvalidSignature()
    salt = DB[len(DB) - salt_length :] if salt_length else b""
    if digest(hash_alg, b"\x00" * 8 + m_hash + salt) != H:  # steps 12-14
        raise InvalidSignature()


# --- signature schemes ------------------------------------------------------------


def sign_pkcs1v15(
    key: RSAPrivateKey, message: bytes, hash_alg: str = "sha-256", crt: bool = True
) -> bytes:
    """RSASSA-PKCS1-V1_5-SIGN (RFC 8017 §8.2.1)."""
    em = emsa_pkcs1_v15_encode(message, key.k, hash_alg)
    return i2osp(rsasp1(key, os2ip(em), crt), key.k)


def verify_pkcs1v15(
    key: RSAPublicKey, message: bytes, signature: bytes, hash_alg: str = "sha-256"
) -> None:
    """RSASSA-PKCS1-V1_5-VERIFY (RFC 8017 §8.2.2), comparing the re-encoded EM."""
    if len(signature) != key.k:
        raise InvalidSignature()
    s = os2ip(signature)
    if s >= key.n:
        raise InvalidSignature()
    em = i2osp(rsavp1(key, s), key.k)
    if em != emsa_pkcs1_v15_encode(message, key.k, hash_alg):
        raise InvalidSignature()


def sign_pss(
    key: RSAPrivateKey,
    message: bytes,
    hash_alg: str = "sha-256",
    salt_length: int | None = None,
    salt: bytes | None = None,
    mgf_hash: str | None = None,
    crt: bool = True,
) -> bytes:
    """RSASSA-PSS-SIGN (RFC 8017 §8.1.1). The salt is random of ``salt_length`` (default hLen) unless given."""
    if salt is None:
        length = digest_size(hash_alg) if salt_length is None else salt_length
        if length < 0:
            raise ValueError(f"Invalid salt length ({length}); accepted: >= 0")
        salt = secrets.token_bytes(length)
    em = emsa_pss_encode(message, key.n.bit_length() - 1, hash_alg, salt, mgf_hash)
    return i2osp(rsasp1(key, os2ip(em), crt), key.k)


def verify_pss(
    key: RSAPublicKey,
    message: bytes,
    signature: bytes,
    hash_alg: str = "sha-256",
    salt_length: int | None = None,
    mgf_hash: str | None = None,
) -> None:
    """RSASSA-PSS-VERIFY (RFC 8017 §8.1.2) for a known salt length (default hLen)."""
    if len(signature) != key.k:
        raise InvalidSignature()
    s = os2ip(signature)
    if s >= key.n:
        raise InvalidSignature()
    em_bits = key.n.bit_length() - 1
    em = i2osp(rsavp1(key, s), key.k)
    em_len = (em_bits + 7) // 8
    if em_len < key.k and em[0] != 0:
        raise InvalidSignature()
    length = digest_size(hash_alg) if salt_length is None else salt_length
    emsa_pss_verify(message, em[key.k - em_len :], em_bits, hash_alg, length, mgf_hash)
