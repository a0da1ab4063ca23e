"""What each kernel operation must equal: the Python references, by name.

A kernel manifest names its reference (``reference = "aes-cbc-encrypt"``).
Each entry here maps the operation's inputs, by role (see
:data:`refbench.kernels.catalog.ROLES`), to the outputs the kernel must
produce, by role — including buffers updated in place (the CBC chaining value,
the CTR counter block). This is the only glue between kernels and references,
written once per operation, not once per kernel.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from refbench.errors import InvalidSignature
from refbench.ref import curves, ecdsa, edwards, hashes, modes, weierstrass
from refbench.ref.aes import AES
from refbench.ref.ascon import ascon_aead128_encrypt, ascon_hash256
from refbench.ref.chacha import chacha20_encrypt, chacha20_poly1305_encrypt, poly1305_mac
from refbench.ref.drbg import HashDRBG
from refbench.ref.hmac import hmac
from refbench.ref.modarith import Montgomery, pow_sliding_window
from refbench.ref.montgomery import x25519
from refbench.ref.sm4 import SM4
from refbench.ref.tdea import TDEA

Inputs = dict[str, "bytes | int"]
Outputs = dict[str, bytes]

BLOCK_CIPHERS: dict[str, Callable[[bytes], modes.BlockCipher]] = {"aes": AES, "sm4": SM4, "tdea": TDEA}


def _ctr_next(counter: bytes, length: int) -> bytes:
    """The counter block after processing ``length`` bytes (SP 800-38A B.1, whole-block increment)."""
    blocks = -(-length // len(counter))
    value = (int.from_bytes(counter, "big") + blocks) % (1 << (8 * len(counter)))
    return value.to_bytes(len(counter), "big")


def _block_mode(cipher_name: str, mode: str) -> Callable[[Inputs], Outputs]:
    make = BLOCK_CIPHERS[cipher_name]

    def run(a: Inputs) -> Outputs:
        cipher = make(a["key"])
        data = a["in"]
        if mode == "ecb-encrypt":
            return {"out": modes.ecb_encrypt(cipher, data)}
        if mode == "ecb-decrypt":
            return {"out": modes.ecb_decrypt(cipher, data)}
        if mode == "cbc-encrypt":
            out = modes.cbc_encrypt(cipher, a["iv"], data)
            return {"out": out, "iv": out[-cipher.block_size :] if out else a["iv"]}
        if mode == "cbc-decrypt":
            return {"out": modes.cbc_decrypt(cipher, a["iv"], data), "iv": data[-cipher.block_size :] if data else a["iv"]}
        if mode == "ctr":
            return {"out": modes.ctr_crypt(cipher, a["counter"], data), "counter": _ctr_next(a["counter"], len(data))}
        raise ValueError(f"unknown mode {mode!r}")

    return run


def _aead(cipher_name: str, mode: str) -> Callable[[Inputs], Outputs]:
    make = BLOCK_CIPHERS[cipher_name]

    def run(a: Inputs) -> Outputs:
        cipher = make(a["key"])
        if mode == "gcm":
            out, tag = modes.gcm_encrypt(cipher, a["nonce"], a["in"], a.get("aad", b""))
            return {"out": out, "tag": tag}
        sealed = modes.ccm_encrypt(cipher, a["nonce"], a["in"], a.get("aad", b""), 16)
        return {"out": sealed[:-16], "tag": sealed[-16:]}

    return run


REFERENCES: dict[str, Callable[[Inputs], Outputs]] = {}
for _name in hashes.NAMES:
    REFERENCES[_name] = lambda a, _n=_name: {"digest": hashes.digest(_n, a["msg"])}
    REFERENCES[f"hmac-{_name}"] = lambda a, _n=_name: {"tag": hmac(_n, a["key"], a["msg"])}
# XOFs as fixed-length operations, named for the output length d in bits (FIPS 202 §6.2: SHAKE128(M, d)).
for _name in hashes.XOF_NAMES:
    REFERENCES[f"{_name}-256"] = lambda a, _n=_name: {"digest": hashes.digest(_n, a["msg"], 32)}
for _cipher in BLOCK_CIPHERS:
    for _mode in ("ecb-encrypt", "ecb-decrypt", "cbc-encrypt", "cbc-decrypt", "ctr"):
        REFERENCES[f"{_cipher}-{_mode}"] = _block_mode(_cipher, _mode)
    REFERENCES[f"{_cipher}-cmac"] = lambda a, _c=_cipher: {"tag": modes.cmac(BLOCK_CIPHERS[_c](a["key"]), a["msg"])}
    for _mode in ("gcm", "ccm"):
        REFERENCES[f"{_cipher}-{_mode}-encrypt"] = _aead(_cipher, _mode)
REFERENCES["aes-gmac"] = lambda a: {"tag": modes.gmac(AES(a["key"]), a["nonce"], a["aad"])}
REFERENCES["chacha20"] = lambda a: {"out": chacha20_encrypt(a["key"], a["counter32"], a["nonce"], a["in"])}
REFERENCES["poly1305"] = lambda a: {"tag": poly1305_mac(a["msg"], a["key"])}


def _chacha20_poly1305(a: Inputs) -> Outputs:
    sealed = chacha20_poly1305_encrypt(a["key"], a["nonce"], a["in"], a.get("aad", b""))
    return {"out": sealed[:-16], "tag": sealed[-16:]}


REFERENCES["chacha20-poly1305-encrypt"] = _chacha20_poly1305


def _ascon_aead128(a: Inputs) -> Outputs:
    sealed = ascon_aead128_encrypt(a["key"], a["nonce"], a["in"], a.get("aad", b""))
    return {"out": sealed[:-16], "tag": sealed[-16:]}


REFERENCES["ascon-aead128-encrypt"] = _ascon_aead128
REFERENCES["ascon-hash256"] = lambda a: {"digest": ascon_hash256(a["msg"])}
# Instantiate (entropy, nonce, personalization), then one Generate of out_len bytes (SP 800-90A §10.1.1).
REFERENCES["hash-drbg-sha-256-generate"] = lambda a: {
    "out": HashDRBG(a["entropy"], a["nonce"], a.get("personalization", b"")).generate(int(a["out_len"]))
}


# ---------------------------------------------------------------------------------------------
# Multi-precision and field arithmetic. Operands are little-endian byte strings whose 32-bit
# words are the limbs, least significant first (the layout of every 32-bit bignum library).
# Random input bytes are first *prepared* into valid operands (an odd modulus of the full
# length, operands reduced below it); the harness hands the prepared inputs to both the kernel
# and the reference, and each reference prepares again (idempotent), so it accepts raw bytes.

#: The largest operand of the bignum kernels: their context holds a modulus of 128 limbs.
MONT_MAX_BYTES = 512
#: Fixed-size fields of the field kernels: modulus, operand bytes (whole 32-bit limbs), source.
FIELDS: dict[str, tuple[int, int, str]] = {
    "p256": (2**256 - 2**224 + 2**192 + 2**96 - 1, 32, "FIPS 186-4 Appendix D.1.2.3 (Curve P-256)"),
    "p384": (2**384 - 2**128 - 2**96 + 2**32 - 1, 48, "FIPS 186-4 Appendix D.1.2.4 (Curve P-384)"),
    "p521": (2**521 - 1, 68, "FIPS 186-4 Appendix D.1.2.5 (Curve P-521)"),
    "sm2": (2**256 - 2**224 - 2**96 + 2**64 - 1, 32, "GB/T 32918.5-2017 (SM2 recommended curve sm2p256v1)"),
    "25519": (2**255 - 19, 32, "RFC 7748 §4.1 (Curve25519)"),
    "448": (2**448 - 2**224 - 1, 56, "RFC 7748 §4.2 (Curve448)"),
}


def _le(data: bytes) -> int:
    return int.from_bytes(data, "little")


def _operand_length(a: Inputs, rule: str, accepted: Callable[[int], bool]) -> int:
    size = len(a["a"])
    if not accepted(size):
        raise ValueError(f"Invalid operand length ({size} bytes) for {rule}")
    for role in ("b", "modulus", "exponent"):
        if role in a and len(a[role]) != size:
            raise ValueError(f"Invalid {role} length ({len(a[role])} bytes); accepted: the length of a, {size} bytes")
    return size


def prepare_mont(a: Inputs) -> Inputs:
    """An odd modulus n whose top limb is not zero (so R = 2^(32·limbs) is the least power of 2^32
    above n; a zero top limb gets its top bit set); a, b reduced mod n."""
    size = _operand_length(a, f"Montgomery arithmetic; accepted: a multiple of 4 from 4 to {MONT_MAX_BYTES} bytes "
                              "(32-bit limbs, at most 4096 bits)", lambda n: 0 < n <= MONT_MAX_BYTES and n % 4 == 0)
    n = _le(a["modulus"]) | 1
    if n >> (8 * size - 32) == 0:
        n |= 1 << (8 * size - 1)
    out = dict(a, modulus=n.to_bytes(size, "little"))
    for role in ("a", "b"):
        if role in a:
            out[role] = (_le(a[role]) % n).to_bytes(size, "little")
    return out


def _mont(a: Inputs, square: bool) -> Outputs:
    a = prepare_mont(a)
    ctx = Montgomery(_le(a["modulus"]))
    x = _le(a["a"])
    r = ctx.sqr(x) if square else ctx.mul(x, _le(a["b"]))
    return {"r": r.to_bytes(len(a["a"]), "little")}


def prepare_field(field: str) -> Callable[[Inputs], Inputs]:
    """Operands of the field's length reduced mod its prime (canonical inputs)."""
    p, size, source = FIELDS[field]

    def prepare(a: Inputs) -> Inputs:
        _operand_length(a, f"the {field} field ({source}); accepted: {size} bytes", lambda n: n == size)
        return {**a, **{role: (_le(a[role]) % p).to_bytes(size, "little") for role in ("a", "b") if role in a}}

    return prepare


