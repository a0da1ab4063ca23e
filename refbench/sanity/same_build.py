"""Invariants between figures of one library build (the invariant rules, continued from
:mod:`refbench.sanity.invariants`): what one build's figures say about each other.

* ``same-code-path``: two sections of one page (one part, one library version) print the same
  number, to every printed digit, for the same work: the same code ran in both. Where one of the
  two claims hardware for it, the hardware was not used (suspicious); where neither does, the
  pair is consistent (the configurations differ in something this algorithm does not use).
  Identity is evidence about *what ran*, never a test of the value: two equal numbers are equally
  right or wrong, so these findings test the figures' context (``tests="context"``), and a figure
  no other rule tests stays ``untested``.
* ``drbg-vs-hash``: wolfCrypt's RNG is Hash_DRBG over the same build's SHA-256; its cost per
  byte is bounded by the SHA-256 compressions the DRBG's definition needs (below).
* ``gmac-vs-gcm``: GMAC is GCM without the CTR encryption (SP 800-38D §3, §7.1): never slower
  than GCM, and about GCM minus the block cipher (estimated by the same section's CBC figure).

Every bound is derived below; the tolerance added is ``same_work_tolerance`` (the stated 5 %
repeatability plus the printed resolution of every figure compared).
"""

from __future__ import annotations

import itertools
import math

from refbench.published.model import Figure, Part
from refbench.sanity.numbers import (
    cost_for_compare,
    fmt,
    group_by,
    per_unit,
    same_work_tolerance,
    value_figures,
)
from refbench.sanity.verdicts import Finding

Result = list[tuple[str, Finding]]

#: Hash_DRBG with SHA-256 (SP 800-90A Rev. 1 §10.1.1.4, Table 2: outlen 256 bits, seedlen 440):
#: Hashgen hashes V (55 bytes: one 64-byte block with its padding) once per 32 output bytes, then
#: H = Hash(0x03 || V) (56 bytes: two blocks, since 56 + 9 > 64). A request of n bytes needs
#: ceil(n / 32) + 2 compressions, where hashing n bytes needs n / 64: the RNG costs at least
#: (ceil(n/32) + 2) / (n/64) times the hash per byte (2.125 for wolfCrypt's 1024-byte request).
DRBG_OUT_BYTES = 32
DRBG_FINAL_COMPRESSIONS = 2
SHA256_BLOCK = 64
#: Upper bound: each of those SHA-256 calls (init, update of 55 or 56 bytes, final: padding, length,
#: byte-swapping eight output words) costs less than one more compression on top of its own, since
#: that bookkeeping is a few dozen operations against the 1,312 or more of a 64-round compression
#: (refbench.sanity.code_bounds). So at most twice the compressions: 4.19x for 1024 bytes.
DRBG_CALL_OVERHEAD_COMPRESSIONS = 1


def drbg_hash_ratio_bounds(request_bytes: int) -> tuple[float, float]:
    """(lowest, highest) RNG-to-SHA-256 cost ratio per byte for a Hash_DRBG request of ``request_bytes``."""
    hashgen = math.ceil(request_bytes / DRBG_OUT_BYTES)
    per_byte_hash = request_bytes / SHA256_BLOCK
    low = (hashgen + DRBG_FINAL_COMPRESSIONS) / per_byte_hash
    high = (hashgen * (1 + DRBG_CALL_OVERHEAD_COMPRESSIONS)
            + DRBG_FINAL_COMPRESSIONS + DRBG_CALL_OVERHEAD_COMPRESSIONS) / per_byte_hash
    return low, high


def drbg_peripheral_ratio_bounds(request_bytes: int, hash_bytes: int) -> tuple[float, float]:
    """(lowest, highest) RNG-to-SHA-256 cost ratio per byte when SHA-256 runs on a HASH peripheral,
    whose per-call cost the section's hash figure (``hash_bytes`` per call) does not split into a
    fixed and a per-block part. Hash_DRBG makes ceil(n/32) + 1 hash calls of one or two blocks
    (SP 800-90A §10.1.1.4: Hashgen's 55-byte V, then the 56-byte 0x03 || V). A call of c blocks costs
    fixed + c x block, the hash figure's call fixed + B x block (B = hash_bytes / 64 blocks): so one
    DRBG call costs at least 1/B of a hash call (c >= 1). No upper bound: between the calls the
    DRBG's own arithmetic (V + H + C + counter over 440 bits, the output copies) runs on the CPU,
    which a peripheral's hash figure does not measure."""
    calls = math.ceil(request_bytes / DRBG_OUT_BYTES) + 1
    blocks = hash_bytes / SHA256_BLOCK
    return calls * (hash_bytes / blocks) / request_bytes, math.inf


