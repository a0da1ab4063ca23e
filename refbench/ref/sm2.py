"""SM2 digital signature and key exchange (GB/T 32918.2-2016, GB/T 32918.3-2016) with SM3.

Both parts work on the curves of :mod:`refbench.ref.curves` — normally the
recommended curve ``sm2p256v1`` (GB/T 32918.5-2017); the worked examples of
Parts 2 and 3 use the 256-bit example curve of their Annex A.

* Z_A = SM3(ENTL_A ∥ ID_A ∥ a ∥ b ∥ x_G ∥ y_G ∥ x_A ∥ y_A), ENTL_A the bit
  length of ID_A on two bytes (Part 2 §5.5).
* Signature (Part 2 §6.1): e = SM3(Z_A ∥ M); (x1, y1) = [k]G; r = (e + x1) mod n
  (retry if r = 0 or r + k = n); s = (1 + d)⁻¹·(k − r·d) mod n (retry if s = 0).
* Verification (Part 2 §7.1): r, s ∈ [1, n − 1]; t = (r + s) mod n ≠ 0;
  (x1, y1) = [s]G + [t]P_A; accept iff (e + x1) mod n = r.
* Key exchange (Part 3 §6.1) with x̄ = 2^w + (x mod 2^w), w = ⌈⌈log₂ n⌉/2⌉ − 1,
  t = (d + x̄·r) mod n, the shared point [h·t](P_peer + [x̄_peer]R_peer),
  K = KDF(x ∥ y ∥ Z_A ∥ Z_B, klen) and the optional confirmation hashes
  S = SM3(0x02|0x03 ∥ y ∥ SM3(x ∥ Z_A ∥ Z_B ∥ x1 ∥ y1 ∥ x2 ∥ y2)).
* KDF (Part 4 §5.4.3): SM3(Z ∥ ct) for ct = 1, 2, … (32-bit big-endian), truncated.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from refbench.errors import InvalidSignature, InvalidTag
from refbench.ref import modarith
from refbench.ref.curves import SM2P256V1, WeierstrassCurve
from refbench.ref.hmac import equal_constant_time
from refbench.ref.pkutil import digest
from refbench.ref.weierstrass import (
    AffinePoint,
    affine_add,
    double_scalar_mult,
    scalar_mult,
    validate_public_key,
)

__all__ = [
    "DEFAULT_ID",
    "ExchangeResult",
    "kdf",
    "key_exchange",
    "message_digest",
    "public_key",
    "sign",
    "verify",
    "z_value",
]

#: The default user identity of GM/T 0009-2012 §10 ("1234567812345678").
DEFAULT_ID = b"1234567812345678"


def _sm3(data: bytes) -> bytes:
    return digest("sm3", data)


def _coord(curve: WeierstrassCurve, v: int) -> bytes:
    return v.to_bytes(curve.byte_length, "big")


def z_value(curve: WeierstrassCurve, user_id: bytes, P: tuple[int, int]) -> bytes:
    """Z_A = SM3(ENTL ∥ ID ∥ a ∥ b ∥ x_G ∥ y_G ∥ x_A ∥ y_A) (GB/T 32918.2 §5.5)."""
    bits = 8 * len(user_id)
    if bits >= 1 << 16:
        raise ValueError(f"Invalid user ID length ({len(user_id)} bytes); accepted: < 8192 bytes")
    data = bits.to_bytes(2, "big") + bytes(user_id)
    for v in (curve.a, curve.b, curve.gx, curve.gy, P[0], P[1]):
        data += _coord(curve, v)
    return _sm3(data)


def message_digest(
    curve: WeierstrassCurve, user_id: bytes, P: tuple[int, int], message: bytes
) -> int:
    """e = SM3(Z_A ∥ M) as an integer (GB/T 32918.2 §6.1 steps A1–A2)."""
    return int.from_bytes(_sm3(z_value(curve, user_id, P) + bytes(message)), "big")


def public_key(curve: WeierstrassCurve, d: int) -> tuple[int, int]:
    """P = [d]G; d ∈ [1, n − 2] (GB/T 32918.1 §6.1: 1 + d must be invertible)."""
    if not 1 <= d <= curve.n - 2:
        raise ValueError(f"Invalid private key (d = {d}) for SM2; accepted: 1 <= d <= n − 2")
    P = scalar_mult(curve, d, curve.G)
    assert P is not None
    return P


def sign(
    d: int,
    message: bytes,
    user_id: bytes = DEFAULT_ID,
    curve: WeierstrassCurve = SM2P256V1,
    *,
    k: int | None = None,
    rng: Callable[[int], int] | None = None,
) -> tuple[int, int]:
    """(r, s) (GB/T 32918.2 §6.1). ``k`` fixes the random number (the standard's examples)."""
    n = curve.n
    P = public_key(curve, d)
    e = message_digest(curve, user_id, P, message)
    if k is not None:
        if not 1 <= k < n:
            raise ValueError(f"Invalid random number (k = {k}); accepted: 1 <= k < n")
        candidates = iter([k])
    else:
        candidates = iter(lambda: modarith.random_below(n, rng or secrets.randbelow), None)
    for candidate in candidates:
        x1 = scalar_mult(curve, candidate, curve.G)[0]  # type: ignore[index]
        r = (e + x1) % n
        if r == 0 or r + candidate == n:
            continue
        s = modarith.mod_mul(
            modarith.inverse(1 + d, n), (candidate - modarith.mod_mul(r, d, n)) % n, n
        )
        if s == 0:
            continue
        return (r, s)
    raise ValueError(f"Invalid random number (k = {k}): it gives r = 0, r + k = n or s = 0")


def verify(
    P: AffinePoint,
    message: bytes,
    signature: tuple[int, int],
    user_id: bytes = DEFAULT_ID,
    curve: WeierstrassCurve = SM2P256V1,
) -> None:
    """Verify (r, s) (GB/T 32918.2 §7.1); raise ``InvalidSignature`` if it does not hold."""
    validate_public_key(curve, P)
    assert P is not None
    n = curve.n
    r, s = signature
    if not (1 <= r < n and 1 <= s < n):  # steps B1-B2
        raise InvalidSignature()
    e = message_digest(curve, user_id, P, message)  # steps B3-B4
    t = (r + s) % n  # step B5
    if t == 0:
        raise InvalidSignature()
    point = double_scalar_mult(curve, s, curve.G, t, P)  # step B6: (x1', y1') = [s']G + [t]P_A
    if point is None or (e + point[0]) % n != r:  # step B7: R = (e' + x1') mod n
        raise InvalidSignature()


def kdf(Z: bytes, klen_bits: int) -> bytes:
    """The key derivation function of GB/T 32918.4 §5.4.3 (SM3, counter from 1)."""
    if klen_bits <= 0 or klen_bits % 8:
        raise ValueError(
            f"Invalid key length ({klen_bits} bits); accepted: a positive multiple of 8"
        )
    out = b""
    ct = 1
    while 8 * len(out) < klen_bits:
        out += _sm3(Z + ct.to_bytes(4, "big"))
        ct += 1
    return out[: klen_bits // 8]


def _x_bar(curve: WeierstrassCurve, x: int) -> int:
    w = -(-curve.n.bit_length() // 2) - 1
    return (1 << w) + (x & ((1 << w) - 1))


@dataclass(frozen=True)
class ExchangeResult:
    """What one side of the key exchange computes.

    ``key`` is K_A (initiator) or K_B (responder); ``confirmation`` is the hash
    this side sends (S_A or S_B); ``expected`` is the hash it must receive
    (S_1 = S_B for the initiator, S_2 = S_A for the responder).
    """

    R: tuple[int, int]
    key: bytes
    confirmation: bytes
    expected: bytes

    def check(self, received: bytes) -> None:
        """Key confirmation (steps A9 / B10): ``InvalidTag`` if the peer's hash differs."""
        if not equal_constant_time(bytes(received), self.expected):
            raise InvalidTag()


def key_exchange(
    initiator: bool,
    d: int,
    r: int,
    own_id: bytes,
    peer_P: tuple[int, int],
    peer_R: tuple[int, int],
    peer_id: bytes,
    klen_bits: int = 128,
    curve: WeierstrassCurve = SM2P256V1,
) -> ExchangeResult:
    """One side of the SM2 key exchange (GB/T 32918.3 §6.1, steps A1–A10 or B1–B10).

    ``d`` is this side's private key, ``r`` its ephemeral private key. The
    peer's public and ephemeral points are validated (``ValueError`` if not on
    the curve); a shared point at infinity raises ``ValueError``.
    """
    n = curve.n
    own_P = public_key(curve, d)
    if not 1 <= r < n:
        raise ValueError(f"Invalid ephemeral key (r = {r}); accepted: 1 <= r < n")
    R = scalar_mult(curve, r, curve.G)
    assert R is not None
    validate_public_key(curve, peer_P)
    validate_public_key(curve, peer_R)
    t = (d + modarith.mod_mul(_x_bar(curve, R[0]), r, n)) % n
    shared = scalar_mult(
        curve,
        curve.h * t,
        affine_add(curve, peer_P, scalar_mult(curve, _x_bar(curve, peer_R[0]), peer_R)),
    )
    if shared is None:
        raise ValueError("Invalid key exchange: the shared point is the point at infinity")
    xs, ys = _coord(curve, shared[0]), _coord(curve, shared[1])
    Z_own, Z_peer = z_value(curve, own_id, own_P), z_value(curve, peer_id, peer_P)
    ZA, ZB = (Z_own, Z_peer) if initiator else (Z_peer, Z_own)
    RA, RB = (R, peer_R) if initiator else (peer_R, R)
    key = kdf(xs + ys + ZA + ZB, klen_bits)
    inner = _sm3(
        xs
        + ZA
        + ZB
        + _coord(curve, RA[0])
        + _coord(curve, RA[1])
        + _coord(curve, RB[0])
        + _coord(curve, RB[1])
    )
    hash02 = _sm3(b"\x02" + ys + inner)
    hash03 = _sm3(b"\x03" + ys + inner)
    if initiator:
        return ExchangeResult(R, key, confirmation=hash03, expected=hash02)
    return ExchangeResult(R, key, confirmation=hash02, expected=hash03)
