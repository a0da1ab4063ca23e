"""Block-cipher modes of operation, generic over any block cipher.

A *block cipher* here is any object with ``block_size`` (bytes),
``encrypt_block(block) -> bytes`` and ``decrypt_block(block) -> bytes``: AES
(16-byte blocks), SM4 (16) and TDEA (8) all fit. The names below are a contract
other modules code against.

* NIST SP 800-38A (2001): ECB (§6.1), CBC (§6.2) and CTR (§6.5, with the
  standard incrementing function of Appendix B.1), one-shot and streaming.
* NIST SP 800-38B (2005, updated 2016): CMAC (§6), for 64- and 128-bit blocks.
* NIST SP 800-38D (2007): GCM and GMAC (§6, §7), with GHASH's multiplication
  in GF(2^128) written out bit by bit as Algorithm 1, plus a documented 4-bit
  table variant of the same multiplication used for speed.
* NIST SP 800-38C (2004, updated 2007): CCM (§6) with the formatting and
  counter generation functions of Appendix A.

Streaming objects accept input in chunks of any size, as the published figures'
benchmarks feed them (streams of 1024-byte blocks). Bad sizes raise
``ValueError`` naming the parameter, its value and the accepted values; a tag
that does not verify raises :class:`refbench.errors.InvalidTag` and releases no
plaintext.
"""

from __future__ import annotations

import hmac
from abc import ABC, abstractmethod
from typing import Protocol

from refbench.errors import InvalidTag


class BlockCipher(Protocol):
    """What the modes need: a block size in bytes and the forward and inverse cipher functions."""

    block_size: int

    def encrypt_block(self, block: bytes) -> bytes: ...

    def decrypt_block(self, block: bytes) -> bytes: ...


def _xor(a: bytes, b: bytes) -> bytes:
    """a ⊕ b over the length of the shorter one."""
    n = min(len(a), len(b))
    return (int.from_bytes(a[:n], "big") ^ int.from_bytes(b[:n], "big")).to_bytes(n, "big")


def _zero_pad(data: bytes) -> bytes:
    """``data`` followed by the fewest zero bytes that make it a whole number of 16-byte blocks
    (the 0^v, 0^u, 0^s of GCM and the zero padding of CCM's formatted blocks)."""
    return data + bytes(-len(data) % 16)


def _check_multiple(cipher: BlockCipher, data: bytes, mode: str) -> None:
    b = cipher.block_size
    if len(data) % b:
        raise ValueError(
            f"Invalid data length ({len(data)} bytes) for {mode} with a {b}-byte block cipher; "
            f"accepted: a multiple of {b} bytes (no padding is applied)"
        )


def _check_block_parameter(cipher: BlockCipher, value: bytes, name: str, mode: str) -> None:
    if len(value) != cipher.block_size:
        raise ValueError(
            f"Invalid {name} length ({len(value)} bytes) for {mode} with a "
            f"{cipher.block_size}-byte block cipher; accepted: {cipher.block_size}"
        )


# --- SP 800-38A §6.1 ECB ----------------------------------------------------------------------


def ecb_encrypt(cipher: BlockCipher, data: bytes) -> bytes:
    """ECB encryption (SP 800-38A §6.1): C_j = CIPH_K(P_j). No padding."""
    _check_multiple(cipher, data, "ECB")
    b = cipher.block_size
    return b"".join(cipher.encrypt_block(data[i : i + b]) for i in range(0, len(data), b))


def ecb_decrypt(cipher: BlockCipher, data: bytes) -> bytes:
    """ECB decryption (SP 800-38A §6.1): P_j = CIPH^-1_K(C_j)."""
    _check_multiple(cipher, data, "ECB")
    b = cipher.block_size
    return b"".join(cipher.decrypt_block(data[i : i + b]) for i in range(0, len(data), b))


# --- SP 800-38A §6.2 CBC ----------------------------------------------------------------------


def cbc_encrypt(cipher: BlockCipher, iv: bytes, data: bytes) -> bytes:
    """CBC encryption (SP 800-38A §6.2): C_1 = CIPH_K(P_1 ⊕ IV), C_j = CIPH_K(P_j ⊕ C_(j-1))."""
    encryptor = CbcEncryptor(cipher, iv)
    _check_multiple(cipher, data, "CBC")
    return encryptor.update(data) + encryptor.finalize()


