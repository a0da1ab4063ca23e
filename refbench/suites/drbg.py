"""Vector suites for Hash_DRBG with SHA-256 (NIST SP 800-90A Rev. 1 §10.1.1).

Source: the project's ``vectors/drbg/Hash_DRBG_SHA-256_{no_reseed,pr_false,pr_true}.rsp`` (the
``[SHA-256]`` sections of NIST CAVP ``Hash_DRBG.rsp``, CAVS 14.3, a verbatim subset; see
``vectors/drbg/README.md``). Each test follows DRBGVS:

* no_reseed: Instantiate; Generate(AdditionalInput #1); Generate(AdditionalInput #2);
* pr_false: Instantiate; Reseed(EntropyInputReseed, AdditionalInputReseed); Generate x 2;
* pr_true: Instantiate; Generate with prediction resistance (EntropyInputPR #k, AdditionalInput #k) x 2;

and ``ReturnedBits`` is the output of the second Generate. The files repeat field names within a
test (``AdditionalInput`` twice), which the NIST loader reads as a new record; the pieces are joined
with :func:`refbench.loaders.merge_split_records`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from cortexm_emu.datafile import DataFileError
from refbench.loaders import MergedTest, load_nist_rsp, merge_split_records, project_vector
from refbench.ref.drbg import HashDRBG
from refbench.verification import Outcome, Suite, expect_equal, guarded

Variant = Literal["no_reseed", "pr_false", "pr_true"]


def run_cavp_test(test: MergedTest, variant: Variant) -> bytes:
    """Drive one DRBGVS test; return the second Generate's output."""
    section = test.first.section
    if "SHA-256" not in section:
        raise DataFileError(str(test.first.path), test.first.line, None, "not a [SHA-256] section")
    returned_bytes = int(section["ReturnedBitsLen"]) // 8
    additional = [bytes.fromhex(v) for v in test.values("AdditionalInput")]
    if len(additional) != 2:
        raise DataFileError(
            str(test.first.path),
            test.first.line,
            "AdditionalInput",
            f"expected 2, found {len(additional)}",
        )
    drbg = HashDRBG(test.hex("EntropyInput"), test.hex("Nonce"), test.hex("PersonalizationString"))
    if variant == "pr_true":
        entropy_pr = [bytes.fromhex(v) for v in test.values("EntropyInputPR")]
        if len(entropy_pr) != 2:
            raise DataFileError(
                str(test.first.path),
                test.first.line,
                "EntropyInputPR",
                f"expected 2, found {len(entropy_pr)}",
            )
        drbg.generate(returned_bytes, additional[0], prediction_resistance_entropy=entropy_pr[0])
        return drbg.generate(
            returned_bytes, additional[1], prediction_resistance_entropy=entropy_pr[1]
        )
    if variant == "pr_false":
        drbg.reseed(test.hex("EntropyInputReseed"), test.hex("AdditionalInputReseed"))
    drbg.generate(returned_bytes, additional[0])
    return drbg.generate(returned_bytes, additional[1])


def drbg_suite(variant: Variant) -> Suite:
    filename = f"Hash_DRBG_SHA-256_{variant}.rsp"

    def run() -> Iterator[Outcome]:
        for test in merge_split_records(load_nist_rsp(project_vector(f"drbg/{filename}")), "COUNT"):
            label = test.label
            yield guarded(
                label,
                lambda test=test, label=label: expect_equal(
                    label, test.hex("ReturnedBits"), run_cavp_test(test, variant)
                ),
            )

    return Suite("Hash_DRBG SHA-256", f"CAVP {filename} (subset, vectors/drbg)", run)


SUITES: list[Suite] = [drbg_suite(v) for v in ("no_reseed", "pr_false", "pr_true")]
