"""Operation counts: each primitive reports exactly the multiplications and squarings of its formula."""

import pytest

from refbench.ref import curves, edwards, montgomery, opcount
from refbench.ref import weierstrass as W
from refbench.ref.modarith import Montgomery, pow_binary, pow_sliding_window


def counted(fn, *args):
    with opcount.counting() as c:
        fn(*args)
    return c


def test_jacobian_doubling_a_minus_3_is_3M_5S():
    c = curves.P256
    n = counted(W.jacobian_double, c, (c.gx, c.gy, 7))
    assert (n.mul, n.sqr, n.inv, n.red) == (3, 5, 0, 8)


def test_jacobian_doubling_general_a_is_1M_8S_plus_a():
    c = curves.BRAINPOOLP256R1
    n = counted(W.jacobian_double, c, (c.gx, c.gy, 7))
    assert (n.mul, n.sqr, n.inv) == (2, 8, 0)


def test_jacobian_addition_is_11M_5S():
    c = curves.P256
    P = W.to_jacobian(c.G)
    Q = W.jacobian_double(c, (c.gx, c.gy, 3))
    n = counted(W.jacobian_add, c, P, Q)
    assert (n.mul, n.sqr, n.inv) == (11, 5, 0)


def test_mixed_addition_is_7M_4S():
    c = curves.P384
    Q = W.jacobian_double(c, (c.gx, c.gy, 5))
    n = counted(W.jacobian_add_mixed, c, Q, c.G)
    assert (n.mul, n.sqr, n.inv) == (7, 4, 0)


def test_affine_addition_costs_one_inversion():
    c = curves.P256
    G2 = W.affine_double(c, c.G)
    n = counted(W.affine_add, c, c.G, G2)
    assert (n.mul, n.sqr, n.inv) == (2, 1, 1)


def test_to_affine_is_1I_3M_1S():
    c = curves.P256
    n = counted(W.to_affine, c, (c.gx, c.gy, 9))
    assert (n.mul, n.sqr, n.inv) == (3, 1, 1)


def test_x25519_ladder_is_255_steps_of_5M_4S_1a24_and_one_inversion():
    k = bytes(range(32))
    n = counted(montgomery.x25519, k, montgomery.encode_u(montgomery.CURVE25519, 9))
    assert (n.mul, n.sqr, n.mul_const, n.inv) == (255 * 5 + 1, 255 * 4, 255, 1)
    assert n.red == n.mul + n.sqr + n.mul_const


def test_x448_ladder_is_448_steps_of_5M_4S_1a24_and_one_inversion():
    k = bytes(range(56))
    n = counted(montgomery.x448, k, montgomery.encode_u(montgomery.CURVE448, 5))
    assert (n.mul, n.sqr, n.mul_const, n.inv) == (448 * 5 + 1, 448 * 4, 448, 1)


def test_ed448_addition_is_10M_1S_and_one_multiplication_by_d():
    c = edwards.ED448
    P = edwards.double(c, c.B)
    n = counted(edwards.add, c, P, c.B)
    assert (n.mul, n.sqr, n.mul_const, n.inv) == (10, 1, 1, 0)


def test_ed25519_addition_is_9M_including_the_product_by_2d():
    c = edwards.ED25519
    P = edwards.double(c, c.B)
    n = counted(edwards.add, c, P, c.B)
    assert (n.mul, n.sqr, n.mul_const, n.inv) == (9, 0, 0, 0)


def test_point_decompression_counts_its_square_root():
    c = curves.P256
    compressed = W.encode_point(c, c.G, compressed=True)
    n = counted(W.decode_point, c, compressed)
    # x³ + ax + b (1M + 1S), then Euler's criterion and a^((p+1)/4): two ~256-bit exponentiations.
    assert n.sqr > 2 * 250


def test_small_constant_outside_the_addition_constants_is_rejected():
    with pytest.raises(ValueError, match=r"Invalid small constant \(121665\)"):
        curves.P256.field.small(121665, 5)


def test_constant_wider_than_a_word_is_rejected():
    with pytest.raises(ValueError, match=r"Invalid constant"):
        curves.P256.field.mul_const(1 << 32, 5)


def test_binary_exponentiation_counts_squarings_and_multiplications():
    e = 0b1011001
    n = counted(pow_binary, 3, e, 1000003)
    assert (n.sqr, n.mul) == (e.bit_length() - 1, e.bit_count() - 1)


def test_sliding_window_needs_fewer_multiplications_than_binary():
    e = (1 << 1024) - 12345
    binary = counted(pow_binary, 5, e, (1 << 1279) - 1)
    window = counted(pow_sliding_window, 5, e, (1 << 1279) - 1)
    assert window.mul < binary.mul / 3
    assert (
        window.sqr <= binary.sqr + 1
    )  # the table needs a², the first window skips a few squarings


def test_montgomery_multiplication_is_one_product_and_one_redc():
    ctx = Montgomery((1 << 127) - 1)
    n = counted(ctx.mul, 5, 7)
    assert (n.mul, n.sqr, n.red) == (1, 0, 1)


def test_nested_counters_each_see_their_part():
    c = curves.P256
    with opcount.counting() as outer:
        W.jacobian_double(c, (c.gx, c.gy, 1))
        with opcount.counting() as inner:
            W.jacobian_double(c, (c.gx, c.gy, 1))
    assert (inner.mul, inner.sqr) == (3, 5)
    assert (outer.mul, outer.sqr) == (6, 10)


def test_nothing_is_counted_outside_a_block():
    c = curves.P256
    W.jacobian_double(c, (c.gx, c.gy, 1))
    with opcount.counting() as n:
        pass
    assert n.as_dict() == {"mul": 0, "sqr": 0, "mul_const": 0, "inv": 0, "red": 0, "add": 0, "sub": 0, "cswap": 0}
