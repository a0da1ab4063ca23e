"""Modes of operation (SP 800-38A/B/C/D) over AES and over an 8-byte block cipher, against
pyca/cryptography and pycryptodome; streaming against one-shot; bad sizes and bad tags."""

from __future__ import annotations

from itertools import pairwise

import pytest
from Crypto.Cipher import AES as PyCryptodomeAES
from Crypto.Cipher import DES3
from Crypto.Hash import CMAC as PyCryptodomeCMAC
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.ciphers import modes as cryptography_modes
from cryptography.hazmat.primitives.ciphers.aead import AESCCM, AESGCM
from cryptography.hazmat.primitives.cmac import CMAC
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.errors import InvalidTag
from refbench.ref.aes import AES
from refbench.ref.modes import (
    CbcDecryptor,
    CbcEncryptor,
    Cmac,
    CtrStream,
    GcmDecryptor,
    GcmEncryptor,
    Gf128Table,
    cbc_decrypt,
    cbc_encrypt,
    ccm_decrypt,
    ccm_encrypt,
    ccm_format,
    cmac,
    cmac_subkeys,
    cmac_verify,
    ctr_crypt,
    ecb_decrypt,
    ecb_encrypt,
    gcm_decrypt,
    gcm_encrypt,
    gf128_multiply,
    ghash,
    gmac,
    gmac_verify,
)

SETTINGS = settings(max_examples=50, deadline=None)

aes_keys = st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n))
blocks16 = st.binary(min_size=16, max_size=16)
whole_blocks = st.integers(0, 5).flatmap(lambda n: st.binary(min_size=16 * n, max_size=16 * n))
any_data = st.binary(min_size=0, max_size=100)


class Tdea:
    """An 8-byte block cipher (pycryptodome's TDEA) to exercise the modes' generic block size."""

    block_size = 8

    def __init__(self, key: bytes) -> None:
        self._ecb = DES3.new(key, DES3.MODE_ECB)

    def encrypt_block(self, block: bytes) -> bytes:
        return self._ecb.encrypt(block)

    def decrypt_block(self, block: bytes) -> bytes:
        return self._ecb.decrypt(block)


TDEA_KEY = bytes.fromhex(
    "0123456789abcdef23456789abcdef01456789abcdef0123"
)  # SP 800-67 style three distinct keys


def _cryptography(key: bytes, mode, data: bytes, decrypt: bool = False) -> bytes:
    cipher = Cipher(algorithms.AES(key), mode)
    context = cipher.decryptor() if decrypt else cipher.encryptor()
    return context.update(data) + context.finalize()


def _chunks(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in pairwise(points)]


# --- SP 800-38A -----------------------------------------------------------------------------------


@SETTINGS
@given(key=aes_keys, data=whole_blocks)
def test_ecb_matches_cryptography(key, data):
    aes = AES(key)
    expected = _cryptography(key, cryptography_modes.ECB(), data)
    assert ecb_encrypt(aes, data) == expected
    assert ecb_decrypt(aes, expected) == data


@SETTINGS
@given(key=aes_keys, iv=blocks16, data=whole_blocks)
def test_cbc_matches_cryptography(key, iv, data):
    aes = AES(key)
    expected = _cryptography(key, cryptography_modes.CBC(iv), data)
    assert cbc_encrypt(aes, iv, data) == expected
    assert cbc_decrypt(aes, iv, expected) == data


@SETTINGS
@given(key=aes_keys, counter=blocks16, data=any_data)
def test_ctr_matches_cryptography_on_any_length(key, counter, data):
    assert ctr_crypt(AES(key), counter, data) == _cryptography(
        key, cryptography_modes.CTR(counter), data
    )


def test_ctr_counter_wraps_over_the_whole_block():
    key, counter, data = bytes(range(16)), b"\xff" * 16, bytes(50)
    assert ctr_crypt(AES(key), counter, data) == _cryptography(
        key, cryptography_modes.CTR(counter), data
    )


@SETTINGS
@given(key=aes_keys, iv=blocks16, data=whole_blocks, cuts=st.lists(st.integers(0, 200), max_size=6))
def test_cbc_streaming_equals_one_shot_under_any_chunking(key, iv, data, cuts):
    aes = AES(key)
    encryptor = CbcEncryptor(aes, iv)
    ciphertext = (
        b"".join(encryptor.update(chunk) for chunk in _chunks(data, cuts)) + encryptor.finalize()
    )
    assert ciphertext == cbc_encrypt(aes, iv, data)
    decryptor = CbcDecryptor(aes, iv)
    plaintext = (
        b"".join(decryptor.update(chunk) for chunk in _chunks(ciphertext, cuts))
        + decryptor.finalize()
    )
    assert plaintext == data