def cbc_decrypt(cipher: BlockCipher, iv: bytes, data: bytes) -> bytes:
    """CBC decryption (SP 800-38A §6.2).

    P_1 = CIPH^-1_K(C_1) ⊕ IV, P_j = CIPH^-1_K(C_j) ⊕ C_(j-1).
    """
    decryptor = CbcDecryptor(cipher, iv)
    _check_multiple(cipher, data, "CBC")
    return decryptor.update(data) + decryptor.finalize()


class _CbcStream(ABC):
    """CBC over a stream: complete blocks are processed, a partial one waits for more data."""

    def __init__(self, cipher: BlockCipher, iv: bytes) -> None:
        _check_block_parameter(cipher, iv, "IV", "CBC")
        self._cipher = cipher
        self._chain = bytes(iv)  # the previous ciphertext block (the IV at first)
        self._pending = b""  # a partial block waiting for more data
        self._finalized = False

    def update(self, data: bytes) -> bytes:
        """Process ``data`` (any length); returns the output of every block completed so far."""
        if self._finalized:
            raise ValueError(f"{type(self).__name__}.update called after finalize")
        b = self._cipher.block_size
        buffer = self._pending + bytes(data)
        whole = len(buffer) - len(buffer) % b
        self._pending = buffer[whole:]
        return b"".join(self._block(buffer[i : i + b]) for i in range(0, whole, b))

    def finalize(self) -> bytes:
        """End of the message; ValueError if a partial block is left (CBC does not pad)."""
        if self._finalized:
            raise ValueError(f"{type(self).__name__}.finalize called twice")
        self._finalized = True
        if self._pending:
            b = self._cipher.block_size
            raise ValueError(
                f"Invalid data length for CBC: {len(self._pending)} bytes left after the last "
                f"complete {b}-byte block; accepted: a multiple of {b} bytes "
                "(no padding is applied)"
            )
        return b""

    @abstractmethod
    def _block(self, block: bytes) -> bytes:
        """Process one complete block."""


class CbcEncryptor(_CbcStream):
    """Streaming CBC encryption (SP 800-38A §6.2); partial blocks are buffered across updates."""

    def _block(self, block: bytes) -> bytes:
        self._chain = self._cipher.encrypt_block(_xor(block, self._chain))
        return self._chain


class CbcDecryptor(_CbcStream):
    """Streaming CBC decryption (SP 800-38A §6.2); partial blocks are buffered across updates."""

    def _block(self, block: bytes) -> bytes:
        plain = _xor(self._cipher.decrypt_block(block), self._chain)
        self._chain = block
        return plain


# --- SP 800-38A §6.5 CTR ----------------------------------------------------------------------


def ctr_crypt(cipher: BlockCipher, counter_block: bytes, data: bytes) -> bytes:
    """CTR encryption and decryption (SP 800-38A §6.5), data of any length.

    The counter blocks T_j are the initial counter block incremented by the
    standard incrementing function of Appendix B.1 over the whole block
    (big-endian, modulo 2^(8*block_size)). O_j = CIPH_K(T_j); C_j = P_j ⊕ O_j, the
    last block using only the leading bits of O_n.
    """
    stream = CtrStream(cipher, counter_block)
    return stream.update(data) + stream.finalize()


class CtrStream:
    """Streaming CTR (SP 800-38A §6.5): ``update`` returns as many bytes as it is given."""

    def __init__(self, cipher: BlockCipher, counter_block: bytes) -> None:
        _check_block_parameter(cipher, counter_block, "counter block", "CTR")
        self._cipher = cipher
        self._counter = int.from_bytes(counter_block, "big")
        self._modulus = 1 << (8 * cipher.block_size)
        self._keystream = b""  # the unused tail of the last output block O_j

    def _next_output_block(self) -> bytes:
        block = self._counter.to_bytes(self._cipher.block_size, "big")
        self._counter = (self._counter + 1) % self._modulus  # Appendix B.1, over the whole block
        return self._cipher.encrypt_block(block)

    def update(self, data: bytes) -> bytes:
        data = bytes(data)
        need = len(data) - len(self._keystream)
        pieces = [self._keystream]
        while need > 0:
            block = self._next_output_block()
            pieces.append(block)
            need -= len(block)
        keystream = b"".join(pieces)
        self._keystream = keystream[len(data) :]
        return _xor(data, keystream)

    def finalize(self) -> bytes:
        """CTR needs no final step; returns b""."""
        return b""


