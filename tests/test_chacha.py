"""ChaCha20 and AEAD_CHACHA20_POLY1305 (RFC 8439): differential tests, streaming, bad input, trace.

The official vectors run in tests/test_vectors.py (suites in refbench/suites/chacha.py).
"""

import pytest
from chunking import split
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.errors import InvalidTag
from refbench.loaders import load_nist_rsp, project_vector
from refbench.ref.chacha import (
    ChaCha20,
    ChaCha20Poly1305Encryptor,
    chacha20_block,
    chacha20_encrypt,
    chacha20_poly1305_decrypt,
    chacha20_poly1305_encrypt,
    poly1305_key_gen,
    quarter_round,
    serialize,
)
from refbench.traces.chacha20 import TRACES

keys = st.binary(min_size=32, max_size=32)
nonces = st.binary(min_size=12, max_size=12)
FAST = settings(max_examples=60, deadline=None)


def library_keystream_xor(key: bytes, counter: int, nonce: bytes, data: bytes) -> bytes:
    """pyca/cryptography's ChaCha20 with its 16-byte nonce: 32-bit counter (LE) || 96-bit nonce."""
    full_nonce = counter.to_bytes(4, "little") + nonce
    return Cipher(algorithms.ChaCha20(key, full_nonce), mode=None).encryptor().update(data)


# --- differential against pyca/cryptography ----------------------------------------------


@given(keys, nonces, st.integers(min_value=0, max_value=(1 << 32) - 8), st.binary(max_size=300))
@FAST
def test_chacha20_matches_cryptography_with_the_16_byte_nonce_form(key, nonce, counter, data):
    assert chacha20_encrypt(key, counter, nonce, data) == library_keystream_xor(
        key, counter, nonce, data
    )


@given(
    keys,
    nonces,
    st.binary(max_size=300),
    st.lists(st.integers(min_value=0, max_value=130), max_size=6),
)
@FAST
def test_streaming_chacha20_equals_one_shot_under_random_chunking(key, nonce, data, cuts):
    stream = ChaCha20(key, nonce, 7)
    assert b"".join(stream.update(chunk) for chunk in split(data, cuts)) == chacha20_encrypt(
        key, 7, nonce, data
    )


@given(keys, nonces, st.binary(max_size=200), st.binary(max_size=40))
@FAST
def test_aead_matches_cryptography_including_empty_and_odd_lengths(key, nonce, plaintext, aad):
    sealed = chacha20_poly1305_encrypt(key, nonce, plaintext, aad)
    assert sealed == ChaCha20Poly1305(key).encrypt(nonce, plaintext, aad)
    assert chacha20_poly1305_decrypt(key, nonce, sealed, aad) == plaintext


@given(
    keys,
    nonces,
    st.binary(max_size=200),
    st.binary(max_size=40),
    st.lists(st.integers(min_value=0, max_value=70), max_size=6),
)
@FAST
def test_streaming_aead_encryption_equals_one_shot_under_random_chunking(
    key, nonce, plaintext, aad, cuts
):
    encryptor = ChaCha20Poly1305Encryptor(key, nonce, aad)
    streamed = (
        b"".join(encryptor.update(chunk) for chunk in split(plaintext, cuts)) + encryptor.finalize()
    )
    assert streamed == chacha20_poly1305_encrypt(key, nonce, plaintext, aad)


