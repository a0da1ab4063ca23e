"""SM4, the Chinese national block cipher (GB/T 32907-2016).

The same algorithm is published in English in draft-ribose-cfrg-sm4 (revision
10, 2018), which RFC 8998 (2021) cites for SM4 in TLS 1.3. Section numbers below
are those of GB/T 32907-2016 (§5 key and key parameters, §6 the round function F and its
permutation T, §7.1/7.2 encryption and decryption, §7.3 key expansion with the values of FK
and CK, Appendix A examples); the draft's are in brackets where they differ.

* 128-bit block and key, 32 rounds, 32-bit words, big-endian byte order.
* The S-box (§6.2 [draft §6.2.1]) is a table in the standard with no short
  derivation, so it is typed in below; the tests check whole encryptions
  against the standard's examples and against ``cryptography``'s SM4.
* FK (§7.3 [§7.3.1]) is typed in; CK (§7.3 [§7.3.2]) is *computed* from its
  definition ck_(i,j) = (4i + j) * 7 mod 256.
* :class:`SM4` has the block-cipher interface used by :mod:`refbench.ref.modes`,
  which gives SM4 with ECB, CBC, CTR, GCM and CCM.
"""

from __future__ import annotations

#: The S-box Sbox(·) of GB/T 32907-2016 §6.2 (draft-ribose-cfrg-sm4-10 §6.2.1, Figure 2),
#: row = high nibble, column = low nibble, typed in from the printed table.
SBOX: tuple[int, ...] = (
    0xD6, 0x90, 0xE9, 0xFE, 0xCC, 0xE1, 0x3D, 0xB7, 0x16, 0xB6, 0x14, 0xC2, 0x28, 0xFB, 0x2C, 0x05,
    0x2B, 0x67, 0x9A, 0x76, 0x2A, 0xBE, 0x04, 0xC3, 0xAA, 0x44, 0x13, 0x26, 0x49, 0x86, 0x06, 0x99,
    0x9C, 0x42, 0x50, 0xF4, 0x91, 0xEF, 0x98, 0x7A, 0x33, 0x54, 0x0B, 0x43, 0xED, 0xCF, 0xAC, 0x62,
    0xE4, 0xB3, 0x1C, 0xA9, 0xC9, 0x08, 0xE8, 0x95, 0x80, 0xDF, 0x94, 0xFA, 0x75, 0x8F, 0x3F, 0xA6,
    0x47, 0x07, 0xA7, 0xFC, 0xF3, 0x73, 0x17, 0xBA, 0x83, 0x59, 0x3C, 0x19, 0xE6, 0x85, 0x4F, 0xA8,
    0x68, 0x6B, 0x81, 0xB2, 0x71, 0x64, 0xDA, 0x8B, 0xF8, 0xEB, 0x0F, 0x4B, 0x70, 0x56, 0x9D, 0x35,
    0x1E, 0x24, 0x0E, 0x5E, 0x63, 0x58, 0xD1, 0xA2, 0x25, 0x22, 0x7C, 0x3B, 0x01, 0x21, 0x78, 0x87,
    0xD4, 0x00, 0x46, 0x57, 0x9F, 0xD3, 0x27, 0x52, 0x4C, 0x36, 0x02, 0xE7, 0xA0, 0xC4, 0xC8, 0x9E,
    0xEA, 0xBF, 0x8A, 0xD2, 0x40, 0xC7, 0x38, 0xB5, 0xA3, 0xF7, 0xF2, 0xCE, 0xF9, 0x61, 0x15, 0xA1,
    0xE0, 0xAE, 0x5D, 0xA4, 0x9B, 0x34, 0x1A, 0x55, 0xAD, 0x93, 0x32, 0x30, 0xF5, 0x8C, 0xB1, 0xE3,
    0x1D, 0xF6, 0xE2, 0x2E, 0x82, 0x66, 0xCA, 0x60, 0xC0, 0x29, 0x23, 0xAB, 0x0D, 0x53, 0x4E, 0x6F,
    0xD5, 0xDB, 0x37, 0x45, 0xDE, 0xFD, 0x8E, 0x2F, 0x03, 0xFF, 0x6A, 0x72, 0x6D, 0x6C, 0x5B, 0x51,
    0x8D, 0x1B, 0xAF, 0x92, 0xBB, 0xDD, 0xBC, 0x7F, 0x11, 0xD9, 0x5C, 0x41, 0x1F, 0x10, 0x5A, 0xD8,
    0x0A, 0xC1, 0x31, 0x88, 0xA5, 0xCD, 0x7B, 0xBD, 0x2D, 0x74, 0xD0, 0x12, 0xB8, 0xE5, 0xB4, 0xB0,
    0x89, 0x69, 0x97, 0x4A, 0x0C, 0x96, 0x77, 0x7E, 0x65, 0xB9, 0xF1, 0x09, 0xC5, 0x6E, 0xC6, 0x84,
    0x18, 0xF0, 0x7D, 0xEC, 0x3A, 0xDC, 0x4D, 0x20, 0x79, 0xEE, 0x5F, 0x3E, 0xD7, 0xCB, 0x39, 0x48,
)  # fmt: skip

