"""Ascon as standardised in NIST SP 800-232 (August 2025), read beside the standard.

* §3   the state (five 64-bit words S0..S4) and the permutation Ascon-p[rnd]:
  §3.2 constant-addition layer p_C, §3.3 substitution layer p_S (the 5-bit S-box,
  applied bitsliced), §3.4 linear diffusion layer p_L.
* §4   Ascon-AEAD128 (key 128, nonce 128, tag 128 bits, rate 128 bits, 12/8 rounds).
* §5   Ascon-Hash256, Ascon-XOF128 and Ascon-CXOF128 (rate 64 bits, 12 rounds).

This is not Ascon-128 v1.2 (the CAESAR/LWC submission): SP 800-232 reads bytes into
words **little-endian** (byte 0 is the least significant byte of S0), pads with a 0x01
byte, uses new IVs, and Ascon-AEAD128 absorbs 128 bits per block. The domain-separation
bit is the most significant bit of S4 (the last bit of the 320-bit state).

The interface is byte-oriented: inputs and outputs are whole bytes.
"""

from __future__ import annotations

import hmac
from typing import Literal

from refbench.errors import InvalidTag

MASK64 = (1 << 64) - 1

State = list[int]


def round_constant(i: int) -> int:
    """The constant c_i of SP 800-232 Table 5 (i = 0..15), derived rather than copied.

    c_i = ((0xf - j) << 4) | j with j = (i - 4) mod 16, i.e. 0x3c, 0x2d, 0x1e, 0x0f, 0xf0,
    0xe1, ..., 0x4b. Round i of Ascon-p[rnd] uses c_(16 - rnd + i), so the 12-round
    permutation starts at 0xf0 and the 8-round one at 0xb4.
    """
    if not 0 <= i <= 15:
        raise ValueError(f"Invalid round-constant index ({i}) for Ascon; accepted: 0 to 15")
    j = (i - 4) % 16
    return ((0xF - j) << 4) | j


#: The 5-bit S-box of SP 800-232 Table 6, x = 0..31 (input bit 0 of S0 is the MSB of x).
#: Kept only to check that the bitsliced expressions of :func:`substitution_layer` realise it.
SBOX: tuple[int, ...] = (
    0x04, 0x0B, 0x1F, 0x14, 0x1A, 0x15, 0x09, 0x02, 0x1B, 0x05, 0x08, 0x12, 0x1D, 0x03, 0x06, 0x1C,
    0x1E, 0x13, 0x07, 0x0E, 0x00, 0x0D, 0x11, 0x18, 0x10, 0x0C, 0x01, 0x19, 0x16, 0x0A, 0x0F, 0x17,
)  # fmt: skip


def _rotr(x: int, n: int) -> int:
    """Right rotation of a 64-bit word, written x >>> n in SP 800-232."""
    return ((x >> n) | (x << (64 - n))) & MASK64


def constant_addition(s: State, c: int) -> None:
    """p_C (§3.2): S2 ^= c_i."""
    s[2] ^= c


def substitution_layer(s: State) -> None:
    """p_S (§3.3): the 5-bit S-box applied to all 64 columns at once, as bitsliced expressions."""
    x0, x1, x2, x3, x4 = s
    x0 ^= x4
    x4 ^= x3
    x2 ^= x1
    t0 = ~x0 & x1
    t1 = ~x1 & x2
    t2 = ~x2 & x3
    t3 = ~x3 & x4
    t4 = ~x4 & x0
    x0 ^= t1
    x1 ^= t2
    x2 ^= t3
    x3 ^= t4
    x4 ^= t0
    x1 ^= x0
    x0 ^= x4
    x3 ^= x2
    x2 = ~x2
    s[:] = [x0 & MASK64, x1 & MASK64, x2 & MASK64, x3 & MASK64, x4 & MASK64]


def linear_diffusion_layer(s: State) -> None:
    """p_L (§3.4): Sk ^= (Sk >>> a) ^ (Sk >>> b).

    (a, b) = (19, 28), (61, 39), (1, 6), (10, 17), (7, 41) for k = 0..4.
    """
    s[0] ^= _rotr(s[0], 19) ^ _rotr(s[0], 28)
    s[1] ^= _rotr(s[1], 61) ^ _rotr(s[1], 39)
    s[2] ^= _rotr(s[2], 1) ^ _rotr(s[2], 6)
    s[3] ^= _rotr(s[3], 10) ^ _rotr(s[3], 17)
    s[4] ^= _rotr(s[4], 7) ^ _rotr(s[4], 41)


