"""The floor any code must pay for a public-key operation (refbench/sanity/pubkey_floor.py)."""

from __future__ import annotations

import pytest

from refbench.sanity.pubkey_floor import call_floor, floor_cycles, karatsuba


def test_karatsuba_counts():
    assert [karatsuba(n) for n in (1, 2, 3, 4, 8, 17, 64)] == [1, 3, 9, 9, 27, 243, 729]


def test_call_floors_by_operation():
    assert call_floor("p256-mul", 32) == (27, 24)            # K(8), 2 x 8 read + 8 written
    assert call_floor("25519-sqr", 32) == (27, 16)           # min(K(8), 36)
    assert call_floor("p521-sqr", 68) == (153, 34)           # min(K(17) = 243, 17 x 18 / 2)
    assert call_floor("mont-mul", 256) == (2 * 729, 192)     # product and q x n
    assert call_floor("mont-sqr", 32) == (27 + 27, 16)
    assert call_floor("25519-add", 32) == call_floor("select", 32) == (0, 24)
    assert call_floor("25519-mul-a24", 32) == (0, 16)
    assert call_floor("p256-mont-mul", 32) == call_floor("p256-mul", 32)  # a reduction without products
    assert call_floor("sp-table-read", 96) == (0, 16 * 24)  # 15 entries read, one written
    assert call_floor("ref10-cmov-table", 96) == (0, 9 * 24)  # 8 entries read, one written
    with pytest.raises(ValueError, match="Invalid operation 'x25519' for the any-code floor"):
        call_floor("x25519", 32)


def test_single_issue_cores_add_moves_dual_issue_cores_may_pair_them():
    work = {("p256-mul", 32): 10, ("p256-add", 32): 4}
    assert floor_cycles(work, "m4") == (270 + 240 + 96, 270, 336)
    assert floor_cycles(work, "m7") == ((270 + 336) / 2, 270, 336)
    assert floor_cycles(work, "m0plus") == (3 * 270 + 336, 270, 336)
    assert floor_cycles({("p256-mul", 32): 10}, "Cortex-M33")[0] == max(270, (270 + 240) / 2)
    with pytest.raises(ValueError, match="Invalid core 'm85' for the any-code floor"):
        floor_cycles(work, "m85")


def test_the_floor_names_what_it_is_kept_for():
    from refbench.sanity.pubkey_floor import describe

    text = describe(1000.0, 900, 100, "Cortex-M4", "Montgomery, 4-bit fixed window")
    assert "for closed libraries (ST CMOX" in text and "own_arithmetic" not in text
    assert "an open library is bounded by kernels of its own code" in text