# --- SP 800-38B CMAC --------------------------------------------------------------------------

#: R_b of SP 800-38B §5.3: the constant for subkey generation, by block size in bytes.
CMAC_RB = {16: 0x87, 8: 0x1B}


def _double(block: bytes) -> bytes:
    """The subkey step of SP 800-38B §6.1: (L << 1), XOR R_b when MSB_1(L) = 1."""
    size = len(block)
    value = int.from_bytes(block, "big") << 1
    if value >> (8 * size):
        value ^= (1 << (8 * size)) | CMAC_RB[size]
    return value.to_bytes(size, "big")


def cmac_subkeys(cipher: BlockCipher) -> tuple[bytes, bytes]:
    """SUBK(K) (SP 800-38B §6.1): L = CIPH_K(0^b), K1 = dbl(L), K2 = dbl(K1)."""
    if cipher.block_size not in CMAC_RB:
        raise ValueError(
            f"Invalid block size ({cipher.block_size} bytes) for CMAC; accepted: 8, 16"
        )
    l_block = cipher.encrypt_block(bytes(cipher.block_size))
    k1 = _double(l_block)
    return k1, _double(k1)


def _check_cmac_tag_length(cipher: BlockCipher, tag_length: int) -> None:
    if not 1 <= tag_length <= cipher.block_size:
        raise ValueError(
            f"Invalid tag length ({tag_length} bytes) for CMAC with a "
            f"{cipher.block_size}-byte block cipher; accepted: 1 to {cipher.block_size} "
            "(SP 800-38B recommends at least 8)"
        )


class Cmac:
    """Streaming CMAC (SP 800-38B §6.2). The last block is held back until ``finalize``."""

    def __init__(self, cipher: BlockCipher) -> None:
        self._cipher = cipher
        self._k1, self._k2 = cmac_subkeys(cipher)
        self._chain = bytes(cipher.block_size)  # C_0 = 0^b
        self._pending = b""
        self._finalized = False

    def update(self, data: bytes) -> None:
        if self._finalized:
            raise ValueError("Cmac.update called after finalize")
        b = self._cipher.block_size
        buffer = self._pending + bytes(data)
        # Keep at least one (possibly complete) block: the last block M_n is treated differently.
        keep = len(buffer) % b or min(b, len(buffer))
        for i in range(0, len(buffer) - keep, b):
            self._chain = self._cipher.encrypt_block(_xor(self._chain, buffer[i : i + b]))
        self._pending = buffer[len(buffer) - keep :]

    def finalize(self, tag_length: int | None = None) -> bytes:
        """T = MSB_Tlen(C_n) (§6.2 steps 3-7); ``tag_length`` in bytes, default the block size."""
        b = self._cipher.block_size
        tag_length = b if tag_length is None else tag_length
        _check_cmac_tag_length(self._cipher, tag_length)
        if self._finalized:
            raise ValueError("Cmac.finalize called twice")
        self._finalized = True
        if len(self._pending) == b:  # a complete final block: M_n = K1 ⊕ M_n*
            last = _xor(self._k1, self._pending)
        else:  # M_n = K2 ⊕ (M_n* || 10^j)
            padded = self._pending + b"\x80" + bytes(b - len(self._pending) - 1)
            last = _xor(self._k2, padded)
        return self._cipher.encrypt_block(_xor(self._chain, last))[:tag_length]

    def verify(self, tag: bytes) -> None:
        """VER (§6.3): raise InvalidTag unless ``tag`` equals the MAC truncated to its length."""
        expected = self.finalize(len(tag))
        if not hmac.compare_digest(expected, bytes(tag)):
            raise InvalidTag()


def cmac(cipher: BlockCipher, message: bytes, tag_length: int | None = None) -> bytes:
    """CMAC generation (SP 800-38B §6.2); ``tag_length`` in bytes, default the block size."""
    mac = Cmac(cipher)
    mac.update(message)
    return mac.finalize(tag_length)