def _field_op(field: str, square: bool, montgomery: bool = False) -> Callable[[Inputs], Outputs]:
    """a b mod p (a^2 when ``square``); with ``montgomery``, the Montgomery product a b R^-1 mod p of
    canonical operands, R = 2^(8 size)."""
    p, size, _ = FIELDS[field]
    factor = pow(2 ** (8 * size), -1, p) if montgomery else 1

    def run(a: Inputs) -> Outputs:
        a = prepare_field(field)(a)
        x = _le(a["a"])
        y = x if square else _le(a["b"])
        return {"r": (x * y * factor % p).to_bytes(size, "little")}

    return run


def _field_additive(field: str, sign: int) -> Callable[[Inputs], Outputs]:
    """a + b (sign 1) or a - b (sign -1) mod the field's prime."""
    p, size, _ = FIELDS[field]

    def run(a: Inputs) -> Outputs:
        a = prepare_field(field)(a)
        return {"r": ((_le(a["a"]) + sign * _le(a["b"])) % p).to_bytes(size, "little")}

    return run


def _mont_additive(a: Inputs, sign: int) -> Outputs:
    a = prepare_mont(a)
    n = _le(a["modulus"])
    return {"r": ((_le(a["a"]) + sign * _le(a["b"])) % n).to_bytes(len(a["a"]), "little")}


