"""``refbench trace sha-256`` (and ``sha-1``): working variables round by round, as NIST prints them.

The layout follows NIST's worked example "SHA256.pdf" (csrc.nist.gov, Cryptographic Standards and
Guidelines, Examples; the same values as FIPS 180-2 Appendix B.1): for each message block M(i),
the initial working variables, then a..h after each round t = 0..63, then the intermediate hash
value H(i). SHA-1 follows "SHA1.pdf" / FIPS 180-2 Appendix A.1 with a..e and t = 0..79.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from refbench.ref.sha1 import SHA1, sha1_rounds
from refbench.ref.sha2 import SHA256, sha256_rounds
from refbench.tracing import TraceRow, TraceSpec


def _words(values: tuple[int, ...] | list[int]) -> str:
    return " ".join(f"{v:08x}" for v in values)


def _trace(
    engine: SHA1 | SHA256,
    rounds: Callable[[list[int], bytes], Iterator[tuple[int, ...]]],
    letters: str,
    message: bytes,
) -> list[TraceRow]:
    padded = message + engine.padding()
    rows = [TraceRow("padded", "M", padded.hex())]
    H = engine.initial_hash_value()
    blocks = len(padded) // engine.block_size
    for i in range(1, blocks + 1):
        block = padded[(i - 1) * engine.block_size : i * engine.block_size]
        rows.append(TraceRow(f"block {i}", f"M({i})", block.hex()))
        rows.append(TraceRow("init", letters, _words(H)))
        last: tuple[int, ...] = ()
        for t, state in enumerate(rounds(H, block)):
            rows.append(TraceRow(f"t={t:2d}", letters, _words(state)))
            last = state
        H = [(x + y) & 0xFFFFFFFF for x, y in zip(H, last)]
        rows.append(TraceRow(f"H({i})", f"H({i})", _words(H)))
    rows.append(
        TraceRow("digest", "message digest", b"".join(w.to_bytes(4, "big") for w in H).hex())
    )
    return rows


def trace_sha256(message: bytes) -> list[TraceRow]:
    """SHA-256 of ``message`` with every round's a..h (FIPS 180-4 §6.2.2)."""
    return _trace(SHA256(message), sha256_rounds, "a b c d e f g h", message)


def trace_sha1(message: bytes) -> list[TraceRow]:
    """SHA-1 of ``message`` with every round's a..e (FIPS 180-4 §6.1.2)."""
    return _trace(SHA1(message), sha1_rounds, "a b c d e", message)


TRACES: dict[str, TraceSpec] = {
    "sha-256": TraceSpec(
        source='NIST "SHA256.pdf" example / FIPS 180-2 Appendix B.1 ("abc")',
        inputs={"message": "616263"},
        run=trace_sha256,
    ),
    "sha-1": TraceSpec(
        source='NIST "SHA1.pdf" example / FIPS 180-2 Appendix A.1 ("abc")',
        inputs={"message": "616263"},
        run=trace_sha1,
    ),
}
