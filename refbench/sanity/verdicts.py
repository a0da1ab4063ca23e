"""Verdicts, findings and the per-figure judgement that combines them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from refbench.published.model import Figure
from refbench.published.normalise import Normalised

Verdict = Literal["consistent", "explained", "suspicious", "inconsistent"]
VERDICTS: tuple[Verdict, ...] = ("consistent", "explained", "suspicious", "inconsistent")
_SEVERITY = {v: k for k, v in enumerate(VERDICTS)}

#: rules that judge the figure's context (clock, peripherals) rather than its value
CONTEXT_RULES = frozenset({"board-clock", "board-peripheral"})


@dataclass(frozen=True)
class Finding:
    """One rule's verdict on one figure, with a message a reader can check by hand."""

    rule: str
    verdict: Verdict
    message: str

    def __post_init__(self) -> None:
        if self.verdict not in _SEVERITY:
            raise ValueError(f"Invalid verdict ({self.verdict!r}); accepted: {', '.join(VERDICTS)}")

    def as_text(self) -> str:
        return f"[{self.rule}] {self.verdict}: {self.message}"


def worst(verdicts: list[Verdict]) -> Verdict:
    return max(verdicts, key=_SEVERITY.__getitem__) if verdicts else "consistent"


@dataclass
class Judgement:
    """A figure, its normalised value and every finding about it."""

    figure: Figure
    normalised: Normalised
    findings: list[Finding] = field(default_factory=list)

    @property
    def judged(self) -> bool:
        """True when at least one rule judged the value (not only its context)."""
        return any(f.rule not in CONTEXT_RULES for f in self.findings)

    @property
    def verdict(self) -> Verdict:
        return worst([f.verdict for f in self.findings])

    @property
    def reasons(self) -> list[str]:
        reasons = [f.as_text() for f in sorted(self.findings, key=lambda f: -_SEVERITY[f.verdict])]
        if not self.judged:
            reasons.append(unjudged_reason(self.figure))
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
            "judged": self.judged,
            "reasons": self.reasons,
        }


def unjudged_reason(figure: Figure) -> str:
    if figure.is_footprint:
        why = "no other figure of this page constrains this footprint cell"
    elif figure.library == "CycloneCRYPTO":
        why = ("the page gives no counts or times to cross-check it and no invariant pairs it with another "
               "figure (no key-size, mode, hardware/software or scaling partner)")
    else:
        why = "no invariant or cross-board partner exists for it on the page"
    return f"[unjudged] no rule can judge this value: {why}"
