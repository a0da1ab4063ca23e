"""SM4 (GB/T 32907-2016): the typed S-box and derived CK against the standard and against
pyca/cryptography's SM4 (OpenSSL), and SM4 with CBC, CTR and GCM against cryptography."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.ref.modes import (
    cbc_decrypt,
    cbc_encrypt,
    ccm_decrypt,
    ccm_encrypt,
    ctr_crypt,
    gcm_decrypt,
    gcm_encrypt,
)
from refbench.ref.sm4 import CK, FK, SBOX, SM4, key_expansion

SETTINGS = settings(max_examples=50, deadline=None)
keys = st.binary(min_size=16, max_size=16)

# GB/T 32907-2016 §7.3.2 (draft-ribose-cfrg-sm4-10 §7.3.2), the printed table of CK_0 .. CK_31.
PRINTED_CK = """
00070e15 1c232a31 383f464d 545b6269 70777e85 8c939aa1 a8afb6bd c4cbd2d9
e0e7eef5 fc030a11 181f262d 343b4249 50575e65 6c737a81 888f969d a4abb2b9
c0c7ced5 dce3eaf1 f8ff060d 141b2229 30373e45 4c535a61 686f767d 848b9299
a0a7aeb5 bcc3cad1 d8dfe6ed f4fb0209 10171e25 2c333a41 484f565d 646b7279
"""


def _cryptography(key: bytes, mode, data: bytes, decrypt: bool = False) -> bytes:
    cipher = Cipher(algorithms.SM4(key), mode)
    context = cipher.decryptor() if decrypt else cipher.encryptor()
    return context.update(data) + context.finalize()


def test_ck_derived_from_its_definition_equals_the_printed_table():
    assert [f"{ck:08x}" for ck in CK] == PRINTED_CK.split()


def test_fk_and_sbox_shape():
    assert [f"{fk:08x}" for fk in FK] == ["a3b1bac6", "56aa3350", "677d9197", "b27022dc"]
    assert sorted(SBOX) == list(range(256))  # the S-box is a permutation
    assert SBOX[0xEF] == 0x84  # §6.2.1's reading example: row e, column f


def test_example_1_round_keys_and_ciphertext():
    # GB/T 32907-2016 Appendix A Example 1: rk_0, rk_31 and the ciphertext.
    key = bytes.fromhex("0123456789abcdeffedcba9876543210")
    rk = key_expansion(key)
    assert (f"{rk[0]:08x}", f"{rk[31]:08x}") == ("f12186f9", "9124a012")
    assert SM4(key).encrypt_block(key).hex() == "681edf34d206965e86b3e94f536e4246"


@SETTINGS
@given(key=keys, block=st.binary(min_size=16, max_size=16))
def test_block_cipher_matches_cryptography_sm4(key, block):
    expected = _cryptography(key, modes.ECB(), block)
    sm4 = SM4(key)
    assert sm4.encrypt_block(block) == expected
    assert sm4.decrypt_block(expected) == block


@SETTINGS
@given(
    key=keys,
    iv=st.binary(min_size=16, max_size=16),
    n=st.integers(0, 4),
    seed=st.binary(min_size=64, max_size=64),
)
def test_sm4_cbc_matches_cryptography(key, iv, n, seed):
    data = seed[: 16 * n]
    expected = _cryptography(key, modes.CBC(iv), data)
    assert cbc_encrypt(SM4(key), iv, data) == expected
    assert cbc_decrypt(SM4(key), iv, expected) == data


@SETTINGS
@given(key=keys, counter=st.binary(min_size=16, max_size=16), data=st.binary(max_size=80))
def test_sm4_ctr_matches_cryptography_on_any_length(key, counter, data):
    assert ctr_crypt(SM4(key), counter, data) == _cryptography(key, modes.CTR(counter), data)


@SETTINGS
@given(
    key=keys,
    iv=st.binary(min_size=12, max_size=12),
    data=st.binary(max_size=80),
    aad=st.binary(max_size=40),
)
def test_sm4_gcm_matches_cryptography(key, iv, data, aad):
    encryptor = Cipher(algorithms.SM4(key), modes.GCM(iv)).encryptor()
    encryptor.authenticate_additional_data(aad)
    expected = encryptor.update(data) + encryptor.finalize()
    ciphertext, tag = gcm_encrypt(SM4(key), iv, data, aad)
    assert (ciphertext, tag) == (expected, encryptor.tag)
    assert gcm_decrypt(SM4(key), iv, ciphertext, tag, aad) == data


@SETTINGS
@given(
    key=keys,
    nonce=st.binary(min_size=7, max_size=13),
    data=st.binary(max_size=80),
    aad=st.binary(max_size=40),
)
def test_sm4_ccm_round_trips(key, nonce, data, aad):
    sealed = ccm_encrypt(SM4(key), nonce, data, aad)
    assert len(sealed) == len(data) + 16
    assert ccm_decrypt(SM4(key), nonce, sealed, aad) == data


@pytest.mark.parametrize("size", [0, 15, 17, 24, 32])
def test_invalid_key_size_raises_value_error_naming_size(size):
    with pytest.raises(
        ValueError, match=rf"Invalid key size \({size} bytes\) for SM4; accepted: 16"
    ):
        SM4(bytes(size))


@pytest.mark.parametrize("length", [0, 8, 15, 17])
def test_block_not_16_bytes_raises_value_error_naming_length(length):
    with pytest.raises(
        ValueError, match=rf"Invalid block length \({length} bytes\) for SM4; accepted: 16"
    ):
        SM4(bytes(16)).encrypt_block(bytes(length))