def ascon_p(s: State, rnd: int) -> None:
    """Ascon-p[rnd] (§3): rnd rounds of p_L ∘ p_S ∘ p_C on the state, in place (1 <= rnd <= 16)."""
    if not 1 <= rnd <= 16:
        raise ValueError(f"Invalid number of rounds ({rnd}) for Ascon-p; accepted: 1 to 16")
    for i in range(rnd):
        constant_addition(s, round_constant(16 - rnd + i))
        substitution_layer(s)
        linear_diffusion_layer(s)


def initial_value(v: int, a: int, b: int, t: int, r: int) -> int:
    """The 64-bit IV of SP 800-232 (§4.1, §5.1), from the algorithm's parameters.

    Little-endian layout: byte 0 the algorithm identifier v, byte 2 = b << 4 | a (rounds of
    the initial and intermediate permutations), bytes 3-4 the tag or hash length t in bits,
    byte 5 the rate r in bytes. Ascon-AEAD128 gives 0x00001000808c0001.
    """
    return v | (a << 16) | (b << 20) | (t << 24) | (r << 40)


def _word(data: bytes) -> int:
    """Up to 8 bytes read as a little-endian 64-bit word (SP 800-232 byte order)."""
    return int.from_bytes(data, "little")


def _bytes(word: int, length: int = 8) -> bytes:
    return (word & MASK64).to_bytes(8, "little")[:length]


def pad(data: bytes, rate: int) -> bytes:
    """pad(X, r) for byte strings: append 0x01, then zero bytes to a multiple of ``rate`` bytes."""
    return data + b"\x01" + bytes(-(len(data) + 1) % rate)


# --- Ascon-AEAD128, §4 -------------------------------------------------------------------

AEAD128_IV = initial_value(v=1, a=12, b=8, t=128, r=16)
AEAD128_KEY_SIZE = 16
AEAD128_NONCE_SIZE = 16
AEAD128_TAG_SIZE = 16
_RATE_AEAD = 16
_DSEP = 1 << 63  # 0^319 || 1: the last bit of the state is the MSB of S4


def _check_aead_parameters(key: bytes, nonce: bytes) -> None:
    if len(key) != AEAD128_KEY_SIZE:
        raise ValueError(f"Invalid key size ({len(key)} bytes) for Ascon-AEAD128; accepted: 16")
    if len(nonce) != AEAD128_NONCE_SIZE:
        raise ValueError(f"Invalid nonce size ({len(nonce)} bytes) for Ascon-AEAD128; accepted: 16")


def _aead_start(key: bytes, nonce: bytes, ad: bytes) -> State:
    """Initialization (§4.1.1) and associated-data processing (§4.1.2)."""
    k0, k1 = _word(key[:8]), _word(key[8:])
    s = [AEAD128_IV, k0, k1, _word(nonce[:8]), _word(nonce[8:])]
    ascon_p(s, 12)
    s[3] ^= k0
    s[4] ^= k1
    if ad:
        padded = pad(ad, _RATE_AEAD)
        for offset in range(0, len(padded), _RATE_AEAD):
            s[0] ^= _word(padded[offset : offset + 8])
            s[1] ^= _word(padded[offset + 8 : offset + 16])
            ascon_p(s, 8)
    s[4] ^= _DSEP
    return s


def _aead_tag(s: State, key: bytes) -> bytes:
    """Finalization (§4.1.4): S ^= 0^128 || K || 0^64, Ascon-p[12], T = S[192:319] ^ K."""
    k0, k1 = _word(key[:8]), _word(key[8:])
    s[2] ^= k0
    s[3] ^= k1
    ascon_p(s, 12)
    return _bytes(s[3] ^ k0) + _bytes(s[4] ^ k1)


