"""``refbench trace sha-256`` against NIST's worked example (SHA256.pdf = FIPS 180-2 Appendix B.1)."""

from __future__ import annotations

from refbench.traces.sha2 import trace_sha256
from refbench.tracing import all_traces

# Typed in from NIST "SHA256.pdf" (Cryptographic Standards and Guidelines, Examples), one-block
# message "abc"; the same values are printed in FIPS 180-2 Appendix B.1. a b c d e f g h after round t.
PRINTED_ROUNDS = {
    "t= 0": "5d6aebcd 6a09e667 bb67ae85 3c6ef372 fa2a4622 510e527f 9b05688c 1f83d9ab",
    "t= 1": "5a6ad9ad 5d6aebcd 6a09e667 bb67ae85 78ce7989 fa2a4622 510e527f 9b05688c",
    "t= 2": "c8c347a7 5a6ad9ad 5d6aebcd 6a09e667 f92939eb 78ce7989 fa2a4622 510e527f",
    "t= 3": "d550f666 c8c347a7 5a6ad9ad 5d6aebcd 24e00850 f92939eb 78ce7989 fa2a4622",
    "t=15": "b0fa238e c0645fde d932eb16 87912990 07590dcd 0b92f20c 745a48de 1e578218",
    "t=31": "73b33bf5 ea992a22 a0060b30 363482c9 ba591112 0109ab3a ade79437 6112a3b7",
    "t=62": "d39a2165 04d24d6c b85e2ce9 b6ae8fff fb121210 948d25b6 961f4894 b21bad3d",
    "t=63": "506e3058 d39a2165 04d24d6c b85e2ce9 5ef50f24 fb121210 948d25b6 961f4894",
}
PRINTED_H1 = "ba7816bf 8f01cfea 414140de 5dae2223 b00361a3 96177a9c b410ff61 f20015ad"
PRINTED_INITIAL = "6a09e667 bb67ae85 3c6ef372 a54ff53a 510e527f 9b05688c 1f83d9ab 5be0cd19"


def test_trace_rounds_match_the_printed_example():
    rows = {row.step: row.value for row in trace_sha256(b"abc")}
    for step, printed in PRINTED_ROUNDS.items():
        assert rows[step] == printed, step
    assert rows["init"] == PRINTED_INITIAL
    assert rows["H(1)"] == PRINTED_H1


def test_trace_has_every_round_of_every_block():
    rows = trace_sha256(
        b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    )  # FIPS 180-2 B.2: two blocks
    assert [r.step for r in rows if r.step.startswith("t=")] == [f"t={t:2d}" for t in range(64)] * 2
    assert [r.value for r in rows if r.step == "digest"] == [
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ]


def test_trace_is_registered_with_the_standard_example_as_default():
    spec = all_traces()["sha-256"]
    assert spec.inputs == {"message": "616263"}
    assert spec.run(message=bytes.fromhex(spec.inputs["message"]))[-1].value.startswith("ba7816bf")