@given(keys, nonces, st.binary(max_size=64), st.binary(max_size=20), st.data())
@FAST
def test_any_flipped_bit_of_ciphertext_or_tag_raises_invalid_tag(key, nonce, plaintext, aad, data):
    sealed = bytearray(chacha20_poly1305_encrypt(key, nonce, plaintext, aad))
    bit = data.draw(st.integers(min_value=0, max_value=8 * len(sealed) - 1))
    sealed[bit // 8] ^= 1 << (bit % 8)
    with pytest.raises(InvalidTag):
        chacha20_poly1305_decrypt(key, nonce, bytes(sealed), aad)


def test_tampered_aad_raises_invalid_tag():
    key, nonce = bytes(range(32)), bytes(12)
    sealed = chacha20_poly1305_encrypt(key, nonce, b"attack at dawn", b"header")
    with pytest.raises(InvalidTag):
        chacha20_poly1305_decrypt(key, nonce, sealed, b"headeR")


def test_input_shorter_than_the_tag_raises_invalid_tag():
    with pytest.raises(InvalidTag):
        chacha20_poly1305_decrypt(bytes(32), bytes(12), bytes(15))


# --- the RFC 8439 example file re-checked against the library --------------------------


def test_rfc8439_example_file_agrees_with_cryptography():
    """The vector file's header promises this: every output recomputed with pyca/cryptography."""
    records = load_nist_rsp(project_vector("rfc8439/rfc8439-examples.txt"))
    checked = 0
    for record in records:
        if "BLOCK" in record.section:
            key, nonce, counter = record.hex("KEY"), record.hex("NONCE"), record.int("COUNTER")
            block = library_keystream_xor(key, counter, nonce, bytes(64))
            words = record.text("STATE_END")
            assert serialize([int(words[i : i + 8], 16) for i in range(0, 128, 8)]) == block, (
                record.label
            )
            if "KEYSTREAM" in record:
                assert record.hex("KEYSTREAM") == block, record.label
            checked += 1
        if "ENCRYPT" in record.section:
            key, nonce, counter = record.hex("KEY"), record.hex("NONCE"), record.int("COUNTER")
            plaintext = record.hex("PLAINTEXT")
            assert record.hex("CIPHERTEXT") == library_keystream_xor(
                key, counter, nonce, plaintext
            ), record.label
            assert record.hex("KEYSTREAM") == library_keystream_xor(
                key, counter, nonce, bytes(len(plaintext))
            )
            checked += 1
        if "KEYGEN" in record.section:
            key, nonce = record.hex("KEY"), record.hex("NONCE")
            assert record.hex("OTK") == library_keystream_xor(key, 0, nonce, bytes(32)), (
                record.label
            )
            checked += 1
        if "AEAD" in record.section:
            aead = ChaCha20Poly1305(record.hex("KEY"))
            sealed = aead.encrypt(record.hex("NONCE"), record.hex("PLAINTEXT"), record.hex("AAD"))
            assert sealed == record.hex("CIPHERTEXT") + record.hex("TAG"), record.label
            checked += 1
    assert checked == 10 + 1 + 6 + 2  # blocks, one encryption, key generations, AEADs


def test_quarter_round_section_2_1_1():
    assert quarter_round(0x11111111, 0x01020304, 0x9B8D6F43, 0x01234567) == (
        0xEA2A92F4,
        0xCB1CF8CE,
        0x4581472E,
        0x5881C4BB,
    )


def test_poly1305_key_is_the_first_half_of_block_zero():
    key, nonce = bytes(range(32)), bytes(range(12))
    assert poly1305_key_gen(key, nonce) == chacha20_block(key, 0, nonce)[:32]


# --- bad parameters ---------------------------------------------------------------------


@pytest.mark.parametrize("length", [0, 16, 31, 33])
def test_key_of_wrong_size_is_rejected(length):
    with pytest.raises(
        ValueError, match=rf"key size \({length} bytes\) for ChaCha20; accepted: 32"
    ):
        ChaCha20(bytes(length), bytes(12))
    with pytest.raises(
        ValueError, match=rf"key size \({length} bytes\) for ChaCha20-Poly1305; accepted: 32"
    ):
        chacha20_poly1305_encrypt(bytes(length), bytes(12), b"")
    with pytest.raises(
        ValueError, match=rf"key size \({length} bytes\) for ChaCha20-Poly1305; accepted: 32"
    ):
        chacha20_poly1305_decrypt(bytes(length), bytes(12), bytes(16))


@pytest.mark.parametrize("length", [0, 8, 11, 13, 16, 24])
def test_nonce_of_wrong_size_is_rejected(length):
    with pytest.raises(
        ValueError, match=rf"nonce size \({length} bytes\) for ChaCha20.*accepted: 12"
    ):
        ChaCha20(bytes(32), bytes(length))
    with pytest.raises(
        ValueError, match=rf"nonce size \({length} bytes\) for ChaCha20-Poly1305; accepted: 12"
    ):
        chacha20_poly1305_decrypt(bytes(32), bytes(length), bytes(16))


@pytest.mark.parametrize("counter", [-1, 1 << 32])
def test_counter_outside_32_bits_is_rejected(counter):
    with pytest.raises(ValueError, match=rf"block counter \({counter}\)"):
        ChaCha20(bytes(32), bytes(12), counter)


def test_data_beyond_the_last_block_of_the_32_bit_counter_is_rejected():
    stream = ChaCha20(bytes(32), bytes(12), (1 << 32) - 1)
    assert len(stream.update(bytes(64))) == 64  # block 2**32 - 1 is the last one
    with pytest.raises(ValueError, match=r"32-bit block counter would wrap"):
        stream.update(b"\x00")


# --- trace: RFC 8439 §2.3.2 -------------------------------------------------------------

#: The three matrices and the serialized block as printed in RFC 8439 §2.3.2.
RFC_2_3_2 = {
    "key setup": [
        "61707865  3320646e  79622d32  6b206574",
        "03020100  07060504  0b0a0908  0f0e0d0c",
        "13121110  17161514  1b1a1918  1f1e1d1c",
        "00000001  09000000  4a000000  00000000",
    ],
    "after 20 rounds": [
        "837778ab  e238d763  a67ae21e  5950bb2f",
        "c4f2d0c7  fc62bb2f  8fa018fc  3f5ec7b7",
        "335271c2  f29489f3  eabda8fc  82e46ebd",
        "d19c12b4  b04e16de  9e83d0cb  4e3c50a2",
    ],
    "end of operation": [
        "e4e7f110  15593bd1  1fdd0f50  c47120a3",
        "c7f4d1c7  0368c033  9aaa2204  4e6cd4c3",
        "466482d2  09aa9f07  05d7c214  a2028bd9",
        "d19c12b5  b94e16de  e883d0cb  4e3c50a2",
    ],
    "serialized block": [
        "10 f1 e7 e4 d1 3b 59 15 50 0f dd 1f a3 20 71 c4",
        "c7 d1 f4 c7 33 c0 68 03 04 22 aa 9a c3 d4 6c 4e",
        "d2 82 64 46 07 9f aa 09 14 c2 d7 05 d9 8b 02 a2",
        "b5 12 9c d1 de 16 4e b9 cb d0 83 e8 a2 50 3c 4e",
    ],
}


def test_trace_reproduces_rfc_8439_section_2_3_2():
    spec = TRACES["chacha20"]
    rows = spec.run(**{name: bytes.fromhex(value) for name, value in spec.inputs.items()})
    printed = {}
    for row in rows:
        printed.setdefault(row.step, []).append(row.value)
    assert printed == RFC_2_3_2


def test_trace_rejects_a_counter_longer_than_32_bits():
    spec = TRACES["chacha20"]
    with pytest.raises(ValueError, match=r"counter size \(5 bytes\)"):
        spec.run(key=bytes(32), nonce=bytes(12), counter=bytes(5))
