"""AES, the Advanced Encryption Standard (FIPS 197, 2001; FIPS 197-upd1, 2023).

Written to be read beside the standard. Section numbers are those of FIPS 197
(2001); the 2023 update (FIPS 197-upd1) keeps the algorithm and the example
values and renumbers some figures (the S-box of Figure 7 is its Table 4).

* The finite field GF(2^8) with m(x) = x^8 + x^4 + x^3 + x + 1 (§4.2): ``xtime``
  (§4.2.1), ``gf_mul`` and ``gf_inverse``.
* The S-box is *computed* (§5.1.1): the multiplicative inverse in GF(2^8)
  followed by the affine transformation (5.1). The inverse S-box is the inverse
  permutation. A test compares both with the table printed in Figure 7.
* ``key_expansion`` (§5.2, Figure 11), ``cipher`` (§5.1, Figure 5) and
  ``inv_cipher`` (§5.3, Figure 12), with the transformations SubBytes(),
  ShiftRows(), MixColumns(), AddRoundKey() and their inverses.
* :class:`AES` wraps them with the block-cipher interface used by
  :mod:`refbench.ref.modes`.

The State s[r, c] is held as a flat list of 16 bytes in the order of
equation (3.3): ``state[r + 4*c] = in[r + 4*c]``, so a block's bytes map to the
State column by column, exactly as in the standard.

``cipher`` and ``inv_cipher`` take an optional ``observe(round, name, state)``
callback that receives the intermediate States with the names printed in
Appendix C (``start``, ``s_box``, ``s_row``, ``m_col``, ``k_sch``, ``output``;
``iinput``, ``istart``, ``is_row``, ``is_box``, ``ik_sch``, ``ik_add``,
``ioutput``); :mod:`refbench.traces.aes` turns them into the appendix's rows.
"""

from __future__ import annotations

from collections.abc import Callable

Observer = Callable[[int, str, bytes], None] | None

Nb = 4  # number of columns (32-bit words) of the State; 4 for AES (§5)

#: Figure 4: Key-Block-Round combinations, Nk (key words) -> Nr (rounds).
ROUNDS_FOR_NK = {4: 10, 6: 12, 8: 14}


# --- §4.2 Multiplication in GF(2^8) -------------------------------------------------------


def xtime(b: int) -> int:
    """Multiplication by x ({02}) modulo m(x) (§4.2.1): shift left, XOR {1b} if b7 was set."""
    b <<= 1
    if b & 0x100:
        b ^= 0x11B  # subtracting m(x) = {01}{1b} clears bit 8 and XORs {1b}
    return b


def gf_mul(a: int, b: int) -> int:
    """a • b in GF(2^8) (§4.2): add a•x^i for every bit i set in b, using repeated xtime()."""
    product = 0
    while b:
        if b & 1:
            product ^= a
        a = xtime(a)
        b >>= 1
    return product


def gf_inverse(b: int) -> int:
    """Multiplicative inverse in GF(2^8) (§4.2, eq. 4.3); {00} maps to itself (§5.1.1).

    The multiplicative group has 255 elements, so b^-1 = b^254, computed by
    square-and-multiply.
    """
    result, base, exponent = 1, b, 254
    while exponent:
        if exponent & 1:
            result = gf_mul(result, base)
        base = gf_mul(base, base)
        exponent >>= 1
    return result if b else 0


def affine_transformation(b: int) -> int:
    """The affine transformation of equation (5.1), with c = {63}:

    b'_i = b_i ⊕ b_(i+4)mod8 ⊕ b_(i+5)mod8 ⊕ b_(i+6)mod8 ⊕ b_(i+7)mod8 ⊕ c_i
    """
    result = 0
    for i in range(8):
        bit = (
            (b >> i)
            ^ (b >> ((i + 4) % 8))
            ^ (b >> ((i + 5) % 8))
            ^ (b >> ((i + 6) % 8))
            ^ (b >> ((i + 7) % 8))
        )
        bit ^= 0x63 >> i
        result |= (bit & 1) << i
    return result


#: The S-box (§5.1.1): the affine transformation of the multiplicative inverse.
SBOX: tuple[int, ...] = tuple(affine_transformation(gf_inverse(x)) for x in range(256))


def _inverse_permutation(table: tuple[int, ...]) -> tuple[int, ...]:
    inverse = [0] * 256
    for x, y in enumerate(table):
        inverse[y] = x
    return tuple(inverse)


#: The inverse S-box used by InvSubBytes() (§5.3.2, Figure 14): the inverse permutation of SBOX.
INV_SBOX: tuple[int, ...] = _inverse_permutation(SBOX)

