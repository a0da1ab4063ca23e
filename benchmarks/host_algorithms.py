"""The host benchmark catalogue: each refbench reference beside `cryptography` and `pycryptodome`.

Every implementation of an algorithm gets the same inputs and must give the same bytes (checked
by the benchmark before timing). Each timed call is one whole one-shot operation, key schedule
included, as an application would call it: ``AES(key)`` + mode for the reference,
``Cipher(...).encryptor()`` for cryptography, ``AES.new(...)`` for pycryptodome.

``SIZED`` algorithms take the message size (``--refbench-size``); ``FIXED`` ones (public key)
are one operation on fixed inputs. ``DEFAULT`` is the representative set of the default run;
``--refbench-full`` (or ``--refbench-algorithm``) selects others.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from Crypto.Cipher import AES as PycAES
from Crypto.Cipher import DES3 as PycDES3
from Crypto.Cipher import ChaCha20 as PycChaCha20
from Crypto.Cipher import ChaCha20_Poly1305 as PycChaCha20Poly1305
from Crypto.Hash import CMAC as PycCMAC
from Crypto.Hash import HMAC as PycHMAC
from Crypto.Hash import MD5 as PycMD5
from Crypto.Hash import SHA1 as PycSHA1
from Crypto.Hash import SHA3_256 as PycSHA3_256
from Crypto.Hash import SHA256 as PycSHA256
from Crypto.Hash import SHA512 as PycSHA512
from Crypto.PublicKey import ECC as PycECC
from Crypto.Signature import eddsa as pyc_eddsa
from cryptography.hazmat.decrepit.ciphers.algorithms import TripleDES
from cryptography.hazmat.primitives import cmac as c_cmac
from cryptography.hazmat.primitives import hashes as c_hashes
from cryptography.hazmat.primitives import hmac as c_hmac
from cryptography.hazmat.primitives import poly1305 as c_poly1305
from cryptography.hazmat.primitives.asymmetric import ed25519 as c_ed25519
from cryptography.hazmat.primitives.asymmetric import x25519 as c_x25519
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.ciphers import modes as c_modes
from cryptography.hazmat.primitives.ciphers.aead import AESCCM, AESGCM, ChaCha20Poly1305

from refbench.ref import ascon, eddsa, hashes, modes, montgomery
from refbench.ref.aes import AES
from refbench.ref.chacha import chacha20_encrypt, chacha20_poly1305_encrypt, poly1305_mac
from refbench.ref.hmac import hmac
from refbench.ref.sm4 import SM4
from refbench.ref.tdea import TDEA

REFERENCE = "refbench"
CRYPTOGRAPHY = "cryptography"
PYCRYPTODOME = "pycryptodome"


def _bytes(length: int, label: str) -> bytes:
    """Deterministic inputs: SHA-256 in counter mode over ``label``."""
    out = bytearray()
    counter = 0
    while len(out) < length:
        out += hashlib.sha256(f"refbench-host:{label}:{counter}".encode()).digest()
        counter += 1
    return bytes(out[:length])


@dataclass(frozen=True)
class Inputs:
    """The same inputs for every implementation of an algorithm."""

    msg: bytes
    key16: bytes = _bytes(16, "key16")
    key24: bytes = _bytes(24, "key24")
    key32: bytes = _bytes(32, "key32")
    iv16: bytes = _bytes(16, "iv16")
    iv8: bytes = _bytes(8, "iv8")
    nonce12: bytes = _bytes(12, "nonce12")
    nonce16: bytes = _bytes(16, "nonce16")
    aad: bytes = _bytes(16, "aad")


def _c_cipher(algorithm, mode, data: bytes) -> bytes:
    encryptor = Cipher(algorithm, mode).encryptor()
    return encryptor.update(data) + encryptor.finalize()


def _c_hash(algorithm: c_hashes.HashAlgorithm, data: bytes) -> bytes:
    h = c_hashes.Hash(algorithm)
    h.update(data)
    return h.finalize()


def _c_cmac(key: bytes, data: bytes) -> bytes:
    c = c_cmac.CMAC(algorithms.AES(key))
    c.update(data)
    return c.finalize()


def _c_hmac(key: bytes, data: bytes) -> bytes:
    h = c_hmac.HMAC(key, c_hashes.SHA256())
    h.update(data)
    return h.finalize()


def _pyc_gcm(i: Inputs) -> bytes:
    cipher = PycAES.new(i.key16, PycAES.MODE_GCM, nonce=i.nonce12)
    cipher.update(i.aad)
    ciphertext, tag = cipher.encrypt_and_digest(i.msg)
    return ciphertext + tag


def _pyc_ccm(i: Inputs) -> bytes:
    cipher = PycAES.new(i.key16, PycAES.MODE_CCM, nonce=i.nonce12, mac_len=16)
    cipher.update(i.aad)
    ciphertext, tag = cipher.encrypt_and_digest(i.msg)
    return ciphertext + tag


def _pyc_chacha20(i: Inputs) -> bytes:
    cipher = PycChaCha20.new(key=i.key32, nonce=i.nonce12)
    cipher.seek(64)  # block counter 1, as RFC 8439 §2.4.2 and the reference call below
    return cipher.encrypt(i.msg)


def _pyc_chacha20_poly1305(i: Inputs) -> bytes:
    cipher = PycChaCha20Poly1305.new(key=i.key32, nonce=i.nonce12)
    cipher.update(i.aad)
    ciphertext, tag = cipher.encrypt_and_digest(i.msg)
    return ciphertext + tag


def _ref_gcm(i: Inputs) -> bytes:
    ciphertext, tag = modes.gcm_encrypt(AES(i.key16), i.nonce12, i.msg, i.aad)
    return ciphertext + tag


Factory = Callable[[Inputs], bytes]


@dataclass(frozen=True)
class HostAlgorithm:
    """One algorithm: its implementations by name, each a one-shot function of the inputs."""

    name: str
    implementations: dict[str, Factory]


SIZED: dict[str, HostAlgorithm] = {
    a.name: a
    for a in (
        HostAlgorithm("AES-128-CBC", {
            REFERENCE: lambda i: modes.cbc_encrypt(AES(i.key16), i.iv16, i.msg),
            CRYPTOGRAPHY: lambda i: _c_cipher(algorithms.AES(i.key16), c_modes.CBC(i.iv16), i.msg),
            PYCRYPTODOME: lambda i: PycAES.new(i.key16, PycAES.MODE_CBC, iv=i.iv16).encrypt(i.msg),
        }),
        HostAlgorithm("AES-128-CTR", {
            REFERENCE: lambda i: modes.ctr_crypt(AES(i.key16), i.iv16, i.msg),
            CRYPTOGRAPHY: lambda i: _c_cipher(algorithms.AES(i.key16), c_modes.CTR(i.iv16), i.msg),
            PYCRYPTODOME: lambda i: PycAES.new(
                i.key16, PycAES.MODE_CTR, nonce=b"", initial_value=i.iv16
            ).encrypt(i.msg),
        }),
        HostAlgorithm("AES-128-GCM", {
            REFERENCE: _ref_gcm,
            CRYPTOGRAPHY: lambda i: AESGCM(i.key16).encrypt(i.nonce12, i.msg, i.aad),
            PYCRYPTODOME: _pyc_gcm,
        }),
        HostAlgorithm("AES-128-CCM", {
            REFERENCE: lambda i: modes.ccm_encrypt(AES(i.key16), i.nonce12, i.msg, i.aad, 16),
            CRYPTOGRAPHY: lambda i: AESCCM(i.key16, tag_length=16).encrypt(i.nonce12, i.msg, i.aad),
            PYCRYPTODOME: _pyc_ccm,
        }),
        HostAlgorithm("AES-128-CMAC", {
            REFERENCE: lambda i: modes.cmac(AES(i.key16), i.msg),
            CRYPTOGRAPHY: lambda i: _c_cmac(i.key16, i.msg),
            PYCRYPTODOME: lambda i: PycCMAC.new(i.key16, i.msg, ciphermod=PycAES).digest(),
        }),
        HostAlgorithm("SM4-CBC", {
            REFERENCE: lambda i: modes.cbc_encrypt(SM4(i.key16), i.iv16, i.msg),
            CRYPTOGRAPHY: lambda i: _c_cipher(algorithms.SM4(i.key16), c_modes.CBC(i.iv16), i.msg),
        }),
        HostAlgorithm("TDEA-CBC", {
            REFERENCE: lambda i: modes.cbc_encrypt(TDEA(i.key24), i.iv8, i.msg),
            CRYPTOGRAPHY: lambda i: _c_cipher(TripleDES(i.key24), c_modes.CBC(i.iv8), i.msg),
            PYCRYPTODOME: lambda i: PycDES3.new(i.key24, PycDES3.MODE_CBC, iv=i.iv8).encrypt(i.msg),
        }),
        HostAlgorithm("ChaCha20", {
            REFERENCE: lambda i: chacha20_encrypt(i.key32, 1, i.nonce12, i.msg),
            CRYPTOGRAPHY: lambda i: _c_cipher(
                algorithms.ChaCha20(i.key32, (1).to_bytes(4, "little") + i.nonce12), None, i.msg
            ),
            PYCRYPTODOME: _pyc_chacha20,
        }),
        HostAlgorithm("ChaCha20-Poly1305", {
            REFERENCE: lambda i: chacha20_poly1305_encrypt(i.key32, i.nonce12, i.msg, i.aad),
            CRYPTOGRAPHY: lambda i: ChaCha20Poly1305(i.key32).encrypt(i.nonce12, i.msg, i.aad),
            PYCRYPTODOME: _pyc_chacha20_poly1305,
        }),
        HostAlgorithm("Poly1305", {
            REFERENCE: lambda i: poly1305_mac(i.msg, i.key32),
            CRYPTOGRAPHY: lambda i: c_poly1305.Poly1305.generate_tag(i.key32, i.msg),
        }),
        HostAlgorithm("MD5", {
            REFERENCE: lambda i: hashes.digest("md5", i.msg),
            CRYPTOGRAPHY: lambda i: _c_hash(c_hashes.MD5(), i.msg),
            PYCRYPTODOME: lambda i: PycMD5.new(i.msg).digest(),
        }),
        HostAlgorithm("SHA-1", {
            REFERENCE: lambda i: hashes.digest("sha-1", i.msg),
            CRYPTOGRAPHY: lambda i: _c_hash(c_hashes.SHA1(), i.msg),
            PYCRYPTODOME: lambda i: PycSHA1.new(i.msg).digest(),
        }),
        HostAlgorithm("SHA-256", {
            REFERENCE: lambda i: hashes.digest("sha-256", i.msg),
            CRYPTOGRAPHY: lambda i: _c_hash(c_hashes.SHA256(), i.msg),
            PYCRYPTODOME: lambda i: PycSHA256.new(i.msg).digest(),
        }),
        HostAlgorithm("SHA-512", {
            REFERENCE: lambda i: hashes.digest("sha-512", i.msg),
            CRYPTOGRAPHY: lambda i: _c_hash(c_hashes.SHA512(), i.msg),
            PYCRYPTODOME: lambda i: PycSHA512.new(i.msg).digest(),
        }),
        HostAlgorithm("SHA3-256", {
            REFERENCE: lambda i: hashes.digest("sha3-256", i.msg),
            CRYPTOGRAPHY: lambda i: _c_hash(c_hashes.SHA3_256(), i.msg),
            PYCRYPTODOME: lambda i: PycSHA3_256.new(i.msg).digest(),
        }),
        HostAlgorithm("SM3", {
            REFERENCE: lambda i: hashes.digest("sm3", i.msg),
            CRYPTOGRAPHY: lambda i: _c_hash(c_hashes.SM3(), i.msg),
        }),
        HostAlgorithm("HMAC-SHA-256", {
            REFERENCE: lambda i: hmac("sha-256", i.key32, i.msg),
            CRYPTOGRAPHY: lambda i: _c_hmac(i.key32, i.msg),
            PYCRYPTODOME: lambda i: PycHMAC.new(i.key32, i.msg, digestmod=PycSHA256).digest(),
        }),
        # No installed library implements Ascon (NIST SP 800-232): the reference runs alone.
        HostAlgorithm("Ascon-AEAD128", {
            REFERENCE: lambda i: ascon.ascon_aead128_encrypt(i.key16, i.nonce16, i.msg, i.aad),
        }),
        HostAlgorithm("Ascon-Hash256", {
            REFERENCE: lambda i: ascon.ascon_hash256(i.msg),
        }),
    )
}

#: Fixed-size operations: the inputs are those of a 32-byte message.
X25519_SCALAR = _bytes(32, "x25519-k")
X25519_PEER = c_x25519.X25519PrivateKey.from_private_bytes(_bytes(32, "x25519-peer")).public_key().public_bytes_raw()
ED25519_SECRET = _bytes(32, "ed25519-secret")


def _c_x25519(i: Inputs) -> bytes:
    key = c_x25519.X25519PrivateKey.from_private_bytes(X25519_SCALAR)
    return key.exchange(c_x25519.X25519PublicKey.from_public_bytes(X25519_PEER))


def _pyc_ed25519(i: Inputs) -> bytes:
    key = PycECC.construct(curve="Ed25519", seed=ED25519_SECRET)
    return pyc_eddsa.new(key, "rfc8032").sign(i.msg)


FIXED: dict[str, HostAlgorithm] = {
    a.name: a
    for a in (
        HostAlgorithm("X25519", {
            REFERENCE: lambda i: montgomery.x25519(X25519_SCALAR, X25519_PEER),
            CRYPTOGRAPHY: _c_x25519,
        }),
        HostAlgorithm("Ed25519-sign", {
            REFERENCE: lambda i: eddsa.sign(ED25519_SECRET, i.msg),
            CRYPTOGRAPHY: lambda i: c_ed25519.Ed25519PrivateKey.from_private_bytes(ED25519_SECRET).sign(i.msg),
            PYCRYPTODOME: _pyc_ed25519,
        }),
    )
}
FIXED_MESSAGE_BYTES = 32

DEFAULT: tuple[str, ...] = (
    "AES-128-CBC",
    "AES-128-CTR",
    "AES-128-GCM",
    "ChaCha20-Poly1305",
    "SHA-256",
    "SHA3-256",
    "HMAC-SHA-256",
    "X25519",
)

ALL: tuple[str, ...] = (*SIZED, *FIXED)


def inputs_for(size: int) -> Inputs:
    return Inputs(msg=_bytes(size, f"msg{size}"))
