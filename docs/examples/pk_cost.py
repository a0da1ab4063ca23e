"""Tutorial 6: an ECDSA P-256 signature and an RSA private operation, cost by composition.

The Python reference counts the field operations of one signature (refbench.ref.opcount); the
emulator measures one field multiplication and one squaring of the bignum kernels on a core; the
product is a first-order estimate of the signature's cycles (additions, the hash and the control
flow are left out: a few percent on a 32-bit core).
"""

from refbench.measure import Job, Measurer
from refbench.ref import curves, ecdsa, opcount

# A fixed private key and a full-length fixed nonce, so the counts are the same on every run.
D = 0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721
K = 0xA6E3C57DD01ABE90086538398355DD4C3B17AA873382B0F24D6129493D8AAD60
# Fermat inversion a^(p-2): about 255 squarings and one multiplication per set bit of p - 2.
P256_MINUS_2_BITS = bin(curves.P256.field.p - 2).count("1")


def main() -> None:
    with opcount.counting() as count:
        ecdsa.sign_digest(curves.P256, D, bytes(32), k=K)
    print(f"ECDSA P-256 sign, reference count: {count}")
    inversion = (255, P256_MINUS_2_BITS)  # (squarings, multiplications)
    sqr = count.sqr + count.inv * inversion[0]
    mul = count.mul + count.mul_const + count.inv * inversion[1]
    print(f"with each inversion as a Fermat power: {mul} mul + {sqr} sqr")
    for core, variant in (("m0plus", "m0"), ("m4", "umaal"), ("m7", "umaal"), ("m33", "umaal")):
        measurer = Measurer(core)
        m = measurer.measure(Job("bignum", variant, "p256-mul", 32))
        s = measurer.measure(Job("bignum", variant, "p256-sqr", 32))
        total = mul * m.cycles + sqr * s.cycles
        print(f"{core:<7} bignum/{variant:<6} mul {m.cycles:>5} sqr {s.cycles:>5} cycles -> sign ~ {total:>10,} cycles"
              f" = {total / 64e3:6.1f} ms at 64 MHz")



def rsa_private(bits: int) -> tuple[int, int]:
    """(squarings, multiplications) of one RSA private operation with CRT and a fixed 4-bit window:
    two exponentiations modulo the bits/2-bit primes, each ~bits/2 squarings, one multiplication per
    4-bit window and a 14-entry table (RFC 8017 §5.1.2 CRT; HAC Algorithm 14.82 fixed window)."""
    half = bits // 2
    return 2 * half, 2 * (half // 4 + 14)


def rsa_main() -> None:
    for core, variant in (("m0plus", "m0"), ("m4", "umaal")):
        measurer = Measurer(core)
        for bits in (2048, 4096):
            half_bytes = bits // 16
            s = measurer.measure(Job("bignum", variant, "mont-sqr", half_bytes)).cycles
            m = measurer.measure(Job("bignum", variant, "mont-mul", half_bytes)).cycles
            sqr, mul = rsa_private(bits)
            total = sqr * s + mul * m
            print(f"{core:<7} RSA-{bits} private: {sqr} sqr x {s:,} + {mul} mul x {m:,} = {total:>14,} cycles"
                  f" = {total / 64e6:5.1f} s at 64 MHz")


if __name__ == "__main__":
    import sys

    rsa_main() if sys.argv[1:] == ["rsa"] else main()