def cmac_verify(cipher: BlockCipher, message: bytes, tag: bytes) -> None:
    """CMAC verification (SP 800-38B §6.3): InvalidTag if ``tag`` is not the (truncated) MAC."""
    mac = Cmac(cipher)
    mac.update(message)
    mac.verify(tag)


# --- SP 800-38D GCM: the field GF(2^128) and GHASH ---------------------------------------------

#: R = 11100001 || 0^120 (SP 800-38D §6.3).
GCM_R = 0xE1 << 120


def gf128_multiply(x: int, y: int) -> int:
    """X • Y in GF(2^128), Algorithm 1 of SP 800-38D §6.3, bit by bit.

    Blocks are integers with bit x_0 (the leftmost bit of the block) as the most
    significant bit. For i = 0 .. 127: if x_i = 1 then Z ^= V; then V = V >> 1,
    XORed with R when the bit shifted out (LSB_1(V)) was 1.
    """
    z, v = 0, y
    for i in range(128):
        if (x >> (127 - i)) & 1:
            z ^= v
        v = (v >> 1) ^ GCM_R if v & 1 else v >> 1
    return z


def _times_x4(value: int) -> int:
    """value • x^4: four steps of Algorithm 1's V update."""
    for _ in range(4):
        value = (value >> 1) ^ GCM_R if value & 1 else value >> 1
    return value


#: Reduction of the four low bits shifted out when a value is multiplied by x^4 (see Gf128Table).
_REDUCE_4 = tuple(_times_x4(t) for t in range(16))


class Gf128Table:
    """Multiplication by a fixed H in GF(2^128) with a 4-bit table: the same product as Algorithm 1.

    This is a speed variant of :func:`gf128_multiply`, checked against it in the
    tests. Split X into 32 nibbles N_k of four consecutive bits x_(4k) .. x_(4k+3),
    so X = Σ N_k • x^(4k). Precompute M[n] = n • H for the 16 nibble values
    (XORs of H, H•x, H•x^2, H•x^3), then evaluate by Horner's rule from the last
    nibble: Z = Z • x^4 ⊕ M[N_k]. Multiplying Z by x^4 is a right shift by 4
    whose four shifted-out bits t are folded back with the precomputed
    reduction _REDUCE_4[t]. Per key: 3 shifts and 16 XOR combinations; per
    product: 32 steps instead of 128.
    """

    def __init__(self, h: int) -> None:
        powers = [h]  # H • x^j for j = 0 .. 3
        for _ in range(3):
            last = powers[-1]
            powers.append((last >> 1) ^ GCM_R if last & 1 else last >> 1)
        table = []
        for n in range(16):  # bit 3 of n is the coefficient of x^0 (x_(4k) comes first)
            value = 0
            for j in range(4):
                if (n >> (3 - j)) & 1:
                    value ^= powers[j]
            table.append(value)
        self._table = tuple(table)

    def multiply(self, x: int) -> int:
        """X • H."""
        table, reduce = self._table, _REDUCE_4
        z = 0
        for shift in range(0, 128, 4):  # nibble k = 31 (lowest bits) first
            z = (z >> 4) ^ reduce[z & 0xF] ^ table[(x >> shift) & 0xF]
        return z


def ghash(h: bytes, data: bytes) -> bytes:
    """GHASH_H(X) (SP 800-38D §6.4, Algorithm 2), with the bit-by-bit multiplication of Algorithm 1.

    ``data`` must be a whole number of 16-byte blocks: Y_0 = 0, Y_i = (Y_(i-1) ⊕ X_i) • H.
    """
    if len(h) != 16:
        raise ValueError(f"Invalid hash subkey length ({len(h)} bytes) for GHASH; accepted: 16")
    if len(data) % 16:
        raise ValueError(
            f"Invalid data length ({len(data)} bytes) for GHASH; accepted: a multiple of 16"
        )
    hash_subkey = int.from_bytes(h, "big")
    y = 0
    for i in range(0, len(data), 16):
        y = gf128_multiply(y ^ int.from_bytes(data[i : i + 16], "big"), hash_subkey)
    return y.to_bytes(16, "big")