def _select(a: Inputs) -> Outputs:
    """b when the low bit of a is 1, else a (the kernel's constant-time select)."""
    _operand_length(a, "a select of 32-bit limbs; accepted: a multiple of 4 bytes", lambda n: n > 0 and n % 4 == 0)
    return {"r": bytes(a["b"] if a["a"][0] & 1 else a["a"])}


REFERENCES["mont-mul"] = lambda a: _mont(a, square=False)
REFERENCES["mont-sqr"] = lambda a: _mont(a, square=True)


def _mont_exp(a: Inputs) -> Outputs:
    """a^e mod n (the kernel's result leaves the Montgomery domain)."""
    a = prepare_mont(a)
    n = _le(a["modulus"])
    return {"r": pow_sliding_window(_le(a["a"]), _le(a["exponent"]), n).to_bytes(len(a["a"]), "little")}


REFERENCES["mont-exp"] = _mont_exp
def _mont_mod_wide(a: Inputs) -> Outputs:
    """(a + b 2^(8 size)) mod n: the remainder of a number of twice the modulus' length (bignum cy-mod)."""
    a = prepare_mont(a)
    size = len(a["a"])
    value = _le(a["a"]) + (_le(a["b"]) << (8 * size))
    return {"r": (value % _le(a["modulus"])).to_bytes(size, "little")}