class AsconAead128Encryptor:
    """Ascon-AEAD128 encryption (Algorithm 3 of §4.1) as a stream.

    ``update`` returns the ciphertext of every complete 16-byte block so far; ``finalize``
    returns the last (partial, 0-15 byte) ciphertext block followed by the 16-byte tag, so
    ``b"".join(update(...)) + finalize()`` equals :func:`ascon_aead128_encrypt`. Every complete
    block is followed by Ascon-p[8]: the padded last block always comes after it. (Decryption is
    one-shot only, so that no plaintext is released before the tag is checked.)
    """

    def __init__(self, key: bytes, nonce: bytes, ad: bytes = b"") -> None:
        key, nonce = bytes(key), bytes(nonce)
        _check_aead_parameters(key, nonce)
        self._key = key
        self._s = _aead_start(key, nonce, bytes(ad))
        self._pending = b""
        self._finalized = False

    def update(self, plaintext: bytes) -> bytes:
        if self._finalized:
            raise ValueError(
                "Invalid call: update() after finalize() on Ascon-AEAD128; "
                "accepted: a new encryptor"
            )
        s = self._s
        buffer = self._pending + bytes(plaintext)
        full = len(buffer) - len(buffer) % _RATE_AEAD
        ciphertext = bytearray()
        for offset in range(0, full, _RATE_AEAD):
            s[0] ^= _word(buffer[offset : offset + 8])
            s[1] ^= _word(buffer[offset + 8 : offset + 16])
            ciphertext += _bytes(s[0]) + _bytes(s[1])
            ascon_p(s, 8)
        self._pending = buffer[full:]
        return bytes(ciphertext)

    def finalize(self) -> bytes:
        if self._finalized:
            raise ValueError(
                "Invalid call: finalize() twice on Ascon-AEAD128; accepted: a new encryptor"
            )
        self._finalized = True
        s = self._s
        padded = pad(self._pending, _RATE_AEAD)
        s[0] ^= _word(padded[:8])
        s[1] ^= _word(padded[8:])
        last = (_bytes(s[0]) + _bytes(s[1]))[: len(self._pending)]
        return last + _aead_tag(s, self._key)


def ascon_aead128_encrypt(key: bytes, nonce: bytes, plaintext: bytes, ad: bytes = b"") -> bytes:
    """Ascon-AEAD128.enc (Algorithm 3 of §4.1): returns ciphertext || 16-byte tag."""
    encryptor = AsconAead128Encryptor(key, nonce, ad)
    return encryptor.update(plaintext) + encryptor.finalize()


def ascon_aead128_decrypt(
    key: bytes, nonce: bytes, ciphertext_and_tag: bytes, ad: bytes = b""
) -> bytes:
    """Ascon-AEAD128.dec (Algorithm 4 of §4.1).

    The plaintext is released only if the tag verifies; otherwise
    :class:`~refbench.errors.InvalidTag` is raised (also for input shorter than the tag).
    """
    key, nonce, data = bytes(key), bytes(nonce), bytes(ciphertext_and_tag)
    _check_aead_parameters(key, nonce)
    if len(data) < AEAD128_TAG_SIZE:
        raise InvalidTag()
    ciphertext, tag = data[:-AEAD128_TAG_SIZE], data[-AEAD128_TAG_SIZE:]
    s = _aead_start(key, nonce, bytes(ad))
    plaintext = bytearray()
    full = len(ciphertext) - len(ciphertext) % _RATE_AEAD
    for offset in range(0, full, _RATE_AEAD):
        c0, c1 = _word(ciphertext[offset : offset + 8]), _word(ciphertext[offset + 8 : offset + 16])
        plaintext += _bytes(s[0] ^ c0) + _bytes(s[1] ^ c1)
        s[0], s[1] = c0, c1
        ascon_p(s, 8)
    # Last block (0 to 15 bytes): P = C ^ S[0:l]; the state takes C for those bytes, then the pad.
    last = ciphertext[full:]
    rate_bytes = _bytes(s[0]) + _bytes(s[1])
    last_plain = bytes(c ^ k for c, k in zip(last, rate_bytes))
    plaintext += last_plain
    padded = pad(last_plain, _RATE_AEAD)
    s[0] ^= _word(padded[:8])
    s[1] ^= _word(padded[8:])
    if not hmac.compare_digest(_aead_tag(s, key), tag):
        raise InvalidTag()
    return bytes(plaintext)


# --- Ascon-Hash256, Ascon-XOF128, Ascon-CXOF128, §5 ---------------------------------------

HashVariant = Literal["Ascon-Hash256", "Ascon-XOF128", "Ascon-CXOF128"]

HASH256_IV = initial_value(v=2, a=12, b=12, t=256, r=8)
XOF128_IV = initial_value(v=3, a=12, b=12, t=0, r=8)
CXOF128_IV = initial_value(v=4, a=12, b=12, t=0, r=8)
_IVS: dict[str, int] = {
    "Ascon-Hash256": HASH256_IV,
    "Ascon-XOF128": XOF128_IV,
    "Ascon-CXOF128": CXOF128_IV,
}
_RATE_HASH = 8
HASH256_DIGEST_SIZE = 32  # bytes (256 bits, §5.1)
CXOF128_MAX_CUSTOMIZATION = 256  # bytes (2048 bits, §5.3)


