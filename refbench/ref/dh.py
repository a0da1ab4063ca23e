"""Finite-field Diffie-Hellman over named safe-prime groups (RFC 7919, RFC 2409/3526) and RFC 5114 §2.1.

The safe primes are *derived*, not copied: each is
p = 2^b − 2^(b−64) − 1 + 2^64·(⌊2^(b−130)·c⌋ + X)
with c = π for the MODP groups (RFC 2409 §6.2, RFC 3526 §2–7) and c = e for the
FFDHE groups (RFC 7919 Appendix A), and X the small constant each RFC gives.
π and e are computed here with integer arithmetic to the precision needed.
Generator 2 generates the subgroup of prime order q = (p − 1)/2.
``tests/test_dh.py`` checks p and q prime with refbench's Miller-Rabin and the
derived values against the RFC 3526 hexadecimal in ``cryptography_vectors``.

RFC 5114 §2.1 (1024-bit MODP group with a 160-bit prime-order subgroup) has
random-looking p, q, g, typed in from the RFC.

Key agreement (NIST SP 800-56A Rev. 3 §5.7.1.1): Z = y_peer^x mod p after
validating y_peer (§5.6.2.3.1: 2 ≤ y ≤ p − 2 and y^q ≡ 1), refusing Z = 1, and
encoding Z with the byte length of p.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from refbench.ref import modarith

__all__ = [
    "GROUPS",
    "DHGroup",
    "derived_prime",
    "e_fixed",
    "generate_private_key",
    "get_group",
    "pi_fixed",
    "public_key",
    "shared_secret",
    "validate_public_key",
]


def _arctan_inverse(x: int, one: int) -> int:
    """arctan(1/x)·one by its Taylor series (x ≥ 2)."""
    power = one // x
    total = power
    x2 = x * x
    k = 1
    while power:
        power //= x2
        term = power // (2 * k + 1)
        total += -term if k % 2 else term
        k += 1
    return total


@cache
def pi_fixed(bits: int) -> int:
    """⌊π·2^bits⌋, by Machin's formula π = 16·arctan(1/5) − 4·arctan(1/239) with 64 guard bits."""
    guard = 64
    one = 1 << (bits + guard)
    return (16 * _arctan_inverse(5, one) - 4 * _arctan_inverse(239, one)) >> guard


@cache
def e_fixed(bits: int) -> int:
    """⌊e·2^bits⌋, by the series e = Σ 1/k! with 64 guard bits."""
    guard = 64
    one = 1 << (bits + guard)
    term, total, k = one, one, 1
    while term:
        term //= k
        total += term
        k += 1
    return total >> guard


def derived_prime(b: int, constant: str, X: int) -> int:
    """2^b − 2^(b−64) − 1 + 2^64·(⌊2^(b−130)·c⌋ + X), c = π ("pi") or e ("e")."""
    if constant == "pi":
        c = pi_fixed(b - 130)
    elif constant == "e":
        c = e_fixed(b - 130)
    else:
        raise ValueError(f"Invalid constant ({constant!r}); accepted: 'pi', 'e'")
    return (1 << b) - (1 << (b - 64)) - 1 + (1 << 64) * (c + X)


@dataclass(frozen=True)
class DHGroup:
    name: str
    p: int
    g: int
    q: int
    source: str

    @property
    def byte_length(self) -> int:
        return (self.p.bit_length() + 7) // 8


