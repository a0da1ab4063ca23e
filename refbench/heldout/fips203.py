"""A small pure-Python ML-KEM (NIST FIPS 203) key generation and encapsulation, written for this
project from the standard's algorithms, to check the held-out programs' outputs byte for byte
(:mod:`refbench.heldout.runner`): the emulated keypair and encapsulation from the same random bytes
must give the same public key, secret key, ciphertext and shared secret.

``draft=True`` is the initial public draft (FIPS 203 ipd, August 2023), as in PQClean's "kyber"
directories of early 2024: key generation hashes d alone, where the final standard hashes
d || k (FIPS 203 Algorithm 13, line 1). Everything else used here is the same in both.
"""

from __future__ import annotations

import hashlib

Q = 3329
N = 256
#: parameter set -> (k, eta1, eta2, du, dv) (FIPS 203 Table 2)
PARAMETERS = {512: (2, 3, 2, 10, 4), 768: (3, 2, 2, 10, 4), 1024: (4, 2, 2, 11, 5)}


def _bitrev7(i: int) -> int:
    return int(f"{i:07b}"[::-1], 2)


ZETAS = [pow(17, _bitrev7(i), Q) for i in range(128)]
GAMMAS = [pow(17, 2 * _bitrev7(i) + 1, Q) for i in range(128)]


def _ntt(f: list[int]) -> list[int]:
    f = list(f)
    k, length = 1, 128
    while length >= 2:
        for start in range(0, N, 2 * length):
            zeta = ZETAS[k]
            k += 1
            for j in range(start, start + length):
                t = zeta * f[j + length] % Q
                f[j + length] = (f[j] - t) % Q
                f[j] = (f[j] + t) % Q
        length //= 2
    return f


def _intt(f: list[int]) -> list[int]:
    f = list(f)
    k, length = 127, 2
    while length <= 128:
        for start in range(0, N, 2 * length):
            zeta = ZETAS[k]
            k -= 1
            for j in range(start, start + length):
                t = f[j]
                f[j] = (t + f[j + length]) % Q
                f[j + length] = zeta * (f[j + length] - t) % Q
        length *= 2
    return [x * 3303 % Q for x in f]


def _multiply(f: list[int], g: list[int]) -> list[int]:
    h = [0] * N
    for i in range(128):
        a0, a1, b0, b1, gamma = f[2 * i], f[2 * i + 1], g[2 * i], g[2 * i + 1], GAMMAS[i]
        h[2 * i] = (a0 * b0 + a1 * b1 * gamma) % Q
        h[2 * i + 1] = (a0 * b1 + a1 * b0) % Q
    return h


def _add(f: list[int], g: list[int]) -> list[int]:
    return [(a + b) % Q for a, b in zip(f, g)]


def _sample_ntt(rho: bytes, j: int, i: int) -> list[int]:
    stream = hashlib.shake_128(rho + bytes([j, i])).digest(3 * 1024)
    out: list[int] = []
    pos = 0
    while len(out) < N:
        c0, c1, c2 = stream[pos : pos + 3]
        pos += 3
        d1 = c0 + 256 * (c1 % 16)
        d2 = c1 // 16 + 16 * c2
        if d1 < Q:
            out.append(d1)
        if d2 < Q and len(out) < N:
            out.append(d2)
    return out


def _cbd(eta: int, seed: bytes, nonce: int) -> list[int]:
    data = hashlib.shake_256(seed + bytes([nonce])).digest(64 * eta)
    bits = [(data[i // 8] >> (i % 8)) & 1 for i in range(8 * len(data))]
    return [
        (sum(bits[2 * i * eta + j] for j in range(eta)) - sum(bits[2 * i * eta + eta + j] for j in range(eta))) % Q
        for i in range(N)
    ]


def _encode(values: list[int], d: int) -> bytes:
    acc = bits = 0
    out = bytearray()
    for v in values:
        acc |= v << bits
        bits += d
        while bits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            bits -= 8
    return bytes(out)


def _decode(data: bytes, d: int) -> list[int]:
    acc = int.from_bytes(data, "little")
    return [(acc >> (d * i)) & ((1 << d) - 1) for i in range(8 * len(data) // d)]


def _compress(x: int, d: int) -> int:
    return ((x << d) + Q // 2) // Q % (1 << d)


def _decompress(y: int, d: int) -> int:
    return (y * Q + (1 << (d - 1))) >> d


def _matrix(rho: bytes, k: int) -> list[list[list[int]]]:
    return [[_sample_ntt(rho, j, i) for j in range(k)] for i in range(k)]


def keygen(level: int, d: bytes, z: bytes, *, draft: bool = False) -> tuple[bytes, bytes]:
    """(encapsulation key, decapsulation key) from the seeds d and z (FIPS 203 Algorithm 16)."""
    k, eta1, _, _, _ = PARAMETERS[level]
    g = hashlib.sha3_512(d if draft else d + bytes([k])).digest()
    rho, sigma = g[:32], g[32:]
    a = _matrix(rho, k)
    s = [_ntt(_cbd(eta1, sigma, i)) for i in range(k)]
    e = [_ntt(_cbd(eta1, sigma, k + i)) for i in range(k)]
    t = []
    for i in range(k):
        acc = e[i]
        for j in range(k):
            acc = _add(acc, _multiply(a[i][j], s[j]))
        t.append(acc)
    ek = b"".join(_encode(p, 12) for p in t) + rho
    dk_pke = b"".join(_encode(p, 12) for p in s)
    return ek, dk_pke + ek + hashlib.sha3_256(ek).digest() + z


def encaps(level: int, ek: bytes, m: bytes) -> tuple[bytes, bytes]:
    """(shared secret, ciphertext) for the message m (FIPS 203 Algorithms 17 and 14)."""
    k, eta1, eta2, du, dv = PARAMETERS[level]
    g = hashlib.sha3_512(m + hashlib.sha3_256(ek).digest()).digest()
    key, r = g[:32], g[32:]
    t = [_decode(ek[384 * i : 384 * (i + 1)], 12) for i in range(k)]
    a = _matrix(ek[384 * k :], k)
    y = [_ntt(_cbd(eta1, r, i)) for i in range(k)]
    e1 = [_cbd(eta2, r, k + i) for i in range(k)]
    e2 = _cbd(eta2, r, 2 * k)
    u = []
    for i in range(k):
        acc = [0] * N
        for j in range(k):
            acc = _add(acc, _multiply(a[j][i], y[j]))
        u.append(_add(_intt(acc), e1[i]))
    mu = [_decompress(b, 1) for b in _decode(m, 1)]
    acc = [0] * N
    for j in range(k):
        acc = _add(acc, _multiply(t[j], y[j]))
    v = _add(_add(_intt(acc), e2), mu)
    c1 = b"".join(_encode([_compress(x, du) for x in p], du) for p in u)
    c2 = _encode([_compress(x, dv) for x in v], dv)
    return key, c1 + c2
