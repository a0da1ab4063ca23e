"""SHA3-224/256/384/512 and SHAKE128/256 (FIPS 202, August 2015).

Read beside FIPS 202:

* §3.1.2 the state array A[x, y, z]: here 25 lanes of w = 64 bits, lane (x, y) at index x + 5y,
  bit z of a lane is bit z of the integer; §3.1.3 converting strings to lanes (little-endian bytes);
* §3.2.1-§3.2.5 the step mappings θ, ρ, π, χ, ι (:func:`theta`, :func:`rho`, :func:`pi`, :func:`chi`,
  :func:`iota`) and §3.3 Keccak-p[1600, 24] (:func:`keccak_f1600`);
* the ρ offsets are *derived* by §3.2.2 Algorithm 2 (:func:`rho_offsets`, Table 2 is checked in the
  tests) and the round constants by §3.2.5 Algorithms 5-6, the LFSR rc(t) (:func:`rc`,
  :func:`round_constant`);
* §4 the sponge construction and §5.1 pad10*1; §6.1 SHA3-d = Keccak[c = 2d](M || 01, d);
  §6.2 SHAKE128/256 = Keccak[c = 256/512](M || 1111, d). Messages here are whole bytes, so the
  suffix bits and the first pad bit fold into one byte: 0x06 (SHA-3) or 0x1F (SHAKE), and the
  last pad bit is 0x80 in the last byte of the block (Appendix B.2).

Each class streams like :mod:`hashlib`; SHAKE objects take ``digest(length)`` (a fresh output of
``length`` bytes, as hashlib's shake) and ``read(n)`` (the next n bytes of one continuing output,
as pycryptodome's SHAKE).
"""

from __future__ import annotations

from typing import Self

from refbench.ref.hashes import as_bytes

W = 64  # lane width w for b = 1600 (Table 1)
MASK64 = (1 << W) - 1