def _safe_prime_group(name: str, b: int, constant: str, X: int, source: str) -> DHGroup:
    p = derived_prime(b, constant, X)
    return DHGroup(name, p, 2, (p - 1) // 2, source)


def _h(text: str) -> int:
    return int("".join(text.split()), 16)


_RFC5114_1024_160 = DHGroup(
    name="rfc5114-1024-160",
    p=_h(
        "B10B8F96 A080E01D DE92DE5E AE5D54EC 52C99FBC FB06A3C6 9A6A9DCA 52D23B61 6073E286 75A23D18"
        "9838EF1E 2EE652C0 13ECB4AE A9061123 24975C3C D49B83BF ACCBDD7D 90C4BD70 98488E9C 219A7372"
        "4EFFD6FA E5644738 FAA31A4F F55BCCC0 A151AF5F 0DC8B4BD 45BF37DF 365C1A65 E68CFDA7 6D4DA708"
        "DF1FB2BC 2E4A4371"
    ),
    g=_h(
        "A4D1CBD5 C3FD3412 6765A442 EFB99905 F8104DD2 58AC507F D6406CFF 14266D31 266FEA1E 5C41564B"
        "777E690F 5504F213 160217B4 B01B886A 5E91547F 9E2749F4 D7FBD7D3 B9A92EE1 909D0D22 63F80A76"
        "A6A24C08 7A091F53 1DBF0A01 69B6A28A D662A4D1 8E73AFA3 2D779D59 18D08BC8 858F4DCE F97C2A24"
        "855E6EEB 22B3B2E5"
    ),
    q=_h("F518AA87 81A8DF27 8ABA4E7D 64B7CB9D 49462353"),
    source="RFC 5114 §2.1 (1024-bit MODP Group with 160-bit Prime Order Subgroup)",
)

#: The named groups, by name.
GROUPS: dict[str, DHGroup] = {
    g.name: g
    for g in (
        _safe_prime_group("modp1024", 1024, "pi", 129093, "RFC 2409 §6.2 (Oakley Group 2)"),
        _safe_prime_group("ffdhe2048", 2048, "e", 560316, "RFC 7919 Appendix A.1"),
        _safe_prime_group("ffdhe3072", 3072, "e", 2625351, "RFC 7919 Appendix A.2"),
        _safe_prime_group("ffdhe4096", 4096, "e", 5736041, "RFC 7919 Appendix A.3"),
        _safe_prime_group("ffdhe6144", 6144, "e", 15705020, "RFC 7919 Appendix A.4"),
        _safe_prime_group("ffdhe8192", 8192, "e", 10965728, "RFC 7919 Appendix A.5"),
        _RFC5114_1024_160,
    )
}

#: RFC 3526 MODP groups (bits → X), used to check the π derivation against the published hexadecimal.
RFC3526_X: dict[int, int] = {
    1536: 741804,
    2048: 124476,
    3072: 1690314,
    4096: 240904,
    6144: 929484,
    8192: 4743158,
}


def get_group(name: str) -> DHGroup:
    if name not in GROUPS:
        raise ValueError(f"Invalid DH group ({name!r}); accepted: {', '.join(GROUPS)}")
    return GROUPS[name]


def generate_private_key(group: DHGroup, rng: Callable[[int], int] | None = None) -> int:
    """x uniform in [1, q − 1] (SP 800-56A Rev. 3 §5.6.1.1.1)."""
    return modarith.random_below(group.q, rng)


def public_key(group: DHGroup, x: int) -> int:
    """y = g^x mod p."""
    if not 1 <= x < group.q:
        raise ValueError(f"Invalid private key (x = {x}) for {group.name}; accepted: 1 <= x < q")
    return modarith.mod_pow(group.g, x, group.p)


def validate_public_key(group: DHGroup, y: int) -> None:
    """FFC full public-key validation (SP 800-56A Rev. 3 §5.6.2.3.1); ``ValueError`` when it fails."""
    if not 2 <= y <= group.p - 2:
        raise ValueError(f"Invalid public key for {group.name}: not in [2, p − 2]")
    if modarith.mod_pow(y, group.q, group.p) != 1:
        raise ValueError(f"Invalid public key for {group.name}: not in the subgroup of order q")


def shared_secret(group: DHGroup, x: int, y_peer: int) -> bytes:
    """Z = y_peer^x mod p as len(p) big-endian bytes (SP 800-56A §5.7.1.1), after validating y_peer."""
    if not 1 <= x < group.q:
        raise ValueError(f"Invalid private key (x = {x}) for {group.name}; accepted: 1 <= x < q")
    validate_public_key(group, y_peer)
    z = modarith.mod_pow(y_peer, x, group.p)
    if z == 1:
        raise ValueError(f"Invalid shared secret for {group.name}: Z = 1")
    return z.to_bytes(group.byte_length, "big")
