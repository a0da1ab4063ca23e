"""Ascon (NIST SP 800-232): the permutation's parts, properties, streaming and bad input.

The KATs run in tests/test_vectors.py (suites in refbench/suites/ascon.py). Neither
pyca/cryptography nor pycryptodome implements Ascon (checked below, so the day one of them
does, this test fails and a differential test should replace the properties).
"""

import pkgutil

import pytest
from chunking import split
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.errors import InvalidTag
from refbench.ref.ascon import (
    AEAD128_IV,
    CXOF128_IV,
    HASH256_IV,
    SBOX,
    XOF128_IV,
    AsconAead128Encryptor,
    AsconXof,
    ascon_aead128_decrypt,
    ascon_aead128_encrypt,
    ascon_cxof128,
    ascon_hash256,
    ascon_p,
    ascon_xof128,
    linear_diffusion_layer,
    pad,
    round_constant,
    substitution_layer,
)

keys = st.binary(min_size=16, max_size=16)
nonces = st.binary(min_size=16, max_size=16)
FAST = settings(max_examples=50, deadline=None)


def test_neither_library_offers_ascon():
    import Crypto.Cipher
    import Crypto.Hash
    from cryptography.hazmat.primitives import hashes

    assert not any("ascon" in name.lower() for name in dir(hashes))
    for package in (Crypto.Cipher, Crypto.Hash):
        assert not any("ascon" in m.name.lower() for m in pkgutil.iter_modules(package.__path__))


# --- the permutation ---------------------------------------------------------------------


def test_round_constants_are_those_of_table_5():
    assert [round_constant(i) for i in range(16)] == [
        0x3C,
        0x2D,
        0x1E,
        0x0F,
        0xF0,
        0xE1,
        0xD2,
        0xC3,
        0xB4,
        0xA5,
        0x96,
        0x87,
        0x78,
        0x69,
        0x5A,
        0x4B,
    ]


def test_bitsliced_substitution_layer_realises_the_s_box_table():
    for x in range(32):
        # Column 0 of the state: bit 0 of S0 holds the MSB of x, bit 0 of S4 its LSB.
        state = [(x >> (4 - row)) & 1 for row in range(5)]
        substitution_layer(state)
        assert sum((state[row] & 1) << (4 - row) for row in range(5)) == SBOX[x]
    assert sorted(SBOX) == list(range(32))


def test_linear_layer_spreads_a_single_bit_to_three():
    """p_L maps a one-bit word to the XOR of three distinct rotations of it (§3.4)."""
    for row in range(5):
        state = [0] * 5
        state[row] = 1
        linear_diffusion_layer(state)
        assert state[row].bit_count() == 3


def test_initial_values_are_those_printed_in_sp_800_232():
    assert AEAD128_IV == 0x00001000808C0001
    assert HASH256_IV == 0x0000080100CC0002
    assert XOF128_IV == 0x0000080000CC0003
    assert CXOF128_IV == 0x0000080000CC0004


def test_byte_order_is_little_endian_not_v1_2():
    """Ascon-Hash256 of the empty message (SP 800-232 KAT Count 1), the byte-order canary."""
    assert (
        ascon_hash256(b"").hex()
        == "0b3be5850f2f6b98caf29f8fdea89b64a1fa70aa249b8f839bd53baa304d92b2"
    )


def test_pad_appends_0x01_then_zeros():
    assert pad(b"", 8) == b"\x01" + bytes(7)
    assert pad(bytes(7), 8) == bytes(7) + b"\x01"
    assert pad(bytes(16), 16) == bytes(16) + b"\x01" + bytes(15)


@pytest.mark.parametrize("rounds", [0, 17])
def test_number_of_rounds_outside_1_to_16_is_rejected(rounds):
    with pytest.raises(ValueError, match=rf"rounds \({rounds}\) for Ascon-p; accepted: 1 to 16"):
        ascon_p([0] * 5, rounds)


# --- Ascon-AEAD128 properties ------------------------------------------------------------


@given(keys, nonces, st.binary(max_size=100), st.binary(max_size=50))
@FAST
def test_decrypt_inverts_encrypt_including_empty_and_odd_lengths(key, nonce, plaintext, ad):
    sealed = ascon_aead128_encrypt(key, nonce, plaintext, ad)
    assert len(sealed) == len(plaintext) + 16
    assert ascon_aead128_decrypt(key, nonce, sealed, ad) == plaintext


@given(
    keys,
    nonces,
    st.binary(max_size=100),
    st.binary(max_size=40),
    st.lists(st.integers(min_value=0, max_value=40), max_size=6),
)
@FAST
def test_streaming_encryption_equals_one_shot_under_random_chunking(
    key, nonce, plaintext, ad, cuts
):
    encryptor = AsconAead128Encryptor(key, nonce, ad)
    streamed = (
        b"".join(encryptor.update(chunk) for chunk in split(plaintext, cuts)) + encryptor.finalize()
    )
    assert streamed == ascon_aead128_encrypt(key, nonce, plaintext, ad)


def test_encryptor_rejects_use_after_finalize():
    encryptor = AsconAead128Encryptor(bytes(16), bytes(16))
    encryptor.finalize()
    with pytest.raises(ValueError, match=r"update\(\) after finalize\(\)"):
        encryptor.update(b"x")
    with pytest.raises(ValueError, match=r"finalize\(\) twice"):
        encryptor.finalize()


