"""ChaCha20, Poly1305 and AEAD_CHACHA20_POLY1305, read beside RFC 8439 (June 2018).

* §2.1 the quarter round, §2.2 a quarter round on the state,
* §2.3 the ChaCha20 block function, §2.4 the ChaCha20 encryption algorithm,
* §2.5 Poly1305 (with the clamp of r), §2.6 generating the Poly1305 key with ChaCha20,
* §2.8 the AEAD construction.

Words are 32-bit unsigned integers; keys, nonces and counters are read little-endian
(§2.3). The streaming classes (:class:`ChaCha20`, :class:`Poly1305`) give the same
result whatever way the input is split into ``update`` calls.
"""

from __future__ import annotations

import hmac

from refbench.errors import InvalidTag

MASK32 = 0xFFFFFFFF

#: The four constant words of the state, "expand 32-byte k" read little-endian (§2.3).
CONSTANTS: tuple[int, int, int, int] = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)

KEY_SIZE = 32
NONCE_SIZE = 12
TAG_SIZE = 16
BLOCK_SIZE = 64


def _rotl32(value: int, count: int) -> int:
    """``value <<< count``: an n-bit left roll of a 32-bit word (§2.1)."""
    return ((value << count) | (value >> (32 - count))) & MASK32


def quarter_round(a: int, b: int, c: int, d: int) -> tuple[int, int, int, int]:
    """The ChaCha quarter round of §2.1 on four 32-bit words.

    a += b; d ^= a; d <<<= 16;  c += d; b ^= c; b <<<= 12;
    a += b; d ^= a; d <<<= 8;   c += d; b ^= c; b <<<= 7;
    """
    a = (a + b) & MASK32
    d = _rotl32(d ^ a, 16)
    c = (c + d) & MASK32
    b = _rotl32(b ^ c, 12)
    a = (a + b) & MASK32
    d = _rotl32(d ^ a, 8)
    c = (c + d) & MASK32
    b = _rotl32(b ^ c, 7)
    return a, b, c, d


def quarter_round_on_state(state: list[int], x: int, y: int, z: int, w: int) -> None:
    """QUARTERROUND(x, y, z, w) of §2.2: the quarter round on state words x, y, z, w, in place."""
    state[x], state[y], state[z], state[w] = quarter_round(state[x], state[y], state[z], state[w])


def _check_key_nonce(key: bytes, nonce: bytes) -> None:
    if len(key) != KEY_SIZE:
        raise ValueError(f"Invalid key size ({len(key)} bytes) for ChaCha20; accepted: 32")
    if len(nonce) != NONCE_SIZE:
        raise ValueError(
            f"Invalid nonce size ({len(nonce)} bytes) for ChaCha20 (RFC 8439); accepted: 12"
        )


def _check_counter(counter: int) -> None:
    if not 0 <= counter <= MASK32:
        raise ValueError(
            f"Invalid block counter ({counter}) for ChaCha20; accepted: 0 to 2**32 - 1"
        )


def initial_state(key: bytes, counter: int, nonce: bytes) -> list[int]:
    """The 16-word state of §2.3: constants, key words, block counter, nonce words.

    cccccccc cccccccc cccccccc cccccccc
    kkkkkkkk kkkkkkkk kkkkkkkk kkkkkkkk
    kkkkkkkk kkkkkkkk kkkkkkkk kkkkkkkk
    bbbbbbbb nnnnnnnn nnnnnnnn nnnnnnnn
    """
    _check_key_nonce(key, nonce)
    _check_counter(counter)
    key_words = [int.from_bytes(key[i : i + 4], "little") for i in range(0, 32, 4)]
    nonce_words = [int.from_bytes(nonce[i : i + 4], "little") for i in range(0, 12, 4)]
    return [*CONSTANTS, *key_words, counter, *nonce_words]


def inner_block(state: list[int]) -> None:
    """One double round of §2.3.1: a column round then a diagonal round, in place."""
    quarter_round_on_state(state, 0, 4, 8, 12)
    quarter_round_on_state(state, 1, 5, 9, 13)
    quarter_round_on_state(state, 2, 6, 10, 14)
    quarter_round_on_state(state, 3, 7, 11, 15)
    quarter_round_on_state(state, 0, 5, 10, 15)
    quarter_round_on_state(state, 1, 6, 11, 12)
    quarter_round_on_state(state, 2, 7, 8, 13)
    quarter_round_on_state(state, 3, 4, 9, 14)


def serialize(state: list[int]) -> bytes:
    """The state words written out little-endian, word 0 first (§2.3)."""
    return b"".join(word.to_bytes(4, "little") for word in state)


