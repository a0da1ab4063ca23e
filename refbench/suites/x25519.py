"""X25519 (RFC 7748) vector suites.

Sources
-------
* ``cryptography_vectors/asymmetric/X25519/rfc7748.txt``: the §5.2 single-shot vectors.
* ``vectors/rfc7748/x25519.txt`` (transcribed from the RFC): the §6.1 Alice–Bob
  exchange and the §5.2 iterated test — 1 and 1,000 iterations by default,
  1,000,000 as a ``slow`` suite (about 45 minutes in pure Python).
* Wycheproof ``Protocol/wycheproof/x25519_test.json``: every case. A case whose
  expected shared secret is all zero (a small-order public key) must raise
  ``ValueError`` (RFC 7748 §6.1); every other case must give the expected secret.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

from refbench.loaders import (
    Record,
    cryptography_vector,
    load_nist_rsp,
    project_vector,
    pycryptodome_vector,
)
from refbench.ref import montgomery
from refbench.suites.ecdsa import wycheproof_cases
from refbench.verification import Outcome, Suite, expect_equal, expect_raises, guarded


@cache
def records(path: Path) -> tuple[Record, ...]:
    return tuple(load_nist_rsp(path))


def run_single(relpath: str, fn: Callable[[bytes, bytes], bytes]) -> Iterator[Outcome]:
    for rec in records(cryptography_vector(relpath)):
        if "OUTPUT_U" not in rec:
            continue
        yield guarded(
            rec.label,
            lambda rec=rec: expect_equal(
                rec.label, rec.hex("OUTPUT_U"), fn(rec.hex("INPUT_SCALAR"), rec.hex("INPUT_U"))
            ),
        )


def run_dh(
    relpath: str, fn: Callable[[bytes, bytes], bytes], public: Callable[[bytes], bytes]
) -> Iterator[Outcome]:
    for rec in records(project_vector(relpath)):
        if "SHARED" not in rec:
            continue

        def one(rec: Record = rec) -> Outcome:
            a, b = rec.hex("ALICE_PRIVATE"), rec.hex("BOB_PRIVATE")
            got = (
                public(a),
                public(b),
                fn(a, rec.hex("BOB_PUBLIC")),
                fn(b, rec.hex("ALICE_PUBLIC")),
            )
            want = (
                rec.hex("ALICE_PUBLIC"),
                rec.hex("BOB_PUBLIC"),
                rec.hex("SHARED"),
                rec.hex("SHARED"),
            )
            return expect_equal(rec.label, want, got)

        yield guarded(rec.label, one)


def run_iterated(
    relpath: str, fn: Callable[[bytes, bytes], bytes], base: bytes, wanted: tuple[int, ...]
) -> Iterator[Outcome]:
    """k = u = base; k, u = fn(k, u), k; compare after each iteration count in ``wanted`` present in the file."""
    targets = {
        rec.int("ITERATIONS"): rec
        for rec in records(project_vector(relpath))
        if "ITERATIONS" in rec
    }
    missing = [n for n in wanted if n not in targets]
    if missing:
        raise ValueError(f"{relpath}: no vector for {missing} iterations")
    k = u = base
    done = 0
    for n in sorted(wanted):
        rec = targets[n]
        while done < n:
            k, u = fn(k, u), k
            done += 1
        yield expect_equal(f"{rec.label} ITERATIONS={n}", rec.hex("K"), k)


def run_wycheproof(filename: str, fn: Callable[[bytes, bytes], bytes]) -> Iterator[Outcome]:
    for case in wycheproof_cases(pycryptodome_vector(f"Protocol/wycheproof/{filename}")):
        shared = case.hex("shared")

        def call(case=case) -> bytes:
            return fn(case.hex("private"), case.hex("public"))

        if not any(shared) or case.result == "invalid":
            yield expect_raises(case.label, ValueError, call)
        else:
            yield guarded(
                case.label,
                lambda case=case, call=call, shared=shared: expect_equal(
                    case.label, shared, call()
                ),
            )


def xdh_suites(
    algorithm: str,
    fn: Callable[[bytes, bytes], bytes],
    public: Callable[[bytes], bytes],
    base_u: int,
    size: int,
    exchange_section: str,
) -> list[Suite]:
    """The five suites of one RFC 7748 function (X25519 or X448); X448's module calls this too.

    ``base_u`` is the base point's u-coordinate (9 or 5), ``size`` the key length in bytes,
    ``exchange_section`` the RFC section of the Alice-Bob example ("6.1" or "6.2").
    """
    lower = algorithm.lower()
    base = base_u.to_bytes(size, "little")
    project_file = f"rfc7748/{lower}.txt"
    return [
        Suite(
            algorithm,
            "RFC 7748 sec. 5.2 rfc7748.txt",
            lambda: run_single(f"asymmetric/{algorithm}/rfc7748.txt", fn),
        ),
        Suite(
            algorithm,
            f"RFC 7748 sec. {exchange_section} vectors/{project_file}",
            lambda: run_dh(project_file, fn, public),
        ),
        Suite(
            algorithm,
            "RFC 7748 sec. 5.2 iterated 1 and 1,000",
            lambda: run_iterated(project_file, fn, base, (1, 1000)),
        ),
        Suite(
            algorithm,
            "RFC 7748 sec. 5.2 iterated 1,000,000",
            lambda: run_iterated(project_file, fn, base, (1000000,)),
            slow=True,
        ),
        Suite(
            algorithm,
            f"Wycheproof {lower}_test.json",
            lambda: run_wycheproof(f"{lower}_test.json", fn),
        ),
    ]


SUITES: list[Suite] = xdh_suites(
    "X25519", montgomery.x25519, montgomery.x25519_public_key, 9, 32, "6.1"
)