def _work(f: Figure) -> tuple:
    return (f.source, f.part, f.library, f.version, f.algorithm, f.mode, f.operation, f.key_bits, f.curve,
            f.message_bytes, f.chunk_bytes, f.variant, f.metric, f.unit)


def _claims_hardware(f: Figure) -> bool:
    return f.implementation == "hardware" and bool(set(f.hw) - {"RNG"})


def rule_same_code_path(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """Identical printed numbers for the same work in two sections of one page: the same code ran."""
    out: Result = []
    for members in group_by(value_figures(figures), _work).values():
        for a, b in itertools.combinations(members, 2):
            if a.section == b.section or a.text != b.text or a.value == 0:
                continue
            hw = [f for f in (a, b) if _claims_hardware(f)]
            both = f"{a.algorithm} {a.operation} prints {a.text} {a.unit} in '{a.section}' and in '{b.section}'"
            if len(hw) == 1:
                claimed = hw[0]
                other = b if claimed is a else a
                message = (f"{both}: identical to every printed digit, so the same code ran in both; the section "
                           f"'{claimed.section}' claims {', '.join(claimed.hw)} hardware for it, but its figure is "
                           f"the software one of '{other.section}': the hardware was not used")
                out += [(a.id, Finding("same-code-path", "suspicious", message, tests="context")),
                        (b.id, Finding("same-code-path", "suspicious", message, tests="context"))]
            else:
                what = "hardware" if hw else "software"
                message = (f"{both}: identical to every printed digit, the same {what} code path in both sections "
                           "(their configurations differ in nothing this algorithm uses)")
                out += [(a.id, Finding("same-code-path", "consistent", message, tests="context")),
                        (b.id, Finding("same-code-path", "consistent", message, tests="context"))]
    return out


def rule_drbg_vs_hash(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """wolfCrypt's RNG (Hash_DRBG over SHA-256) against the same section's software SHA-256."""
    out: Result = []
    sections = group_by(value_figures(figures), lambda f: (f.source, f.section, f.library, f.metric)
                        if f.library == "wolfSSL" and f.metric == "throughput" else None)
    for members in sections.values():
        rng = next((f for f in members if f.algorithm == "RNG"), None)
        sha = next((f for f in members if f.algorithm == "SHA-256" and f.operation == "hash"), None)
        if rng is None or sha is None or not rng.block_bytes:
            continue
        tol = same_work_tolerance(rng, sha)
        cr, cs = cost_for_compare(rng), cost_for_compare(sha)
        ratio = cr / cs
        hashgen = math.ceil(rng.block_bytes / DRBG_OUT_BYTES)
        head = (f"RNG {fmt(cr)} {per_unit(rng)} ({rng.text} {rng.unit}) vs the same build's SHA-256 {fmt(cs)} "
                f"{per_unit(sha)} ({sha.text} {sha.unit}): ratio {ratio:.2f}; Hash_DRBG (SP 800-90A §10.1.1.4) ")
        if sha.implementation != "software":
            low, high = drbg_peripheral_ratio_bounds(rng.block_bytes, sha.block_bytes or rng.block_bytes)
            message = (f"{head}makes {hashgen} + 1 SHA-256 calls of one or two blocks per {rng.block_bytes}-byte "
                       f"request; on the HASH peripheral each costs "
                       f"at least 1/{(sha.block_bytes or 1024) // 64} of a {sha.block_bytes}-byte hash call (a fixed "
                       f"cost plus one per block): expected at least {low:.3f} (tolerance {tol:.1%}; no upper bound: the "
                       "DRBG's own arithmetic runs on the CPU, which the peripheral's hash figure does not measure)")
        else:
            low, high = drbg_hash_ratio_bounds(rng.block_bytes)
            message = (f"{head}needs {hashgen} + {DRBG_FINAL_COMPRESSIONS} SHA-256 compressions per "
                       f"{rng.block_bytes}-byte request where hashing it needs {rng.block_bytes // SHA256_BLOCK}, and "
                       "each of its SHA-256 calls costs less than one more compression: expected "
                       f"{low:.3f}..{high:.3f} (tolerance {tol:.1%})")
        ok = low / (1 + tol) <= ratio <= high * (1 + tol)
        if not ok:
            side = "more" if ratio > high else "less"
            message += (f"; the RNG costs {side} than Hash_DRBG over this build's SHA-256 can: a different RNG "
                        "path, or a figure that does not measure what its label says")
        # The RNG is judged against its build's SHA-256, not the other way round.
        out.append((rng.id, Finding("drbg-vs-hash", "consistent" if ok else "suspicious", message)))
    return out


def rule_gmac_vs_gcm(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """GMAC against the same section's software AES-128-GCM encryption (and CBC, for the cipher);
    in a hardware section, :func:`rule_gmac_vs_gcm_hardware`."""
    return _gmac_vs_gcm_software(figures) + rule_gmac_vs_gcm_hardware(figures)


def rule_gmac_vs_gcm_hardware(figures: list[Figure]) -> Result:
    """GMAC against the same section's AES-128-GCM on the AES peripheral: never slower when the
    peripheral computes GHASH; slower only on the driver's documented software-GHASH path for a
    zero-length payload (invariants.GMAC_SOFTWARE_GHASH), and then it costs at least the software
    GHASH of the same library on the same part (its software GMAC figure: GHASH of the same bytes,
    with one block cipher call less than the hardware path's), less the repeatability, and at most
    the bound of invariants.gmac_on_software_ghash; with no software GMAC it is untested on that side."""
    from refbench.sanity.invariants import gmac_on_software_ghash

    out: Result = []
    values = value_figures(figures)
    for members in group_by(values, lambda f: (f.source, f.section, f.library, f.metric)).values():
        gmac = next((f for f in members if f.algorithm == "GMAC" and f.implementation == "hardware"), None)
        gcm = next((f for f in members if f.algorithm == "AES-128-GCM" and f.operation == "encrypt"
                    and f.implementation == "hardware"), None)
        if gmac is None or gcm is None:
            continue
        cm, cg = cost_for_compare(gmac), cost_for_compare(gcm)
        tol = same_work_tolerance(gmac, gcm)
        head = (f"GMAC {fmt(cm)} {per_unit(gmac)} ({gmac.text} {gmac.unit}) vs AES-128-GCM encryption {fmt(cg)} "
                f"({gcm.text} {gcm.unit}), both on the {', '.join(gcm.hw)} peripheral")
        if cm <= cg * (1 + tol):
            out.append((gmac.id, Finding("gmac-vs-gcm", "consistent", (
                f"{head}: GMAC is GCM without the CTR encryption (SP 800-38D §3), never slower when the peripheral "
                f"computes GHASH (tolerance {tol:.1%})"))))
            continue
        software = [f for f in values if f.algorithm == "GMAC" and f.implementation == "software"
                    and (f.library, f.part, f.metric) == (gmac.library, gmac.part, gmac.metric)]
        ref = min(software, key=lambda f: abs(math.log(cm / cost_for_compare(f))), default=None)
        verdict, why, tests = gmac_on_software_ghash(gmac, ref, gcm)
        message = f"{head}: GMAC is {cm / cg:.2f}x GCM; {why}"
        if verdict == "explained":
            cr = cost_for_compare(ref)
            t = same_work_tolerance(gmac, ref)
            message += (f"; and at least the software GMAC ('{ref.section}', {fmt(cr)}) less the tolerance: "
                        f"{cm / cr:.2f}x it (at least 1/{1 + t:.3f}: the same GHASH plus the peripheral's set-up)")
            if cm < cr / (1 + t):
                verdict = "suspicious"
                message += ": faster than the software GHASH it must run, yet slower than GCM: neither path"
        out.append((gmac.id, Finding("gmac-vs-gcm", verdict, message, tests=tests)))
    return out


def _gmac_vs_gcm_software(figures: list[Figure]) -> Result:
    out: Result = []
    sections = group_by([f for f in value_figures(figures) if f.implementation == "software"],
                        lambda f: (f.source, f.section, f.library, f.metric))
    for members in sections.values():
        gmac = next((f for f in members if f.algorithm == "GMAC"), None)
        gcm = next((f for f in members if f.algorithm == "AES-128-GCM" and f.operation == "encrypt"
                    and f.mode == "GCM"), None)
        if gmac is None or gcm is None:
            continue
        cbc = next((f for f in members if f.algorithm == "AES-128-CBC" and f.operation == "encrypt"), None)
        cm, cg = cost_for_compare(gmac), cost_for_compare(gcm)
        tol = same_work_tolerance(gmac, gcm)
        verdict = "consistent" if cm <= cg * (1 + tol) else "suspicious"
        message = (f"GMAC {fmt(cm)} {per_unit(gmac)} ({gmac.text} {gmac.unit}) vs AES-128-GCM encryption {fmt(cg)} "
                   f"{per_unit(gcm)} ({gcm.text} {gcm.unit}): GMAC is GCM without the CTR encryption (SP 800-38D "
                   f"§3), so never slower (tolerance {tol:.1%})")
        if cbc is not None and verdict == "consistent":
            cc = cost_for_compare(cbc)
            ghash = cg - cc
            # Each of the three printed figures repeats within SAME_WORK_TOLERANCE: the difference
            # GCM - CBC carries the absolute error of both.
            slack = same_work_tolerance(gcm) * cg + same_work_tolerance(cbc) * cc + same_work_tolerance(gmac) * cm
            inside = abs(cm - ghash) <= slack
            message += (f"; GCM minus AES-128-CBC ({fmt(cc)} {per_unit(cbc)}, the same block cipher per 16 bytes) "
                        f"leaves {fmt(ghash)} {per_unit(gcm)} of GHASH, GMAC is {fmt(cm)} (allowed +/- {fmt(slack)}: "
                        "the repeatability of the three figures)")
            if not inside:
                verdict = "suspicious"
                message += ": GMAC does not cost what GCM's GHASH costs in the same build"
        # GMAC is judged against its build's GCM (and CBC), not the other way round.
        out.append((gmac.id, Finding("gmac-vs-gcm", verdict, message)))
    return out


def rule_drbg_across_sections(figures: list[Figure], parts: dict[str, Part]) -> Result:
    """``drbg-across-sections``: two sections of one part and library version whose SHA-256 runs
    on the same code path (the same claim, :mod:`refbench.sanity.claims`). Their DRBGs are that
    SHA-256's calls plus bookkeeping (SP 800-90A §10.1.1.4): the calls scale between the builds as
    their SHA-256 figures do (ratio h), the bookkeeping as nothing (1), so the DRBG ratio lies
    between 1 and h (with both pairs' repeatability). A page note about the DRBG in scope is quoted
    beside the numbers."""
    from refbench.sanity.claims import claims_of, statements_for

    out: Result = []
    wolf = [f for f in value_figures(figures) if f.library == "wolfSSL" and f.metric == "throughput"]
    sections = group_by(wolf, lambda f: (f.source, f.section))
    pairs = []
    for members in sections.values():
        rng = next((f for f in members if f.algorithm == "RNG"), None)
        sha = next((f for f in members if f.algorithm == "SHA-256" and f.operation == "hash"), None)
        if rng is not None and sha is not None:
            pairs.append((rng, sha))
    for (ra, sa), (rb, sb) in itertools.combinations(pairs, 2):
        if (ra.source, ra.part, ra.version) != (rb.source, rb.part, rb.version) or claims_of(sa) != claims_of(sb):
            continue
        h = cost_for_compare(sa) / cost_for_compare(sb)
        d = cost_for_compare(ra) / cost_for_compare(rb)
        tol = same_work_tolerance(ra, rb) + same_work_tolerance(sa, sb)
        low, high = min(1.0, h) / (1 + tol), max(1.0, h) * (1 + tol)
        ok = low <= d <= high
        notes = [st.text() for st in {*statements_for(ra), *statements_for(rb)} if "DRBG" in st.note.quote]
        message = (f"RNG '{ra.section}' {ra.text} {ra.unit} vs '{rb.section}' {rb.text} {rb.unit}: ratio {d:.2f} "
                   f"(per byte); their SHA-256 ({claims_of(sa).describe()} in both) {sa.text} {sa.unit} vs {sb.text} "
                   f"{sb.unit}: ratio {h:.2f}. Hash_DRBG is SHA-256 calls plus bookkeeping, so its ratio lies between "
                   f"1 and the hash's: expected {low:.2f}..{high:.2f} (tolerance {tol:.1%} for both pairs)")
        if not ok:
            message += ": the two builds differ in the DRBG itself, not in its hash"
        if notes:
            message += "; " + "; ".join(notes)
        finding = Finding("drbg-across-sections", "consistent" if ok else "suspicious", message)
        out += [(ra.id, finding), (rb.id, finding)]
    return out