# Multiplication by the constant coefficients of MixColumns() (eq. 5.6) and
# InvMixColumns() (eq. 5.10),
# tabulated once from gf_mul so each round is a lookup per byte.
_MUL2 = tuple(gf_mul(x, 0x02) for x in range(256))
_MUL3 = tuple(gf_mul(x, 0x03) for x in range(256))
_MUL9 = tuple(gf_mul(x, 0x09) for x in range(256))
_MUL11 = tuple(gf_mul(x, 0x0B) for x in range(256))
_MUL13 = tuple(gf_mul(x, 0x0D) for x in range(256))
_MUL14 = tuple(gf_mul(x, 0x0E) for x in range(256))

# ShiftRows() (eq. 5.3): s'[r, c] = s[r, (c + r) mod 4]; with state[r + 4c] this is a permutation
# of the 16 positions. InvShiftRows() (eq. 5.8): s'[r, (c + r) mod 4] = s[r, c].
_SHIFT_ROWS = tuple(r + 4 * ((c + r) % 4) for c in range(4) for r in range(4))
_INV_SHIFT_ROWS = tuple(r + 4 * ((c - r) % 4) for c in range(4) for r in range(4))


# --- §5.1 Cipher transformations -----------------------------------------------------------


def sub_bytes(state: list[int]) -> list[int]:
    """SubBytes() (§5.1.1): the S-box applied to every byte of the State."""
    return [SBOX[b] for b in state]


def shift_rows(state: list[int]) -> list[int]:
    """ShiftRows() (§5.1.2): row r is rotated left by r bytes."""
    return [state[i] for i in _SHIFT_ROWS]


def mix_columns(state: list[int]) -> list[int]:
    """MixColumns() (§5.1.3): each column times a(x) = {03}x^3 + {01}x^2 + {01}x + {02}.

    The product is taken modulo x^4 + 1 (eq. 5.5, 5.6).
    """
    out = []
    for c in range(0, 16, 4):
        s0, s1, s2, s3 = state[c : c + 4]
        out += (
            _MUL2[s0] ^ _MUL3[s1] ^ s2 ^ s3,
            s0 ^ _MUL2[s1] ^ _MUL3[s2] ^ s3,
            s0 ^ s1 ^ _MUL2[s2] ^ _MUL3[s3],
            _MUL3[s0] ^ s1 ^ s2 ^ _MUL2[s3],
        )
    return out


def add_round_key(state: list[int], round_key: bytes) -> list[int]:
    """AddRoundKey() (§5.1.4): XOR of the State with the round's Nb words of the key schedule."""
    return [s ^ k for s, k in zip(state, round_key, strict=True)]


# --- §5.3 Inverse cipher transformations ---------------------------------------------------


def inv_shift_rows(state: list[int]) -> list[int]:
    """InvShiftRows() (§5.3.1): row r is rotated right by r bytes."""
    return [state[i] for i in _INV_SHIFT_ROWS]


def inv_sub_bytes(state: list[int]) -> list[int]:
    """InvSubBytes() (§5.3.2): the inverse S-box applied to every byte."""
    return [INV_SBOX[b] for b in state]


def inv_mix_columns(state: list[int]) -> list[int]:
    """InvMixColumns() (§5.3.3): each column times a^-1(x) = {0b}x^3 + {0d}x^2 + {09}x + {0e}."""
    out = []
    for c in range(0, 16, 4):
        s0, s1, s2, s3 = state[c : c + 4]
        out += (
            _MUL14[s0] ^ _MUL11[s1] ^ _MUL13[s2] ^ _MUL9[s3],
            _MUL9[s0] ^ _MUL14[s1] ^ _MUL11[s2] ^ _MUL13[s3],
            _MUL13[s0] ^ _MUL9[s1] ^ _MUL14[s2] ^ _MUL11[s3],
            _MUL11[s0] ^ _MUL13[s1] ^ _MUL9[s2] ^ _MUL14[s3],
        )
    return out


# --- §5.2 Key Expansion ---------------------------------------------------------------------


def sub_word(word: bytes) -> bytes:
    """SubWord() (§5.2): the S-box applied to each of the four bytes of a word."""
    return bytes(SBOX[b] for b in word)


def rot_word(word: bytes) -> bytes:
    """RotWord() (§5.2): [a0, a1, a2, a3] -> [a1, a2, a3, a0]."""
    return word[1:] + word[:1]


def rcon(i: int) -> bytes:
    """Rcon[i] = [x^(i-1), {00}, {00}, {00}] (§5.2), x^(i-1) by xtime(); i starts at 1."""
    power = 0x01
    for _ in range(i - 1):
        power = xtime(power)
    return bytes((power, 0, 0, 0))


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))


def check_key(key: bytes) -> int:
    """Nk for a Cipher Key of 16, 24 or 32 bytes (§5, Figure 4); ValueError for any other length."""
    if len(key) not in (16, 24, 32):
        raise ValueError(f"Invalid key size ({len(key)} bytes) for AES; accepted: 16, 24, 32")
    return len(key) // 4


