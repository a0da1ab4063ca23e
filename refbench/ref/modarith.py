"""Modular arithmetic written out: exponentiation three ways, inversion, CRT, primality, square roots.

Everything the public-key references compute with lives here, in the form a
32-bit microcontroller library would use, so the cost can be read off:

* :func:`pow_binary` — left-to-right binary exponentiation (HAC Algorithm 14.79).
* :func:`pow_sliding_window` — left-to-right sliding-window exponentiation
  (HAC Algorithm 14.85), the default of :func:`mod_pow`.
* :class:`Montgomery` and :func:`pow_montgomery` — the same ladder of squarings
  and multiplications carried out on Montgomery residues with REDC
  (Montgomery 1985; HAC Algorithm 14.32 and 14.94).
* :func:`inverse` (extended Euclid, HAC 2.107) and :func:`inverse_fermat`.
* :func:`crt` — Garner's recombination as used by RSA (RFC 8017 §5.1.2 step 2.b).
* :func:`is_probable_prime` — Miller-Rabin as specified in FIPS 186-4 Appendix C.3.1.
* :func:`sqrt_mod` — Tonelli-Shanks (HAC Algorithm 3.34), with the p ≡ 3 (mod 4) shortcut.
* :class:`PrimeField` — the field operations the curve modules call, each reported to
  :mod:`refbench.ref.opcount`.

Python's built-in ``pow(a, e, m)`` is deliberately not used; tests use it as the oracle.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from refbench.ref import opcount

__all__ = [
    "Montgomery",
    "PrimeField",
    "crt",
    "inverse",
    "inverse_fermat",
    "is_probable_prime",
    "miller_rabin_rounds",
    "mod_mul",
    "mod_pow",
    "mod_sqr",
    "pow_binary",
    "pow_montgomery",
    "pow_sliding_window",
    "random_below",
    "sqrt_mod",
]


def _check_modulus(m: int) -> None:
    if not isinstance(m, int) or m < 2:
        raise ValueError(f"Invalid modulus ({m!r}); accepted: an integer >= 2")


def _check_exponent(e: int) -> None:
    if not isinstance(e, int) or e < 0:
        raise ValueError(f"Invalid exponent ({e!r}); accepted: an integer >= 0")


def mod_mul(a: int, b: int, m: int) -> int:
    """a·b mod m: one multiplication and one reduction."""
    opcount.mul()
    return a * b % m


def mod_sqr(a: int, m: int) -> int:
    """a² mod m: one squaring and one reduction."""
    opcount.sqr()
    return a * a % m


def pow_binary(a: int, e: int, m: int) -> int:
    """a^e mod m by left-to-right binary exponentiation (HAC Algorithm 14.79).

    Scans the exponent from its most significant bit: square for every bit,
    multiply by ``a`` for every 1 bit. Cost: (bits−1) S + (weight−1) M.
    """
    _check_modulus(m)
    _check_exponent(e)
    if e == 0:
        return 1 % m
    a %= m
    result = a
    for bit in bin(e)[3:]:  # bits after the leading 1
        result = mod_sqr(result, m)
        if bit == "1":
            result = mod_mul(result, a, m)
    return result


def window_size(bits: int) -> int:
    """The sliding-window width that minimises cost for a ``bits``-bit exponent (HAC Table 14.16)."""
    for width, limit in ((1, 24), (3, 80), (4, 240), (5, 672)):
        if bits <= limit:
            return width
    return 6


def pow_sliding_window(a: int, e: int, m: int, width: int | None = None) -> int:
    """a^e mod m by left-to-right sliding-window exponentiation (HAC Algorithm 14.85).

    Precomputes the odd powers a, a³, …, a^(2^w − 1); then every window of up to
    ``width`` bits that starts and ends with a 1 costs one multiplication.
    """
    _check_modulus(m)
    _check_exponent(e)
    if e == 0:
        return 1 % m
    bits = e.bit_length()
    w = width if width is not None else window_size(bits)
    if not isinstance(w, int) or not 1 <= w <= 10:
        raise ValueError(f"Invalid window width ({w!r}); accepted: 1..10")
    a %= m
    # Odd powers: table[i] = a^(2i+1).
    table = [a]
    if w > 1:
        a2 = mod_sqr(a, m)
        for _ in range((1 << (w - 1)) - 1):
            table.append(mod_mul(table[-1], a2, m))
    result = 1
    started = False
    i = bits - 1
    while i >= 0:
        if not (e >> i) & 1:
            if started:
                result = mod_sqr(result, m)
            i -= 1
            continue
        # Longest window e[i..j] with j >= i-w+1 whose last bit is 1.
        j = max(i - w + 1, 0)
        while not (e >> j) & 1:
            j += 1
        value = (e >> j) & ((1 << (i - j + 1)) - 1)
        if started:
            for _ in range(i - j + 1):
                result = mod_sqr(result, m)
            result = mod_mul(result, table[value >> 1], m)
        else:
            result = table[value >> 1]
            started = True
        i = j - 1
    return result


class Montgomery:
    """Montgomery residues modulo an odd ``m`` with R = 2^(32·words) (Montgomery 1985).

    A residue of x is x·R mod m. The product of two residues is brought back
    into range by REDC, which replaces the division by m with a division by R
    (a shift): REDC(T) = (T + ((T mod R)·m′ mod R)·m) / R, with m′ = −m⁻¹ mod R
    (HAC Algorithm 14.32, computed here on whole numbers instead of word by word;
    the word-by-word form gives the same result).
    """

    WORD_BITS = 32

    def __init__(self, m: int) -> None:
        _check_modulus(m)
        if m % 2 == 0:
            raise ValueError(
                f"Invalid modulus ({m}) for Montgomery form; accepted: an odd integer >= 3"
            )
        self.m = m
        self.words = -(-m.bit_length() // self.WORD_BITS)
        self.r_bits = self.words * self.WORD_BITS
        self.R = 1 << self.r_bits
        self.mask = self.R - 1
        with opcount.suspended():
            self.m_prime = (-inverse(m, self.R)) % self.R
            self.r2 = (self.R * self.R) % m  # R² mod m, used to enter the domain

    def redc(self, t: int) -> int:
        """REDC: t·R⁻¹ mod m for 0 ≤ t < m·R."""
        opcount.red()
        u = ((t & self.mask) * self.m_prime) & self.mask
        x = (t + u * self.m) >> self.r_bits
        return x - self.m if x >= self.m else x

    def to_montgomery(self, x: int) -> int:
        """x·R mod m, computed as REDC(x·R²) (one multiplication and one REDC)."""
        opcount.mul_unreduced()
        return self.redc((x % self.m) * self.r2)

    def from_montgomery(self, x: int) -> int:
        """x·R⁻¹ mod m: leave the domain with one REDC."""
        return self.redc(x)

    def mul(self, x: int, y: int) -> int:
        opcount.mul_unreduced()
        return self.redc(x * y)

    def sqr(self, x: int) -> int:
        opcount.sqr_unreduced()
        return self.redc(x * x)


def pow_montgomery(a: int, e: int, m: int) -> int:
    """a^e mod m, left-to-right binary, every product reduced by REDC (HAC Algorithm 14.94)."""
    _check_modulus(m)
    _check_exponent(e)
    if e == 0:
        return 1 % m
    ctx = Montgomery(m)
    a_bar = ctx.to_montgomery(a)
    x = a_bar
    for bit in bin(e)[3:]:
        x = ctx.sqr(x)
        if bit == "1":
            x = ctx.mul(x, a_bar)
    return ctx.from_montgomery(x)


def mod_pow(a: int, e: int, m: int) -> int:
    """The exponentiation the algorithm modules use: sliding window."""
    return pow_sliding_window(a, e, m)


def inverse(a: int, m: int) -> int:
    """a⁻¹ mod m by the extended Euclidean algorithm (HAC Algorithm 2.107).

    Raises ``ValueError`` when gcd(a, m) ≠ 1 (no inverse exists).
    """
    _check_modulus(m)
    opcount.inv()
    r0, r1 = a % m, m
    s0, s1 = 1, 0
    while r1:
        q = r0 // r1
        r0, r1 = r1, r0 - q * r1
        s0, s1 = s1, s0 - q * s1
    if r0 != 1:
        raise ValueError(
            f"Invalid value ({a}) to invert modulo {m}; accepted: a value coprime to the modulus"
        )
    return s0 % m


def inverse_fermat(a: int, p: int) -> int:
    """a⁻¹ = a^(p−2) mod p for a prime p (Fermat's little theorem); counted as one inversion."""
    _check_modulus(p)
    if a % p == 0:
        raise ValueError(f"Invalid value ({a}) to invert modulo {p}; accepted: a non-zero residue")
    opcount.inv()
    with opcount.suspended():
        return pow_binary(a, p - 2, p)


def crt(m_p: int, m_q: int, p: int, q: int, q_inv: int) -> int:
    """Garner's recombination: the m mod p·q with m ≡ m_p (mod p), m ≡ m_q (mod q).

    h = q_inv·(m_p − m_q) mod p; m = m_q + q·h (RFC 8017 §5.1.2, step 2.b.iii–v).
    """
    h = mod_mul(q_inv, (m_p - m_q) % p, p)
    return m_q + q * h


def miller_rabin_rounds(bits: int) -> int:
    """Rounds giving error ≤ 2^-100 for random candidates (FIPS 186-4 Table C.2/C.3, 'p,q' rows)."""
    if bits >= 1536:
        return 4
    if bits >= 1024:
        return 5
    if bits >= 512:
        return 7
    return 40


def is_probable_prime(
    w: int, rounds: int | None = None, rng: Callable[[int], int] | None = None
) -> bool:
    """Miller-Rabin probabilistic primality test (FIPS 186-4 Appendix C.3.1).

    ``rounds`` defaults to :func:`miller_rabin_rounds`; ``rng(n)`` returns a
    uniform integer in [0, n) (default: :mod:`secrets`). Small primes are first
    tried by trial division.
    """
    if w < 2:
        return False
    for small in _SMALL_PRIMES:
        if w == small:
            return True
        if w % small == 0:
            return False
    rounds = miller_rabin_rounds(w.bit_length()) if rounds is None else rounds
    rng = rng or secrets.randbelow
    # Step 1-2: w − 1 = 2^a · m with m odd.
    a = 0
    m = w - 1
    while m % 2 == 0:
        m //= 2
        a += 1
    for _ in range(rounds):
        b = 2 + rng(w - 3)  # step 4.2: 1 < b < w − 1
        z = mod_pow(b, m, w)
        if z == 1 or z == w - 1:
            continue
        for _ in range(a - 1):
            z = mod_sqr(z, w)
            if z == w - 1:
                break
            if z == 1:
                return False
        else:
            return False
    return True


def _sieve(limit: int) -> tuple[int, ...]:
    flags = [True] * limit
    flags[0] = flags[1] = False
    for i in range(2, int(limit**0.5) + 1):
        if flags[i]:
            flags[i * i :: i] = [False] * len(flags[i * i :: i])
    return tuple(i for i, f in enumerate(flags) if f)


_SMALL_PRIMES = _sieve(1000)


def sqrt_mod(a: int, p: int) -> int | None:
    """A square root of a modulo an odd prime p, or ``None`` if a is not a square.

    p ≡ 3 (mod 4): a^((p+1)/4). Otherwise Tonelli-Shanks (HAC Algorithm 3.34).
    """
    a %= p
    if a == 0:
        return 0
    if mod_pow(a, (p - 1) // 2, p) != 1:  # Euler's criterion
        return None
    if p % 4 == 3:
        return mod_pow(a, (p + 1) // 4, p)
    s, q = 0, p - 1
    while q % 2 == 0:
        q //= 2
        s += 1
    z = 2
    while mod_pow(z, (p - 1) // 2, p) != p - 1:
        z += 1
    m, c, t, r = s, mod_pow(z, q, p), mod_pow(a, q, p), mod_pow(a, (q + 1) // 2, p)
    while t != 1:
        i, t2 = 0, t
        while t2 != 1:
            t2 = mod_sqr(t2, p)
            i += 1
        b = c
        for _ in range(m - i - 1):
            b = mod_sqr(b, p)
        m, c = i, mod_sqr(b, p)
        t, r = mod_mul(t, c, p), mod_mul(r, b, p)
    return r


def random_below(n: int, rng: Callable[[int], int] | None = None) -> int:
    """A uniform integer in [1, n) (``rng(k)`` returns a uniform integer in [0, k))."""
    return 1 + (rng or secrets.randbelow)(n - 1)


#: Constants whose product costs only additions/shifts (the EFD formulas' 2·, 3·, 4·, 8·), with
#: the modular additions each takes (2a = a + a; 3a = 2a + a; 4a = 2(2a); 8a = 2(2(2a))).
_ADDITION_CONSTANTS = {2: 1, 3: 2, 4: 2, 8: 3}


class PrimeField:
    """GF(p) for a prime p; elements are Python ints in [0, p).

    Every operation reports to :mod:`refbench.ref.opcount`: the multiplicative ones, and the
    additions, subtractions, negations and small-constant multiples as ``add``/``sub``.
    """

    __slots__ = ("bits", "byte_length", "p")

    def __init__(self, p: int) -> None:
        self.p = p
        self.bits = p.bit_length()
        self.byte_length = (self.bits + 7) // 8

    def __repr__(self) -> str:
        return f"PrimeField(0x{self.p:x})"

    def mul(self, a: int, b: int) -> int:
        opcount.mul()
        return a * b % self.p

    def sqr(self, a: int) -> int:
        opcount.sqr()
        return a * a % self.p

    def add(self, a: int, b: int) -> int:
        opcount.add()
        s = a + b
        return s - self.p if s >= self.p else s

    def sub(self, a: int, b: int) -> int:
        opcount.sub()
        d = a - b
        return d + self.p if d < 0 else d

    def neg(self, a: int) -> int:
        opcount.sub()
        return (self.p - a) % self.p

    def small(self, k: int, a: int) -> int:
        """k·a for k in 2, 3, 4, 8: a doubling or a few additions on a microcontroller, counted as
        the ``add`` events they take (1, 2, 2, 3)."""
        if k not in _ADDITION_CONSTANTS:
            raise ValueError(
                f"Invalid small constant ({k!r}); accepted: 2, 3, 4, 8 (use mul_const for others)"
            )
        opcount.add(_ADDITION_CONSTANTS[k])
        return k * a % self.p

    def mul_const(self, k: int, a: int) -> int:
        """k·a for a constant |k| < 2^32 (one row of word products and a reduction), counted ``mul_const``.

        X25519/X448's a24 and Ed448's d = −39081 are such constants (RFC 7748 §5,
        RFC 8032 §5.2.4); a negative k is a multiplication by |k| and a negation.
        """
        if not isinstance(k, int) or not -(1 << 32) < k < 1 << 32:
            raise ValueError(f"Invalid constant ({k!r}); accepted: an integer with |k| < 2^32")
        opcount.mul_const()
        return k * a % self.p

    def inv(self, a: int) -> int:
        """a⁻¹ by Fermat (a^(p−2)), counted as one inversion."""
        return inverse_fermat(a, self.p)

    def sqrt(self, a: int) -> int | None:
        """A square root of a, or ``None`` (:func:`sqrt_mod`); its exponentiations are counted."""
        return sqrt_mod(a, self.p)

    def pow(self, a: int, e: int) -> int:
        return pow_binary(a, e, self.p)
