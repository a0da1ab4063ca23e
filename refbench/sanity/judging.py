"""Judge: every rule applied to the figures and the emulator rule's emulations (pure, no measuring).

:data:`RULES` lists the rules that need no emulator, in the order the report applies them
(the arithmetic and board rules from :mod:`refbench.sanity.rules`, the invariant rules from :mod:`refbench.sanity.invariants`,
d from :mod:`refbench.sanity.cross_board`). :func:`judge_figures` applies them to every figure
(the cross-board rule with the gap explainer over the emulations when the emulator is on), then adds each
emulated figure's ``emulator`` or ``peripheral`` finding and the section-clock rule's ``section-clock`` findings. (A
section whose figures fit another memory configuration together is the emulator rule's evidence now:
:func:`refbench.sanity.emulator_rule.section_shift`.)

The findings of :data:`SECTION_RULES` are about a whole published section (the stated clock
against the part maximum, the section-clock rule's section clock): they get ``scope="section"`` here, and the
report prints each once with its figures listed (:mod:`refbench.report.findings`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from refbench.published.model import Figure, Part
from refbench.published.normalise import normalise
from refbench.sanity import fingerprints, invariants, rules, same_build
from refbench.sanity.clock import name_in_emulator, section_clock
from refbench.sanity.cross_board import gap_explainer, rule_cross_board, rule_library_ratio
from refbench.sanity.emulation import Emulation
from refbench.sanity.verdicts import Finding, Judgement

#: Rules whose findings are about a whole published section rather than one figure.
SECTION_RULES = frozenset({"board-clock", "section-clock"})

Rule = Callable[[list[Figure], dict[str, Part]], list[tuple[str, Finding]]]

#: Rule name -> rule, in the order the report applies them; each rule's findings carry the
#: names the report prints (e.g. "arithmetic-cycles" gives arithmetic-cycles-time and -rate).
RULES: dict[str, Rule] = {
    "arithmetic-rate": rules.rule_wolfssl_rate,
    "arithmetic-block-count": rules.rule_wolfssl_block_count,
    "arithmetic-ops": rules.rule_wolfssl_ops,
    "arithmetic-cycles": rules.rule_cycles_time,
    "board-clock": rules.rule_board_clock,
    "board-peripheral": rules.rule_board_peripheral,
    "aes-key-size": invariants.rule_aes_key_size,
    "ctr-symmetry": invariants.rule_ctr_symmetry,
    "sha-truncation": invariants.rule_sha_truncation,
    "sha3-rate": invariants.rule_sha3_rate,
    "hmac-hash": invariants.rule_hmac_hash,
    "keygen-vs-agree": invariants.rule_keygen_vs_agree,
    "ecc-operations": invariants.rule_ecc_operations,
    "rsa": invariants.rule_rsa,
    "dsa-dh": invariants.rule_dsa_dh,
    "ecc-scaling": invariants.rule_ecc_scaling,
    "hardware-vs-software": invariants.rule_hw_vs_sw,
    "cmox-configurations": invariants.rule_cmox_configurations,
    "cmox-footprint-curves": invariants.rule_cmox_footprint_curves,
    "same-code-path": same_build.rule_same_code_path,
    "drbg-vs-hash": same_build.rule_drbg_vs_hash,
    "gmac-vs-gcm": same_build.rule_gmac_vs_gcm,
    "drbg-across-sections": same_build.rule_drbg_across_sections,
    "code-path": fingerprints.rule_code_path,
    "code-path-claim": fingerprints.rule_code_path_claim,
    "library-ratio": rule_library_ratio,  # given the emulations in judge_figures
    "cross-board": rule_cross_board,
}


def _scoped(finding: Finding) -> Finding:
    """``finding`` with ``scope="section"`` when its rule is about a whole section."""
    return replace(finding, scope="section") if finding.rule in SECTION_RULES else finding


def judge_figures(figures: list[Figure], parts: dict[str, Part], emulations: dict[str, Emulation],
                  emulator: bool = True) -> list[Judgement]:
    """One judgement per figure, in the figures' order. Every rule sees all ``figures`` (partners
    on other boards); ``emulations`` are the emulator rule's for the figures in the report's scope, and the cross-board rule
    explains a gap by emulation only when ``emulator`` is on and both figures have one."""
    judgements = {f.id: Judgement(f, normalise(f)) for f in figures}
    explain = gap_explainer(emulations) if emulator else None
    for rule in {**RULES, "cross-board": partial(rule_cross_board, explain_gap=explain),
                 "library-ratio": partial(rule_library_ratio, emulations=emulations if emulator else None)}.values():
        for figure_id, finding in rule(figures, parts):
            judgements[figure_id].findings.append(_scoped(finding))
    for figure_id, e in emulations.items():
        judgements[figure_id].emulation = e.status
        if e.status in ("not emulated", "not emulated yet"):
            judgements[figure_id].not_emulated = e.explanation
        if e.finding is not None:
            judgements[figure_id].findings.append(_scoped(e.finding))
    emulated = [f for f in figures if f.id in emulations]
    for figure_id, finding, clause in section_clock(emulated, parts, emulations):
        findings = judgements[figure_id].findings
        findings[:] = [name_in_emulator(x, clause) if x.rule == "emulator" else x for x in findings]
        findings.append(_scoped(finding))
    return [judgements[f.id] for f in figures]