class _Ghash:
    """Incremental GHASH of Algorithm 4 step 5.

    The input is A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64.
    """

    def __init__(self, h: bytes) -> None:
        self._multiplier = Gf128Table(int.from_bytes(h, "big"))
        self._y = 0
        self._pending = b""
        self.aad_length = 0
        self.text_length = 0
        self._in_text = False

    def _absorb(self, data: bytes) -> None:
        buffer = self._pending + data
        whole = len(buffer) - len(buffer) % 16
        multiply = self._multiplier.multiply
        y = self._y
        for i in range(0, whole, 16):
            y = multiply(y ^ int.from_bytes(buffer[i : i + 16], "big"))
        self._y = y
        self._pending = buffer[whole:]

    def _pad(self) -> None:
        if self._pending:
            self._absorb(bytes(16 - len(self._pending)))

    def update_aad(self, data: bytes) -> None:
        if self._in_text:
            raise ValueError("additional data must be given before the plaintext or ciphertext")
        self.aad_length += len(data)
        self._absorb(data)

    def update_text(self, data: bytes) -> None:
        if not self._in_text:
            self._pad()  # 0^v after A
            self._in_text = True
        self.text_length += len(data)
        self._absorb(data)

    def digest(self) -> bytes:
        self._pad()  # 0^v or 0^u
        len_a = (8 * self.aad_length).to_bytes(8, "big")  # [len(A)]_64, in bits
        len_c = (8 * self.text_length).to_bytes(8, "big")  # [len(C)]_64, in bits
        self._absorb(len_a + len_c)
        return self._y.to_bytes(16, "big")


# --- SP 800-38D GCM: GCTR, J0 and the authenticated encryption functions -----------------------

#: Tag lengths t allowed by SP 800-38D §5.2.1.2, in bytes
#: (128, 120, 112, 104, 96 bits; 64 and 32 under Appendix C's conditions).
GCM_TAG_LENGTHS = (16, 15, 14, 13, 12, 8, 4)

#: len(P) <= 2^39 - 256 bits (§5.2.1.1).
_GCM_MAX_TEXT = (2**39 - 256) // 8


def _check_gcm(cipher: BlockCipher, iv: bytes, tag_length: int) -> None:
    if cipher.block_size != 16:
        raise ValueError(f"Invalid block size ({cipher.block_size} bytes) for GCM; accepted: 16")
    if len(iv) < 1:
        raise ValueError(
            "Invalid IV length (0 bytes) for GCM; accepted: 1 byte or more (12 recommended)"
        )
    if tag_length not in GCM_TAG_LENGTHS:
        raise ValueError(
            f"Invalid tag length ({tag_length} bytes) for GCM; accepted: "
            f"{', '.join(str(t) for t in GCM_TAG_LENGTHS)}"
        )


def _inc32(block: bytes) -> bytes:
    """inc_32(X) (§6.2): increment the rightmost 32 bits modulo 2^32, leave the rest."""
    counter = (int.from_bytes(block[12:], "big") + 1) & 0xFFFFFFFF
    return block[:12] + counter.to_bytes(4, "big")


class _Gctr:
    """GCTR_K(ICB, X) (§6.5, Algorithm 3), incremental: counter blocks advance with inc_32."""

    def __init__(self, cipher: BlockCipher, icb: bytes) -> None:
        self._cipher = cipher
        self._counter = icb
        self._keystream = b""

    def update(self, data: bytes) -> bytes:
        need = len(data) - len(self._keystream)
        pieces = [self._keystream]
        while need > 0:
            pieces.append(self._cipher.encrypt_block(self._counter))
            self._counter = _inc32(self._counter)
            need -= 16
        keystream = b"".join(pieces)
        self._keystream = keystream[len(data) :]
        return _xor(data, keystream)


def _pre_counter_block(h: bytes, iv: bytes) -> bytes:
    """The pre-counter block J_0 (Algorithm 4 step 2).

    IV || 0^31 || 1 for a 96-bit IV, else GHASH_H(IV || 0^(s+64) || [len(IV)]_64), where
    s = 128·⌈len(IV)/128⌉ - len(IV) zero bits pad the IV to a whole block.
    """
    if len(iv) == 12:
        return iv + b"\x00\x00\x00\x01"
    return ghash(h, _zero_pad(iv) + bytes(8) + (8 * len(iv)).to_bytes(8, "big"))