# --- derived constants --------------------------------------------------------------------------------
def rho_offsets() -> tuple[int, ...]:
    """§3.2.2 Algorithm 2: the rotation of lane (x, y), indexed x + 5y.

    Start at (x, y) = (1, 0); for t = 0..23 lane (x, y) is rotated by (t + 1)(t + 2)/2 mod w,
    then (x, y) <- (y, (2x + 3y) mod 5). Lane (0, 0) is not rotated.
    """
    offsets = [0] * 25
    x, y = 1, 0
    for t in range(24):
        offsets[x + 5 * y] = ((t + 1) * (t + 2) // 2) % W
        x, y = y, (2 * x + 3 * y) % 5
    return tuple(offsets)


def rc(t: int) -> int:
    """§3.2.5 Algorithm 5: the bit rc(t) of the LFSR x^8 + x^6 + x^5 + x^4 + 1."""
    if t % 255 == 0:
        return 1
    R = [1, 0, 0, 0, 0, 0, 0, 0]
    for _ in range(t % 255):
        R = [0] + R  # R = 0 || R
        R[0] ^= R[8]
        R[4] ^= R[8]
        R[5] ^= R[8]
        R[6] ^= R[8]
        R = R[:8]  # Trunc8[R]
    return R[0]


def round_constant(i_r: int) -> int:
    """§3.2.5 Algorithm 6 step 2-3: RC with bit 2^j - 1 = rc(j + 7 i_r) for j = 0..6 (l = 6)."""
    RC = 0
    for j in range(7):
        RC |= rc(j + 7 * i_r) << ((1 << j) - 1)
    return RC


#: ρ offsets of Table 2, derived (index x + 5y).
RHO_OFFSETS: tuple[int, ...] = rho_offsets()
#: ι round constants RC for i_r = 0..23 (Keccak-p[1600, 24] uses rounds 12 + 2l - 24 .. 12 + 2l - 1 = 0..23).
ROUND_CONSTANTS: tuple[int, ...] = tuple(round_constant(i_r) for i_r in range(24))


# --- step mappings (§3.2) -------------------------------------------------------------------------------
def theta(A: list[int]) -> list[int]:
    """§3.2.1: XOR each bit with the parities of two neighbouring columns."""
    C = [A[x] ^ A[x + 5] ^ A[x + 10] ^ A[x + 15] ^ A[x + 20] for x in range(5)]
    D = [
        C[(x - 1) % 5] ^ (((C[(x + 1) % 5] << 1) | (C[(x + 1) % 5] >> (W - 1))) & MASK64)
        for x in range(5)
    ]
    return [a ^ D[i % 5] for i, a in enumerate(A)]


_RHO_SHIFTS: tuple[tuple[int, int], ...] = tuple((n, (W - n) % W) for n in RHO_OFFSETS)


def rho(A: list[int]) -> list[int]:
    """§3.2.2: rotate each lane by its offset (the rotation written out: (a << n | a >> (w - n)) mod 2^w)."""
    return [((a << left) | (a >> right)) & MASK64 for a, (left, right) in zip(A, _RHO_SHIFTS)]


#: §3.2.3: A'[x, y] = A[(x + 3y) mod 5, x]; the source index of each destination index.
_PI_SOURCE: tuple[int, ...] = tuple(((x + 3 * y) % 5) + 5 * x for y in range(5) for x in range(5))


def pi(A: list[int]) -> list[int]:
    """§3.2.3: rearrange the lanes."""
    return [A[source] for source in _PI_SOURCE]


#: §3.2.4: the indices of lanes (x + 1, y) and (x + 2, y) for each lane (x, y).
_CHI_NEIGHBOURS: tuple[tuple[int, int, int], ...] = tuple(
    (x + 5 * y, (x + 1) % 5 + 5 * y, (x + 2) % 5 + 5 * y) for y in range(5) for x in range(5)
)


def chi(A: list[int]) -> list[int]:
    """§3.2.4: A'[x, y] = A[x, y] XOR ((A[x+1, y] XOR 1) AND A[x+2, y])."""
    return [A[i] ^ (~A[i1] & A[i2]) for i, i1, i2 in _CHI_NEIGHBOURS]


def iota(A: list[int], i_r: int) -> list[int]:
    """§3.2.5: XOR the round constant into lane (0, 0)."""
    return [A[0] ^ ROUND_CONSTANTS[i_r]] + A[1:]


def keccak_f1600(A: list[int]) -> list[int]:
    """§3.3 / §3.4: Keccak-f[1600] = Keccak-p[1600, 24]; Rnd(A, i_r) = ι(χ(π(ρ(θ(A)))), i_r)."""
    for i_r in range(24):
        A = iota(chi(pi(rho(theta(A)))), i_r)
    return A


# --- the sponge (§4) --------------------------------------------------------------------------------------
class _KeccakSponge:
    """SPONGE[Keccak-p[1600, 24], pad10*1, r] on byte strings, absorbing as data arrives."""

    name: str = ""
    rate: int = 0  # r / 8, the block size in bytes
    suffix: int = 0  # domain bits with the first pad bit: 0x06 for SHA-3, 0x1F for SHAKE

    def __init__(self, data: bytes = b"") -> None:
        self._A: list[int] = [0] * 25
        self._pending = b""
        if data:
            self.update(data)

    block_size: int = 0  # = rate, set for each subclass below (HMAC's B for SHA-3 is the rate)

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.block_size = cls.rate

    def _absorb_block(self, A: list[int], block: bytes) -> list[int]:
        lanes = [int.from_bytes(block[8 * i : 8 * i + 8], "little") for i in range(self.rate // 8)]
        return keccak_f1600([a ^ p for a, p in zip(A, lanes)] + A[len(lanes) :])

    def update(self, data: bytes) -> None:
        data = self._pending + as_bytes(data)
        whole = len(data) - len(data) % self.rate
        A = self._A
        for start in range(0, whole, self.rate):
            A = self._absorb_block(A, data[start : start + self.rate])
        self._A = A
        self._pending = data[whole:]

    def _final_state(self) -> list[int]:
        """Absorb the last block with the suffix and pad10*1 (§5.1)."""
        last = bytearray(self._pending) + bytes(self.rate - len(self._pending))
        last[len(self._pending)] ^= self.suffix
        last[-1] ^= 0x80
        return self._absorb_block(self._A, bytes(last))

    def _squeeze(self, A: list[int], length: int) -> tuple[bytes, list[int]]:
        """Output blocks of r bits (§4 step 8-10); returns length bytes and the state after the last block used."""
        out = bytearray()
        while True:
            out += b"".join(lane.to_bytes(8, "little") for lane in A[: self.rate // 8])
            if len(out) >= length:
                return bytes(out[:length]), A
            A = keccak_f1600(A)

    def copy(self) -> Self:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._A = list(self._A)
        return twin


class _SHA3(_KeccakSponge):
    """SHA3-d (§6.1): capacity c = 2d, r = 1600 - 2d, output d bits."""

    suffix = 0x06
    digest_size: int = 0

    def digest(self) -> bytes:
        output, _ = self._squeeze(self._final_state(), self.digest_size)
        return output

    def hexdigest(self) -> str:
        return self.digest().hex()


class SHA3_224(_SHA3):
    name = "sha3-224"
    digest_size = 28
    rate = 144


class SHA3_256(_SHA3):
    name = "sha3-256"
    digest_size = 32
    rate = 136


class SHA3_384(_SHA3):
    name = "sha3-384"
    digest_size = 48
    rate = 104


class SHA3_512(_SHA3):
    name = "sha3-512"
    digest_size = 64
    rate = 72


class _SHAKE(_KeccakSponge):
    """SHAKE (§6.2): an XOF; output length chosen by the caller."""

    suffix = 0x1F
    digest_size = 0  # as hashlib: no fixed output length

    def __init__(self, data: bytes = b"") -> None:
        self._reading: list[int] | None = None  # squeeze state once read() has started
        self._buffered = b""
        super().__init__(data)

    def update(self, data: bytes) -> None:
        if self._reading is not None:
            raise TypeError(
                f"{self.name}: update() after read() is not allowed (the sponge is squeezing)"
            )
        super().update(data)

    def digest(self, length: int) -> bytes:
        """The first ``length`` bytes of the output for everything absorbed (the object is unchanged)."""
        if not isinstance(length, int) or length < 0:
            raise ValueError(
                f"Invalid length ({length!r}) for {self.name}; accepted: an integer >= 0"
            )
        if length == 0:
            return b""
        if self._reading is not None:
            raise TypeError(f"{self.name}: digest() after read() is not allowed; keep using read()")
        output, _ = self._squeeze(self._final_state(), length)
        return output

    def hexdigest(self, length: int) -> str:
        return self.digest(length).hex()

    def read(self, n: int) -> bytes:
        """The next ``n`` bytes of the output stream; no more update() afterwards."""
        if not isinstance(n, int) or n < 0:
            raise ValueError(f"Invalid n ({n!r}) for {self.name}.read; accepted: an integer >= 0")
        if self._reading is None:
            self._reading = self._final_state()
            self._buffered = b"".join(
                lane.to_bytes(8, "little") for lane in self._reading[: self.rate // 8]
            )
        while len(self._buffered) < n:
            self._reading = keccak_f1600(self._reading)
            self._buffered += b"".join(
                lane.to_bytes(8, "little") for lane in self._reading[: self.rate // 8]
            )
        output, self._buffered = self._buffered[:n], self._buffered[n:]
        return output

    def copy(self) -> Self:
        twin = super().copy()
        if self._reading is not None:
            twin._reading = list(self._reading)
        return twin


class SHAKE128(_SHAKE):
    name = "shake128"
    rate = 168


class SHAKE256(_SHAKE):
    name = "shake256"
    rate = 136


# --- one-call functions -------------------------------------------------------------------------------
def sha3_224(data: bytes) -> bytes:
    return SHA3_224(data).digest()


def sha3_256(data: bytes) -> bytes:
    return SHA3_256(data).digest()


def sha3_384(data: bytes) -> bytes:
    return SHA3_384(data).digest()


def sha3_512(data: bytes) -> bytes:
    return SHA3_512(data).digest()


def shake128(data: bytes, length: int) -> bytes:
    """SHAKE128(M, d) with d = 8 * length."""
    return SHAKE128(data).digest(length)


def shake256(data: bytes, length: int) -> bytes:
    """SHAKE256(M, d) with d = 8 * length."""
    return SHAKE256(data).digest(length)