@SETTINGS
@given(
    key=aes_keys, counter=blocks16, data=any_data, cuts=st.lists(st.integers(0, 200), max_size=6)
)
def test_ctr_streaming_equals_one_shot_under_any_chunking(key, counter, data, cuts):
    aes = AES(key)
    stream = CtrStream(aes, counter)
    out = b"".join(stream.update(chunk) for chunk in _chunks(data, cuts)) + stream.finalize()
    assert out == ctr_crypt(aes, counter, data)


def test_streams_of_1024_byte_blocks_equal_one_shot():
    aes = AES(bytes(range(16)))
    iv = bytes(16)
    data = bytes(i % 251 for i in range(4096))
    encryptor = CbcEncryptor(aes, iv)
    streamed = (
        b"".join(encryptor.update(data[i : i + 1024]) for i in range(0, 4096, 1024))
        + encryptor.finalize()
    )
    assert streamed == _cryptography(bytes(range(16)), cryptography_modes.CBC(iv), data)


@SETTINGS
@given(
    iv=st.binary(min_size=8, max_size=8),
    data=st.integers(0, 6).flatmap(lambda n: st.binary(min_size=8 * n, max_size=8 * n)),
)
def test_cbc_with_8_byte_blocks_matches_pycryptodome_tdea(iv, data):
    tdea = Tdea(TDEA_KEY)
    assert cbc_encrypt(tdea, iv, data) == DES3.new(TDEA_KEY, DES3.MODE_CBC, iv=iv).encrypt(data)
    assert cbc_decrypt(tdea, iv, cbc_encrypt(tdea, iv, data)) == data


@SETTINGS
@given(counter=st.binary(min_size=8, max_size=8), data=any_data)
def test_ctr_with_8_byte_blocks_matches_pycryptodome_tdea(counter, data):
    # pycryptodome refuses a counter that would wrap; avoid the last few values.
    counter = bytes([counter[0] & 0x7F]) + counter[1:]
    expected = DES3.new(TDEA_KEY, DES3.MODE_CTR, nonce=b"", initial_value=counter).encrypt(data)
    assert ctr_crypt(Tdea(TDEA_KEY), counter, data) == expected


# --- SP 800-38B CMAC ------------------------------------------------------------------------------