def key_expansion(key: bytes) -> list[bytes]:
    """KeyExpansion() (§5.2, Figure 11): the key schedule w[0 .. Nb*(Nr+1) - 1] of 4-byte words."""
    nk = check_key(key)
    nr = ROUNDS_FOR_NK[nk]
    w = [bytes(key[4 * i : 4 * i + 4]) for i in range(nk)]
    for i in range(nk, Nb * (nr + 1)):
        temp = w[i - 1]
        if i % nk == 0:
            temp = _xor(sub_word(rot_word(temp)), rcon(i // nk))
        elif nk > 6 and i % nk == 4:
            temp = sub_word(temp)
        w.append(_xor(w[i - nk], temp))
    return w


def round_keys(w: list[bytes]) -> list[bytes]:
    """The round keys w[round*Nb, (round+1)*Nb - 1] as 16-byte strings, round = 0 .. Nr."""
    return [b"".join(w[r * Nb : (r + 1) * Nb]) for r in range(len(w) // Nb)]


# --- §5.1 Cipher and §5.3 InvCipher -------------------------------------------------------


def cipher(block: bytes, keys: list[bytes], observe: Observer = None) -> bytes:
    """Cipher() (§5.1, Figure 5) with the round keys from :func:`round_keys`.

    ``observe(round, name, state)`` receives the States as Appendix C prints them.
    """
    nr = len(keys) - 1
    state = list(block)
    if observe:
        observe(0, "input", bytes(state))
        observe(0, "k_sch", keys[0])
    state = add_round_key(state, keys[0])
    for rnd in range(1, nr + 1):
        if observe:
            observe(rnd, "start", bytes(state))
        state = sub_bytes(state)
        if observe:
            observe(rnd, "s_box", bytes(state))
        state = shift_rows(state)
        if observe:
            observe(rnd, "s_row", bytes(state))
        if rnd != nr:  # the final round has no MixColumns()
            state = mix_columns(state)
            if observe:
                observe(rnd, "m_col", bytes(state))
        if observe:
            observe(rnd, "k_sch", keys[rnd])
        state = add_round_key(state, keys[rnd])
    if observe:
        observe(nr, "output", bytes(state))
    return bytes(state)


def inv_cipher(block: bytes, keys: list[bytes], observe: Observer = None) -> bytes:
    """InvCipher() (§5.3, Figure 12): the Cipher's transformations inverted, in reverse order.

    Appendix C numbers its rounds 1 .. Nr in the order they run; round r uses
    the key schedule words of round Nr - r.
    """
    nr = len(keys) - 1
    state = list(block)
    if observe:
        observe(0, "iinput", bytes(state))
        observe(0, "ik_sch", keys[nr])
    state = add_round_key(state, keys[nr])
    for rnd in range(1, nr + 1):
        if observe:
            observe(rnd, "istart", bytes(state))
        state = inv_shift_rows(state)
        if observe:
            observe(rnd, "is_row", bytes(state))
        state = inv_sub_bytes(state)
        if observe:
            observe(rnd, "is_box", bytes(state))
            observe(rnd, "ik_sch", keys[nr - rnd])
        state = add_round_key(state, keys[nr - rnd])
        if rnd != nr:  # the last round has no InvMixColumns()
            if observe:
                observe(rnd, "ik_add", bytes(state))
            state = inv_mix_columns(state)
    if observe:
        observe(nr, "ioutput", bytes(state))
    return bytes(state)


class AES:
    """The AES block cipher with a 128-, 192- or 256-bit Cipher Key (FIPS 197).

    ``block_size`` is 16 bytes; ``rounds`` is Nr (10, 12 or 14, Figure 4).
    """

    block_size = 16

    def __init__(self, key: bytes) -> None:
        key = bytes(key)
        self.rounds = ROUNDS_FOR_NK[check_key(key)]
        self.key_schedule = key_expansion(key)
        self._keys = round_keys(self.key_schedule)

    def _check_block(self, block: bytes) -> bytes:
        if len(block) != 16:
            raise ValueError(f"Invalid block length ({len(block)} bytes) for AES; accepted: 16")
        return bytes(block)

    def encrypt_block(self, block: bytes) -> bytes:
        """Cipher() (§5.1) of one 16-byte block."""
        return cipher(self._check_block(block), self._keys)

    def decrypt_block(self, block: bytes) -> bytes:
        """InvCipher() (§5.3) of one 16-byte block."""
        return inv_cipher(self._check_block(block), self._keys)

    def encrypt_block_traced(
        self, block: bytes, observe: Callable[[int, str, bytes], None]
    ) -> bytes:
        """Cipher() reporting every intermediate State to ``observe`` (Appendix C layout)."""
        return cipher(self._check_block(block), self._keys, observe)

    def decrypt_block_traced(
        self, block: bytes, observe: Callable[[int, str, bytes], None]
    ) -> bytes:
        """InvCipher() reporting every intermediate State to ``observe`` (Appendix C layout)."""
        return inv_cipher(self._check_block(block), self._keys, observe)