REFERENCES["mont-mod-wide"] = _mont_mod_wide


def _mont_red(a: Inputs) -> Outputs:
    """a R^-1 mod n, R = 2^(8 size): a Montgomery reduction out of the domain (bignum cy-mont-red)."""
    a = prepare_mont(a)
    n, size = _le(a["modulus"]), len(a["a"])
    return {"r": (_le(a["a"]) * pow(1 << (8 * size), -1, n) % n).to_bytes(size, "little")}


REFERENCES["mont-red"] = _mont_red


def prepare_barrett(a: Inputs) -> Inputs:
    """prepare_mont's operands, limited to the 18 limbs (576 bits) of the Barrett context (bignum cy-bp-*:
    the brainpool fields, 8 to 16 limbs)."""
    size = len(a["a"])
    if size > 72:
        raise ValueError(f"Invalid operand length ({size} bytes) for the Barrett field product; accepted: a multiple "
                         "of 4 from 4 to 72 bytes")
    return prepare_mont(a)


def _mod_product(a: Inputs, square: bool) -> Outputs:
    """a b mod n (a^2 mod n when ``square``): a field product of a run-time modulus, no Montgomery factor."""
    a = prepare_barrett(a)
    x = _le(a["a"])
    y = x if square else _le(a["b"])
    return {"r": (x * y % _le(a["modulus"])).to_bytes(len(a["a"]), "little")}


REFERENCES["mod-mul"] = lambda a: _mod_product(a, square=False)
REFERENCES["mod-sqr"] = lambda a: _mod_product(a, square=True)
REFERENCES["mont-add"] = lambda a: _mont_additive(a, 1)
REFERENCES["mont-sub"] = lambda a: _mont_additive(a, -1)
REFERENCES["select"] = _select
#: a and b exchanged when the low bit of a is 1 (bignum 25519-cswap, the ladder's conditional swap)
REFERENCES["fe-25519-cswap"] = lambda a: {"a": a["b"], "b": a["a"]} if a["a"][0] & 1 else {"a": a["a"], "b": a["b"]}
#: no output: bignum "call" is the caller's side of a call, measured for its cycles only
REFERENCES["call"] = lambda a: {}
#: Input preparation by reference name (the identity for every other reference).
PREPARE: dict[str, Callable[[Inputs], Inputs]] = {"mont-mul": prepare_mont, "mont-sqr": prepare_mont,
                                                  "mont-exp": prepare_mont, "mont-add": prepare_mont,
                                                  "mont-sub": prepare_mont, "mont-mod-wide": prepare_mont, "mont-red": prepare_mont,
                                                  "mod-mul": prepare_barrett, "mod-sqr": prepare_barrett}
#: The entry sizes of the SP table read (bignum sp-table-read, table.h): P-256 x, y (64 bytes), x, y, z (96) and
#: P-384 x, y, z (144); P-384 x, y is 96 bytes too
SP_TABLE_ENTRY_BYTES = (64, 96, 144)


def prepare_sp_table(a: Inputs) -> Inputs:
    """The SP table read's operands: ``a`` an entry's length (64, 96 or 144 bytes; its first byte's low
    four bits the index), ``b`` the 16-entry table: 16 times a's length, or a's length, then taken as
    the seed of a table of SHAKE256 bytes."""
    size = len(a["a"])
    if size not in SP_TABLE_ENTRY_BYTES:
        raise ValueError(f"Invalid operand length ({size} bytes) for the SP table read; accepted: "
                         f"{', '.join(map(str, SP_TABLE_ENTRY_BYTES))} bytes (an entry)")
    table = a["b"]
    if len(table) == size:
        table = hashlib.shake_256(b"sp-table-read/" + bytes(table)).digest(16 * size)
    elif len(table) != 16 * size:
        raise ValueError(f"Invalid b length ({len(table)} bytes) for the SP table read; accepted: {16 * size} "
                         f"bytes (16 entries of {size}) or {size} bytes (a seed)")
    return {**a, "b": table}


