"""The invariant rules: algorithmic invariants between figures of one page.

Each rule is ``rule(figures, parts) -> list[(figure_id, Finding)]``; the findings carry the
names the report prints: ``aes-key-size``, ``ctr-symmetry``, ``sha-truncation``, ``sha3-rate``,
``hmac-hash``, ``keygen-vs-agree``, ``rsa-scaling``, ``rsa-private-vs-public``, ``rsa-crt``,
``dsa-scaling``, ``dh-scaling``, ``dsa-verify-vs-sign``, ``ecc-scaling``, ``hardware-vs-software``,
``cmox-config-speed``, ``cmox-footprint``, ``cmox-footprint-curves``. Every bound is a named
constant with its justification; none was fitted to the figures.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace

from refbench.published.model import Figure, Part
from refbench.published.notes import notes_for
from refbench.sanity.claims import page_statements
from refbench.sanity.fingerprints import sampling_spread
from refbench.sanity.numbers import (
    ScalingKind,
    cost_for_compare,
    figure_context,
    fmt,
    group_by,
    per_unit,
    same_work_tolerance,
    scaling_band,
    value_figures,
)
from refbench.sanity.rules import HASH_BLOCK, Result
from refbench.sanity.verdicts import Finding

#: AES rounds: 10, 12, 14 for 128-, 192-, 256-bit keys (FIPS 197 section 5). The per-byte
#: cost of a longer key is at least that of AES-128 (more rounds never make it faster) and at
#: most the round ratio (fixed per-byte overhead such as GHASH, CBC chaining or bus transfers
#: only pulls the ratio towards 1).
AES_ROUNDS = {128: 10, 192: 12, 256: 14}

#: How a cost grows with the key or curve size (refbench.sanity.numbers.scaling_band derives the
#: band of the exponent from the operation counts and word sizes of each pair): a private-key
#: exponentiation (RSA private/sign, DH, DSA), a public exponent (RSA public/verify, e = 65537:
#: 17 multiplications at every size), a scalar multiplication (ECC, X25519/X448, Ed25519/Ed448).
PRIVATE_SCALING: ScalingKind = "exponentiation"
SHORT_EXPONENT_SCALING: ScalingKind = "short exponentiation"
PUBLIC_SCALING: ScalingKind = "public exponent"
SCALAR_SCALING: ScalingKind = "scalar multiplication"
#: RSA private (k-bit exponent, CRT: two k/2-bit exponentiations) against public (e = 65537,
#: 17 multiplications): at least ~0.28 k modular multiplications of full size for the private
#: operation, i.e. > 70 public-operation equivalents at k = 1024 on paper; with any overhead
#: the private operation is still several times slower. A ratio below 4 means the labels or
#: the measurements are wrong.
RSA_PRIVATE_OVER_PUBLIC_MIN = 4.0
#: CRT: two exponentiations with half-size exponent and half-size modulus, each 1/8 of the
#: full cost with schoolbook multiplication -> speed-up 4; never below 2 for k >= 1024.
CRT_SPEEDUP = (2.0, 4.0 * (1 + 0.10))
#: DSA verify performs two exponentiations (or one simultaneous double exponentiation,
#: ~1.2x) where sign performs one: verify/sign in [1.0, 2.6] (2 plus 30 % for the extra
#: modular inverse and hashing).
DSA_VERIFY_OVER_SIGN = (1.0, 2.6)
#: SHA-3 rate in bytes per Keccak-f[1600] permutation (FIPS 202 section 6.1: r = 1600 - 2c).
SHA3_RATE = {"SHA3-224": 144, "SHA3-256": 136, "SHA3-384": 104, "SHA3-512": 72}
#: wolfSSL's STM32 AES-GCM driver computes the tag in software when the CRYP HAL cannot take the
#: request: without byte-wide header support (``CRYP_HEADERWIDTHUNIT_BYTE``) a zero-length payload
#: (``sz == 0``: GMAC, wc_GmacUpdate with the message as AAD) or a partial block sends the whole
#: GHASH to software (wolfSSL wolfcrypt/src/aes.c, wc_AesGcmEncrypt_STM32/wc_AesGcmDecrypt_STM32,
#: "for cases where hardware cannot be used for authTag calculate it", commit 009b9542b5c2).
GMAC_SOFTWARE_GHASH = ("GMAC has no payload, and wolfSSL's STM32 GCM driver computes GHASH in software for a "
                       "zero-length payload when the CRYP HAL lacks byte-wide header support (wolfcrypt/src/aes.c "
                       "wc_AesGcmEncrypt_STM32): a GMAC that costs the software GHASH is that documented path, "
                       "not a slow peripheral")


def software_ghash_path_applies(gmac: Figure) -> bool:
    """The driver path :data:`GMAC_SOFTWARE_GHASH` cites exists only in wolfSSL's STM32 GCM
    driver on the part's AES (CRYP) peripheral; any other library, part or engine has no such
    documented path."""
    return gmac.library == "wolfSSL" and gmac.part.upper().startswith("STM32") and "AES" in gmac.hw


def gmac_on_software_ghash(gmac: Figure, software: Figure | None, gcm: Figure | None) -> tuple[str, str, str]:
    """(verdict, message, tests) for a hardware GMAC slower than its peripheral's GCM or than its
    software GMAC, against the driver's software-GHASH path (:data:`GMAC_SOFTWARE_GHASH`).

    On that path GMAC runs the software GHASH of its bytes, which costs at most the same library's
    software GMAC on the same part (the same GHASH plus a software block cipher call), plus the
    peripheral's share of the request, which costs at most the same section's GCM encryption on the
    peripheral (the same request with a payload). So it costs at most their sum, with
    :func:`same_work_tolerance`. Only where the path applies and both bounds are at hand is the
    figure ``explained``; with no figure to bound it the slow side is untested (``tests="bound"``)."""
    if not software_ghash_path_applies(gmac):
        return ("suspicious", f"the software-GHASH driver path cited for GMAC is wolfSSL's STM32 GCM driver "
                f"(wolfcrypt/src/aes.c wc_AesGcmEncrypt_STM32), not {gmac.library} on {gmac.part} "
                f"({', '.join(gmac.hw) or 'no peripheral'}): nothing explains a slower GMAC", "value")
    missing = [name for name, f in (("software GMAC of this library on this part", software),
                                    ("GCM encryption on the peripheral in this section", gcm)) if f is None]
    if missing:
        return ("consistent", f"{GMAC_SOFTWARE_GHASH}; no {' and no '.join(missing)} bounds its cost: untested on "
                "the slow side", "bound")
    cm, cs, cg = cost_for_compare(gmac), cost_for_compare(software), cost_for_compare(gcm)
    tol = same_work_tolerance(gmac, software, gcm)
    high = (cs + cg) * (1 + tol)
    message = (f"{GMAC_SOFTWARE_GHASH}; on that path GMAC costs at most the software GMAC {fmt(cs)} "
               f"({software.text} {software.unit}) plus the peripheral's GCM {fmt(cg)} ({gcm.text} {gcm.unit}): "
               f"{fmt(cm)} against at most {fmt(high)} {per_unit(gmac)} (tolerance {tol:.1%})")
    if cm > high:
        return ("suspicious", message + ": slower than the software GHASH path can be", "value")
    return ("explained", message, "value")


#: HMAC adds at most 4 compression calls per message (inner and outer key blocks, inner and
#: outer finalisation, RFC 2104).
HMAC_EXTRA_COMPRESSIONS = 4


def _ratio_text(a: Figure, b: Figure, ca: float, cb: float, per: str) -> str:
    return (f"{a.algorithm} {a.operation} {fmt(ca)} {per} ({a.text} {a.unit}) vs {b.algorithm} {b.operation} "
            f"{fmt(cb)} {per} ({b.text} {b.unit}): ratio {ca / cb:.3f}")



def rule_aes_key_size(figures: list[Figure], parts: dict[str, Part]) -> Result:
    out: Result = []
    aes = [f for f in value_figures(figures) if re.fullmatch(r"AES-(128|192|256)-\w+", f.algorithm)]
    groups = group_by(aes, lambda f: figure_context(f, f.algorithm.split("-", 2)[2], f.mode, f.operation))
    for members in groups.values():
        base = next((f for f in members if f.key_bits == 128), None)
        if base is None:
            continue
        for f in members:
            if f.key_bits == 128:
                continue
            bound = AES_ROUNDS[f.key_bits] / AES_ROUNDS[128]
            tol = same_work_tolerance(f, base)
            c, c0 = cost_for_compare(f), cost_for_compare(base)
            r = c / c0
            text = _ratio_text(f, base, c, c0, per_unit(f))
            if 1 / (1 + tol) <= r <= bound * (1 + tol):
                finding = Finding("aes-key-size", "consistent",
                                  f"{text}; expected between 1 and the round ratio "
                                  f"{AES_ROUNDS[f.key_bits]}/10 = {bound:.1f} (tolerance {tol:.1%})")
            else:
                side = "faster than AES-128" if r < 1 else f"slower than the round ratio {bound:.1f} allows"
                finding = Finding("aes-key-size", "suspicious",
                                  f"{text}: {side} (allowed 1/{1 + tol:.3f}..{bound:.1f}x{1 + tol:.3f}); "
                                  f"more rounds cannot make AES faster and only add round work")
            out += [(f.id, finding), (base.id, finding)]
    return out


def rule_ctr_symmetry(figures: list[Figure], parts: dict[str, Part]) -> Result:
    out: Result = []
    ctr = [f for f in value_figures(figures) if f.mode == "CTR"]
    for members in group_by(ctr, lambda f: figure_context(f, f.algorithm)).values():
        enc = next((f for f in members if f.operation == "encrypt"), None)
        dec = next((f for f in members if f.operation == "decrypt"), None)
        if not enc or not dec:
            continue
        tol = same_work_tolerance(enc, dec)
        ce, cd = cost_for_compare(enc), cost_for_compare(dec)
        r = ce / cd
        verdict = "consistent" if abs(r - 1) <= tol else "suspicious"
        msg = (f"CTR encryption and decryption are the same keystream XOR: {_ratio_text(enc, dec, ce, cd, per_unit(enc))}"
               f" (allowed 1 +/- {tol:.1%})")
        out += [(enc.id, Finding("ctr-symmetry", verdict, msg)), (dec.id, Finding("ctr-symmetry", verdict, msg))]
    return out


def rule_sha_truncation(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """SHA-224/SHA-256 and SHA-384/SHA-512/t/SHA-512 share their compression function (FIPS 180-4)."""
    out: Result = []
    partner = {"SHA-224": "SHA-256", "SHA-384": "SHA-512", "SHA-512/224": "SHA-512", "SHA-512/256": "SHA-512",
               "HMAC-SHA-224": "HMAC-SHA-256", "HMAC-SHA-384": "HMAC-SHA-512"}
    hashes = [f for f in value_figures(figures) if f.algorithm in partner or f.algorithm in partner.values()]
    for members in group_by(hashes, lambda f: figure_context(f, f.operation)).values():
        by_alg = {f.algorithm: f for f in members}
        for name, full in partner.items():
            if name in by_alg and full in by_alg:
                a, b = by_alg[name], by_alg[full]
                tol = same_work_tolerance(a, b)
                ca, cb = cost_for_compare(a), cost_for_compare(b)
                verdict = "consistent" if abs(ca / cb - 1) <= tol else "suspicious"
                finding = Finding(
                    "sha-truncation", verdict,
                    f"{name} is {full} with other initial values and a shorter output (FIPS 180-4 5.3, 6): "
                    f"{_ratio_text(a, b, ca, cb, per_unit(a))} (allowed 1 +/- {tol:.1%})")
                out += [(a.id, finding), (b.id, finding)]
    return out


def rule_sha3_rate(figures: list[Figure], parts: dict[str, Part]) -> Result:
    out: Result = []
    sha3 = [f for f in value_figures(figures) if f.algorithm in SHA3_RATE]
    for members in group_by(sha3, lambda f: figure_context(f)).values():
        by_alg = {f.algorithm: f for f in members}
        ref = by_alg.get("SHA3-256")
        if ref is None:
            continue
        for name, f in by_alg.items():
            if f is ref:
                continue
            expected = SHA3_RATE["SHA3-256"] / SHA3_RATE[name]
            tol = same_work_tolerance(f, ref)
            c, c0 = cost_for_compare(f), cost_for_compare(ref)
            r = c / c0
            verdict = "consistent" if abs(r / expected - 1) <= tol else "suspicious"
            finding = Finding(
                "sha3-rate", verdict,
                f"one Keccak-f[1600] per rate block: {name} absorbs {SHA3_RATE[name]} bytes, SHA3-256 136 "
                f"(FIPS 202 6.1), so cost ratio should be 136/{SHA3_RATE[name]} = {expected:.3f}; "
                f"{_ratio_text(f, ref, c, c0, per_unit(f))} (allowed +/- {tol:.1%})")
            out += [(f.id, finding), (ref.id, finding)]
    return out


def rule_hmac_hash(figures: list[Figure], parts: dict[str, Part]) -> Result:
    out: Result = []
    names = {f"HMAC-{h}": h for h in HASH_BLOCK}
    relevant = [f for f in value_figures(figures) if f.algorithm in names or f.algorithm in HASH_BLOCK]
    for members in group_by(relevant, lambda f: (f.source, f.part, f.library, f.version, f.config, f.metric)).values():
        by_alg = {f.algorithm: f for f in members}
        for mac_name, hash_name in names.items():
            if mac_name not in by_alg or hash_name not in by_alg or by_alg[mac_name].block_bytes is None:
                continue
            mac, h = by_alg[mac_name], by_alg[hash_name]
            blocks = mac.block_bytes / HASH_BLOCK[hash_name]
            low = blocks / (blocks + HMAC_EXTRA_COMPRESSIONS)
            tol = same_work_tolerance(mac, h)
            cm, ch = cost_for_compare(mac), cost_for_compare(h)
            speed_ratio = ch / cm  # HMAC throughput / hash throughput
            ok = low / (1 + tol) <= speed_ratio <= 1 + tol
            finding = Finding(
                "hmac-hash", "consistent" if ok else "suspicious",
                f"HMAC over {mac.block_bytes}-byte blocks = {blocks:g} {hash_name} compressions plus at most "
                f"{HMAC_EXTRA_COMPRESSIONS} (RFC 2104), so HMAC/hash speed should be in {low:.3f}..1; "
                f"{mac_name} {mac.text} {mac.unit} / {hash_name} {h.text} {h.unit} = {speed_ratio:.3f} "
                f"(tolerance {tol:.1%})")
            out += [(mac.id, finding), (h.id, finding)]
    return out


def rule_keygen_vs_agree(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """Key generation is one (fixed-base) exponentiation or scalar multiplication, the shared
    secret one (variable-base) of the same size: key generation is never the slower one."""
    out: Result = []
    def family(f: Figure) -> str | None:
        if f.operation not in ("keygen", "agree"):
            return None
        return re.sub(r"^(ECC|ECDH)-", "EC-", f.algorithm)
    relevant = [f for f in value_figures(figures) if family(f)]
    for members in group_by(relevant, lambda f: figure_context(f, family(f))).values():
        keygen = next((f for f in members if f.operation == "keygen"), None)
        agree = next((f for f in members if f.operation == "agree"), None)
        if not keygen or not agree:
            continue
        tol = same_work_tolerance(keygen, agree)
        ck, ca = cost_for_compare(keygen), cost_for_compare(agree)
        verdict = "consistent" if ck <= ca * (1 + tol) else "suspicious"
        finding = Finding(
            "keygen-vs-agree", verdict,
            f"key generation {fmt(ck)} cycles/op ({keygen.text} {keygen.unit}) vs shared secret {fmt(ca)} "
            f"cycles/op ({agree.text} {agree.unit}): ratio {ck / ca:.3f}; both are one exponentiation/scalar "
            f"multiplication of the same size, key generation may use a fixed base (allowed <= {1 + tol:.3f})")
        out += [(keygen.id, finding), (agree.id, finding)]
    return out


#: ECDSA verification computes u1*G + u2*Q: at least the doublings of one scalar multiplication
#: (k of them), at most two whole scalar multiplications; ECDH agreement is one variable-base
#: scalar multiplication, k doublings plus at most k additions, an addition costing at most two
#: doublings (SEC 1 v2 §3.2, §4.1.4): verify / agree lies in [1/(1 + 2), 2] (before tolerance).
VERIFY_OVER_AGREE = (1 / 3, 2.0)


def rule_ecc_operations(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """``ecc-operations``: the operations of one section and curve against each other, from their
    operation counts, where the page claims the same code for both (:mod:`refbench.sanity.claims`):
    ECDSA signing is a fixed-base scalar multiplication like key generation plus an inversion, so
    never cheaper than key generation; verification against agreement is bounded by
    VERIFY_OVER_AGREE. Software only: a peripheral's ECDSA and scalar-multiplication modes are
    separate operations with their own documented times, and where the claims differ (a peripheral
    for one operation, software for the other) the pair is not the same code (rule ``code-path``)."""
    from refbench.sanity.claims import claims_of

    out: Result = []
    def curve(f: Figure) -> str | None:
        if not re.match(r"^(ECC|ECDH|ECDSA)-", f.algorithm):
            return None
        return re.sub(r"^(ECC|ECDH|ECDSA)-", "", f.algorithm)
    relevant = [f for f in value_figures(figures) if curve(f)]
    # figures the fingerprints found running another claim's code (code-path, suspicious)
    from refbench.sanity.fingerprints import rule_code_path
    not_as_claimed = {i for i, f in rule_code_path(figures, parts) if f.verdict == "suspicious"}
    for members in group_by(relevant, lambda f: (f.source, f.section, f.part, f.library, f.version, f.variant,
                                               f.metric, curve(f))).values():
        by_op = {f.operation: f for f in members}
        for low_op, high_op, low, high, why in (
                ("keygen", "sign", 1.0, math.inf, "signing is key generation's fixed-base scalar multiplication "
                 "plus a modular inversion and a few multiplications"),
                ("agree", "verify", *VERIFY_OVER_AGREE, "verification computes u1*G + u2*Q: at least the "
                 "doublings of one scalar multiplication, at most two; agreement is one (an addition costs at most "
                 "two doublings)")):
            a, b = by_op.get(low_op), by_op.get(high_op)
            if a is None or b is None or claims_of(a) != claims_of(b) or claims_of(a).engine is not None:
                continue  # not the same claimed code, or a peripheral's modes (their own documented times)
            tol = same_work_tolerance(a, b) + sampling_spread(a) + sampling_spread(b)
            ca, cb = cost_for_compare(a), cost_for_compare(b)
            r = cb / ca
            ok = low / (1 + tol) <= r <= high * (1 + tol)
            bound = f"{low:.2f}..{high:.2f}" if math.isfinite(high) else f">= {low:.2f}"
            verdict = "consistent" if ok else "suspicious"
            message = (f"{high_op} {fmt(cb)} cycles/op ({b.text} {b.unit}) / {low_op} {fmt(ca)} ({a.text} {a.unit}) = "
                       f"{r:.2f}, both claimed {claims_of(a).describe()}: {why}, expected {bound} (tolerance {tol:.1%})")
            if not ok:
                known = [f for f in (a, b) if f.id in not_as_claimed]
                if known:
                    verdict = "explained"
                    message += (f": {', '.join(f'{f.algorithm} {f.operation}' for f in known)} did not run the code "
                                "the section claims (rule code-path: the same cost as another claim's figure), so the "
                                "pair is not one code path")
                else:
                    message += ": the two did not run the code the section claims for both"
            finding = Finding("ecc-operations", verdict, message)
            out += [(a.id, finding), (b.id, finding)]
    return out


def _scaling_rule(name: str, figures: list[Figure], prefix: str, ops: dict[str, ScalingKind],
                  family: Callable[[Figure], str | None] = lambda f: "",
                  special_form: Callable[[str | None], bool] = lambda family: False) -> Result:
    # Software figures only: the band is derived from word multiplications on the core
    # (numbers.scaling_band). A public-key accelerator scales as its own documented tables say (the
    # U5 PKA's exponent-17 modular exponentiation, RM0456 Table 521: 2048 -> 3072 bits costs x1.45
    # in normal mode, x2.18 in fast mode), and the hardware rule judges those figures against them.
    out: Result = []
    relevant = [f for f in value_figures(figures) if f.algorithm.startswith(prefix + "-") and f.operation in ops
                and f.key_bits and family(f) is not None and f.implementation != "hardware"]
    for members in group_by(relevant, lambda f: (f.source, f.part, f.library, f.version, f.config,
                                               f.implementation, f.variant, f.operation, f.metric,
                                               family(f))).values():
        members = sorted(members, key=lambda f: f.key_bits)
        for small, big in itertools.pairwise(members):
            if small.key_bits == big.key_bits:
                continue
            low, high, derivation = scaling_band(ops[big.operation], small.key_bits, big.key_bits,
                                                 same_work_tolerance(small, big), special_form(family(big)))
            cs, cb = cost_for_compare(small), cost_for_compare(big)
            exponent = math.log(cb / cs) / math.log(big.key_bits / small.key_bits)
            verdict = "consistent" if low <= exponent <= high else "suspicious"
            finding = Finding(
                name, verdict,
                f"{big.operation} {small.key_bits} -> {big.key_bits} bits: {small.text} -> {big.text} {big.unit}, "
                f"cost x{cb / cs:.2f} for size x{big.key_bits / small.key_bits:.2f}: exponent {exponent:.2f} "
                f"(expected {low:.2f}..{high:.2f}, derived: {derivation})")
            out += [(big.id, finding), (small.id, finding)]
    return out


def _rsa_math(f: Figure) -> str | None:
    """CMOX RSA variants read 'CRT / Small math / Low mod. exp.'; pair by the math setting."""
    return f.variant.split(" / ")[1] if f.variant else None


def rule_rsa(figures: list[Figure], parts: dict[str, Part]) -> Result:
    out = _scaling_rule("rsa-scaling", figures, "RSA", {"private": PRIVATE_SCALING, "sign": PRIVATE_SCALING,
                                                       "public": PUBLIC_SCALING, "verify": PUBLIC_SCALING})
    rsa = [f for f in value_figures(figures) if f.algorithm.startswith("RSA-")]
    for members in group_by(rsa, lambda f: (f.source, f.part, f.library, f.version, f.config, f.implementation,
                                          f.algorithm, f.metric, _rsa_math(f))).values():
        private = [f for f in members if f.operation in ("private", "sign")]
        public = next((f for f in members if f.operation in ("public", "verify")), None)
        if public is None:
            continue
        for p in private:
            cp, cu = cost_for_compare(p), cost_for_compare(public)
            r = cp / cu
            verdict = "consistent" if r >= RSA_PRIVATE_OVER_PUBLIC_MIN else "suspicious"
            finding = Finding(
                "rsa-private-vs-public", verdict,
                f"{p.algorithm} {p.operation} {p.text} {p.unit} / {public.operation} {public.text} {public.unit} "
                f"= {r:.1f} (expected >= {RSA_PRIVATE_OVER_PUBLIC_MIN:g}: k-bit private exponent vs e = 65537)")
            out += [(p.id, finding), (public.id, finding)]
    crt = [f for f in rsa if f.variant and f.variant.startswith(("CRT", "No CRT"))]
    for members in group_by(crt, lambda f: (f.source, f.operation, f.metric, f.variant.split(" / ", 1)[1])).values():
        with_crt = next((f for f in members if f.variant.startswith("CRT")), None)
        without = next((f for f in members if f.variant.startswith("No CRT")), None)
        if with_crt and without:
            s = without.value / with_crt.value
            low, high = CRT_SPEEDUP
            finding = Finding(
                "rsa-crt", "consistent" if low <= s <= high else "suspicious",
                f"{with_crt.operation}: No CRT {without.text} {without.unit} / CRT {with_crt.text} {with_crt.unit} = "
                f"{s:.2f} (expected {low:g}..{high:.1f}: the CRT operation is two exponentiations with half-size "
                "exponent and modulus, the other one of full size)")
            # the pair tests both: the figure without CRT is judged by what the CRT one needs, and back
            out += [(with_crt.id, finding), (without.id, finding)]
    return out


def rule_dsa_dh(figures: list[Figure], parts: dict[str, Part]) -> Result:
    out = _scaling_rule("dsa-scaling", figures, "DSA", {"sign": SHORT_EXPONENT_SCALING,
                                                       "verify": SHORT_EXPONENT_SCALING})
    out += _scaling_rule("dh-scaling", figures, "DH", {"keygen": SHORT_EXPONENT_SCALING,
                                                     "agree": SHORT_EXPONENT_SCALING})
    dsa = [f for f in value_figures(figures) if f.algorithm.startswith("DSA-")]
    for members in group_by(dsa, lambda f: figure_context(f, f.algorithm)).values():
        sign = next((f for f in members if f.operation == "sign"), None)
        verify = next((f for f in members if f.operation == "verify"), None)
        if sign and verify:
            r = verify.value / sign.value
            low, high = DSA_VERIFY_OVER_SIGN
            finding = Finding(
                "dsa-verify-vs-sign", "consistent" if low <= r <= high else "suspicious",
                f"verify {verify.text} {verify.unit} / sign {sign.text} {sign.unit} = {r:.2f} "
                f"(expected {low}..{high}: two exponentiations against one)")
            out += [(verify.id, finding), (sign.id, finding)]
    return out


def _prime_curve_family(f: Figure) -> str | None:
    """NIST P-curves and brainpool curves scale separately (different field reductions)."""
    if f.curve and f.curve.startswith("P-"):
        return "NIST"
    if f.curve and f.curve.startswith("brainpool"):
        return "brainpool"
    return None


def rule_ecc_scaling(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """A k-bit scalar multiplication is ~k doublings/additions of k-bit field elements: the band of
    the size exponent is derived per pair (refbench.sanity.numbers.scaling_band); NIST primes and
    the Curve25519/448 primes have special forms that one size may use and the other not,
    brainpool primes do not."""
    ops = {op: SCALAR_SCALING for op in ("sign", "verify", "keygen", "agree")}
    def special(family: str | None) -> bool:
        return family != "brainpool"
    out = (_scaling_rule("ecc-scaling", figures, "ECDSA", ops, _prime_curve_family, special)
           + _scaling_rule("ecc-scaling", figures, "ECDH", ops, _prime_curve_family, special))
    # Curve25519 -> Curve448 (RFC 7748) and Edwards25519 -> Edwards448 (RFC 8032): the same
    # ladder / Edwards arithmetic over a 255-bit and a 448-bit special prime.
    renamed = [replace(f, algorithm=f"{'X' if f.algorithm.startswith('X') else 'Ed'}-{f.algorithm}")
               for f in figures if f.algorithm in ("X25519", "X448", "Ed25519", "Ed448")]
    out += (_scaling_rule("ecc-scaling", renamed, "X", ops, special_form=special)
            + _scaling_rule("ecc-scaling", renamed, "Ed", ops, special_form=special))
    return out


def rule_hw_vs_sw(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """Hardware acceleration is at least as fast as software for the same work."""
    out: Result = []
    values = value_figures(figures)
    software = defaultdict(list)
    for f in values:
        if f.implementation == "software" or (f.library == "wolfSSL" and not set(f.hw) - {"RNG"}):
            software[(f.source, f.part, f.library, f.version, f.algorithm, f.mode, f.operation, f.metric)].append(f)
    for f in values:
        if f.implementation != "hardware" or f.algorithm == "RNG":
            continue
        candidates = [s for s in software[(f.source, f.part, f.library, f.version, f.algorithm, f.mode,
                                           f.operation, f.metric)]
                      if s.id != f.id and s.options == f.options
                      and ("PKA" not in f.hw or s.math == f.math)
                      and (f.library != "CycloneCRYPTO" or s.row == f.row)]
        for s in candidates:
            # the stated repeatability and printed digits, plus the benchmark's own run-to-run
            # variation: the sampling of its N random-secret calls (fingerprints.sampling_spread)
            tol = same_work_tolerance(f, s) + sampling_spread(f) + sampling_spread(s)
            ch, cs = cost_for_compare(f), cost_for_compare(s)
            verdict = "consistent" if ch <= cs * (1 + tol) else "suspicious"
            where = "" if f.library == "CycloneCRYPTO" else f" ('{s.config}')"
            message = (f"hardware {fmt(ch)} {per_unit(f)} ({f.text} {f.unit}) vs software{where} {fmt(cs)} {per_unit(s)} "
                       f"({s.text} {s.unit}): speed-up {cs / ch:.2f}x (hardware must not be slower, "
                       f"tolerance {tol:.1%})")
            tests = "value"
            if verdict == "suspicious" and f.algorithm == "GMAC":
                gcm = next((g for g in values if g.algorithm == "AES-128-GCM" and g.operation == "encrypt"
                            and g.implementation == "hardware" and (g.source, g.section, g.library, g.metric)
                            == (f.source, f.section, f.library, f.metric)), None)
                verdict, why, tests = gmac_on_software_ghash(f, s, gcm)
                message += f"; {why}"
            elif verdict == "suspicious":
                # page-specific notes (refbench/published/notes.toml): where the page says them, or,
                # cited as evidence from where it says them, under another heading of the same page
                here = notes_for(f, "hardware-vs-software")
                elsewhere = [st.note for st in page_statements(f.source) if st.note.explains == "hardware-vs-software"
                             and st.note not in here]
                for note, where in [(n, "") for n in here] + [(n, " (said under another heading of the page: "
                                                                     "evidence about the same library and "
                                                                     "peripheral, not about this section)")
                                                                for n in elsewhere]:
                    if note.hardware in f.hw and (s.math or "").startswith(note.software_math):
                        verdict = "explained"
                        message += f"; {note.quoted()}{where}"
                        break
            finding = Finding("hardware-vs-software", verdict, message, tests=tests)
            out += [(f.id, finding), (s.id, finding)]
    return out


_FASTER = {"Small": 0, "Fast": 1, "SuperFast": 2, "Low": 0, "Mid": 1, "High": 2, "OptLow": 0, "OptHigh": 1}


def rule_cmox_configurations(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """CMOX trades memory for speed: a faster setting (Fast/SuperFast math, High curve
    definition, Mid/High exponentiation) takes no more cycles and at least as many constant
    or working-buffer bytes as the smaller setting of the same table row."""
    out: Result = []
    cmox = [f for f in figures if f.library.startswith("ST CMOX") and f.variant]
    for f in cmox:
        settings = [s.split(" ")[0] for s in f.variant.split(" / ")]
        for position, setting in enumerate(settings):
            if setting not in _FASTER:
                continue
            for other in cmox:
                if other is f or other.section != f.section or other.algorithm != f.algorithm \
                        or other.operation != f.operation or other.metric != f.metric \
                        or other.message_bytes != f.message_bytes or other.chunk_bytes != f.chunk_bytes:
                    continue
                other_settings = [s.split(" ")[0] for s in other.variant.split(" / ")]
                differs = [k for k in range(len(settings)) if settings[k] != other_settings[k]]
                if differs != [position] or other_settings[position] not in _FASTER \
                        or _FASTER[other_settings[position]] >= _FASTER[setting]:
                    continue
                # f is the faster setting, other the smaller one
                if f.metric == "cycles":
                    if f.value <= other.value:
                        out.append((f.id, Finding("cmox-config-speed", "consistent",
                                                  f"{setting} {f.text} cycles <= {other_settings[position]} "
                                                  f"{other.text} cycles")))
                    else:
                        larger = [g for g in cmox if g.section == f.section and g.algorithm == f.algorithm
                                  and g.operation == f.operation and g.variant == f.variant
                                  and g.metric == "cycles" and (g.message_bytes or 0) > (f.message_bytes or 0)]
                        wins = [g for g in larger if any(
                            h.variant == other.variant and h.message_bytes == g.message_bytes
                            and h.chunk_bytes == g.chunk_bytes and g.value <= h.value for h in cmox
                            if h.section == g.section and h.algorithm == g.algorithm and h.operation == g.operation
                            and h.metric == "cycles")]
                        if wins:
                            out.append((f.id, Finding(
                                "cmox-config-speed", "explained",
                                f"{setting} {f.text} cycles > {other_settings[position]} {other.text} cycles at "
                                f"{f.message_bytes} bytes, but {setting} wins from {min(g.message_bytes for g in wins)} "
                                f"bytes: a one-time set-up (larger tables/key schedule) amortised over longer "
                                f"messages")))
                        else:
                            out.append((f.id, Finding(
                                "cmox-config-speed", "suspicious",
                                f"{setting} {f.text} cycles > {other_settings[position]} {other.text} cycles: the "
                                f"faster setting is slower and never catches up on this page")))
                elif f.metric in ("constant_bytes", "working_buffer_bytes"):
                    verdict = "consistent" if f.value >= other.value else "suspicious"
                    out.append((f.id, Finding(
                        "cmox-footprint", verdict,
                        f"{setting} {f.metric.replace('_', ' ')} {f.text} vs {other_settings[position]} {other.text}: "
                        f"a faster setting {'keeps' if verdict == 'consistent' else 'should keep'} at least as "
                        f"much precomputed data")))
    return out


def rule_cmox_footprint_curves(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """Same code for every curve of one ECC configuration; bigger curves need at least as
    much constant data (curve parameters) and working buffer."""
    out: Result = []
    ecc = [f for f in figures if f.library.startswith("ST CMOX") and f.algorithm.startswith("ECDSA-")
           and f.is_footprint]
    for members in group_by(ecc, lambda f: (f.operation, f.variant, f.metric)).values():
        members = sorted(members, key=lambda f: f.key_bits)
        for small, big in itertools.pairwise(members):
            if big.metric == "code_bytes":
                verdict = "consistent" if big.value == small.value else "suspicious"
                message = f"code {big.text} bytes ({big.curve}) vs {small.text} ({small.curve}): same configuration, same code"
            elif big.metric in ("constant_bytes", "working_buffer_bytes"):
                verdict = "consistent" if big.value >= small.value else "suspicious"
                message = (f"{big.metric.replace('_', ' ')} {big.text} ({big.curve}) vs {small.text} "
                           f"({small.curve}): a larger curve needs at least as many bytes")
            else:
                continue
            out.append((big.id, Finding("cmox-footprint-curves", verdict, message)))
    return out