class AsconXof:
    """The sponge of §5 (Ascon-Hash256, -XOF128, -CXOF128), streaming.

    ``update`` absorbs message bytes 8 at a time, each block followed by Ascon-p[12];
    ``digest(length)`` pads the last block with 0x01 and squeezes ``length`` bytes, 8 per
    block with Ascon-p[12] between blocks. For Ascon-CXOF128 the customization string Z is
    absorbed first: its length in bits as one 64-bit word, then pad(Z).
    """

    def __init__(self, variant: HashVariant = "Ascon-XOF128", customization: bytes = b"") -> None:
        if variant not in _IVS:
            raise ValueError(
                f"Invalid variant ({variant!r}) for Ascon; accepted: {', '.join(_IVS)}"
            )
        customization = bytes(customization)
        if customization and variant != "Ascon-CXOF128":
            raise ValueError(
                f"Invalid customization string for {variant}; accepted: only with Ascon-CXOF128"
            )
        if len(customization) > CXOF128_MAX_CUSTOMIZATION:
            raise ValueError(
                f"Invalid customization length ({len(customization)} bytes) for Ascon-CXOF128; "
                f"accepted: 0 to {CXOF128_MAX_CUSTOMIZATION}"
            )
        self.variant = variant
        self._s: State = [_IVS[variant], 0, 0, 0, 0]
        ascon_p(self._s, 12)
        if variant == "Ascon-CXOF128":
            self._absorb_block(_word((8 * len(customization)).to_bytes(8, "little")))
            padded = pad(customization, _RATE_HASH)
            for offset in range(0, len(padded), _RATE_HASH):
                self._absorb_block(_word(padded[offset : offset + 8]))
        self._pending = b""
        self._finalized = False

    def _absorb_block(self, word: int) -> None:
        self._s[0] ^= word
        ascon_p(self._s, 12)

    def update(self, data: bytes) -> AsconXof:
        if self._finalized:
            raise ValueError(
                f"Invalid call: update() after digest() on {self.variant}; accepted: a new object"
            )
        buffer = self._pending + bytes(data)
        full = len(buffer) - len(buffer) % _RATE_HASH
        for offset in range(0, full, _RATE_HASH):
            self._absorb_block(_word(buffer[offset : offset + 8]))
        self._pending = buffer[full:]
        return self

    def digest(self, length: int) -> bytes:
        """Finish absorbing and squeeze ``length`` bytes.

        Ascon-Hash256 accepts only its 32-byte digest: a shorter or longer output is a
        different function (Ascon-XOF128 has its own IV), so any other length raises.
        """
        if self._finalized:
            raise ValueError(
                f"Invalid call: digest() twice on {self.variant}; accepted: a new object"
            )
        if self.variant == "Ascon-Hash256" and length != HASH256_DIGEST_SIZE:
            raise ValueError(
                f"Invalid output length ({length} bytes) for Ascon-Hash256; "
                f"accepted: {HASH256_DIGEST_SIZE} (a fixed 256-bit digest, §5.1)"
            )
        if length < 0:
            raise ValueError(
                f"Invalid output length ({length} bytes) for {self.variant}; accepted: >= 0"
            )
        self._finalized = True
        self._absorb_block(_word(pad(self._pending, _RATE_HASH)))
        out = bytearray()
        while True:
            out += _bytes(self._s[0])
            if len(out) >= length:
                return bytes(out[:length])
            ascon_p(self._s, 12)


def ascon_hash256(message: bytes) -> bytes:
    """Ascon-Hash256 (Algorithm 5 of §5.1): a 256-bit digest."""
    return AsconXof("Ascon-Hash256").update(message).digest(HASH256_DIGEST_SIZE)


def ascon_xof128(message: bytes, length: int) -> bytes:
    """Ascon-XOF128 (Algorithm 6 of §5.2): ``length`` output bytes."""
    return AsconXof("Ascon-XOF128").update(message).digest(length)


def ascon_cxof128(message: bytes, length: int, customization: bytes = b"") -> bytes:
    """Ascon-CXOF128 (Algorithm 7 of §5.3): ``length`` output bytes under customization string Z."""
    return AsconXof("Ascon-CXOF128", customization).update(message).digest(length)
