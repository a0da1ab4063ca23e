"""Plan: figure -> the library's workload -> kernel targets x memory configurations -> jobs.

Pure: nothing is measured here. For each figure, :func:`make_plan` either plans the emulation
(:class:`FigurePlan`: the kernel target from :mod:`refbench.sanity.workloads`, the board and
the clock it runs at, the memory configurations from :mod:`refbench.sanity.memory_configs`,
every catalogue variant that computes the operation) or says why no kernel runs for it
(:class:`Skipped`: a footprint, a hardware figure, the emulator rule switched off, no kernel, no board
profile, no timing model for the core). :meth:`Plan.jobs` lists every distinct measure job
once, so each measurement runs once per report whatever the number of figures sharing it.

A figure of a user's own input runs on the machine stated for it (``machines``, see
:class:`~refbench.sanity.context.StatedMachine`): its board profile in the configurations that
agree with the stated cache/prefetch, or a generic part built from the stated core, clock, wait
states, cache and prefetch (:func:`~refbench.sanity.memory_configs.generic_configurations`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from cortexm_emu.boards import Board, load_board
from cortexm_emu.timing import CORES as TIMED_CORES
from refbench.kernels.catalog import family
from refbench.measure import Job
from refbench.parts import PartProfile, load_part_profile
from refbench.published.model import Figure, Part
from refbench.sanity.builds import Build, build_of, runs_variant
from refbench.sanity.context import StatedMachine
from refbench.sanity.executor import MeasureJob
from refbench.sanity.libraries import StatedOptions, candidates, library_of, stated_options
from refbench.sanity.memory_configs import (
    MemoryConfig,
    configurations,
    flash_line_widths,
    generic_board,
    generic_configurations,
    stated_configurations,
)
from refbench.sanity.pubkey_plan import PubkeyPlan, is_pubkey, plan_pubkey
from refbench.sanity.workloads import KernelTarget, calls_for, kernel_target, operations_for

SkipStatus = Literal["not applicable", "hardware", "not emulated", "not emulated yet"]


@dataclass(frozen=True)
class Skipped:
    """A figure no kernel runs for, with its the emulator rule status and the reason (``profile``: its part
    file, with the crypto peripherals, for the peripheral rule of a hardware figure)."""

    figure: Figure
    status: SkipStatus
    explanation: str
    profile: PartProfile | None = None


@dataclass(frozen=True)
class FigurePlan:
    """The emulation of one figure: its target, on its board at ``clock_mhz`` (``clock_note`` says
    why when that is not the published clock), in every configuration, for every operation."""

    figure: Figure
    target: KernelTarget
    board: Board
    clock_mhz: float
    clock_note: str
    configs: tuple[MemoryConfig, ...]
    operations: tuple[tuple[str, str, str], ...]  # (kernel, variant, operation)
    #: the library option each variant stands for ("wolfSSL GCM_SMALL"), by (kernel, variant)
    options: tuple[tuple[tuple[str, str], str], ...] = ()
    #: True when the figure's library is closed (its code is not public: C variants do not bound it)
    closed_library: bool = False
    #: the build that ran (:mod:`refbench.sanity.builds`): code paths and memory configuration
    build: Build | None = None
    #: the part without a profile a user stated for the figure, in words ("" otherwise): no start-up
    #: default is known for it, so the prediction spans every configuration the statements allow
    stated_machine: str = ""

    def option(self, kernel: str, variant: str) -> str:
        """The library option ``kernel/variant`` stands for, or ''."""
        return dict(self.options).get((kernel, variant), "")

    def calls(self, kernel: str, variant: str, operation: str) -> list[Job]:
        """The calls whose cycles add up to the figure's work for one variant."""
        return calls_for(kernel, variant, operation, self.target)

    def jobs(self) -> list[MeasureJob]:
        return [MeasureJob(config, self.target.opt, job) for kernel, variant, operation in self.operations
                for job in self.calls(kernel, variant, operation) for config in self.configs]


@dataclass(frozen=True)
class Plan:
    """Every figure's plan, in the figures' order."""

    figures: tuple[FigurePlan | PubkeyPlan | Skipped, ...]

    def jobs(self) -> list[MeasureJob]:
        """Every distinct measure job, grouped by configuration and optimisation level."""
        by_config: dict[tuple[MemoryConfig, str], list[MeasureJob]] = {}
        for m in dict.fromkeys(m for p in self.figures if isinstance(p, FigurePlan | PubkeyPlan) for m in p.jobs()):
            by_config.setdefault((m.config, m.opt), []).append(m)
        return [m for group in by_config.values() for m in group]


def run_clock(board: Board, published_mhz: float) -> tuple[float, str]:
    """The clock the emulator rule runs ``board`` at for a figure published at ``published_mhz``, and a note
    when that is not the published clock (above the part maximum: the maximum is used)."""
    if published_mhz > board.max_clock_mhz:
        return float(board.max_clock_mhz), (f"published clock {published_mhz:g} MHz exceeds the {board.part} maximum "
                                            f"{board.max_clock_mhz:g} MHz (the board rule flags it): run at "
                                            f"{board.max_clock_mhz:g} MHz")
    return float(published_mhz), ""


