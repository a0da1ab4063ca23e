"""What a page claims ran, per figure, as statements the rules test.

A section of a page states, for its build, which peripherals it drives (the hardware engine), which
big-number library its public-key code uses (the math library) and which assembly it was built
with (the assembly family); a page note (:mod:`refbench.published.notes`) adds what the page says
about its own figures (a note with ``operations`` names the operations a peripheral accelerates; none
does today: the page's "Only the ECC sign and verify are currently being accelerated by PKA." is
contradicted by wolfSSL's source and is quoted by the peripheral rule instead, notes.toml).
:func:`claims_of` gives, for one figure, the claim that applies to *its* algorithm and operation:

* ``engine``: the peripheral the figure's row says computed it (its ``hw`` without the RNG, which
  only seeds), or ``None`` for software; a note in scope naming the operations a peripheral
  accelerates overrides the section for the other operations (they ran in software, and the
  claim says so, quoting the note);
* ``math``: the big-number library, for public-key algorithms only (symmetric code does not use it);
* ``asm``: the assembly family, for symmetric algorithms only (the public-key assembly is part of
  the math claim).

Two figures whose claims differ claimed different code for the same work; :func:`Claims.differs`
says in what. Notes scoped to another heading of the page may be cited as evidence elsewhere:
:func:`page_statements` gives every note of a page with where it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from refbench.published.model import Figure
from refbench.published.notes import Note, load_notes

#: Algorithms whose code uses the big-number (math) library: the public-key families of the pages.
PUBLIC_KEY_PREFIXES = ("RSA", "DH", "DSA", "ECC", "ECDH", "ECDSA", "EC-", "X25519", "X448", "Ed25519", "Ed448",
                       "SM2")


def is_public_key(f: Figure) -> bool:
    """True for a public-key figure (RSA, DH, DSA, ECC, X25519/X448, EdDSA, SM2)."""
    return f.algorithm.startswith(PUBLIC_KEY_PREFIXES)


@dataclass(frozen=True)
class Statement:
    """A page note as a statement: its quote, where the page says it, and what it means."""

    note: Note

    @property
    def where(self) -> str:
        return f"{self.note.source}, notes.toml {self.note.id}"

    def text(self) -> str:
        return f"the page says '{self.note.quote}' ({self.where}): {self.note.meaning}"


@dataclass(frozen=True)
class Claims:
    """What the page claims computed one figure (see the module doc)."""

    engine: str | None
    math: str | None
    asm: str | None
    #: the notes in the figure's scope that decided the claim (quoted in findings; not part of what
    #: is claimed: two figures with the same engine, math and assembly claim the same code)
    statements: tuple[Statement, ...] = field(default=(), compare=False)

    def describe(self) -> str:
        parts = [f"the {self.engine}" if self.engine else "software"]
        if self.math:
            parts.append(self.math)
        if self.asm:
            parts.append(self.asm)
        return ", ".join(parts)

    def differs(self, other: Claims) -> list[str]:
        """What two claims disagree on: "engine", "math", "asm" (empty: the same code was claimed)."""
        return [name for name in ("engine", "math", "asm") if getattr(self, name) != getattr(other, name)]


@cache
def _notes() -> tuple[Note, ...]:
    return load_notes()


def page_statements(source: str) -> list[Statement]:
    """Every note of page ``source`` as a statement (any heading)."""
    return [Statement(n) for n in _notes() if n.source == source]


def statements_for(f: Figure, notes: tuple[Note, ...] | None = None) -> list[Statement]:
    """The notes (the pages' notes.toml unless ``notes`` is given) whose scope holds figure ``f``."""
    return [Statement(n) for n in (_notes() if notes is None else notes) if n.covers(f)]


def _math_family(math: str | None, asm: str | None) -> str | None:
    """The math library a claim names, without its build details ("SP math, Cortex-M assembly
    (small)" and "SP math, Cortex-M assembly" are one family: the small build is the same code
    with fewer precomputed points); a build without any assembly (``WOLFSSL_NO_ASM``) is another
    code path of the same library (its C multiplications replace the inline assembly)."""
    if math is None:
        return None
    family = math.split(" (")[0] if "assembly" in math else math
    return f"{family}, no assembly" if asm and "NO_ASM" in asm else family


def asm_applies(f: Figure) -> bool:
    """True when the page's assembly claim covers the code of figure ``f``: the build model decides
    (:meth:`refbench.sanity.builds.Build.assembly_covers`, ``builds.toml`` ``asm``), for the kernel
    families that compute ``f``'s operation (:func:`refbench.sanity.workloads.operations_for`); a
    figure no kernel computes is covered by no claim."""
    from refbench.sanity.builds import build_of
    from refbench.sanity.workloads import kernel_target, operations_for

    target, _ = kernel_target(f)
    if target is None:
        return False
    build = build_of(f)
    return any(build.assembly_covers(kernel) for kernel in {k for k, _, _ in operations_for(target.reference)})


def claims_of(f: Figure, notes: tuple[Note, ...] | None = None) -> Claims:
    """The claim for figure ``f``'s algorithm and operation (see the module doc), read with the pages'
    notes (refbench/published/notes.toml) or with ``notes``."""
    engine = next((p for p in f.hw if p != "RNG"), None) if f.implementation == "hardware" else None
    used: list[Statement] = []
    for statement in statements_for(f, notes):
        note = statement.note
        if not note.operations or not is_public_key(f):
            continue
        if engine == note.hardware and f.operation not in note.operations:
            engine = None  # the note says this operation does not run on that peripheral
            used.append(statement)
        elif engine is None:
            used.append(statement)  # the note confirms software, or says this operation used the peripheral
    public = is_public_key(f)
    # symmetric code: the assembly family when the claim covers the algorithm ("no assembly" is no claim)
    asm = f.asm if not public and f.asm and "NO_ASM" not in f.asm and asm_applies(f) else None
    # public-key code: the math library, unless a peripheral computes the operation
    math = _math_family(f.math, f.asm) if public and engine is None else None
    return Claims(engine, math, asm, tuple(used))


def section_claims(figures: list[Figure], source: str, section: str) -> dict[tuple[str, str], Claims]:
    """One section's claims: (algorithm, operation) -> the claim for it (:func:`claims_of`)."""
    return {(f.algorithm, f.operation): claims_of(f) for f in figures if (f.source, f.section) == (source, section)}
