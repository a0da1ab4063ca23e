"""The one generic harness: build a kernel variant, call an operation in the
emulator with inputs by role, and compare every output with the reference.

Nothing here knows a particular algorithm: the manifest says which roles the
C function takes (:data:`refbench.kernels.catalog.ROLES`), and
:mod:`refbench.kernels.references` says what the outputs must be.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cortexm_emu import Buffer, Machine
from cortexm_emu.call import CallResult
from cortexm_emu.errors import EmulatorError
from refbench.kernels import representation
from refbench.kernels.catalog import Operation, Variant, build_variant, family
from refbench.kernels.references import prepare, reference

#: Roles that are plain integers passed in a register.
INTEGER_ROLES = {"key_len", "nonce_len", "aad_len", "len", "counter32", "entropy_len", "personalization_len", "out_len",
                 "limbs"}
#: Roles whose buffer the kernel writes (compared with the reference after the call).
OUTPUT_ROLES = {"out", "digest", "tag", "iv", "counter", "r"}
#: Input roles that are buffers the harness fills.
DATA_ROLES = {"key", "iv", "counter", "nonce", "aad", "msg", "in", "entropy", "personalization", "a", "b", "modulus",
              "exponent"}


@dataclass(frozen=True)
class KernelRun:
    """One verified (or not) call of a kernel operation."""

    variant: str
    operation: str
    core: str
    size: int
    cycles: int
    instructions: int
    stack_bytes: int
    code_bytes: int
    verified: bool
    mismatch: str  # empty when verified
    elf_sha256: str
    #: stall cycles of a board memory system (included in ``cycles``); 0 with ideal memory
    memory_cycles: int = 0
    #: the board clock of the memory system (None with ideal memory) and the time at it
    clock_mhz: float | None = None
    time_us: float | None = None


def _length_of(role: str, inputs: dict[str, Any]) -> int:
    stem = {"len": "in" if "in" in inputs else "msg"}.get(role, role.removesuffix("_len"))
    return len(inputs[stem])


def call_arguments(op: Operation, roles: tuple[str, ...], inputs: dict[str, Any], ctx: bytes | None) -> list[Any]:
    """The call arguments of ``op`` for ``roles``, laid out from ``inputs`` (the one way every caller
    -- the harness, the leakage runner -- passes a kernel its buffers and lengths)."""
    args: list[Any] = []
    for role in roles:
        if role == "ctx":
            args.append(Buffer(ctx if ctx is not None else bytes(op.context_bytes or 0), "ctx"))
        elif role in ("counter32", "out_len"):
            args.append(int(inputs[role]))
        elif role == "limbs":
            args.append(len(inputs["a"]) // 4)
        elif role == "r":
            args.append(Buffer(bytes(len(inputs["a"])), "r"))
        elif role in INTEGER_ROLES:
            args.append(_length_of(role, inputs))
        elif role == "out":
            args.append(Buffer(bytes(len(inputs["in"]) if "in" in inputs else int(inputs["out_len"])), "out"))
        elif role in ("digest", "tag"):
            if op.output_bytes is None:
                raise ValueError(f"operation {op.name!r} has a {role} but no output_bytes in its manifest")
            args.append(Buffer(bytes(op.output_bytes), role))
        else:
            args.append(Buffer(bytes(inputs[role]), role))
    return args


class KernelHarness:
    """A built variant loaded in a machine, ready to call its operations.

    ``core`` and build options choose the ELF; ``machine_options`` go to
    :class:`cortexm_emu.Machine` (e.g. a board's memory system).
    """

    def __init__(self, family_name: str, variant: str, core: str, *, opt: str = "Os",
                 compiler: str = "zig", **machine_options: Any) -> None:
        self.family = family(family_name)
        self.variant: Variant = self.family.variant(variant)
        self.core = core
        self.build = build_variant(self.variant, core, opt=opt, compiler=compiler)
        self.machine = Machine(core, **machine_options)
        self.last_call: CallResult | None = None
        self.machine.load_elf(self.build.elf)
        import hashlib

        self.elf_sha256 = hashlib.sha256(self.build.elf.read_bytes()).hexdigest()

    def operation(self, name: str | None = None) -> Operation:
        ops = self.family.operations
        if name is None:
            return ops[0]
        for op in ops:
            if op.name == name:
                return op
        raise ValueError(f"Unknown operation {name!r} of kernel {self.family.name!r}; valid: {', '.join(o.name for o in ops)}")

    def run(self, inputs: dict[str, Any], operation: str | None = None, *, budget: int | None = 200_000_000) -> KernelRun:
        """Call the operation on ``inputs`` (by role); verify every output against the reference.
        Field elements go in and out in the variant's own limbs when its manifest lists the field
        (:mod:`refbench.kernels.representation`: converted here, outside the measured call).

        An emulator fault is not swallowed: it propagates with the emulator's message. Inputs are
        first prepared by the reference's preparation (e.g. an odd modulus, operands below it),
        which raises ValueError for inputs the operation does not accept, before any call.
        """
        op = self.operation(operation)
        inputs = prepare(op.reference)(inputs)
        called = representation.encode(self.variant, op, inputs)  # the variant's own limbs, if it keeps them
        ctx = None
        if op.setup:
            setup = self.machine.call(op.setup, *call_arguments(op, op.setup_args, called, None), budget=budget)
            ctx = setup.buffer("ctx")
        result = self.machine.call(op.function, *call_arguments(op, op.args, called, ctx), budget=budget)
        #: the operation's own call (not the setup), e.g. for ``cortexm_emu.annotate``
        self.last_call = result
        expected = reference(op.reference)(inputs)
        problems = []
        for role, want in expected.items():
            if role not in op.args:
                continue
            got = representation.decode(self.variant, op, role, result.buffer(role))
            if got != want:
                problems.append(f"{role}: expected {want.hex() or '(empty)'}, got {got.hex() or '(empty)'}")
        size = (len(inputs["in"]) if "in" in inputs else len(inputs["msg"]) if "msg" in inputs
                else len(inputs["a"]) if "a" in inputs else int(inputs.get("out_len", 0)))
        return KernelRun(
            variant=self.variant.path,
            operation=op.name,
            core=self.core,
            size=size,
            cycles=result.cycles,
            instructions=result.instructions,
            stack_bytes=result.stack_bytes,
            code_bytes=result.code_bytes,
            verified=not problems,
            mismatch="; ".join(problems),
            elf_sha256=self.elf_sha256,
            memory_cycles=result.memory_cycles,
            clock_mhz=result.clock_mhz,
            time_us=result.time_us,
        )


__all__ = ["KernelHarness", "KernelRun", "EmulatorError", "call_arguments"]