@given(keys, nonces, st.binary(max_size=60), st.binary(max_size=30), st.data())
@FAST
def test_any_flipped_bit_of_ciphertext_or_tag_raises_invalid_tag(key, nonce, plaintext, ad, data):
    sealed = bytearray(ascon_aead128_encrypt(key, nonce, plaintext, ad))
    bit = data.draw(st.integers(min_value=0, max_value=8 * len(sealed) - 1))
    sealed[bit // 8] ^= 1 << (bit % 8)
    with pytest.raises(InvalidTag):
        ascon_aead128_decrypt(key, nonce, bytes(sealed), ad)


@given(keys, nonces, st.binary(max_size=40), st.binary(min_size=1, max_size=30), st.data())
@FAST
def test_any_flipped_bit_of_associated_data_or_nonce_raises_invalid_tag(
    key, nonce, plaintext, ad, data
):
    sealed = ascon_aead128_encrypt(key, nonce, plaintext, ad)
    ad_bit = data.draw(st.integers(min_value=0, max_value=8 * len(ad) - 1))
    bad_ad = bytearray(ad)
    bad_ad[ad_bit // 8] ^= 1 << (ad_bit % 8)
    with pytest.raises(InvalidTag):
        ascon_aead128_decrypt(key, nonce, sealed, bytes(bad_ad))
    nonce_bit = data.draw(st.integers(min_value=0, max_value=127))
    bad_nonce = bytearray(nonce)
    bad_nonce[nonce_bit // 8] ^= 1 << (nonce_bit % 8)
    with pytest.raises(InvalidTag):
        ascon_aead128_decrypt(key, bytes(bad_nonce), sealed, ad)


def test_empty_associated_data_is_the_default_and_differs_from_a_zero_byte():
    """A zero-length AD skips the AD phase (only the domain bit is set): b"" equals the default."""
    key, nonce = bytes(range(16)), bytes(range(16, 32))
    assert ascon_aead128_encrypt(key, nonce, b"x", b"") == ascon_aead128_encrypt(key, nonce, b"x")
    assert ascon_aead128_encrypt(key, nonce, b"x", b"") != ascon_aead128_encrypt(
        key, nonce, b"x", b"\x00"
    )


def test_input_shorter_than_the_tag_raises_invalid_tag():
    with pytest.raises(InvalidTag):
        ascon_aead128_decrypt(bytes(16), bytes(16), bytes(15))


@pytest.mark.parametrize("length", [0, 15, 17, 20, 32])
def test_key_of_wrong_size_is_rejected(length):
    with pytest.raises(
        ValueError, match=rf"key size \({length} bytes\) for Ascon-AEAD128; accepted: 16"
    ):
        ascon_aead128_encrypt(bytes(length), bytes(16), b"")
    with pytest.raises(
        ValueError, match=rf"key size \({length} bytes\) for Ascon-AEAD128; accepted: 16"
    ):
        ascon_aead128_decrypt(bytes(length), bytes(16), bytes(16))


@pytest.mark.parametrize("length", [0, 12, 15, 17])
def test_nonce_of_wrong_size_is_rejected(length):
    with pytest.raises(
        ValueError, match=rf"nonce size \({length} bytes\) for Ascon-AEAD128; accepted: 16"
    ):
        ascon_aead128_encrypt(bytes(16), bytes(length), b"")


# --- Hash256, XOF128, CXOF128 ------------------------------------------------------------


@given(st.binary(max_size=100), st.lists(st.integers(min_value=0, max_value=20), max_size=8))
@FAST
def test_streaming_hash_equals_one_shot_under_random_chunking(message, cuts):
    for variant, one_shot in (
        ("Ascon-Hash256", ascon_hash256(message)),
        ("Ascon-XOF128", ascon_xof128(message, 32)),
    ):
        sponge = AsconXof(variant)
        for chunk in split(message, cuts):
            sponge.update(chunk)
        assert sponge.digest(32) == one_shot


@given(
    st.binary(max_size=40),
    st.integers(min_value=0, max_value=80),
    st.integers(min_value=0, max_value=80),
)
@FAST
def test_xof_output_is_a_prefix_of_longer_output(message, short, extra):
    assert ascon_xof128(message, short + extra)[:short] == ascon_xof128(message, short)


def test_the_four_variants_are_domain_separated():
    outputs = {
        ascon_hash256(b"abc"),
        ascon_xof128(b"abc", 32),
        ascon_cxof128(b"abc", 32),
        ascon_cxof128(b"abc", 32, b"Z"),
    }
    assert len(outputs) == 4


def test_customization_longer_than_2048_bits_is_rejected():
    ascon_cxof128(b"", 8, bytes(256))
    with pytest.raises(ValueError, match=r"customization length \(257 bytes\).*accepted: 0 to 256"):
        ascon_cxof128(b"", 8, bytes(257))


def test_customization_outside_cxof_is_rejected():
    with pytest.raises(ValueError, match=r"customization string for Ascon-XOF128"):
        AsconXof("Ascon-XOF128", b"Z")


def test_unknown_variant_is_rejected():
    with pytest.raises(ValueError, match=r"variant \('Ascon-Hash'\).*accepted: Ascon-Hash256"):
        AsconXof("Ascon-Hash")  # type: ignore[arg-type]


def test_digest_twice_and_update_after_digest_are_rejected():
    sponge = AsconXof("Ascon-XOF128")
    sponge.digest(8)
    with pytest.raises(ValueError, match=r"digest\(\) twice"):
        sponge.digest(8)
    with pytest.raises(ValueError, match=r"update\(\) after digest\(\)"):
        sponge.update(b"")


def test_negative_output_length_is_rejected():
    with pytest.raises(ValueError, match=r"output length \(-1 bytes\)"):
        ascon_xof128(b"", -1)


@pytest.mark.parametrize("length", [0, 16, 31, 33, 64])
def test_hash256_output_length_other_than_32_is_rejected(length):
    sponge = AsconXof("Ascon-Hash256").update(b"abc")
    with pytest.raises(ValueError, match=rf"output length \({length} bytes\) for Ascon-Hash256; accepted: 32"):
        sponge.digest(length)