def chacha20_block_states(
    key: bytes, counter: int, nonce: bytes
) -> tuple[list[int], list[int], list[int]]:
    """The three states printed in §2.3.2.

    Initial state, state after 20 rounds, and state after adding the initial state.
    """
    state = initial_state(key, counter, nonce)
    working_state = list(state)
    for _ in range(10):
        inner_block(working_state)
    after_rounds = list(working_state)
    final = [(s + w) & MASK32 for s, w in zip(state, working_state)]
    return state, after_rounds, final


def chacha20_block(key: bytes, counter: int, nonce: bytes) -> bytes:
    """The ChaCha20 block function of §2.3 (pseudocode §2.3.1): 64 bytes of key stream."""
    return serialize(chacha20_block_states(key, counter, nonce)[2])


def chacha20_encrypt(key: bytes, counter: int, nonce: bytes, plaintext: bytes) -> bytes:
    """The ChaCha20 encryption algorithm of §2.4: XOR with blocks counter, counter + 1, ..."""
    return ChaCha20(key, nonce, counter).update(plaintext)


class ChaCha20:
    """ChaCha20 as a stream (§2.4): ``update`` XORs data with the next key-stream bytes.

    Decryption is the same operation. The block counter is 32 bits, so one (key, nonce)
    gives at most 2**32 blocks starting from ``counter``; asking for more raises ValueError.
    """

    def __init__(self, key: bytes, nonce: bytes, counter: int = 0) -> None:
        key, nonce = bytes(key), bytes(nonce)
        _check_key_nonce(key, nonce)
        _check_counter(counter)
        self._key = key
        self._nonce = nonce
        self._counter = counter
        self._keystream = b""

    def update(self, data: bytes) -> bytes:
        data = bytes(data)
        needed = len(data) - len(self._keystream)
        blocks = []
        while needed > 0:
            if self._counter > MASK32:
                raise ValueError(
                    "Invalid data length for ChaCha20: the 32-bit block counter would wrap; "
                    "accepted: at most 2**32 - counter blocks per (key, nonce)"
                )
            blocks.append(chacha20_block(self._key, self._counter, self._nonce))
            self._counter += 1
            needed -= BLOCK_SIZE
        stream = self._keystream + b"".join(blocks)
        self._keystream = stream[len(data) :]
        return bytes(x ^ y for x, y in zip(data, stream))


# --- Poly1305, §2.5 ---------------------------------------------------------------------

#: The prime 2^130 - 5 (§2.5).
P1305 = (1 << 130) - 5


def clamp(r: int) -> int:
    """The clamp of §2.5: clear the top four bits of bytes 3, 7, 11, 15 and the low two of 4, 8, 12.

    As a mask on the little-endian integer r: ``r & 0x0ffffffc0ffffffc0ffffffc0fffffff``.
    """
    return r & 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF


class Poly1305:
    """The Poly1305 one-time authenticator of §2.5 (pseudocode §2.5.1), streaming.

    The 32-byte one-time key is r (16 bytes, clamped) || s (16 bytes). Each 16-byte block,
    read little-endian with a 0x01 byte appended (the last block may be shorter), is added
    to the accumulator, which is then multiplied by r modulo 2^130 - 5. The tag is
    ``(accumulator + s) mod 2^128``, written little-endian.
    """

    block_size = 16

    def __init__(self, key: bytes) -> None:
        key = bytes(key)
        if len(key) != KEY_SIZE:
            raise ValueError(f"Invalid key size ({len(key)} bytes) for Poly1305; accepted: 32")
        self._r = clamp(int.from_bytes(key[:16], "little"))
        self._s = int.from_bytes(key[16:], "little")
        self._accumulator = 0
        self._pending = b""
        self._finalized = False

    def _absorb(self, block: bytes) -> None:
        n = int.from_bytes(block + b"\x01", "little")
        self._accumulator = ((self._accumulator + n) * self._r) % P1305

    def update(self, data: bytes) -> Poly1305:
        if self._finalized:
            raise ValueError(
                "Invalid call: update() after finalize() on Poly1305; accepted: a new Poly1305"
            )
        buffer = self._pending + bytes(data)
        full = len(buffer) - len(buffer) % 16
        for offset in range(0, full, 16):
            self._absorb(buffer[offset : offset + 16])
        self._pending = buffer[full:]
        return self

    def finalize(self) -> bytes:
        if self._finalized:
            raise ValueError("Invalid call: finalize() twice on Poly1305; accepted: a new Poly1305")
        self._finalized = True
        if self._pending:
            self._absorb(self._pending)
        return ((self._accumulator + self._s) & ((1 << 128) - 1)).to_bytes(16, "little")

    def verify(self, tag: bytes) -> None:
        """Finalize and compare with ``tag`` in constant time; raise InvalidTag on mismatch.

        A tag that is not 16 bytes long is a bad parameter (ValueError), not a failed check.
        """
        if len(tag) != TAG_SIZE:
            raise ValueError(f"Invalid tag size ({len(tag)} bytes) for Poly1305; accepted: 16")
        if not hmac.compare_digest(self.finalize(), bytes(tag)):
            raise InvalidTag()