def _sp_table_read(a: Inputs) -> Outputs:
    """Entry (a[0] & 15) of the 16-entry table b, zero for index 0 (wolfSSL SP's entry 0, never read)."""
    a = prepare_sp_table(a)
    size, index = len(a["a"]), a["a"][0] & 15
    return {"r": bytes(a["b"][index * size:(index + 1) * size]) if index else bytes(size)}


def prepare_ref10_row(a: Inputs) -> Inputs:
    """The Ed25519 row read's operands: ``a`` 96 bytes whose first byte is the signed digit (-8..8 kept,
    another byte v made (v mod 17) - 8), ``b`` the row of 8 points (yplusx, yminusx, xy2d, each mod
    2^255 - 19): 768 bytes, or 96 taken as the seed of SHAKE256 bytes."""
    if len(a["a"]) != 96:
        raise ValueError(f"Invalid operand length ({len(a['a'])} bytes) for the Ed25519 row read; accepted: 96 bytes")
    digit = int.from_bytes(a["a"][:1], "little", signed=True)
    if not -8 <= digit <= 8:
        digit = a["a"][0] % 17 - 8
    row = a["b"]
    if len(row) == 96:
        row = hashlib.shake_256(b"ref10-cmov-table/" + bytes(row)).digest(768)
    elif len(row) != 768:
        raise ValueError(f"Invalid b length ({len(row)} bytes) for the Ed25519 row read; accepted: 768 bytes "
                         "(8 entries of 96) or 96 bytes (a seed)")
    p = FIELDS["25519"][0]
    row = b"".join((_le(row[i:i + 32]) % p).to_bytes(32, "little") for i in range(0, 768, 32))
    return {**a, "a": (digit & 0xFF).to_bytes(1, "little") + a["a"][1:], "b": row}


def _ref10_cmov_table(a: Inputs) -> Outputs:
    """Entry |d| - 1 of the row (the neutral point yplusx = yminusx = 1, xy2d = 0 for d = 0); for d < 0 its
    negation: yplusx and yminusx exchanged, xy2d replaced by p - xy2d (ref10 ge_select, wolfSSL fe_cmov_table)."""
    a = prepare_ref10_row(a)
    digit = int.from_bytes(a["a"][:1], "little", signed=True)
    if digit == 0:
        yplusx, yminusx, xy2d = 1, 1, 0
    else:
        e = a["b"][96 * (abs(digit) - 1):96 * abs(digit)]
        yplusx, yminusx, xy2d = _le(e[:32]), _le(e[32:64]), _le(e[64:])
    if digit < 0:
        yplusx, yminusx, xy2d = yminusx, yplusx, FIELDS["25519"][0] - xy2d
    return {"r": b"".join(v.to_bytes(32, "little") for v in (yplusx, yminusx, xy2d))}


REFERENCES["sp-table-read"] = _sp_table_read
PREPARE["sp-table-read"] = prepare_sp_table
REFERENCES["ref10-cmov-table"] = _ref10_cmov_table
PREPARE["ref10-cmov-table"] = prepare_ref10_row


for _field in FIELDS:
    REFERENCES[f"fe-{_field}-mul"] = _field_op(_field, square=False)
    REFERENCES[f"fe-{_field}-sqr"] = _field_op(_field, square=True)
    PREPARE[f"fe-{_field}-mul"] = PREPARE[f"fe-{_field}-sqr"] = prepare_field(_field)
    REFERENCES[f"fe-{_field}-add"] = _field_additive(_field, 1)
    REFERENCES[f"fe-{_field}-sub"] = _field_additive(_field, -1)
    PREPARE[f"fe-{_field}-add"] = PREPARE[f"fe-{_field}-sub"] = prepare_field(_field)


REFERENCES["fe-p256-mont-mul"] = _field_op("p256", square=False, montgomery=True)
REFERENCES["fe-p256-mont-sqr"] = _field_op("p256", square=True, montgomery=True)
PREPARE["fe-p256-mont-mul"] = PREPARE["fe-p256-mont-sqr"] = prepare_field("p256")
#: a / 2 mod p (p256_ct.h p256_halve: a + p when a is odd, then one shift)
REFERENCES["fe-p256-halve"] = lambda a: {"r": (_le(prepare_field("p256")(a)["a"]) * pow(2, -1, FIELDS["p256"][0])
                                              % FIELDS["p256"][0]).to_bytes(32, "little")}
