"""SM2 vector suites: the worked examples of GB/T 32918 (``vectors/sm2/``).

* ``gbt32918_signature.txt``: the Part 5 Annex A example on the recommended
  curve and the Part 2 Annex A.2 example on the example curve — P from d, Z_A,
  e, the signature with the given k, its verification, and the rejection of the
  same signature on a changed message and with a changed ID.
* ``gbt32918_key_exchange.txt``: the Part 3 Annex A.2 example — both sides
  run with the given ephemeral keys; R_A, R_B, K_A = K_B and both confirmation
  hashes must match, and a wrong confirmation hash must raise ``InvalidTag``.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

from refbench.errors import InvalidSignature, InvalidTag
from refbench.loaders import Record, load_nist_rsp, project_vector
from refbench.ref import sm2
from refbench.ref.curves import get_curve
from refbench.verification import Outcome, Suite, expect_equal, expect_raises, guarded


@cache
def records(path: Path) -> tuple[Record, ...]:
    return tuple(load_nist_rsp(path))


def _curve(rec: Record):
    return get_curve(next(iter(rec.section)))


def run_signature() -> Iterator[Outcome]:
    for rec in records(project_vector("sm2/gbt32918_signature.txt")):
        curve = _curve(rec)
        label = f"{rec.label} [{curve.name}]"
        d, uid, msg = rec.int("DA", 16), rec.hex("ID"), rec.hex("MSG")
        P = (rec.int("XA", 16), rec.int("YA", 16))
        sig = (rec.int("R", 16), rec.int("S", 16))

        def one(rec=rec, curve=curve, d=d, uid=uid, msg=msg, P=P, sig=sig, label=label) -> Outcome:
            got = (
                sm2.public_key(curve, d),
                sm2.z_value(curve, uid, P),
                sm2.message_digest(curve, uid, P, msg),
                sm2.sign(d, msg, uid, curve, k=rec.int("K", 16)),
            )
            want = (P, rec.hex("ZA"), rec.int("E", 16), sig)
            outcome = expect_equal(label + " sign", want, got)
            if outcome.passed:
                sm2.verify(P, msg, sig, uid, curve)
            return outcome

        yield guarded(label + " sign", one)
        yield expect_raises(
            label + " changed message",
            InvalidSignature,
            lambda curve=curve, msg=msg, P=P, sig=sig, uid=uid: sm2.verify(
                P, msg + b"!", sig, uid, curve
            ),
        )
        yield expect_raises(
            label + " changed ID",
            InvalidSignature,
            lambda curve=curve, msg=msg, P=P, sig=sig, uid=uid: sm2.verify(
                P, msg, sig, uid + b"0", curve
            ),
        )


def run_key_exchange() -> Iterator[Outcome]:
    for rec in records(project_vector("sm2/gbt32918_key_exchange.txt")):
        curve = _curve(rec)
        label = f"{rec.label} [{curve.name}]"
        PA, PB = (rec.int("XA", 16), rec.int("YA", 16)), (rec.int("XB", 16), rec.int("YB", 16))
        RA, RB = (rec.int("XRA", 16), rec.int("YRA", 16)), (rec.int("XRB", 16), rec.int("YRB", 16))

        def both(rec=rec, curve=curve, PA=PA, PB=PB, RA=RA, RB=RB):
            klen = rec.int("KLEN")
            a = sm2.key_exchange(
                True,
                rec.int("DA", 16),
                rec.int("RA_PRIV", 16),
                rec.hex("IDA"),
                PB,
                RB,
                rec.hex("IDB"),
                klen,
                curve,
            )
            b = sm2.key_exchange(
                False,
                rec.int("DB", 16),
                rec.int("RB_PRIV", 16),
                rec.hex("IDB"),
                PA,
                RA,
                rec.hex("IDA"),
                klen,
                curve,
            )
            return a, b

        def one(rec=rec, curve=curve, PA=PA, PB=PB, RA=RA, RB=RB, label=label) -> Outcome:
            a, b = both()
            a.check(b.confirmation)
            b.check(a.confirmation)
            got = (
                sm2.public_key(curve, rec.int("DA", 16)),
                sm2.public_key(curve, rec.int("DB", 16)),
                sm2.z_value(curve, rec.hex("IDA"), PA),
                sm2.z_value(curve, rec.hex("IDB"), PB),
                a.R,
                b.R,
                a.key,
                b.key,
                b.confirmation,
                a.confirmation,
            )
            want = (
                PA,
                PB,
                rec.hex("ZA"),
                rec.hex("ZB"),
                RA,
                RB,
                rec.hex("K"),
                rec.hex("K"),
                rec.hex("SB"),
                rec.hex("SA"),
            )
            return expect_equal(label, want, got)

        yield guarded(label, one)
        yield expect_raises(
            label + " wrong S_B", InvalidTag, lambda both=both: both()[0].check(bytes(32))
        )


SUITES: list[Suite] = [
    Suite(
        "SM2 signature", "GB/T 32918.2/.5 Annex A vectors/sm2/gbt32918_signature.txt", run_signature
    ),
    Suite(
        "SM2 key exchange",
        "GB/T 32918.3 Annex A.2 vectors/sm2/gbt32918_key_exchange.txt",
        run_key_exchange,
    ),
]