def poly1305_mac(message: bytes, key: bytes) -> bytes:
    """poly1305_mac(msg, key) of §2.5.1."""
    return Poly1305(key).update(message).finalize()


def poly1305_key_gen(key: bytes, nonce: bytes) -> bytes:
    """poly1305_key_gen of §2.6.1: the first 32 bytes of ChaCha20 block 0 for (key, nonce)."""
    return chacha20_block(key, 0, nonce)[:32]


# --- AEAD_CHACHA20_POLY1305, §2.8 -------------------------------------------------------


def _pad16(length: int) -> bytes:
    """Zero bytes up to the next multiple of 16 (padding1/padding2 of §2.8)."""
    return bytes(-length % 16)


def _aead_tag(otk: bytes, aad: bytes, ciphertext: bytes) -> bytes:
    """Poly1305 over aad || pad16 || ciphertext || pad16 || len(aad) || len(ciphertext) (§2.8)."""
    mac = Poly1305(otk)
    mac.update(aad).update(_pad16(len(aad)))
    mac.update(ciphertext).update(_pad16(len(ciphertext)))
    mac.update(len(aad).to_bytes(8, "little") + len(ciphertext).to_bytes(8, "little"))
    return mac.finalize()


def _check_aead_key_nonce(key: bytes, nonce: bytes) -> None:
    if len(key) != KEY_SIZE:
        raise ValueError(f"Invalid key size ({len(key)} bytes) for ChaCha20-Poly1305; accepted: 32")
    if len(nonce) != NONCE_SIZE:
        raise ValueError(
            f"Invalid nonce size ({len(nonce)} bytes) for ChaCha20-Poly1305; accepted: 12"
        )


class ChaCha20Poly1305Encryptor:
    """AEAD_CHACHA20_POLY1305 encryption (§2.8) as a stream: ``update`` returns ciphertext,
    ``finalize`` returns the 16-byte tag.

    ``b"".join(update(...)) + finalize()`` equals :func:`chacha20_poly1305_encrypt`, however the
    plaintext is split. (Decryption is one-shot only, so that no plaintext is released before the
    tag is checked.)
    """

    def __init__(self, key: bytes, nonce: bytes, aad: bytes = b"") -> None:
        key, nonce, aad = bytes(key), bytes(nonce), bytes(aad)
        _check_aead_key_nonce(key, nonce)
        self._stream = ChaCha20(key, nonce, 1)
        self._mac = Poly1305(poly1305_key_gen(key, nonce))
        self._mac.update(aad).update(_pad16(len(aad)))
        self._aad_length = len(aad)
        self._ciphertext_length = 0

    def update(self, plaintext: bytes) -> bytes:
        ciphertext = self._stream.update(plaintext)
        self._mac.update(ciphertext)
        self._ciphertext_length += len(ciphertext)
        return ciphertext

    def finalize(self) -> bytes:
        self._mac.update(_pad16(self._ciphertext_length))
        self._mac.update(
            self._aad_length.to_bytes(8, "little") + self._ciphertext_length.to_bytes(8, "little")
        )
        return self._mac.finalize()


def chacha20_poly1305_encrypt(
    key: bytes, nonce: bytes, plaintext: bytes, aad: bytes = b""
) -> bytes:
    """chacha20_aead_encrypt of §2.8.1; returns ciphertext || 16-byte tag.

    The one-time Poly1305 key is block 0 (§2.6); the plaintext is encrypted from block 1.
    """
    encryptor = ChaCha20Poly1305Encryptor(key, nonce, aad)
    return encryptor.update(plaintext) + encryptor.finalize()


def chacha20_poly1305_decrypt(
    key: bytes, nonce: bytes, ciphertext_and_tag: bytes, aad: bytes = b""
) -> bytes:
    """The inverse of :func:`chacha20_poly1305_encrypt` (§2.8).

    The tag is checked before any decryption; a mismatch (or an input shorter than the
    tag) raises :class:`~refbench.errors.InvalidTag` and releases no plaintext.
    """
    key, nonce, data = bytes(key), bytes(nonce), bytes(ciphertext_and_tag)
    _check_aead_key_nonce(key, nonce)
    if len(data) < TAG_SIZE:
        raise InvalidTag()
    ciphertext, tag = data[:-TAG_SIZE], data[-TAG_SIZE:]
    otk = poly1305_key_gen(key, nonce)
    if not hmac.compare_digest(_aead_tag(otk, bytes(aad), ciphertext), tag):
        raise InvalidTag()
    return chacha20_encrypt(key, 1, nonce, ciphertext)