PREPARE["fe-p256-halve"] = prepare_field("p256")


def _mul_a24(a: Inputs) -> Outputs:
    """121665 a mod 2^255 - 19 (RFC 7748 §5 a24)."""
    p, size, _ = FIELDS["25519"]
    a = prepare_field("25519")(a)
    return {"r": (_le(a["a"]) * 121665 % p).to_bytes(size, "little")}


REFERENCES["fe-25519-mul-a24"] = _mul_a24


def _mul_448_const(a: Inputs) -> Outputs:
    """39081 a mod 2^448 - 2^224 - 1 (RFC 7748 §5 a24 of X448)."""
    p, size, _ = FIELDS["448"]
    a = prepare_field("448")(a)
    return {"r": (_le(a["a"]) * 39081 % p).to_bytes(size, "little")}


REFERENCES["fe-448-mul-const"] = _mul_448_const
PREPARE["fe-448-mul-const"] = prepare_field("448")


def prepare_p256_scalar(a: Inputs) -> Inputs:
    """A P-256 scalar: 32 bytes reduced mod the group order n (FIPS 186-4 D.1.2.3)."""
    _operand_length(a, "a P-256 scalar; accepted: 32 bytes", lambda n: n == 32)
    return {**a, "a": (_le(a["a"]) % curves.P256.n).to_bytes(32, "little")}


def _p256_base_mult(a: Inputs) -> Outputs:
    """The affine x of [k]G on P-256 (0 for k = 0), by the reference's fixed 4-bit window."""
    k = _le(prepare_p256_scalar(a)["a"])
    Q = weierstrass.scalar_mult(curves.P256, k, curves.P256.G)
    return {"r": (0 if Q is None else Q[0]).to_bytes(32, "little")}


REFERENCES["p256-base-mult"] = _p256_base_mult
PREPARE["p256-base-mult"] = prepare_p256_scalar


def prepare_p256_point(a: Inputs) -> Inputs:
    """A P-256 scalar (a, reduced mod n) and a public point b: 64 bytes x then y, little-endian,
    on the curve; 32 bytes are taken as a private scalar d mod n (1 for 0) and become [d]G."""
    k = prepare_p256_scalar({"a": a["a"]})["a"]
    b = a["b"]
    if len(b) == 32:
        d = _le(b) % curves.P256.n or 1
        x, y = weierstrass.scalar_mult(curves.P256, d, curves.P256.G)
        b = x.to_bytes(32, "little") + y.to_bytes(32, "little")
    elif len(b) != 64 or not weierstrass.is_on_curve(curves.P256, (_le(b[:32]), _le(b[32:]))):
        raise ValueError(f"Invalid b for a P-256 point ({len(b)} bytes); accepted: 64 bytes x then y "
                         "of a point on the curve, or 32 bytes of a scalar d for [d]G")
    return {**a, "a": k, "b": b}


def _p256_scalar_mult(a: Inputs) -> Outputs:
    """The affine x of [k]P on P-256 (0 for k = 0): the ECDH shared secret (SEC 1 v2 §3.3.1)."""
    a = prepare_p256_point(a)
    k = _le(a["a"])
    P = (_le(a["b"][:32]), _le(a["b"][32:]))
    Q = weierstrass.scalar_mult(curves.P256, k, P)
    return {"r": (0 if Q is None else Q[0]).to_bytes(32, "little")}


REFERENCES["p256-scalar-mult"] = _p256_scalar_mult
PREPARE["p256-scalar-mult"] = prepare_p256_point


def prepare_p256_order(a: Inputs) -> Inputs:
    """Operands modulo the P-256 group order n (FIPS 186-4 D.1.2.3): 32 bytes each, reduced mod n."""
    _operand_length(a, "arithmetic modulo the P-256 group order n; accepted: 32 bytes", lambda n: n == 32)
    return {**a, **{role: (_le(a[role]) % curves.P256.n).to_bytes(32, "little") for role in ("a", "b") if role in a}}


