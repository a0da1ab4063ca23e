"""Finite-field Diffie-Hellman vector suites.

* ``cryptography_vectors/asymmetric/DH/RFC5114.txt`` (RFC 5114 Appendix A.1–A.3):
  both public keys from the private ones, the shared secret from both sides,
  and both public keys accepted by full validation (with the given q). A.1 is
  the 1024-bit group of RFC 5114 §2.1, also checked against
  :data:`refbench.ref.dh.GROUPS` ``rfc5114-1024-160``.
* ``cryptography_vectors/asymmetric/DH/rfc3526.txt`` (RFC 3526 MODP primes,
  1536–8192 bits): each prime re-derived from π by :func:`refbench.ref.dh.derived_prime`.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

from refbench.loaders import Record, cryptography_vector, load_nist_rsp
from refbench.ref import dh
from refbench.verification import Outcome, Suite, expect_equal, guarded


@cache
def records(path: Path) -> tuple[Record, ...]:
    return tuple(load_nist_rsp(path))


def _merged(path: Path) -> Iterator[tuple[Record, dict[str, Record]]]:
    """Each record carrying Z, with the records of its section by field name (the file splits one test
    into several blank-line-separated blocks)."""
    by_field: dict[str, Record] = {}
    section = None
    for rec in records(path):
        if rec.section != section:
            section, by_field = rec.section, {}
        for name in rec.fields:
            by_field[name] = rec
        if "Z" in rec:
            yield rec, dict(by_field)


def run_rfc5114() -> Iterator[Outcome]:
    for rec, fields in _merged(cryptography_vector("asymmetric/DH/RFC5114.txt")):

        def one(rec=rec, fields=fields) -> Outcome:
            def value(name: str) -> int:
                return fields[name].int(name, 16)

            p, q, g = value("P"), value("Q"), value("G")
            group = dh.DHGroup(
                "RFC 5114 " + next(iter(rec.section)), p, g, q, "RFC 5114 Appendix A"
            )
            x_cavs, x_iut = value("XstatCAVS"), value("XstatIUT")
            y_cavs, y_iut = value("YstatCAVS"), value("YstatIUT")
            got = (
                dh.public_key(group, x_cavs),
                dh.public_key(group, x_iut),
                dh.shared_secret(group, x_iut, y_cavs),
                dh.shared_secret(group, x_cavs, y_iut),
            )
            z = rec.hex("Z").rjust(group.byte_length, b"\x00")
            named = dh.GROUPS["rfc5114-1024-160"]
            if p.bit_length() == 1024 and (named.p, named.q, named.g) != (p, q, g):
                return Outcome(rec.label, False, "RFC 5114 §2.1 constants differ from the file")
            return expect_equal(rec.label, (y_cavs, y_iut, z, z), got)

        yield guarded(rec.label, one)


def run_rfc3526() -> Iterator[Outcome]:
    for rec in records(cryptography_vector("asymmetric/DH/rfc3526.txt")):
        if "P" not in rec:
            continue

        def one(rec=rec) -> Outcome:
            p = rec.int("P", 16)
            bits = p.bit_length()
            return expect_equal(
                f"{rec.label} ({bits} bits)", p, dh.derived_prime(bits, "pi", dh.RFC3526_X[bits])
            )

        yield guarded(rec.label, one)


SUITES: list[Suite] = [
    Suite("DH RFC 5114 groups", "RFC5114.txt (Appendix A.1-A.3)", run_rfc5114),
    Suite("DH MODP group derivation", "rfc3526.txt (RFC 3526 primes from π)", run_rfc3526),
]
