"""The build that ran: for one published figure, the library, version, compiler and options its
section states, each kernel family's code path in that build, the assembly the page claims, and
the memory configuration the board ran in -- each with where it comes from.

One module owns this model; every rule asks it (:func:`build_of`). Its sources, in order:

1. what the page states (the section's build options, e.g. the GMAC row's "GMAC Small",
   :func:`refbench.sanity.libraries.stated_options`; its cache statement; its assembly claim);
2. the vendor configuration template the page's tool starts from (``builds.toml`` ``template``:
   wolfSSL's STM32Cube ``default_conf.ftl`` for a build made with STM32CubeIDE);
3. the library's documented default for that version (``libraries.toml`` ``default`` with its
   ``since`` versions) or the library's own code shape for families without options
   (``builds.toml`` ``paths``);
4. for the memory configuration, what the library's own example project for the board leaves
   (``builds.toml`` ``<library>.memory.<board>``), else what the part's STM32Cube start-up code
   leaves (``builds.toml`` ``memory``).

Each answer is a :class:`Cited` value (the value, its source, and how it was established). A code
path that nothing establishes is ``unknown``: the prediction then spans the variants the library
ships and says so. Kernel families covered by a page's assembly claim, and a closed library's
code, have no faithful kernel: their C path is returned with ``how`` saying so, and the prediction
leaves the fast side untested -- unless the catalogue has a kernel written in the shape of that
library's assembly for the family (``builds.toml`` ``asm_kernels``): that kernel is then the path
(``how`` "assembly kernel"), and no other figure runs it (:func:`assembly_kernel_variants`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, Literal

from cortexm_emu.datafile import error_at, read_toml
from refbench.published.library_units import release
from refbench.published.model import Figure
from refbench.sanity.libraries import LIBRARIES, Library, StatedOptions, library_of
from refbench.sanity.memory_configs import ConfigKind
from refbench.sanity.pubkey_cost import SEPARATE_VERIFY, family_of, kind_name

BUILDS_PATH = Path(__file__).with_name("builds.toml")
CONFIG_KINDS = frozenset(ConfigKind.__args__)  # type: ignore[attr-defined]

How = Literal["stated by the page", "vendor template", "library default", "library code", "assembly",
              "assembly kernel", "closed library", "unknown", "only variant"]


@dataclass(frozen=True)
class Cited:
    """A fact of the build, where it comes from, and how it was established."""

    value: str
    source: str
    how: str

    def describe(self) -> str:
        return f"{self.value} ({self.how}: {self.source})"


@dataclass(frozen=True)
class CodePath:
    """One kernel family's code in the build: the catalogue variant with that code shape (None:
    unknown), the library option it stands for, and where that comes from."""

    kernel: str
    variant: str | None
    option: str
    source: str
    how: How

    @property
    def faithful(self) -> bool:
        """True when the variant is the code that ran (not assembly, not a closed library, known)."""
        return self.variant is not None and self.how not in ("assembly", "closed library", "unknown")

    def describe(self) -> str:
        name = f"{self.kernel}/{self.variant}" if self.variant else f"{self.kernel}: variant unknown"
        option = f" = {self.option}" if self.option else ""
        return f"{name}{option} ({self.how}: {self.source})"


@dataclass(frozen=True)
class MemoryChoice:
    """The memory configuration kind (:data:`refbench.sanity.memory_configs.ConfigKind`) the board
    ran in, where that comes from, and whether the page stated it."""

    kind: str
    source: str
    stated: bool
    origin: str = "vendor start-up default"  # where an unstated choice comes from

    def describe(self) -> str:
        return f"{self.kind} ({'stated by the page' if self.stated else self.origin}: {self.source})"


@dataclass(frozen=True)
class Template:
    tool: str
    name: str
    source: str
    options: dict[str, str]


@dataclass(frozen=True)
class LibraryBuilds:
    """builds.toml's entry of one library."""

    key: str
    library: str
    template: Template | None
    paths: dict[str, tuple[str, str]]  # kernel -> (variant, source)
    asm: dict[str, tuple[str, ...]] = field(default_factory=dict)  # claim word -> kernel families
    #: kernel family -> (variant, source): a catalogue kernel written in the shape of the library's
    #: assembly for that family, the code that ran when the page's assembly claim covers it
    asm_kernels: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: board profile -> (memory configuration kind, source): what the library's own example
    #: projects for that board leave, used for its figures instead of the board's default
    memory: dict[str, tuple[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class BuildsData:
    libraries: dict[str, LibraryBuilds]
    memory: dict[str, tuple[str, str]]  # board profile -> (kind, source)
    model_error_source: str  # the per-core numbers are computed from cortexm_emu.validate at run time
    model_error_reason: str  # what that error measures (a transcription check, not held out)
    run_to_run: tuple[str, tuple[str, ...]]  # (source file, the sections that ran the same build)
    pubkey: tuple[PubkeyRule, ...] = ()


@dataclass(frozen=True)
class PubkeyRule:
    """builds.toml ``[[pubkey]]``: the field arithmetic and base-point method a library's build runs."""

    library: str
    match: str
    kind: str
    base: str  # "comb", "generic" or "" (not decided)
    source: str
    variants: tuple[str, ...] = ()  # the kernel variants the build compiles to (empty: not narrowed)
    variants_source: str = ""
    exponent: str = ""  # "short": DH private keys shorter than the modulus ("" not decided)
    slow_side: str = ""  # why no kernel bounds the build's bignum code from above ("" when one does)
    curve_kinds: tuple[tuple[str, str], ...] = ()  # (curve, kind) pairs overriding ``kind`` for those curves
    curve_kinds_source: str = ""
    verify: str = ""  # "separate": ECDSA verify multiplies u1 G and u2 Q separately ("" not decided)
    comb_bits: tuple[int, ...] = ()  # the base-point comb widths the build's tables have (empty: not decided)
    windows: tuple[int, ...] = ()  # the fixed-window widths of its exponentiations (empty: not decided)
    mont_variants: tuple[str, ...] = ()  # RSA/DH/DSA: the variants its run-time-length Montgomery code compiles to
    mont_variants_source: str = ""
    mont_lower_variants: tuple[str, ...] = ()  # ... and those that bound that code from below (the fast side)
    options_source: str = ""  # where comb_bits and windows come from
    since: str = ""  # the first release the rule describes ("" any release); an earlier release reads on


@dataclass(frozen=True)
class PubkeyPath:
    """The public-key recipes and kernel variants a figure's build ran (a subset of the plan's),
    where that comes from, and why a side of its prediction cannot be bounded ("" when it can)."""

    recipes: tuple[str, ...]
    variants: tuple[str, ...]
    source: str
    open_fast: str = ""
    open_slow: str = ""
    lower_variants: tuple[str, ...] = ()  # variants whose composed cost bounds the build's code from below


def _str(path: Path, where: str, table: dict[str, Any], name: str) -> str:
    value = table.get(name)
    if not isinstance(value, str) or not value:
        raise error_at(path, f"{where}.{name}", f"expected a non-empty string, got {value!r}")
    return value


def _memory(path: Path, where: tuple[str, ...], table: Any) -> dict[str, tuple[str, str]]:
    """A ``memory`` table: board profile -> (configuration kind, source); a kind that is not a
    :data:`refbench.sanity.memory_configs.ConfigKind` is named with its field."""
    if not isinstance(table, dict):
        raise error_at(path, where, "expected a table of board profiles")
    memory = {}
    for board, spec in table.items():
        name = ".".join((*where, board))
        if not isinstance(spec, dict):
            raise error_at(path, (*where, board), "expected a table with kind and source")
        kind = _str(path, name, spec, "kind")
        if kind not in CONFIG_KINDS:
            raise error_at(path, (*where, board, "kind"), f"expected one of {sorted(CONFIG_KINDS)}, got {kind!r}")
        memory[board] = (kind, _str(path, name, spec, "source"))
    return memory


def _variant_names(path: Path, i: int, spec: dict[str, Any], key: str) -> tuple[str, ...]:
    """``[[pubkey]]`` number ``i``'s list of bignum variant names under ``key`` (empty when absent)."""
    value = spec.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise error_at(path, ("pubkey", i, key), "expected a list of bignum variant names")
    return tuple(value)


def load_builds(path: Path = BUILDS_PATH) -> BuildsData:
    """``builds.toml``; a missing or mistyped field raises DataFileError naming the file, line and field."""
    _, data = read_toml(path, kind="builds file")
    memory = _memory(path, ("memory",), data.pop("memory", {}))
    errors = data.pop("model_error", {})
    error_source = _str(path, "model_error", errors, "source")
    error_reason = _str(path, "model_error", errors, "reason")
    for name in sorted(set(errors) - {"source", "reason"}):
        raise error_at(path, ("model_error", name), "unknown field (the per-core error is computed from "
                       "cortexm_emu.validate at run time, not written here)")
    rules = []
    for i, spec in enumerate(data.pop("pubkey", [])):
        where = f"pubkey[{i}]"
        base = spec.get("base", "")
        if base not in ("comb", "generic", ""):
            raise error_at(path, ("pubkey", i, "base"), f"expected 'comb', 'generic' or '', got {base!r}")
        match = spec.get("match", "")
        if not isinstance(match, str):
            raise error_at(path, ("pubkey", i, "match"), "expected a string")
        variants = _variant_names(path, i, spec, "variants")
        rules.append(PubkeyRule(_str(path, where, spec, "library"), match, _str(path, where, spec, "kind"), base,
                                _str(path, where, spec, "source"), variants,
                                _str(path, where, spec, "variants_source") if variants else "",
                                spec.get("exponent", ""), spec.get("slow_side", "")))
        curve_kinds = spec.get("curve_kinds", {})
        if not isinstance(curve_kinds, dict) or not all(isinstance(k, str) for k in curve_kinds.values()):
            raise error_at(path, ("pubkey", i, "curve_kinds"), "expected a table of curve names to field kinds")
        verify = spec.get("verify", "")
        if verify not in ("separate", ""):
            raise error_at(path, ("pubkey", i, "verify"), f"expected 'separate' or '', got {verify!r}")
        rules[-1] = replace(rules[-1], curve_kinds=tuple(curve_kinds.items()), verify=verify,
                            curve_kinds_source=_str(path, where, spec, "curve_kinds_source") if curve_kinds else "")
        widths = {}
        for key in ("comb_bits", "windows"):
            value = spec.get(key, [])
            if not isinstance(value, list) or not all(isinstance(w, int) and w > 0 for w in value):
                raise error_at(path, ("pubkey", i, key), "expected a list of widths in bits")
            widths[key] = tuple(value)
        mont = _variant_names(path, i, spec, "mont_variants")
        rules[-1] = replace(rules[-1], **widths,
                            mont_variants=mont, mont_lower_variants=_variant_names(path, i, spec, "mont_lower_variants"),
                            mont_variants_source=_str(path, where, spec, "mont_variants_source") if mont else "",
                            options_source=(_str(path, where, spec, "options_source")
                                            if widths["comb_bits"] or widths["windows"] else ""))
        since = spec.get("since", "")
        if not isinstance(since, str) or (since and release(since) is None):
            raise error_at(path, ("pubkey", i, "since"), f"expected a release number such as '5.6.4', got {since!r}")
        rules[-1] = replace(rules[-1], since=since)
        if rules[-1].exponent not in ("short", ""):
            raise error_at(path, ("pubkey", i, "exponent"), f"expected 'short' or '', got {rules[-1].exponent!r}")
    repeat = data.pop("run_to_run", {})
    sections = repeat.get("sections")
    if not isinstance(sections, list) or len(sections) != 2 or not all(isinstance(x, str) for x in sections):
        raise error_at(path, ("run_to_run", "sections"), "expected the two section names that ran the same build")
    run_to_run = (_str(path, "run_to_run", repeat, "source"), tuple(sections))
    libraries: dict[str, LibraryBuilds] = {}
    for key, table in data.items():
        if not isinstance(table, dict):
            raise error_at(path, (key,), "expected a table")
        template = None
        if "template" in table:
            t = table["template"]
            options = t.get("options", {})
            if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
                raise error_at(path, (key, "template", "options"), "expected kernel family -> option name")
            template = Template(_str(path, f"{key}.template", t, "tool"), _str(path, f"{key}.template", t, "name"),
                                _str(path, f"{key}.template", t, "source"), dict(options))
        paths = {kernel: (_str(path, f"{key}.paths.{kernel}", spec, "variant"),
                          _str(path, f"{key}.paths.{kernel}", spec, "source"))
                 for kernel, spec in table.get("paths", {}).items()}
        asm = {}
        for word, kernels in table.get("asm", {}).items():
            if not isinstance(kernels, list) or not all(isinstance(k, str) for k in kernels):
                raise error_at(path, (key, "asm", word), "expected a list of kernel families")
            asm[word] = tuple(kernels)
        asm_kernels = {kernel: (_str(path, f"{key}.asm_kernels.{kernel}", spec, "variant"),
                                _str(path, f"{key}.asm_kernels.{kernel}", spec, "source"))
                       for kernel, spec in table.get("asm_kernels", {}).items()}
        libraries[key] = LibraryBuilds(key, _str(path, key, table, "library"), template, paths, asm, asm_kernels,
                                       _memory(path, (key, "memory"), table.get("memory", {})))
    return BuildsData(libraries, memory, error_source, error_reason, run_to_run, tuple(rules))


@cache
def builds_data() -> BuildsData:
    return load_builds()


def assembly_kernel_variants() -> frozenset[tuple[str, str]]:
    """(kernel family, variant) of every catalogue kernel written in the shape of a library's
    assembly (``builds.toml`` ``asm_kernels``): the code of a build whose page claims that
    assembly, no other library's option."""
    return frozenset(v for entry in builds_data().libraries.values() for v in
                     ((kernel, variant) for kernel, (variant, _) in entry.asm_kernels.items()))


def runs_variant(build: Build, kernel: str, variant: str) -> bool:
    """False for an assembly-shaped kernel (:func:`assembly_kernel_variants`) that is not
    ``build``'s code path for ``kernel``: a build whose page claims no such assembly never ran it."""
    return (kernel, variant) not in assembly_kernel_variants() or build.path(kernel).variant == variant


@dataclass(frozen=True)
class Build:
    """The build one figure ran: its section's statements and what the model derives from them."""

    figure: Figure
    library: Library | None
    entry: LibraryBuilds | None
    stated: dict[str, str]  # kernel family -> option the page names for this section

    @property
    def version(self) -> Cited:
        return Cited(self.figure.version, f"{self.figure.source}, section '{self.figure.section}'", "stated by the page")

    @property
    def compiler(self) -> Cited:
        f = self.figure
        return Cited(f"{f.compiler} {f.options}".strip(), f"{f.source}, section '{f.section}'", "stated by the page")

    @property
    def math(self) -> Cited | None:
        f = self.figure
        return Cited(f.math, f"{f.source}, section '{f.section}'", "stated by the page") if f.math else None

    @property
    def assembly(self) -> Cited | None:
        """The page's assembly claim, or None (a claim that says "none ..." is no claim)."""
        f = self.figure
        if not f.asm or f.asm.lower().startswith("none"):
            return None
        return Cited(f.asm, f"{f.source}, section '{f.section}'", "stated by the page")

    @property
    def template(self) -> Template | None:
        t = self.entry.template if self.entry else None
        return t if t is not None and t.tool.lower() in self.figure.compiler.lower() else None

    def assembly_covers(self, kernel: str) -> bool:
        """True when the page's assembly claim covers kernel family ``kernel`` (builds.toml ``asm``)."""
        claim = self.assembly
        if claim is None or self.entry is None:
            return False
        words = claim.value.replace("/", " ").replace(",", " ").replace("(", " ").replace(")", " ").split()
        return any(kernel in kernels for word, kernels in self.entry.asm.items() if word in words)

    def path(self, kernel: str, shipped: tuple[str, ...] = ()) -> CodePath:
        """The code path of kernel family ``kernel`` in this build; ``shipped``: the catalogue
        variants the library can be built with (a single one is the path when nothing else says)."""
        lib = self.library
        if lib is not None and lib.closed:
            return CodePath(kernel, None, "", f"{lib.name} is closed (libraries.toml): its code is not public",
                            "closed library")
        path = self._c_path(kernel, shipped)
        if self.assembly_covers(kernel):
            claim = self.assembly
            assert claim is not None
            if self.entry is not None and kernel in self.entry.asm_kernels:
                variant, source = self.entry.asm_kernels[kernel]
                return CodePath(kernel, variant, "", f"the page claims {claim.value}; {source}", "assembly kernel")
            return CodePath(kernel, path.variant, path.option,
                            f"the page claims {claim.value}; the library's C path would be {path.describe()}",
                            "assembly")
        return path

    def _c_path(self, kernel: str, shipped: tuple[str, ...]) -> CodePath:
        lib, f = self.library, self.figure
        spec = lib.kernels.get(kernel) if lib else None
        if spec is not None and lib is not None:
            available = spec.shipped(f.version)
            template = self.template
            if kernel in self.stated and self.stated[kernel] in available:
                option, how, source = self.stated[kernel], "stated by the page", f"{f.source}, section '{f.section}'"
            elif template is not None and template.options.get(kernel) in available:
                option, how, source = template.options[kernel], "vendor template", template.source
            elif spec.default in available:
                option, how, source = spec.default, "library default", spec.source
            else:
                return CodePath(kernel, None, "", f"{lib.name} {f.version} ships none of the documented defaults",
                                "unknown")
            return CodePath(kernel, available[option], f"{lib.name} {option}", source, how)  # type: ignore[arg-type]
        if self.entry is not None and kernel in self.entry.paths:
            variant, source = self.entry.paths[kernel]
            return CodePath(kernel, variant, "", source, "library code")
        if len(shipped) == 1:
            return CodePath(kernel, shipped[0], "", "the only catalogue variant of this kernel family", "only variant")
        name = lib.name if lib else (f.library or "the library")
        return CodePath(kernel, None, "", f"no documented code path of {name} for {kernel} is recorded "
                        "(libraries.toml, builds.toml)", "unknown")

    def memory(self, board: str) -> MemoryChoice | None:
        """The memory configuration kind the board ran in: the page's cache statement, else what the
        library's own example project for ``board`` leaves (builds.toml ``<library>.memory``), else
        the vendor start-up default of builds.toml for ``board``; None when none says."""
        f = self.figure
        said = (f.cache or "").lower()
        if said:
            off = any(w in said for w in ("cache off", "disabled", "caches off", "cache disabled"))
            on = any(w in said for w in (" on", "enabled"))
            if on and not off:
                return MemoryChoice("cache on", f"the page: '{f.cache}'", True)
            if off and not on:
                return MemoryChoice("cache off", f"the page: '{f.cache}'", True)
        if self.entry is not None and board in self.entry.memory:
            kind, source = self.entry.memory[board]
            return MemoryChoice(kind, source, False, f"{self.entry.library}'s example project")
        known = builds_data().memory.get(board)
        return MemoryChoice(known[0], known[1], False) if known else None


def slow_side(rule: PubkeyRule) -> str:
    """Why the slow side of a prediction by ``rule`` is open ("" when the kernels bound it)."""
    return f"no kernel models this bignum code from above: {rule.slow_side}" if rule.slow_side else ""


def pubkey_path(build: Build, recipes: tuple[str, ...], variants: tuple[str, ...],
                unbounded: str) -> PubkeyPath:
    """The one recipe set and the variants public-key figure ``build.figure`` ran, among the plan's
    ``recipes`` (names "<arithmetic>, <method>") and ``variants`` (those pubkey_costs.toml
    [[libraries]] lists for the page's math option, or the ones it names as the library's own shape,
    ``predict``); ``unbounded``: why the kernels are not the library's code (a closed library), ""
    when they are. A closed library's cost is not predicted from above (``open_slow``)."""
    f = build.figure
    if unbounded:
        return PubkeyPath(recipes, variants, unbounded, open_fast=unbounded,
                          open_slow=f"no faithful kernel: {unbounded}")
    math = (f.math or "").lower()
    version = release(f.version)
    rule = next((r for r in builds_data().pubkey
                 if f.library.lower().startswith(r.library.lower()) and r.match.lower() in math
                 and (not r.since or (version is not None and version >= (release(r.since) or ())))), None)
    if rule is None:
        return PubkeyPath(recipes, variants, f"no [[pubkey]] rule in builds.toml for {f.library} / {f.math!r}: "
                          "every recipe and variant of the plan")
    kind = dict(rule.curve_kinds).get(f.curve or "", rule.kind)
    kept = [r for r in recipes if r.split(", ")[0].lower() == kind_name(kind).lower()] or list(recipes)
    generic = [r for r in kept if "comb base point" not in r]
    combs = [r for r in kept if "comb base point" in r]
    if rule.base == "comb" and combs:
        kept = combs
    elif rule.base == "generic" and generic and combs:
        kept = generic
    if rule.verify == "separate":
        kept = [r for r in kept if SEPARATE_VERIFY in r] or kept
    if rule.comb_bits:
        kept = [r for r in kept if not (m := re.search(r"(\d+)-bit comb", r)) or int(m[1]) in rule.comb_bits] or kept
    if rule.windows:
        kept = [r for r in kept if not (m := re.search(r"(\d+)-bit fixed window", r)) or int(m[1]) in rule.windows] or kept
    if rule.exponent == "short" and f.key_bits:
        short = [r for r in kept if "-bit exponent" in r and f"{f.key_bits}-bit exponent" not in r]
        kept = short or kept
    said = (f"{kind} arithmetic" + (f" for {f.curve} ({rule.curve_kinds_source})" if kind != rule.kind else "")
            + (f", {rule.base} base-point multiplication" if rule.base else "")
            + (", verify with separate multiplications u1 G + u2 Q" if rule.verify else "")
            + (", DH private keys shorter than the modulus (DiscreteLogWorkFactor)" if rule.exponent else "")
            + (f" ({rule.options_source})" if rule.options_source else ""))
    narrowed = tuple(v for v in variants if v in rule.variants)
    if rule.mont_variants and family_of(f) in ("RSA", "DH", "DSA"):
        mont = tuple(v for v in variants if v in rule.mont_variants)
        if mont:
            return PubkeyPath(tuple(kept), mont, f"{said} (builds.toml [[pubkey]]: {rule.source}); bignum "
                              f"{', '.join(mont)} ({rule.mont_variants_source})", open_slow=slow_side(rule),
                              lower_variants=tuple(v for v in variants if v in rule.mont_lower_variants))
    slow = slow_side(rule)
    if narrowed:
        return PubkeyPath(tuple(kept), narrowed, f"{said} (builds.toml [[pubkey]]: {rule.source}); bignum "
                          f"{', '.join(narrowed)} ({rule.variants_source})", open_slow=slow)
    return PubkeyPath(tuple(kept), variants, f"{said} (builds.toml [[pubkey]]: {rule.source})", open_slow=slow)


def build_of(f: Figure, stated: StatedOptions | None = None) -> Build:
    """The build figure ``f`` ran (``stated``: the options each section's page names,
    :func:`refbench.sanity.libraries.stated_options`)."""
    lib = library_of(f, LIBRARIES)
    entry = next((e for e in builds_data().libraries.values() if f.library.startswith(e.library)), None)
    return Build(f, lib, entry, dict((stated or {}).get((f.source, f.section), {})))