def _p256_order_op(square: bool) -> Callable[[Inputs], Outputs]:
    """The Montgomery product a b 2^-256 mod n (a^2 2^-256 when ``square``) of operands below n."""
    factor = pow(2**256, -1, curves.P256.n)

    def run(a: Inputs) -> Outputs:
        a = prepare_p256_order(a)
        x = _le(a["a"])
        y = x if square else _le(a["b"])
        return {"r": (x * y * factor % curves.P256.n).to_bytes(32, "little")}

    return run


REFERENCES["p256-order-mul"] = _p256_order_op(square=False)
REFERENCES["p256-order-sqr"] = _p256_order_op(square=True)
PREPARE["p256-order-mul"] = PREPARE["p256-order-sqr"] = prepare_p256_order

def _p256_order_scalar(data: bytes) -> int:
    """A P-256 scalar in [1, n - 1] from 32 little-endian bytes (mod n, 1 for 0)."""
    return _le(data) % curves.P256.n or 1


def prepare_p256_sign(a: Inputs) -> Inputs:
    """ECDSA P-256 signing inputs: ``a`` = e || d (64 bytes: the hash's integer, any 256-bit value,
    and the private key, taken mod n, 1 for 0), ``b`` = the nonce k (its first 32 bytes mod n, 1 for 0;
    32 or 64 bytes accepted, 32 kept); little-endian."""
    if len(a["a"]) != 64:
        raise ValueError(f"Invalid a length ({len(a['a'])} bytes) for ECDSA P-256 signing; accepted: a = e || d, "
                         "64 bytes")
    if len(a["b"]) not in (32, 64):
        raise ValueError(f"Invalid b length ({len(a['b'])} bytes) for ECDSA P-256 signing; accepted: 32 bytes "
                         "of the nonce k (or 64, of which the first 32)")
    d = _p256_order_scalar(a["a"][32:])
    k = _p256_order_scalar(a["b"][:32])
    return {**a, "a": a["a"][:32] + d.to_bytes(32, "little"), "b": k.to_bytes(32, "little")}


def _p256_ecdsa_sign(a: Inputs) -> Outputs:
    """r || s of the ECDSA P-256 signature with the given nonce (FIPS 186-4 §6.4; refbench.ref.ecdsa),
    e given as the integer of the hash: the hash is e's 32 big-endian bytes."""
    a = prepare_p256_sign(a)
    e, d, k = _le(a["a"][:32]), _le(a["a"][32:]), _le(a["b"])
    r, s = ecdsa.sign_digest(curves.P256, d, e.to_bytes(32, "big"), k=k)
    return {"r": r.to_bytes(32, "little") + s.to_bytes(32, "little")}


def prepare_p256_verify(a: Inputs) -> Inputs:
    """ECDSA P-256 verification inputs: ``a`` = r || s (64 bytes, kept: the kernel checks their range),
    ``b`` = e || Q (96 bytes: the hash's integer, then the public key's x || y, on the curve); 64 bytes
    e || t are taken as the hash's integer and a private scalar (t mod n, 1 for 0), and Q = [t]G.
    Little-endian."""
    if len(a["a"]) != 64:
        raise ValueError(f"Invalid a length ({len(a['a'])} bytes) for ECDSA P-256 verification; accepted: "
                         "a = r || s, 64 bytes")
    b = a["b"]
    if len(b) == 96:
        if not weierstrass.is_on_curve(curves.P256, (_le(b[32:64]), _le(b[64:]))):
            raise ValueError("Invalid b for ECDSA P-256 verification: its bytes 32..95 (x || y) are not a point "
                             "on the curve")
    elif len(b) == 64:
        x, y = weierstrass.scalar_mult(curves.P256, _p256_order_scalar(b[32:]), curves.P256.G)
        b = b[:32] + x.to_bytes(32, "little") + y.to_bytes(32, "little")
    else:
        raise ValueError(f"Invalid b length ({len(b)} bytes) for ECDSA P-256 verification; accepted: 96 bytes "
                         "e || x || y, or 64 bytes e || a private scalar")
    return {**a, "b": b}


