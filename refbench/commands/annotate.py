"""``refbench annotate``: where a kernel's cycles go, instruction by instruction.

The kernel's operation runs once on the deterministic inputs ``refbench cycles`` uses (its setup,
e.g. the key schedule, first and not counted), is verified against the reference, and the
operation's own call is attributed with :mod:`cortexm_emu.annotate`: hottest blocks first, each
instruction with its executions, cycles and the timing rule that priced it.
"""

from __future__ import annotations

import argparse
import json
import sys

from cortexm_emu.annotate import annotate, as_json, render_text
from cortexm_emu.errors import EmulatorError
from cortexm_emu.machine_options import DEFAULT_CORE, add_machine_options, check_machine, option
from cortexm_emu.timing import CORES as TIMED_CORES
from refbench.kernels.catalog import family
from refbench.kernels.harness import KernelHarness
from refbench.measure import COMPILERS, OPT_LEVELS, Measurer, make_inputs, operation_of
from refbench.options import (
    board_name,
    key_bytes,
    message_size,
    naming_option,
    operation_inputs,
    top,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "annotate",
        help="a kernel operation's cycles instruction by instruction, hottest blocks first",
        description=(
            "Run one operation of one kernel variant on the inputs refbench cycles uses, check it against the "
            "reference, and print the disassembly of the executed code with executions, cycles per instruction and "
            "the timing rule of each (cortexm-emu annotate, with the kernel's setup done for you). "
            "Example: refbench annotate aes/ttable4 --operation ecb-encrypt --size 64 --core m4 --top 2"
        ),
    )
    parser.add_argument("kernel", metavar="KERNEL/VARIANT", help="e.g. aes/ttable4, sha256/rolled")
    parser.add_argument("--operation", metavar="NAME", help="the operation (default: the kernel's first)")
    parser.add_argument("--size", type=option(message_size), default=64, metavar="BYTES",
                        help="message size (default 64)")
    add_machine_options(parser, ("core", "board", "clock", "cache"), cores=TIMED_CORES, board=board_name)
    parser.add_argument("--opt", default="Os", choices=OPT_LEVELS, help="optimisation level (default Os)")
    parser.add_argument("--compiler", default="zig", choices=COMPILERS, help="the kernel's compiler (default zig)")
    parser.add_argument("--key-bytes", type=option(key_bytes), metavar="N", help="key length (default as refbench cycles)")
    parser.add_argument("--top", type=option(top), metavar="N", help="show only the N hottest blocks")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        names = {"kernel": "KERNEL/VARIANT", "variant": "KERNEL/VARIANT", "operation": "--operation",
                 "key": "--key-bytes"}
        name, _, variant = args.kernel.partition("/")
        try:
            fam = family(name)
            if not variant:
                raise ValueError(f"Unknown variant (none given) of kernel {name!r}; valid: {', '.join(fam.variants)}")
            fam.variant(variant)
            op = operation_of(fam, args.operation)
            make_inputs(op, args.size, key_bytes=args.key_bytes)
        except ValueError as exc:
            raise naming_option(exc, names) from None
        inputs = operation_inputs(op, args.size, f"{args.kernel} {op.name}", key_bytes=args.key_bytes)
        (board,) = check_machine(args) or (None,)
        measurer = Measurer(None if board else (args.core or DEFAULT_CORE), board=board and board.name,
                            clock_mhz=args.clock, memory_cache=(args.cache or "on") if board else None, opt=args.opt,
                            compiler=args.compiler, use_cache=False)
        harness = KernelHarness(name, variant, measurer.core, opt=args.opt, compiler=args.compiler,
                                memory=measurer.memory)
        kernel_run = harness.run(inputs, op.name)
    except (ValueError, KeyError) as exc:
        print(f"refbench annotate: {exc}", file=sys.stderr)
        return 2
    except EmulatorError as exc:
        print(f"refbench annotate: {args.kernel} {args.operation or ''} faulted: {exc}", file=sys.stderr)
        return 1
    result = harness.last_call
    assert result is not None
    blocks = annotate(harness.machine, result)
    if args.json:
        print(json.dumps({"verified": kernel_run.verified, "mismatch": kernel_run.mismatch, "size": args.size,
                          **as_json(harness.machine, result, blocks)}, indent=2))
    else:
        verified = "verified against the reference" if kernel_run.verified else f"NOT verified: {kernel_run.mismatch}"
        print(f"{args.kernel} {op.name}, {args.size} bytes, {args.compiler} -{args.opt}: {verified}")
        print(render_text(harness.machine, result, blocks, args.top))
    return 0 if kernel_run.verified else 1
