"""What each kernel operation must equal: the Python references, by name.

A kernel manifest names its reference (``reference = "aes-cbc-encrypt"``).
Each entry here maps the operation's inputs, by role (see
:data:`refbench.kernels.catalog.ROLES`), to the outputs the kernel must
produce, by role — including buffers updated in place (the CBC chaining value,
the CTR counter block). This is the only glue between kernels and references,
written once per operation, not once per kernel.
"""

from __future__ import annotations

from collections.abc import Callable

from refbench.ref import hashes, modes
from refbench.ref.aes import AES
from refbench.ref.ascon import ascon_aead128_encrypt, ascon_hash256
from refbench.ref.chacha import chacha20_encrypt, chacha20_poly1305_encrypt, poly1305_mac
from refbench.ref.drbg import HashDRBG
from refbench.ref.hmac import hmac
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


def reference(name: str) -> Callable[[Inputs], Outputs]:
    try:
        return REFERENCES[name]
    except KeyError:
        raise ValueError(f"Unknown kernel reference {name!r}; valid: {', '.join(sorted(REFERENCES))}") from None