def _p256_ecdsa_verify(a: Inputs) -> Outputs:
    """64 bytes whose first word is 1 when (r, s) is a valid signature of e under Q, else 0
    (FIPS 186-4 §6.4.2; refbench.ref.ecdsa)."""
    a = prepare_p256_verify(a)
    r, s = _le(a["a"][:32]), _le(a["a"][32:])
    e = _le(a["b"][:32])
    Q = (_le(a["b"][32:64]), _le(a["b"][64:]))
    try:
        ecdsa.verify_digest(curves.P256, Q, e.to_bytes(32, "big"), (r, s))
        valid = 1
    except InvalidSignature:
        valid = 0
    return {"r": valid.to_bytes(4, "little") + bytes(60)}


REFERENCES["p256-ecdsa-sign"] = _p256_ecdsa_sign
PREPARE["p256-ecdsa-sign"] = prepare_p256_sign
REFERENCES["p256-ecdsa-verify"] = _p256_ecdsa_verify
PREPARE["p256-ecdsa-verify"] = prepare_p256_verify
PREPARE["fe-25519-mul-a24"] = prepare_field("25519")
#: field elements, so a variant that keeps them in its own limbs (refbench.kernels.representation) swaps the same values
PREPARE["fe-25519-cswap"] = prepare_field("25519")
REFERENCES["x25519"] = lambda a: {"r": x25519(a["a"], a["b"])}  # scalar a, u-coordinate b (RFC 7748 §5)


def _ed25519_base_mult(a: Inputs) -> Outputs:
    """ENC([k]B) on edwards25519 (RFC 8032 §5.1.2), k the 32-byte little-endian scalar, all 256 bits."""
    _operand_length(a, "an Ed25519 scalar; accepted: 32 bytes", lambda n: n == 32)
    E = edwards.ED25519
    return {"r": edwards.encode(E, edwards.scalar_mult(E, _le(a["a"]), E.B))}


def prepare_ed25519_double(a: Inputs) -> Inputs:
    """Operands of the Ed25519 double scalar multiplication: ``a`` = S || h (two 32-byte scalars,
    kept), ``b`` = the affine x || y of the point A = [t]B, t = ``b`` mod L (a valid public key)."""
    _operand_length(a, "the Ed25519 double scalar multiplication; accepted: 64 bytes (two 32-byte halves)",
                    lambda n: n == 64)
    E = edwards.ED25519
    x, y = edwards.to_affine(E, edwards.scalar_mult(E, _le(a["b"]) % E.L, E.B))
    return {**a, "b": x.to_bytes(32, "little") + y.to_bytes(32, "little")}


def _ed25519_double_mult(a: Inputs) -> Outputs:
    """The affine x || y of [S]B - [h]A (RFC 8032 §5.1.7 step 3's sides), inputs as prepared
    (``b`` already the point's coordinates)."""
    _operand_length(a, "the Ed25519 double scalar multiplication; accepted: 64 bytes (two 32-byte halves)",
                    lambda n: n == 64)
    E = edwards.ED25519
    S, h = _le(a["a"][:32]), _le(a["a"][32:])
    A = edwards.from_affine(E, _le(a["b"][:32]), _le(a["b"][32:]))
    Q = edwards.add(E, edwards.scalar_mult(E, S, E.B), edwards.scalar_mult(E, h, edwards.negate(E, A)))
    x, y = edwards.to_affine(E, Q)
    return {"r": x.to_bytes(32, "little") + y.to_bytes(32, "little")}


REFERENCES["ed25519-base-mult"] = _ed25519_base_mult
REFERENCES["ed25519-double-mult"] = _ed25519_double_mult
PREPARE["ed25519-double-mult"] = prepare_ed25519_double


def prepare(name: str) -> Callable[[Inputs], Inputs]:
    """The reference's input preparation (valid operands from raw bytes), the identity by default."""
    reference(name)
    return PREPARE.get(name, lambda a: a)


def reference(name: str) -> Callable[[Inputs], Outputs]:
    try:
        return REFERENCES[name]
    except KeyError:
        raise ValueError(f"Unknown kernel reference {name!r}; valid: {', '.join(sorted(REFERENCES))}") from None
