"""SHA-1 (FIPS 180-4 §6.1): constants, the example's rounds, hashlib differential."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from refbench.ref import sha1
from refbench.traces.sha2 import trace_sha1

# FIPS 180-4 §4.2.1 (K_t) and §5.3.1 (H(0)).
FIPS180_4_K = (0x5A827999, 0x6ED9EBA1, 0x8F1BBCDC, 0xCA62C1D6)
FIPS180_4_H0 = (0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0)


def test_derived_K_equals_fips180_4_table():
    assert sha1.K == FIPS180_4_K


def test_initial_hash_value():
    assert sha1.INITIAL_HASH_VALUE == FIPS180_4_H0


def test_trace_matches_fips180_2_appendix_a1():
    # FIPS 180-2 Appendix A.1 ("abc"), also NIST's SHA1.pdf example: a..e after t = 0 and t = 79, H(1).
    rows = {row.step: row.value for row in trace_sha1(b"abc")}
    assert rows["t= 0"] == "0116fc33 67452301 7bf36ae2 98badcfe 10325476"
    assert rows["t=79"] == "42541b35 5738d5e1 21834873 681e6df6 d8fdf6ad"
    assert rows["H(1)"] == "a9993e36 4706816a ba3e2571 7850c26c 9cd0d89d"


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_sha1_matches_hashlib(data):
    assert sha1.sha1(data) == hashlib.sha1(data).digest()