def board_of(f: Figure, parts: dict[str, Part]) -> Board | None:
    """The board profile of figure ``f``'s part, or None when no profile models it."""
    part = parts.get(f.part)
    return load_board(part.board) if part else None


def plan_figure(f: Figure, parts: dict[str, Part], emulator: bool = True,
                timed_cores: Collection[str] = TIMED_CORES, stated: StatedMachine | None = None,
                options: StatedOptions | None = None,
                hashed_in_hardware: Collection[tuple[str, str]] = ()) -> FigurePlan | PubkeyPlan | Skipped:
    """Figure ``f``'s plan (``emulator`` False: the emulator rule switched off; ``timed_cores``: the cores with a
    timing model; ``stated``: the machine a user stated for it, None: its part's profile;
    ``options``: the build options the page names per section, which narrow the library's
    candidate variants, :mod:`refbench.sanity.libraries`; ``hashed_in_hardware``: the (source,
    section) pairs whose SHA-256 figures are hardware, :func:`make_plan`)."""
    if f.is_footprint:
        return Skipped(f, "not applicable", "a footprint figure (bytes), not a speed")
    if f.implementation == "hardware":
        part = parts.get(f.part)
        return Skipped(f, "hardware", "", load_part_profile(part.board) if part else None)
    if not emulator:
        return Skipped(f, "not emulated", "not emulated: the emulator rule switched off for this report")
    if is_pubkey(f):
        return _plan_pubkey(f, parts, timed_cores, stated)
    if f.algorithm == "RNG" and (f.source, f.section) in hashed_in_hardware:
        return Skipped(f, "not emulated yet", "not emulated yet: this build's Hash_DRBG hashes with SHA-256 on the HASH "
                       "peripheral (the section's SHA-256 figures are hardware; wolfcrypt/src/random.c calls "
                       "wc_Sha256*, which STM32_HASH serves), which no kernel models; the drbg-vs-hash rule "
                       "compares it with the same build's SHA-256")
    target, why = kernel_target(f)
    operations = tuple(operations_for(target.reference)) if target else ()
    shipped, labels = candidates(f, operations, options)
    build = build_of(f, options)  # an assembly-shaped kernel runs only for the build whose page claims it
    shipped = tuple(op for op in shipped if runs_variant(build, op[0], op[1]))
    claimed = _assembly_kernels(operations, shipped, build)
    shipped += claimed
    labels.update({(k, v): f"{f.library} assembly kernel (the page claims {build.assembly.value})"  # type: ignore[union-attr]
                   for k, v, _ in claimed})
    if operations and not shipped:
        return Skipped(f, "not emulated yet", f"not emulated yet: no kernel variant of {target.reference} "  # type: ignore[union-attr]
                                              f"is one {f.library} can be built with")
    operations = shipped
    if target is None or not operations:
        reason = why or f"no kernel computes {target.reference}"  # type: ignore[union-attr]
        return Skipped(f, "not emulated yet", f"not emulated yet: {reason}")
    if stated is not None and stated.generic is not None:
        return _plan_generic(f, target, _for_core(operations, stated.generic.core), stated, timed_cores, labels,
                             build)
    board = load_board(stated.board) if stated is not None and stated.board else board_of(f, parts)
    if board is None:
        return Skipped(f, "not emulated yet", f"not emulated yet: no board profile for {f.part}")
    if board.core not in timed_cores:
        return Skipped(f, "not emulated yet", f"not emulated yet: core {board.core} ({board.name}) has no timing model")
    operations = _for_core(operations, board.core)
    if not operations:
        return Skipped(f, "not emulated yet", f"not emulated yet: no kernel variant of {target.reference} runs on "
                       f"{board.core} ({board.name})")
    clock, clock_note = run_clock(board, f.clock_mhz)
    configs = (configurations(board, clock) if stated is None else
               stated_configurations(board, clock, stated.cache, stated.prefetch))
    library = library_of(f)
    return FigurePlan(f, target, board, clock, clock_note, tuple(configs), operations,
                      tuple(labels.items()), bool(library and library.closed), build)


def _assembly_kernels(operations: tuple[tuple[str, str, str], ...], shipped: tuple[tuple[str, str, str], ...],
                      build: Build) -> tuple[tuple[str, str, str], ...]:
    """The (kernel, variant, operation) of ``operations`` whose variant is ``build``'s assembly
    kernel for that family (builds.toml asm_kernels) and that ``shipped`` lacks: the page's
    assembly claim replaces the C option the section states (a GMAC row's "Table 4-bit" names
    the C GHASH, which the assembly build does not run)."""
    return tuple(op for op in operations if op not in shipped and
                 build.path(op[0]).how == "assembly kernel" and build.path(op[0]).variant == op[1])


