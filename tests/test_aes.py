"""AES (FIPS 197): the computed S-box against the printed table, the Appendix C round states,
the key schedule against Appendix A, and the block cipher against pyca/cryptography."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.ref.aes import (
    AES,
    INV_SBOX,
    SBOX,
    affine_transformation,
    gf_inverse,
    gf_mul,
    key_expansion,
    rcon,
    xtime,
)
from refbench.traces.aes import TRACES, appendix_c_rows

# FIPS 197 (2001) Figure 7 "S-box: substitution values for the byte xy" (= FIPS 197-upd1 (2023)
# Table 4), typed in row by row: row x = high nibble, column y = low nibble.
FIPS197_FIGURE_7 = """
63 7c 77 7b f2 6b 6f c5 30 01 67 2b fe d7 ab 76
ca 82 c9 7d fa 59 47 f0 ad d4 a2 af 9c a4 72 c0
b7 fd 93 26 36 3f f7 cc 34 a5 e5 f1 71 d8 31 15
04 c7 23 c3 18 96 05 9a 07 12 80 e2 eb 27 b2 75
09 83 2c 1a 1b 6e 5a a0 52 3b d6 b3 29 e3 2f 84
53 d1 00 ed 20 fc b1 5b 6a cb be 39 4a 4c 58 cf
d0 ef aa fb 43 4d 33 85 45 f9 02 7f 50 3c 9f a8
51 a3 40 8f 92 9d 38 f5 bc b6 da 21 10 ff f3 d2
cd 0c 13 ec 5f 97 44 17 c4 a7 7e 3d 64 5d 19 73
60 81 4f dc 22 2a 90 88 46 ee b8 14 de 5e 0b db
e0 32 3a 0a 49 06 24 5c c2 d3 ac 62 91 95 e4 79
e7 c8 37 6d 8d d5 4e a9 6c 56 f4 ea 65 7a ae 08
ba 78 25 2e 1c a6 b4 c6 e8 dd 74 1f 4b bd 8b 8a
70 3e b5 66 48 03 f6 0e 61 35 57 b9 86 c1 1d 9e
e1 f8 98 11 69 d9 8e 94 9b 1e 87 e9 ce 55 28 df
8c a1 89 0d bf e6 42 68 41 99 2d 0f b0 54 bb 16
"""

# FIPS 197 Figure 14 "Inverse S-box" (= upd1 Table 6), first and last rows.
FIPS197_FIGURE_14_ROW_0 = "52 09 6a d5 30 36 a5 38 bf 40 a3 9e 81 f3 d7 fb"
FIPS197_FIGURE_14_ROW_F = "17 2b 04 7e ba 77 d6 26 e1 69 14 63 55 21 0c 7d"


def test_sbox_computed_from_gf_inverse_and_affine_map_equals_figure_7():
    printed = bytes.fromhex(FIPS197_FIGURE_7)
    assert len(printed) == 256
    assert bytes(SBOX) == printed


def test_inverse_sbox_is_inverse_permutation_and_matches_figure_14():
    assert all(INV_SBOX[SBOX[x]] == x for x in range(256))
    assert bytes(INV_SBOX[:16]) == bytes.fromhex(FIPS197_FIGURE_14_ROW_0)
    assert bytes(INV_SBOX[240:]) == bytes.fromhex(FIPS197_FIGURE_14_ROW_F)


def test_sbox_example_of_section_5_1_1():
    # "if s1,1 = {53}, then the substitution value would be ... {ed}"
    assert SBOX[0x53] == 0xED
    assert (
        affine_transformation(gf_inverse(0x00)) == 0x63
    )  # {00} maps to itself before the affine map


def test_gf_multiplication_examples_of_section_4_2():
    assert gf_mul(0x57, 0x83) == 0xC1  # §4.2
    assert [xtime(0x57), xtime(0xAE), xtime(0x47), xtime(0x8E)] == [
        0xAE,
        0x47,
        0x8E,
        0x07,
    ]  # §4.2.1
    assert gf_mul(0x57, 0x13) == 0xFE  # §4.2.1


def test_gf_inverse_is_an_inverse_for_every_nonzero_byte():
    assert all(gf_mul(b, gf_inverse(b)) == 1 for b in range(1, 256))


def test_rcon_powers_of_x():
    assert [rcon(i)[0] for i in range(1, 11)] == [
        0x01,
        0x02,
        0x04,
        0x08,
        0x10,
        0x20,
        0x40,
        0x80,
        0x1B,
        0x36,
    ]


@pytest.mark.parametrize(
    ("key", "first_derived", "last"),
    [
        # FIPS 197 Appendix A.1 (w[4], w[43]), A.2 (w[6], w[51]), A.3 (w[8], w[59])
        ("2b7e151628aed2a6abf7158809cf4f3c", "a0fafe17", "b6630ca6"),
        ("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b", "fe0c91f7", "01002202"),
        (
            "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
            "9ba35411",
            "706c631e",
        ),
    ],
    ids=["A.1", "A.2", "A.3"],
)
def test_key_expansion_matches_appendix_a(key, first_derived, last):
    key = bytes.fromhex(key)
    w = key_expansion(key)
    nk = len(key) // 4
    assert len(w) == 4 * (nk + 7)  # Nb (Nr + 1) words
    assert w[nk].hex() == first_derived
    assert w[-1].hex() == last


# FIPS 197 (2001) Appendix C.1, AES-128 (Nk=4, Nr=10), typed in from the printed listing.
APPENDIX_C1 = """
round[ 0].input 00112233445566778899aabbccddeeff
round[ 0].k_sch 000102030405060708090a0b0c0d0e0f
round[ 1].start 00102030405060708090a0b0c0d0e0f0
round[ 1].s_box 63cab7040953d051cd60e0e7ba70e18c
round[ 1].s_row 6353e08c0960e104cd70b751bacad0e7
round[ 1].m_col 5f72641557f5bc92f7be3b291db9f91a
round[ 1].k_sch d6aa74fdd2af72fadaa678f1d6ab76fe
round[ 2].start 89d810e8855ace682d1843d8cb128fe4
round[ 2].s_box a761ca9b97be8b45d8ad1a611fc97369
round[ 2].s_row a7be1a6997ad739bd8c9ca451f618b61
round[ 2].m_col ff87968431d86a51645151fa773ad009
round[ 2].k_sch b692cf0b643dbdf1be9bc5006830b3fe
round[ 3].start 4915598f55e5d7a0daca94fa1f0a63f7
round[ 3].s_box 3b59cb73fcd90ee05774222dc067fb68
round[ 3].s_row 3bd92268fc74fb735767cbe0c0590e2d
round[ 3].m_col 4c9c1e66f771f0762c3f868e534df256
round[ 3].k_sch b6ff744ed2c2c9bf6c590cbf0469bf41
round[ 4].start fa636a2825b339c940668a3157244d17
round[ 4].s_box 2dfb02343f6d12dd09337ec75b36e3f0
round[ 4].s_row 2d6d7ef03f33e334093602dd5bfb12c7
round[ 4].m_col 6385b79ffc538df997be478e7547d691
round[ 4].k_sch 47f7f7bc95353e03f96c32bcfd058dfd
round[ 5].start 247240236966b3fa6ed2753288425b6c
round[ 5].s_box 36400926f9336d2d9fb59d23c42c3950
round[ 5].s_row 36339d50f9b539269f2c092dc4406d23
round[ 5].m_col f4bcd45432e554d075f1d6c51dd03b3c
round[ 5].k_sch 3caaa3e8a99f9deb50f3af57adf622aa
round[ 6].start c81677bc9b7ac93b25027992b0261996
round[ 6].s_box e847f56514dadde23f77b64fe7f7d490
round[ 6].s_row e8dab6901477d4653ff7f5e2e747dd4f
round[ 6].m_col 9816ee7400f87f556b2c049c8e5ad036
round[ 6].k_sch 5e390f7df7a69296a7553dc10aa31f6b
round[ 7].start c62fe109f75eedc3cc79395d84f9cf5d
round[ 7].s_box b415f8016858552e4bb6124c5f998a4c
round[ 7].s_row b458124c68b68a014b99f82e5f15554c
round[ 7].m_col c57e1c159a9bd286f05f4be098c63439
round[ 7].k_sch 14f9701ae35fe28c440adf4d4ea9c026
round[ 8].start d1876c0f79c4300ab45594add66ff41f
round[ 8].s_box 3e175076b61c04678dfc2295f6a8bfc0
round[ 8].s_row 3e1c22c0b6fcbf768da85067f6170495
round[ 8].m_col baa03de7a1f9b56ed5512cba5f414d23
round[ 8].k_sch 47438735a41c65b9e016baf4aebf7ad2
round[ 9].start fde3bad205e5d0d73547964ef1fe37f1
round[ 9].s_box 5411f4b56bd9700e96a0902fa1bb9aa1
round[ 9].s_row 54d990a16ba09ab596bbf40ea111702f
round[ 9].m_col e9f74eec023020f61bf2ccf2353c21c7
round[ 9].k_sch 549932d1f08557681093ed9cbe2c974e
round[10].start bd6e7c3df2b5779e0b61216e8b10b689
round[10].s_box 7a9f102789d5f50b2beffd9f3dca4ea7
round[10].s_row 7ad5fda789ef4e272bca100b3d9ff59f
round[10].k_sch 13111d7fe3944a17f307a78b4d2b30c5
round[10].output 69c4e0d86a7b0430d8cdb78070b4c55a
round[ 0].iinput 69c4e0d86a7b0430d8cdb78070b4c55a
round[ 0].ik_sch 13111d7fe3944a17f307a78b4d2b30c5
round[ 1].istart 7ad5fda789ef4e272bca100b3d9ff59f
round[ 1].is_row 7a9f102789d5f50b2beffd9f3dca4ea7
round[ 1].is_box bd6e7c3df2b5779e0b61216e8b10b689
round[ 1].ik_sch 549932d1f08557681093ed9cbe2c974e
round[ 1].ik_add e9f74eec023020f61bf2ccf2353c21c7
round[ 2].istart 54d990a16ba09ab596bbf40ea111702f
round[ 2].is_row 5411f4b56bd9700e96a0902fa1bb9aa1
round[ 2].is_box fde3bad205e5d0d73547964ef1fe37f1
round[ 2].ik_sch 47438735a41c65b9e016baf4aebf7ad2
round[ 2].ik_add baa03de7a1f9b56ed5512cba5f414d23
round[ 3].istart 3e1c22c0b6fcbf768da85067f6170495
round[ 3].is_row 3e175076b61c04678dfc2295f6a8bfc0
round[ 3].is_box d1876c0f79c4300ab45594add66ff41f
round[ 3].ik_sch 14f9701ae35fe28c440adf4d4ea9c026
round[ 3].ik_add c57e1c159a9bd286f05f4be098c63439
round[ 4].istart b458124c68b68a014b99f82e5f15554c
round[ 4].is_row b415f8016858552e4bb6124c5f998a4c
round[ 4].is_box c62fe109f75eedc3cc79395d84f9cf5d
round[ 4].ik_sch 5e390f7df7a69296a7553dc10aa31f6b
round[ 4].ik_add 9816ee7400f87f556b2c049c8e5ad036
round[ 5].istart e8dab6901477d4653ff7f5e2e747dd4f
round[ 5].is_row e847f56514dadde23f77b64fe7f7d490
round[ 5].is_box c81677bc9b7ac93b25027992b0261996
round[ 5].ik_sch 3caaa3e8a99f9deb50f3af57adf622aa
round[ 5].ik_add f4bcd45432e554d075f1d6c51dd03b3c
round[ 6].istart 36339d50f9b539269f2c092dc4406d23
round[ 6].is_row 36400926f9336d2d9fb59d23c42c3950
round[ 6].is_box 247240236966b3fa6ed2753288425b6c
round[ 6].ik_sch 47f7f7bc95353e03f96c32bcfd058dfd
round[ 6].ik_add 6385b79ffc538df997be478e7547d691
round[ 7].istart 2d6d7ef03f33e334093602dd5bfb12c7
round[ 7].is_row 2dfb02343f6d12dd09337ec75b36e3f0
round[ 7].is_box fa636a2825b339c940668a3157244d17
round[ 7].ik_sch b6ff744ed2c2c9bf6c590cbf0469bf41
round[ 7].ik_add 4c9c1e66f771f0762c3f868e534df256
round[ 8].istart 3bd92268fc74fb735767cbe0c0590e2d
round[ 8].is_row 3b59cb73fcd90ee05774222dc067fb68
round[ 8].is_box 4915598f55e5d7a0daca94fa1f0a63f7
round[ 8].ik_sch b692cf0b643dbdf1be9bc5006830b3fe
round[ 8].ik_add ff87968431d86a51645151fa773ad009
round[ 9].istart a7be1a6997ad739bd8c9ca451f618b61
round[ 9].is_row a761ca9b97be8b45d8ad1a611fc97369
round[ 9].is_box 89d810e8855ace682d1843d8cb128fe4
round[ 9].ik_sch d6aa74fdd2af72fadaa678f1d6ab76fe
round[ 9].ik_add 5f72641557f5bc92f7be3b291db9f91a
round[10].istart 6353e08c0960e104cd70b751bacad0e7
round[10].is_row 63cab7040953d051cd60e0e7ba70e18c
round[10].is_box 00102030405060708090a0b0c0d0e0f0
round[10].ik_sch 000102030405060708090a0b0c0d0e0f
round[10].ioutput 00112233445566778899aabbccddeeff
"""


def _printed_rows(listing: str) -> list[tuple[str, str, str]]:
    rows = []
    for line in listing.strip().splitlines():
        label, value = line.rsplit(" ", 1)
        step, name = label.split(".")
        rows.append((step, name, value))
    return rows


def test_trace_aes_128_reproduces_appendix_c1_in_full():
    spec = TRACES["aes-128"]
    rows = spec.run(**{name: bytes.fromhex(value) for name, value in spec.inputs.items()})
    assert [(r.step, r.name, r.value) for r in rows] == _printed_rows(APPENDIX_C1)


@pytest.mark.parametrize(
    ("name", "output", "first_round_key"),
    [
        # FIPS 197 Appendix C.2 (AES-192) and C.3 (AES-256): round[ 1].k_sch and round[Nr].output
        ("aes-192", "dda97ca4864cdfe06eaf70a0ec0d7191", "10111213141516175846f2f95c43f4fe"),
        ("aes-256", "8ea2b7ca516745bfeafc49904b496089", "101112131415161718191a1b1c1d1e1f"),
    ],
)
def test_trace_aes_192_and_256_reproduce_appendix_c2_c3_outputs(name, output, first_round_key):
    spec = TRACES[name]
    rows = spec.run(**{param: bytes.fromhex(value) for param, value in spec.inputs.items()})
    values = {(r.step, r.name): r.value for r in rows}
    rounds = 12 if name == "aes-192" else 14
    assert values[(f"round[{rounds}]", "output")] == output
    assert values[("round[ 0]", "iinput")] == output
    assert values[(f"round[{rounds}]", "ioutput")] == "00112233445566778899aabbccddeeff"
    assert values[("round[ 1]", "k_sch")] == first_round_key


def test_trace_rejects_a_plaintext_that_is_not_one_block():
    with pytest.raises(ValueError, match=r"plaintext length \(15 bytes\).*accepted: 16"):
        appendix_c_rows(bytes(16), bytes(15))


@pytest.mark.parametrize("size", [0, 1, 15, 17, 20, 23, 25, 31, 33, 64])
def test_invalid_key_size_raises_value_error_naming_size(size):
    with pytest.raises(
        ValueError, match=rf"Invalid key size \({size} bytes\) for AES; accepted: 16, 24, 32"
    ):
        AES(bytes(size))


@pytest.mark.parametrize("length", [0, 15, 17, 32])
def test_block_not_16_bytes_raises_value_error_naming_length(length):
    aes = AES(bytes(16))
    with pytest.raises(ValueError, match=rf"block length \({length} bytes\)"):
        aes.encrypt_block(bytes(length))
    with pytest.raises(ValueError, match=rf"block length \({length} bytes\)"):
        aes.decrypt_block(bytes(length))


def test_rounds_per_key_size():
    assert [AES(bytes(n)).rounds for n in (16, 24, 32)] == [10, 12, 14]
    assert AES.block_size == 16


@settings(max_examples=60, deadline=None)
@given(
    key=st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
    block=st.binary(min_size=16, max_size=16),
)
def test_block_cipher_matches_cryptography(key, block):
    encryptor = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    expected = encryptor.update(block) + encryptor.finalize()
    aes = AES(key)
    assert aes.encrypt_block(block) == expected
    assert aes.decrypt_block(expected) == block