def test_cmac_subkeys_of_sp800_38b_example():
    # SP 800-38B Appendix D.1 (AES-128): K1 = fbeed618..., K2 = f7ddac30...
    k1, k2 = cmac_subkeys(AES(bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c")))
    assert k1.hex() == "fbeed618357133667c85e08f7236a8de"
    assert k2.hex() == "f7ddac306ae266ccf90bc11ee46d513b"


@SETTINGS
@given(key=aes_keys, message=any_data, tag_length=st.integers(1, 16))
def test_cmac_matches_cryptography(key, message, tag_length):
    reference = CMAC(algorithms.AES(key))
    reference.update(message)
    expected = reference.finalize()
    assert cmac(AES(key), message) == expected
    assert cmac(AES(key), message, tag_length) == expected[:tag_length]
    cmac_verify(AES(key), message, expected[:tag_length])


@SETTINGS
@given(message=any_data)
def test_cmac_with_8_byte_blocks_matches_pycryptodome_tdea(message):
    expected = PyCryptodomeCMAC.new(TDEA_KEY, msg=message, ciphermod=DES3).digest()
    assert cmac(Tdea(TDEA_KEY), message) == expected


@SETTINGS
@given(key=aes_keys, message=any_data, cuts=st.lists(st.integers(0, 200), max_size=6))
def test_cmac_streaming_equals_one_shot_under_any_chunking(key, message, cuts):
    mac = Cmac(AES(key))
    for chunk in _chunks(message, cuts):
        mac.update(chunk)
    assert mac.finalize() == cmac(AES(key), message)


def test_cmac_tampered_tag_raises_invalid_tag():
    aes = AES(bytes(16))
    tag = bytearray(cmac(aes, b"message"))
    tag[0] ^= 1
    with pytest.raises(InvalidTag):
        cmac_verify(aes, b"message", bytes(tag))


@pytest.mark.parametrize("tag_length", [0, 17])
def test_cmac_tag_length_out_of_range_raises_value_error(tag_length):
    with pytest.raises(
        ValueError, match=rf"Invalid tag length \({tag_length} bytes\) for CMAC.*accepted: 1 to 16"
    ):
        cmac(AES(bytes(16)), b"", tag_length)


# --- SP 800-38D GCM / GMAC ------------------------------------------------------------------------


@SETTINGS
@given(x=st.integers(0, 2**128 - 1), y=st.integers(0, 2**128 - 1))
def test_gf128_table_variant_equals_algorithm_1(x, y):
    assert Gf128Table(y).multiply(x) == gf128_multiply(x, y)


def test_gf128_multiply_identity_and_zero():
    one = 1 << 127  # the element "1" is the block 10000000...0 (x_0 = 1)
    y = 0x66E94BD4EF8A2C3B884CFA59CA342B2E
    assert gf128_multiply(one, y) == y
    assert gf128_multiply(0, y) == 0


def test_ghash_of_gcm_specification_test_case_2():
    # McGrew & Viega, "The Galois/Counter Mode of Operation" (2005), Test Case 2
    # (K = 0, IV = 0, P = 0^128):
    # H = 66e94bd4..., C = 0388dace..., GHASH(H, {}, C) = f38cbb1a..., T = ab6e47d4...
    h = bytes.fromhex("66e94bd4ef8a2c3b884cfa59ca342b2e")
    c = bytes.fromhex("0388dace60b6a392f328c2b971b2fe78")
    lengths = (0).to_bytes(8, "big") + (128).to_bytes(8, "big")
    assert ghash(h, c + lengths).hex() == "f38cbb1ad69223dcc3457ae5b6b0f885"
    ciphertext, tag = gcm_encrypt(AES(bytes(16)), bytes(12), bytes(16))
    assert (ciphertext.hex(), tag.hex()) == (c.hex(), "ab6e47d42cec13bdf53a67b21257bddf")


@SETTINGS
@given(
    key=aes_keys, iv=st.binary(min_size=12, max_size=12), data=any_data, aad=st.binary(max_size=60)
)
def test_gcm_96_bit_iv_matches_cryptography(key, iv, data, aad):
    ciphertext, tag = gcm_encrypt(AES(key), iv, data, aad)
    assert ciphertext + tag == AESGCM(key).encrypt(iv, data, aad)
    assert gcm_decrypt(AES(key), iv, ciphertext, tag, aad) == data


@SETTINGS
@given(
    key=aes_keys,
    iv=st.binary(min_size=1, max_size=70),
    data=any_data,
    aad=st.binary(max_size=60),
    tag_length=st.sampled_from([4, 8, 12, 13, 14, 15, 16]),
)
def test_gcm_any_iv_length_and_tag_length_matches_pycryptodome(key, iv, data, aad, tag_length):
    reference = PyCryptodomeAES.new(key, PyCryptodomeAES.MODE_GCM, nonce=iv, mac_len=tag_length)
    reference.update(aad)
    expected_ct, expected_tag = reference.encrypt_and_digest(data)
    assert gcm_encrypt(AES(key), iv, data, aad, tag_length) == (expected_ct, expected_tag)
    assert gcm_decrypt(AES(key), iv, expected_ct, expected_tag, aad, min_tag_length=tag_length) == data


@SETTINGS
@given(key=aes_keys, iv=st.binary(min_size=1, max_size=40), aad=any_data)
def test_gmac_matches_pycryptodome_gcm_with_empty_plaintext(key, iv, aad):
    reference = PyCryptodomeAES.new(key, PyCryptodomeAES.MODE_GCM, nonce=iv)
    reference.update(aad)
    _, expected = reference.encrypt_and_digest(b"")
    assert gmac(AES(key), iv, aad) == expected
    gmac_verify(AES(key), iv, aad, expected)


@SETTINGS
@given(
    key=aes_keys,
    iv=st.binary(min_size=1, max_size=20),
    data=any_data,
    aad=st.binary(max_size=60),
    cuts=st.lists(st.integers(0, 200), max_size=6),
)
def test_gcm_streaming_equals_one_shot_under_any_chunking(key, iv, data, aad, cuts):
    aes = AES(key)
    encryptor = GcmEncryptor(aes, iv)
    for chunk in _chunks(aad, cuts):
        encryptor.update_aad(chunk)
    ciphertext = b"".join(encryptor.update(chunk) for chunk in _chunks(data, cuts))
    tag = encryptor.finalize()
    assert (ciphertext, tag) == gcm_encrypt(aes, iv, data, aad)
    decryptor = GcmDecryptor(aes, iv)
    decryptor.update_aad(aad)
    for chunk in _chunks(ciphertext, cuts):
        assert decryptor.update(chunk) is None  # nothing is released before the tag is checked
    assert decryptor.finalize(tag) == data


def _tampered(value: bytes, index: int = 0) -> bytes:
    changed = bytearray(value)
    changed[index] ^= 0x80
    return bytes(changed)


def test_gcm_tampered_tag_ciphertext_or_aad_raises_invalid_tag():
    aes, iv = AES(bytes(16)), bytes(12)
    ciphertext, tag = gcm_encrypt(aes, iv, b"attack at dawn", b"header")
    for args in [
        (ciphertext, _tampered(tag), b"header"),
        (_tampered(ciphertext), tag, b"header"),
        (ciphertext, tag, b"headeR"),
    ]:
        with pytest.raises(InvalidTag):
            gcm_decrypt(aes, iv, *args)


def test_gcm_streaming_decryptor_releases_nothing_on_a_bad_tag():
    aes, iv = AES(bytes(16)), bytes(12)
    ciphertext, tag = gcm_encrypt(aes, iv, b"secret payload")
    decryptor = GcmDecryptor(aes, iv)
    assert decryptor.update(ciphertext) is None
    with pytest.raises(InvalidTag):
        decryptor.finalize(_tampered(tag))


def test_gmac_tampered_tag_raises_invalid_tag():
    aes = AES(bytes(16))
    tag = gmac(aes, bytes(12), b"authenticated only")
    with pytest.raises(InvalidTag):
        gmac_verify(aes, bytes(12), b"authenticated only", _tampered(tag))


@pytest.mark.parametrize("tag_length", [0, 1, 3, 5, 7, 9, 10, 11, 17])
def test_gcm_tag_length_not_in_sp800_38d_raises_value_error(tag_length):
    with pytest.raises(
        ValueError,
        match=rf"Invalid tag length \({tag_length} bytes\) for GCM; "
        r"accepted: 16, 15, 14, 13, 12, 8, 4",
    ):
        gcm_encrypt(AES(bytes(16)), bytes(12), b"", tag_length=tag_length)
    with pytest.raises(ValueError, match=rf"Invalid tag length \({tag_length} bytes\) for GCM"):
        gcm_decrypt(AES(bytes(16)), bytes(12), b"", bytes(tag_length))


def test_gcm_empty_iv_raises_value_error():
    with pytest.raises(
        ValueError, match=r"Invalid IV length \(0 bytes\) for GCM; accepted: 1 byte or more"
    ):
        gcm_encrypt(AES(bytes(16)), b"", b"data")


def test_gcm_needs_a_128_bit_block_cipher():
    with pytest.raises(ValueError, match=r"Invalid block size \(8 bytes\) for GCM; accepted: 16"):
        gcm_encrypt(Tdea(TDEA_KEY), bytes(12), b"data")


def test_gcm_aad_after_text_raises_value_error():
    encryptor = GcmEncryptor(AES(bytes(16)), bytes(12))
    encryptor.update(b"text")
    with pytest.raises(ValueError, match="additional data must be given before"):
        encryptor.update_aad(b"late")


@pytest.mark.parametrize("length", [15, 17])
def test_ghash_input_not_whole_blocks_raises_value_error(length):
    with pytest.raises(ValueError, match=rf"Invalid data length \({length} bytes\) for GHASH"):
        ghash(bytes(16), bytes(length))


# --- SP 800-38C CCM -------------------------------------------------------------------------------


def test_ccm_formatting_of_sp800_38c_example_1():
    # SP 800-38C Appendix C.1: Tlen = 32 bits, Nlen = 56 bits, Alen = 64 bits, Plen = 32 bits.
    # B0 = 4f101112131415160000000000000004, B1 = 00080001020304050607000000000000,
    # B2 = 20212223 || 0^96.
    formatted = ccm_format(
        bytes.fromhex("10111213141516"),
        bytes.fromhex("0001020304050607"),
        bytes.fromhex("20212223"),
        4,
    )
    assert formatted.hex() == (
        "4f101112131415160000000000000004"
        "00080001020304050607000000000000"
        "20212223000000000000000000000000"
    )
    ciphertext = ccm_encrypt(
        AES(bytes.fromhex("404142434445464748494a4b4c4d4e4f")),
        bytes.fromhex("10111213141516"),
        bytes.fromhex("20212223"),
        bytes.fromhex("0001020304050607"),
        tag_length=4,
    )
    assert ciphertext.hex() == "7162015b4dac255d"  # Example 1's C


@SETTINGS
@given(
    key=aes_keys,
    nonce=st.integers(7, 13).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
    data=any_data,
    aad=st.binary(max_size=60),
    tag_length=st.sampled_from([4, 6, 8, 10, 12, 14, 16]),
)
def test_ccm_matches_cryptography(key, nonce, data, aad, tag_length):
    expected = AESCCM(key, tag_length=tag_length).encrypt(nonce, data, aad)
    assert ccm_encrypt(AES(key), nonce, data, aad, tag_length) == expected
    assert ccm_decrypt(AES(key), nonce, expected, aad, tag_length) == data


def test_ccm_long_aad_uses_the_0xfffe_encoding():
    key, nonce, aad, data = bytes(16), bytes(12), bytes(70000), b"payload"
    expected = AESCCM(key).encrypt(nonce, data, aad)
    assert ccm_encrypt(AES(key), nonce, data, aad) == expected
    assert ccm_format(nonce, aad, data, 16)[16:22] == b"\xff\xfe" + (70000).to_bytes(4, "big")


def test_ccm_tampered_tag_or_ciphertext_raises_invalid_tag():
    aes, nonce = AES(bytes(16)), bytes(13)
    sealed = ccm_encrypt(aes, nonce, b"attack at dawn", b"header", 8)
    for data in (_tampered(sealed, -1), _tampered(sealed, 0)):
        with pytest.raises(InvalidTag):
            ccm_decrypt(aes, nonce, data, b"header", 8)
    with pytest.raises(InvalidTag):
        ccm_decrypt(aes, nonce, sealed[:7], b"header", 8)  # shorter than the tag


@pytest.mark.parametrize("length", [0, 6, 14, 16])
def test_ccm_nonce_length_outside_7_to_13_raises_value_error(length):
    with pytest.raises(
        ValueError, match=rf"Invalid nonce length \({length} bytes\) for CCM; accepted: 7 to 13"
    ):
        ccm_encrypt(AES(bytes(16)), bytes(length), b"")
    with pytest.raises(ValueError, match=rf"Invalid nonce length \({length} bytes\) for CCM"):
        ccm_decrypt(AES(bytes(16)), bytes(length), bytes(16))


@pytest.mark.parametrize("tag_length", [0, 2, 3, 5, 15, 18])
def test_ccm_tag_length_not_even_4_to_16_raises_value_error(tag_length):
    with pytest.raises(
        ValueError,
        match=rf"Invalid tag length \({tag_length} bytes\) for CCM; "
        r"accepted: 4, 6, 8, 10, 12, 14, 16",
    ):
        ccm_encrypt(AES(bytes(16)), bytes(12), b"", tag_length=tag_length)


def test_ccm_payload_too_long_for_the_nonce_raises_value_error():
    # A 13-byte nonce leaves q = 2 bytes for Plen: at most 65535 bytes.
    with pytest.raises(
        ValueError, match=r"Invalid payload length \(65536 bytes\) for CCM with a 13-byte nonce"
    ):
        ccm_encrypt(AES(bytes(16)), bytes(13), bytes(65536))


# --- sizes for ECB / CBC / CTR -------------------------------------------------------------------


@pytest.mark.parametrize("length", [1, 15, 17, 33])
def test_ecb_and_cbc_data_not_whole_blocks_raise_value_error(length):
    aes = AES(bytes(16))
    for call in (
        lambda: ecb_encrypt(aes, bytes(length)),
        lambda: ecb_decrypt(aes, bytes(length)),
        lambda: cbc_encrypt(aes, bytes(16), bytes(length)),
        lambda: cbc_decrypt(aes, bytes(16), bytes(length)),
    ):
        with pytest.raises(
            ValueError, match=rf"Invalid data length \({length} bytes\).*multiple of 16"
        ):
            call()


def test_cbc_stream_with_a_partial_block_left_raises_value_error_on_finalize():
    encryptor = CbcEncryptor(AES(bytes(16)), bytes(16))
    assert encryptor.update(bytes(20)) != b""
    with pytest.raises(ValueError, match=r"4 bytes left after the last complete 16-byte block"):
        encryptor.finalize()


@pytest.mark.parametrize("length", [0, 8, 15, 17])
def test_iv_and_counter_block_of_wrong_length_raise_value_error(length):
    aes = AES(bytes(16))
    with pytest.raises(
        ValueError, match=rf"Invalid IV length \({length} bytes\) for CBC.*accepted: 16"
    ):
        cbc_encrypt(aes, bytes(length), bytes(16))
    with pytest.raises(
        ValueError, match=rf"Invalid counter block length \({length} bytes\) for CTR.*accepted: 16"
    ):
        ctr_crypt(aes, bytes(length), b"data")
