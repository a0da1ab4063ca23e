"""``refbench trace aes-128|aes-192|aes-256``: the round states of FIPS 197 Appendix C.

Appendix C prints, for the Cipher, ``round[ r].input/start/s_box/s_row/m_col/k_sch/output``
and, for the Inverse Cipher, ``round[ r].iinput/istart/is_row/is_box/ik_sch/ik_add/ioutput``
(all as 32 hex digits). The defaults are the appendix's own inputs: plaintext
00112233445566778899aabbccddeeff and key 000102... of 16 (C.1), 24 (C.2) or 32 (C.3) bytes.
"""

from __future__ import annotations

from refbench.ref.aes import AES
from refbench.tracing import TraceRow, TraceSpec

APPENDIX_C_PLAINTEXT = "00112233445566778899aabbccddeeff"


def appendix_c_rows(key: bytes, plaintext: bytes) -> list[TraceRow]:
    """The Cipher's rows, then the Inverse Cipher's rows applied to the Cipher's output."""
    if len(plaintext) != 16:
        raise ValueError(f"Invalid plaintext length ({len(plaintext)} bytes) for AES; accepted: 16")
    aes = AES(key)
    rows: list[TraceRow] = []

    def observe(round_number: int, name: str, state: bytes) -> None:
        rows.append(TraceRow(f"round[{round_number:2d}]", name, state.hex()))

    ciphertext = aes.encrypt_block_traced(plaintext, observe)
    aes.decrypt_block_traced(ciphertext, observe)
    return rows


def _spec(appendix: str, key_bytes: int) -> TraceSpec:
    def run(key: bytes, plaintext: bytes) -> list[TraceRow]:
        if len(key) != key_bytes:  # the title names the key size: another size is another algorithm
            names = {16: "aes-128", 24: "aes-192", 32: "aes-256"}
            other = f"; a {len(key)}-byte key is {names[len(key)].upper()}: refbench trace {names[len(key)]}" \
                if len(key) in names else ""
            raise ValueError(f"Invalid key length ({len(key)} bytes) for AES-{8 * key_bytes}; "
                             f"accepted: {key_bytes} bytes{other}")
        return appendix_c_rows(key, plaintext)

    return TraceSpec(
        source=(
            f"FIPS 197 Appendix {appendix} "
            f"(AES-{8 * key_bytes}, Cipher and Inverse Cipher round states)"
        ),
        inputs={"key": bytes(range(key_bytes)).hex(), "plaintext": APPENDIX_C_PLAINTEXT},
        run=run,
    )


TRACES: dict[str, TraceSpec] = {
    "aes-128": _spec("C.1", 16),
    "aes-192": _spec("C.2", 24),
    "aes-256": _spec("C.3", 32),
}
