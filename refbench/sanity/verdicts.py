"""Verdicts, findings and the per-figure judgement that combines them.

A :class:`Finding` is one rule's verdict with a message a reader can check by hand, and says what
it tested (:data:`TESTS`): the figure's *value* (an invariant, another figure, the emulated kernels,
the peripheral's documented time), only the *arithmetic* of its row (amount = rate x time, the
printed average against the printed count), or only its *context* (the stated clock, the claimed
peripheral, against the part). A finding about a whole published section (its clock above the
part maximum, the section-clock rule's section clock) carries ``scope="section"``: the report prints it once with
its figures listed.

A figure's verdict is the worst of its findings, except that a figure whose value no rule tested
is ``untested`` (never ``consistent``): the arithmetic of its row may agree and its section's
clock may be within the part's range, but nothing said whether the number itself is plausible.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from refbench.published.model import Figure
from refbench.published.normalise import Normalised

#: What a rule can say about one figure, mildest first.
FindingVerdict = Literal["consistent", "explained", "suspicious", "inconsistent"]
FINDING_VERDICTS: tuple[FindingVerdict, ...] = ("consistent", "explained", "suspicious", "inconsistent")
#: A figure's verdict: a finding's, or ``untested`` when no rule tested its value.
Verdict = Literal["untested", "consistent", "explained", "suspicious", "inconsistent"]
VERDICTS: tuple[Verdict, ...] = ("untested", *FINDING_VERDICTS)
_SEVERITY = {v: k for k, v in enumerate(FINDING_VERDICTS)}

#: What a finding tested (see the module doc).
Tests = Literal["value", "bound", "arithmetic", "context"]
TESTS: dict[Tests, str] = {
    "value": "the published value, against an invariant, another figure, the emulated kernels or a documented time",
    "bound": ("one side of the published value only: the figure lies on the side of its prediction no rule bounds "
              "(a closed library, a claimed assembly path, a lower-bound memory path), so its value is untested"),
    "arithmetic": "only the row's own numbers against each other (the value's plausibility is not tested)",
    "context": "only the section's stated clock or claimed peripherals against the part",
}
#: Rules that check a row's printed numbers against each other, and rules that check a figure's
#: context; every other rule tests the value.
ARITHMETIC_RULES = frozenset({"arithmetic-rate", "arithmetic-block-count", "arithmetic-ops", "arithmetic-cycles-time",
                              "arithmetic-cycles-rate"})
CONTEXT_RULES = frozenset({"board-clock", "board-peripheral"})
#: A finding about one figure (or a pair), or about a whole published section.
Scope = Literal["figure", "section"]


def tests_of(rule: str) -> Tests:
    """What findings of ``rule`` test, unless a finding states it."""
    if rule in ARITHMETIC_RULES:
        return "arithmetic"
    if rule in CONTEXT_RULES:
        return "context"
    return "value"


@dataclass(frozen=True)
class Finding:
    """One rule's verdict on one figure (or on a whole section, ``scope="section"``), with a
    message a reader can check by hand and what it tested (default: :func:`tests_of` the rule)."""

    rule: str
    verdict: FindingVerdict
    message: str
    tests: Tests = None  # type: ignore[assignment]  # filled from the rule in __post_init__
    scope: Scope = "figure"

    def __post_init__(self) -> None:
        if self.verdict not in _SEVERITY:
            raise ValueError(f"Invalid verdict ({self.verdict!r}) of a {self.rule!r} finding; accepted: "
                             f"{', '.join(FINDING_VERDICTS)}")
        if self.tests is None:
            object.__setattr__(self, "tests", tests_of(self.rule))
        if self.tests not in TESTS:
            raise ValueError(f"Invalid tests ({self.tests!r}) of a {self.rule!r} finding; accepted: {', '.join(TESTS)}")
        if self.scope not in ("figure", "section"):
            raise ValueError(f"Invalid scope ({self.scope!r}) of a {self.rule!r} finding; accepted: figure, section")

    def as_text(self) -> str:
        return f"[{self.rule}] {self.verdict}: {self.message}"

    def as_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "verdict": self.verdict, "tests": self.tests, "scope": self.scope,
                "message": self.message}


def worst(verdicts: list[FindingVerdict]) -> FindingVerdict:
    return max(verdicts, key=_SEVERITY.__getitem__) if verdicts else "consistent"


def severity(finding: Finding) -> int:
    """0 for consistent .. 3 for inconsistent."""
    return _SEVERITY[finding.verdict]


@dataclass
class Judgement:
    """A figure, its normalised value and every finding about it."""

    figure: Figure
    normalised: Normalised
    findings: list[Finding] = field(default_factory=list)
    #: the emulator rule's status for the figure ("" when it had none) and, when it ran no kernel, why
    emulation: str = ""
    not_emulated: str = ""

    @property
    def tested(self) -> bool:
        """True when at least one rule tested the value (not only the row's arithmetic or its context)."""
        return any(f.tests == "value" for f in self.findings)

    @property
    def verdict(self) -> Verdict:
        verdict = worst([f.verdict for f in self.findings])
        if not self.tested and verdict in ("consistent", "explained"):
            return "untested"
        return verdict

    @property
    def ordered_findings(self) -> list[Finding]:
        """The findings, most severe first (stable within a verdict)."""
        return sorted(self.findings, key=lambda f: -_SEVERITY[f.verdict])

    @property
    def reasons(self) -> list[str]:
        reasons = [f.as_text() for f in self.ordered_findings]
        if not self.tested:
            reasons.append(untested_reason(self.figure, self.findings, self.emulation, self.not_emulated))
        return reasons

    def as_json(self) -> dict[str, Any]:
        f = self.figure
        n = self.normalised
        return {
            "id": f.id,
            "source": f.source,
            "section": f.section,
            "row": f.row,
            "board": f.board,
            "part": f.part,
            "core": f.core,
            "clock_mhz": f.clock_mhz,
            "library": f.library,
            "version": f.version,
            "config": f.config,
            "implementation": f.implementation,
            "hw": list(f.hw),
            "variant": f.variant,
            "algorithm": f.algorithm,
            "operation": f.operation,
            "message_bytes": f.message_bytes,
            "chunk_bytes": f.chunk_bytes,
            "metric": f.metric,
            "published": f.value,
            "published_text": f.text,
            "unit": f.unit,
            "cycles_per_byte": n.cycles_per_byte,
            "cycles_per_op": n.cycles_per_op,
            "verdict": self.verdict,
            "tested": self.tested,
            "reasons": self.reasons,
        }


def untested_reason(figure: Figure, findings: list[Finding] = (), emulation: str = "", not_emulated: str = "") -> str:
    """Why no rule tested ``figure``'s value, and what was checked instead (``emulation``: the emulator
    rule's status for it, "" when it had none; ``not_emulated``: why it ran no kernel, said in place
    of "no kernel computes it", which is true only when the emulator rule says so)."""
    if figure.is_footprint:
        why = "no other figure of this page constrains this footprint cell"
    elif figure.implementation == "hardware":
        why = ("no documented processing time of the peripheral applies to it and no software figure of the same "
               "work is its partner")
    elif figure.library == "CycloneCRYPTO":
        why = ("the page gives no counts or times to cross-check it, no kernel computes it, and no invariant pairs it "
               "with another figure (no key-size, mode, hardware/software or scaling partner)")
    elif emulation == "emulated":
        bound = any(f.rule == "emulator" and f.tests == "bound" for f in findings)
        why = (f"its kernels were emulated but {'bound one side of it only' if bound else 'gave no verdict on it'}, "
               "and no invariant or cross-board partner exists for it on the page")
    elif not_emulated:
        why = f"{not_emulated}; and no invariant or cross-board partner exists for it on the page"
    else:
        why = "no kernel computes it, and no invariant or cross-board partner exists for it on the page"
    checked = sorted({f.tests for f in findings})
    words = {"arithmetic": "the row's printed numbers against each other", "context": "the stated clock or claimed "
             "peripherals against the part", "bound": "one side of the value (the side it lies on is not bounded)"}
    also = f"; checked instead: {' and '.join(words[t] for t in checked if t in words)}" if checked else ""
    return f"[untested] no rule tested this value: {why}{also}"