def _for_core(operations: tuple[tuple[str, str, str], ...], core: str) -> tuple[tuple[str, str, str], ...]:
    """The (kernel, variant, operation) whose variant can be built for ``core`` (its manifest's
    ``cores``: a Thumb-2 assembly variant has no Cortex-M0+ build)."""
    return tuple(op for op in operations if family(op[0]).variant(op[1]).supports(core))


def _plan_generic(f: Figure, target: KernelTarget, operations: tuple[tuple[str, str, str], ...],
                  stated: StatedMachine, timed_cores: Collection[str],
                  labels: dict[tuple[str, str], str], build: Build | None = None) -> FigurePlan | Skipped:
    """A figure on a part without a profile: the stated core, clock and memory system."""
    machine = _generic_machine(f, stated, timed_cores)
    if isinstance(machine, Skipped):
        return machine
    board, clock, configs = machine
    library = library_of(f)
    return FigurePlan(f, target, board, clock, "", configs, operations, tuple(labels.items()),
                      bool(library and library.closed), build, stated.text)


def _generic_machine(f: Figure, stated: StatedMachine, timed_cores: Collection[str]
                     ) -> tuple[Board, float, tuple[MemoryConfig, ...]] | Skipped:
    """The board, clock and memory configurations of a part without a profile, from what was stated."""
    part = stated.generic
    assert part is not None
    if part.core not in timed_cores:
        return Skipped(f, "not emulated yet", f"not emulated yet: core {part.core} has no timing model")
    if part.wait_states is None:
        return Skipped(f, "not emulated yet", f"not emulated: the flash wait states at {part.clock_mhz:g} MHz are not "
                       "known; give --wait-states N or --board NAME")
    board = generic_board(part.core, part.clock_mhz, part.wait_states, flash_line_widths(part.core)[0])
    return board, float(part.clock_mhz), tuple(generic_configurations(part))


def _plan_pubkey(f: Figure, parts: dict[str, Part], timed_cores: Collection[str],
                 stated: StatedMachine | None) -> PubkeyPlan | Skipped:
    """A public-key figure's plan (:mod:`refbench.sanity.pubkey_plan`) on its board (or the
    machine a user stated), in the same configurations as any other figure there."""
    if stated is not None and stated.generic is not None:
        machine = _generic_machine(f, stated, timed_cores)
        if isinstance(machine, Skipped):
            return machine
        board, clock, configs = machine
        clock_note = ""
    else:
        board = load_board(stated.board) if stated is not None and stated.board else board_of(f, parts)
        if board is None:
            return Skipped(f, "not emulated yet", f"not emulated yet: no board profile for {f.part}")
        if board.core not in timed_cores:
            return Skipped(f, "not emulated yet",
                           f"not emulated yet: core {board.core} ({board.name}) has no timing model")
        clock, clock_note = run_clock(board, f.clock_mhz)
        configs = tuple(configurations(board, clock) if stated is None else
                        stated_configurations(board, clock, stated.cache, stated.prefetch))
    planned = plan_pubkey(f, board, clock, clock_note, configs)
    return Skipped(f, "not emulated yet", planned) if isinstance(planned, str) else planned


def partner_key(f: Figure) -> tuple:
    """What the rules that compare figures pair on: the same build (library, version, options and
    the section's configuration without its part name) on any part -- the cross-board rule, the library-ratio rule
    -- and every figure of the same section (the section-clock rule's section clock, the emulator rule's
    section shift)."""
    config = re.sub(rf"^{re.escape(f.part)}\S*\s*", "", f.config)
    return (f.library, f.version, config, f.options)


def measurement_scope(figures: Iterable[Figure], selected: Collection[str] | None) -> frozenset[str] | None:
    """The figures whose kernels a report selecting ``selected`` must run so that no selected
    figure's verdict depends on the filter: the selected figures, every figure of their sections,
    and every figure of the same build on another part (:func:`partner_key`). None: everything."""
    if selected is None:
        return None
    figures = list(figures)
    chosen = [f for f in figures if f.id in selected]
    sections = {(f.source, f.section) for f in chosen}
    builds = {partner_key(f) for f in chosen}
    return frozenset(f.id for f in figures if f.id in selected or (f.source, f.section) in sections
                     or partner_key(f) in builds)


def make_plan(figures: Iterable[Figure], parts: dict[str, Part], emulator: bool = True,
              timed_cores: Collection[str] = TIMED_CORES, machines: Mapping[str, StatedMachine] | None = None
              ) -> Plan:
    """The plan of every figure (see :func:`plan_figure`; ``machines``: the machine stated for a
    figure of a user's input, by figure id); the build options a page names for a section
    (:func:`~refbench.sanity.libraries.stated_options`) are read from ``figures``."""
    machines = machines or {}
    figures = list(figures)
    options = stated_options(figures)
    hashed = {(f.source, f.section) for f in figures if f.algorithm == "SHA-256" and "HASH" in f.hw}
    return Plan(tuple(plan_figure(f, parts, emulator, timed_cores, machines.get(f.id), options, hashed)
                      for f in figures))