class _GcmStream:
    def __init__(self, cipher: BlockCipher, iv: bytes, tag_length: int) -> None:
        iv = bytes(iv)
        _check_gcm(cipher, iv, tag_length)
        self._cipher = cipher
        self.tag_length = tag_length
        h = cipher.encrypt_block(bytes(16))  # H = CIPH_K(0^128), step 1
        self._j0 = _pre_counter_block(h, iv)
        self._gctr = _Gctr(cipher, _inc32(self._j0))  # step 3: C = GCTR_K(inc_32(J_0), P)
        self._ghash = _Ghash(h)
        self._finalized = False

    def update_aad(self, data: bytes) -> None:
        """Add additional authenticated data A; all of it must come before the first ``update``."""
        self._check_open()
        self._ghash.update_aad(bytes(data))

    def _check_open(self) -> None:
        if self._finalized:
            raise ValueError(f"{type(self).__name__} used after finalize")

    def _check_text_length(self, more: int) -> None:
        if self._ghash.text_length + more > _GCM_MAX_TEXT:
            raise ValueError(
                f"Invalid text length for GCM; accepted: at most {_GCM_MAX_TEXT} bytes"
            )

    def _tag(self) -> bytes:
        """T = MSB_t(GCTR_K(J_0, S)) (Algorithm 4 steps 5-6)."""
        s = self._ghash.digest()
        return _Gctr(self._cipher, self._j0).update(s)[: self.tag_length]


class GcmEncryptor(_GcmStream):
    """Streaming GCM authenticated encryption (SP 800-38D §7.1, Algorithm 4).

    ``update_aad(a)`` (any number of times) then ``update(p) -> c`` (any number of
    times), then ``finalize() -> tag``.
    """

    def __init__(self, cipher: BlockCipher, iv: bytes, tag_length: int = 16) -> None:
        super().__init__(cipher, iv, tag_length)

    def update(self, plaintext: bytes) -> bytes:
        self._check_open()
        plaintext = bytes(plaintext)
        self._check_text_length(len(plaintext))
        ciphertext = self._gctr.update(plaintext)
        self._ghash.update_text(ciphertext)
        return ciphertext

    def finalize(self) -> bytes:
        """The authentication tag T of ``tag_length`` bytes."""
        self._check_open()
        self._finalized = True
        return self._tag()


class GcmDecryptor(_GcmStream):
    """Streaming GCM authenticated decryption (SP 800-38D §7.2, Algorithm 5).

    ``update`` takes ciphertext in chunks but releases nothing: the plaintext
    is returned by ``finalize(tag)`` only after the tag has verified, otherwise
    InvalidTag is raised and the plaintext is discarded.
    """

    def __init__(self, cipher: BlockCipher, iv: bytes, tag_length: int = 16) -> None:
        super().__init__(cipher, iv, tag_length)
        self._plaintext: list[bytes] = []

    def update(self, ciphertext: bytes) -> None:
        self._check_open()
        ciphertext = bytes(ciphertext)
        self._check_text_length(len(ciphertext))
        self._ghash.update_text(ciphertext)
        self._plaintext.append(self._gctr.update(ciphertext))

    def finalize(self, tag: bytes) -> bytes:
        """Verify ``tag`` (of ``tag_length`` bytes); return the plaintext or raise InvalidTag."""
        self._check_open()
        if len(tag) != self.tag_length:
            raise ValueError(
                f"Invalid tag length ({len(tag)} bytes) for this GCM decryptor; "
                f"accepted: {self.tag_length}"
            )
        self._finalized = True
        expected = self._tag()
        plaintext, self._plaintext = b"".join(self._plaintext), []
        if not hmac.compare_digest(expected, bytes(tag)):
            raise InvalidTag()
        return plaintext


def gcm_encrypt(
    cipher: BlockCipher, iv: bytes, plaintext: bytes, aad: bytes = b"", tag_length: int = 16
) -> tuple[bytes, bytes]:
    """GCM-AE_K(IV, P, A) (SP 800-38D §7.1, Algorithm 4) -> (C, T); ``tag_length`` in bytes."""
    encryptor = GcmEncryptor(cipher, iv, tag_length)
    encryptor.update_aad(aad)
    ciphertext = encryptor.update(plaintext)
    return ciphertext, encryptor.finalize()