#: The system parameter FK = (FK0, FK1, FK2, FK3) of §7.3 [draft §7.3.1].
FK: tuple[int, ...] = (0xA3B1BAC6, 0x56AA3350, 0x677D9197, 0xB27022DC)


def _ck(i: int) -> int:
    """CK_i = (ck_(i,0), ck_(i,1), ck_(i,2), ck_(i,3)), ck_(i,j) = (4i + j) * 7 mod 256 (§7.3 [§7.3.2])."""
    return int.from_bytes(bytes((4 * i + j) * 7 % 256 for j in range(4)), "big")


#: The fixed parameters CK_0 .. CK_31 of the key schedule (§7.3 [draft §7.3.2]).
CK: tuple[int, ...] = tuple(_ck(i) for i in range(32))

_MASK32 = 0xFFFFFFFF


def rotl(x: int, n: int) -> int:
    """<<< n: 32-bit circular left shift (§3.2)."""
    return ((x << n) | (x >> (32 - n))) & _MASK32


def tau(a: int) -> int:
    """The non-linear transformation τ (§6.2 [§6.2.1]): the S-box applied to each byte of the word."""
    return (
        (SBOX[a >> 24] << 24)
        | (SBOX[(a >> 16) & 0xFF] << 16)
        | (SBOX[(a >> 8) & 0xFF] << 8)
        | SBOX[a & 0xFF]
    )


def linear_l(b: int) -> int:
    """The linear transformation L (§6.2 [§6.2.2]): C = B ⊕ (B<<<2) ⊕ (B<<<10) ⊕ (B<<<18) ⊕ (B<<<24)."""
    return b ^ rotl(b, 2) ^ rotl(b, 10) ^ rotl(b, 18) ^ rotl(b, 24)


def linear_l_prime(b: int) -> int:
    """L' of the key schedule (§7.3): B ⊕ (B<<<13) ⊕ (B<<<23)."""
    return b ^ rotl(b, 13) ^ rotl(b, 23)


def t(x: int) -> int:
    """The mixer-substitution T(·) = L(τ(·)) (§6.2)."""
    return linear_l(tau(x))


def t_prime(x: int) -> int:
    """T'(·) = L'(τ(·)) of the key schedule (§7.3)."""
    return linear_l_prime(tau(x))


def round_function(x0: int, x1: int, x2: int, x3: int, rk: int) -> int:
    """F(X0, X1, X2, X3, rk) = X0 ⊕ T(X1 ⊕ X2 ⊕ X3 ⊕ rk) (§6.1)."""
    return x0 ^ t(x1 ^ x2 ^ x3 ^ rk)


def key_expansion(key: bytes) -> list[int]:
    """The round keys rk_0 .. rk_31 (§7.3).

    (K0, K1, K2, K3) = (MK0 ⊕ FK0, ..., MK3 ⊕ FK3);
    rk_i = K_(i+4) = K_i ⊕ T'(K_(i+1) ⊕ K_(i+2) ⊕ K_(i+3) ⊕ CK_i).
    """
    if len(key) != 16:
        raise ValueError(f"Invalid key size ({len(key)} bytes) for SM4; accepted: 16")
    mk = [int.from_bytes(key[4 * i : 4 * i + 4], "big") for i in range(4)]
    k = [mk[i] ^ FK[i] for i in range(4)]
    for i in range(32):
        k.append(k[i] ^ t_prime(k[i + 1] ^ k[i + 2] ^ k[i + 3] ^ CK[i]))
    return k[4:]


def crypt_block(block: bytes, rk: list[int]) -> bytes:
    """The 32 rounds (§7.1): X_(i+4) = F(X_i, .., X_(i+3), rk_i), then R = (X35, X34, X33, X32).

    Decryption (§7.2) is the same structure with the round keys in reverse order.
    """
    x = [int.from_bytes(block[4 * i : 4 * i + 4], "big") for i in range(4)]
    for i in range(32):
        x.append(round_function(x[i], x[i + 1], x[i + 2], x[i + 3], rk[i]))
    return b"".join(word.to_bytes(4, "big") for word in reversed(x[32:36]))


class SM4:
    """The SM4 block cipher (GB/T 32907-2016): 16-byte key and block, 32 rounds."""

    block_size = 16

    def __init__(self, key: bytes) -> None:
        self.round_keys = key_expansion(bytes(key))
        self._decryption_keys = self.round_keys[::-1]

    def _check_block(self, block: bytes) -> bytes:
        if len(block) != 16:
            raise ValueError(f"Invalid block length ({len(block)} bytes) for SM4; accepted: 16")
        return bytes(block)

    def encrypt_block(self, block: bytes) -> bytes:
        """Encryption (§7.1) of one 16-byte block."""
        return crypt_block(self._check_block(block), self.round_keys)

    def decrypt_block(self, block: bytes) -> bytes:
        """Decryption (§7.2): the round keys used in the order rk_31 .. rk_0."""
        return crypt_block(self._check_block(block), self._decryption_keys)
