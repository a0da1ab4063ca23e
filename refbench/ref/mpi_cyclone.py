"""CycloneCRYPTO's modular exponentiation in its own shape, counting its calls.

refbench's own code, written from a reading of mpiExpMod in Oryx-Embedded/CycloneCRYPTO
62f78fe0a15ea50b4c838970ef7d88d285cc8af3 ("Version 2.5.0") mpi/mpi.c:1796-1975 (the same at
13471b478f71, 2.5.4), for an odd modulus p of k 32-bit words:

* the window width d is 1 when the exponent has at most 32 bits ("Very small exponents are often
  selected with low Hamming weight"), else 4;
* set-up at every call: C^2 mod p by mpiMod (C = 2^(32k), a bit-serial reduction), B = A C mod p
  (one Montgomery product with C^2; A reduced by mpiMod first when A >= p), A^2 (one product),
  the 2^(d-1) - 1 further odd powers of the table (one product each), R = C mod p (one Montgomery
  reduction of C^2);
* a left-to-right sliding window: a zero bit is one squaring; otherwise the longest window of at
  most d bits ending in a one is that many squarings and one multiplication by a table entry;
* one Montgomery reduction out of the domain at the end.

mpiExpModFast and mpiExpModRegular (mpi.c:1989, :2005 at 2.5.0) only call mpiExpMod: RSA's public and
private operations and DH's two exponentiations (pkc/dh.c:155, :250) all run this loop; with
MPI_ASM_SUPPORT disabled (the default, core/crypto.h:92-93) its word products are mpiMulAccCore's C.
Every squaring is mpiMontgomeryMul(r, r, r): the library has no separate squaring. The Montgomery
product here is REDC on Python integers (HAC 14.36), the value the library's word loop gives.
"""

from __future__ import annotations

from dataclasses import dataclass

#: the exponent length (bits) at and below which mpiExpMod uses a window of one bit (mpi.c:1823)
SMALL_EXPONENT_BITS = 32
#: the window width above it (mpi.c:1823)
WINDOW_BITS = 4


@dataclass(frozen=True)
class ExpCounts:
    """The library calls of one mpiExpMod: Montgomery products (squarings included), Montgomery
    reductions (mpiMontgomeryRed: a product by the one-word number 1) and mpiMod calls."""

    products: int
    reductions: int
    mods: int


def window_bits(e: int) -> int:
    """mpiExpMod's window width for exponent ``e``."""
    return 1 if e.bit_length() <= SMALL_EXPONENT_BITS else WINDOW_BITS


def exp_mod(a: int, e: int, p: int) -> tuple[int, ExpCounts]:
    """(a^e mod p, the calls mpiExpMod makes for it), ``p`` odd, ``e`` > 0."""
    if p % 2 == 0 or p < 3:
        raise ValueError(f"Invalid modulus {p}: mpiExpMod's Montgomery path needs an odd modulus above 2")
    if e <= 0:
        raise ValueError(f"Invalid exponent {e}: expected a positive exponent")
    k = -(-p.bit_length() // 32)
    c = 1 << (32 * k)
    c_inv = pow(c, -1, p)
    products = reductions = 0

    def mont(x: int, y: int) -> int:
        nonlocal products
        products += 1
        return x * y * c_inv % p

    def red(x: int) -> int:
        nonlocal reductions
        reductions += 1
        return x * c_inv % p

    d = window_bits(e)
    c2 = c * c % p  # mpiMod(&c2, &c2, p)
    mods = 1
    if a >= p:
        a %= p  # mpiMod(&b, a, p)
        mods += 1
    b = mont(a, c2)
    r = mont(b, b)
    table = [b]
    for _ in range(1, 1 << (d - 1)):
        table.append(mont(table[-1], r))
    r = red(c2)
    i = e.bit_length() - 1
    while i >= 0:
        if not (e >> i) & 1:
            r = mont(r, r)
            i -= 1
            continue
        n = max(i - d + 1, 0)
        while not (e >> n) & 1:
            n += 1
        u = 0
        for j in range(i, n - 1, -1):
            r = mont(r, r)
            u = (u << 1) | ((e >> j) & 1)
        r = mont(r, table[u >> 1])
        i = n - 1
    return red(r), ExpCounts(products, reductions, mods)


__all__ = ["SMALL_EXPONENT_BITS", "WINDOW_BITS", "ExpCounts", "exp_mod", "window_bits"]