#: The shortest tag :func:`gcm_decrypt` accepts unless the caller lowers ``min_tag_length``: the
#: full 128 bits, as ``cryptography``'s ``GCM(tag, min_tag_length=16)``. Shorter tags are a choice
#: with conditions (SP 800-38D §5.2.1.2 and Appendix C), never a default: a 4-byte prefix of a
#: valid tag must not verify by accident.
GCM_MIN_TAG_LENGTH = 16


def _check_min_tag(tag: bytes, min_tag_length: int) -> None:
    if len(tag) not in GCM_TAG_LENGTHS:
        raise ValueError(
            f"Invalid tag length ({len(tag)} bytes) for GCM; accepted: "
            f"{', '.join(str(t) for t in GCM_TAG_LENGTHS)}"
        )
    if isinstance(min_tag_length, bool) or not isinstance(min_tag_length, int) or not 4 <= min_tag_length <= 16:
        raise ValueError(f"Invalid min_tag_length ({min_tag_length!r}) for GCM; accepted: 4 to 16 bytes")
    if len(tag) < min_tag_length:
        raise ValueError(f"Invalid tag length ({len(tag)} bytes) for GCM; accepted: at least min_tag_length="
                         f"{min_tag_length} bytes (pass min_tag_length={len(tag)} to accept shorter tags)")


def gcm_decrypt(
    cipher: BlockCipher, iv: bytes, ciphertext: bytes, tag: bytes, aad: bytes = b"",
    *, min_tag_length: int = GCM_MIN_TAG_LENGTH,
) -> bytes:
    """GCM-AD_K(IV, C, A, T) (SP 800-38D §7.2, Algorithm 5) -> P, or InvalidTag (FAIL).

    The tag length is ``len(tag)``, one of §5.2.1.2's lengths and at least ``min_tag_length``
    (default 16 bytes; a caller that uses short tags says so, e.g. ``min_tag_length=4``).
    """
    _check_min_tag(tag, min_tag_length)
    decryptor = GcmDecryptor(cipher, iv, len(tag))
    decryptor.update_aad(aad)
    decryptor.update(ciphertext)
    return decryptor.finalize(tag)


def gmac(cipher: BlockCipher, iv: bytes, aad: bytes, tag_length: int = 16) -> bytes:
    """GMAC (SP 800-38D §3, §7.1): GCM with an empty plaintext, authenticating ``aad`` only."""
    return gcm_encrypt(cipher, iv, b"", aad, tag_length)[1]


def gmac_verify(cipher: BlockCipher, iv: bytes, aad: bytes, tag: bytes, *,
                min_tag_length: int = GCM_MIN_TAG_LENGTH) -> None:
    """GMAC verification: InvalidTag unless ``tag`` is the GMAC of ``aad`` (``min_tag_length``
    as in :func:`gcm_decrypt`)."""
    gcm_decrypt(cipher, iv, b"", tag, aad, min_tag_length=min_tag_length)


# --- SP 800-38C CCM ---------------------------------------------------------------------------

CCM_NONCE_LENGTHS = tuple(range(7, 14))
CCM_TAG_LENGTHS = (4, 6, 8, 10, 12, 14, 16)


def _check_ccm(cipher: BlockCipher, nonce: bytes, tag_length: int) -> None:
    if cipher.block_size != 16:
        raise ValueError(f"Invalid block size ({cipher.block_size} bytes) for CCM; accepted: 16")
    if len(nonce) not in CCM_NONCE_LENGTHS:
        raise ValueError(f"Invalid nonce length ({len(nonce)} bytes) for CCM; accepted: 7 to 13")
    if tag_length not in CCM_TAG_LENGTHS:
        raise ValueError(
            f"Invalid tag length ({tag_length} bytes) for CCM; accepted: "
            f"{', '.join(str(t) for t in CCM_TAG_LENGTHS)}"
        )


