"""``refbench trace chacha20``: the ChaCha20 block function laid out as RFC 8439 §2.3.2 prints it.

Rows: the state with the key setup, the state after 20 rounds, the state at the end of the
ChaCha20 operation (each as four rows of four 32-bit words, as in the RFC's matrices), then
the serialized block in 16-byte lines. The defaults are the §2.3.2 inputs.
"""

from __future__ import annotations

from refbench.ref.chacha import chacha20_block_states, serialize
from refbench.tracing import TraceRow, TraceSpec

SOURCE = "RFC 8439 §2.3.2 (Test Vector for the ChaCha20 Block Function)"


def _matrix_rows(step: str, state: list[int]) -> list[TraceRow]:
    return [
        TraceRow(
            step, f"row {row}", "  ".join(f"{word:08x}" for word in state[4 * row : 4 * row + 4])
        )
        for row in range(4)
    ]


def trace_chacha20_block(key: bytes, nonce: bytes, counter: bytes) -> list[TraceRow]:
    """Trace one ChaCha20 block. ``counter`` is the 32-bit block count as big-endian hex bytes
    (``00000001`` is block count 1), 1 to 4 bytes long."""
    if not 1 <= len(counter) <= 4:
        raise ValueError(
            f"Invalid counter size ({len(counter)} bytes) for ChaCha20; "
            "accepted: 1 to 4 (a 32-bit block count)"
        )
    setup, after_rounds, end = chacha20_block_states(key, int.from_bytes(counter, "big"), nonce)
    rows = _matrix_rows("key setup", setup)
    rows += _matrix_rows("after 20 rounds", after_rounds)
    rows += _matrix_rows("end of operation", end)
    block = serialize(end)
    rows += [
        TraceRow(
            "serialized block",
            f"{offset:03d}",
            " ".join(f"{b:02x}" for b in block[offset : offset + 16]),
        )
        for offset in range(0, 64, 16)
    ]
    return rows


TRACES = {
    "chacha20": TraceSpec(
        source=SOURCE,
        inputs={
            "key": "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
            "nonce": "000000090000004a00000000",
            "counter": "00000001",
        },
        run=trace_chacha20_block,
    )
}