def ccm_format(nonce: bytes, aad: bytes, payload: bytes, tag_length: int) -> bytes:
    """The formatting function of SP 800-38C Appendix A.2: B_0 || encoded A (padded) || P (padded).

    B_0 (A.2.1): Flags = 64·Adata + 8·[(t-2)/2]_3 + [q-1]_3, then N, then Q = [Plen]_8q.
    A (A.2.2): [a]_16 if 0 < a < 2^16 - 2^8; 0xff 0xfe || [a]_32 if a < 2^32; else
    0xff 0xff || [a]_64; then A, zero-padded to a block boundary.
    """
    q = 15 - len(nonce)
    if len(payload) >= 1 << (8 * q):
        raise ValueError(
            f"Invalid payload length ({len(payload)} bytes) for CCM with a "
            f"{len(nonce)}-byte nonce; "
            f"accepted: less than 2^{8 * q}"
        )
    flags = (0x40 if aad else 0) | (((tag_length - 2) // 2) << 3) | (q - 1)
    b0 = bytes((flags,)) + nonce + len(payload).to_bytes(q, "big")
    if not aad:
        encoded = b""
    elif len(aad) < (1 << 16) - (1 << 8):
        encoded = len(aad).to_bytes(2, "big") + aad
    elif len(aad) < 1 << 32:
        encoded = b"\xff\xfe" + len(aad).to_bytes(4, "big") + aad
    else:
        encoded = b"\xff\xff" + len(aad).to_bytes(8, "big") + aad
    return b0 + _zero_pad(encoded) + _zero_pad(payload)


def _ccm_counter(nonce: bytes, i: int) -> bytes:
    """Ctr_i (Appendix A.3): Flags = [q-1]_3, then N, then [i]_8q."""
    q = 15 - len(nonce)
    return bytes((q - 1,)) + nonce + i.to_bytes(q, "big")


def _ccm_mac(cipher: BlockCipher, blocks: bytes, tag_length: int) -> bytes:
    """Y_0 = CIPH_K(B_0), Y_i = CIPH_K(B_i ⊕ Y_(i-1)); T = MSB_Tlen(Y_r) (§6.1 steps 2-4)."""
    y = bytes(16)
    for i in range(0, len(blocks), 16):
        y = cipher.encrypt_block(_xor(blocks[i : i + 16], y))
    return y[:tag_length]


def _ccm_keystream_xor(cipher: BlockCipher, nonce: bytes, data: bytes) -> bytes:
    """P ⊕ MSB_Plen(S) with S = CIPH_K(Ctr_1) || CIPH_K(Ctr_2) || ... (§6.1 steps 5-8)."""
    blocks = (len(data) + 15) // 16
    stream = b"".join(cipher.encrypt_block(_ccm_counter(nonce, i)) for i in range(1, blocks + 1))
    return _xor(data, stream)


def ccm_encrypt(
    cipher: BlockCipher, nonce: bytes, plaintext: bytes, aad: bytes = b"", tag_length: int = 16
) -> bytes:
    """CCM generation-encryption (SP 800-38C §6.1).

    Returns C = (P ⊕ MSB_Plen(S)) || (T ⊕ MSB_Tlen(S_0)), the tag last.
    """
    nonce, plaintext, aad = bytes(nonce), bytes(plaintext), bytes(aad)
    _check_ccm(cipher, nonce, tag_length)
    tag = _ccm_mac(cipher, ccm_format(nonce, aad, plaintext, tag_length), tag_length)
    s0 = cipher.encrypt_block(_ccm_counter(nonce, 0))
    return _ccm_keystream_xor(cipher, nonce, plaintext) + _xor(tag, s0)


def ccm_decrypt(
    cipher: BlockCipher, nonce: bytes, data_with_tag: bytes, aad: bytes = b"", tag_length: int = 16
) -> bytes:
    """CCM decryption-verification (SP 800-38C §6.2).

    Returns P, or raises InvalidTag (the standard's INVALID) releasing no plaintext.
    """
    nonce, data_with_tag, aad = bytes(nonce), bytes(data_with_tag), bytes(aad)
    _check_ccm(cipher, nonce, tag_length)
    # Step 1: data shorter than the tag is INVALID (Clen = Tlen, an empty payload, is valid,
    # as in the CAVP DVPT vectors with Plen = 0).
    if len(data_with_tag) < tag_length:
        raise InvalidTag()
    ciphertext, received = data_with_tag[:-tag_length], data_with_tag[-tag_length:]
    plaintext = _ccm_keystream_xor(cipher, nonce, ciphertext)
    s0 = cipher.encrypt_block(_ccm_counter(nonce, 0))
    tag = _ccm_mac(cipher, ccm_format(nonce, aad, plaintext, tag_length), tag_length)
    if not hmac.compare_digest(_xor(tag, s0), received):
        raise InvalidTag()
    return plaintext
