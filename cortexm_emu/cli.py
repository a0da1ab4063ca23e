"""``cortexm-emu``: run or annotate one function of an ELF on an emulated Cortex-M core,
with ideal memory or a board's memory system; list the board profiles.

The CLI parses, builds a Machine, calls one library function and renders; all
the work is in :mod:`cortexm_emu.machine` and :mod:`cortexm_emu.annotate`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from typing import Any

from cortexm_emu.annotate import annotate, as_json, render_text
from cortexm_emu.boards import board_names, load_board, wait_states
from cortexm_emu.call import Pointer
from cortexm_emu.cli_args import (
    Ordered,
    Unpassed,
    parse_arg,
    parse_budget,
    parse_buffer,
    parse_int,
    parse_reg,
    parse_stack,
    parse_top,
)
from cortexm_emu.errors import EmulatorError
from cortexm_emu.machine import DEFAULT_BUDGET, DEFAULT_STACK_SIZE, Buffer, CallResult, Machine
from cortexm_emu.machine_options import add_machine_options, board_clock, check_machine
from cortexm_emu.timing import CORES as TIMED_CORES

COUNT_NOTE = (
    "The count runs from the function's first instruction to its own return included "
    "(BX LR / POP {PC} and that branch's pipeline refill); the caller's BL is not counted. "
    "Instructions include IT-block instructions whose condition failed."
)

EXAMPLES = """\
examples:
  cortexm-emu run prog.elf xorshift_loop --core m4 --arg 1 --arg 1000
  cortexm-emu run prog.elf xor_into --core m0plus --buf 00112233 --buf hex:ffffffff --arg 4 --json
  cortexm-emu run prog.elf fill --core m3 --buf size:64 --arg 64 --arg 7
  cortexm-emu run prog.elf mix64 --core m4 --arg 7 --arg64 0x1122334455667788 --arg 9 --arg64 1
  cortexm-emu run prog.elf load_word --data hex:0001020304050607 --arg buf0+4
  cortexm-emu run prog.elf internal_sum --reg r4=10 --reg r5=3
  cortexm-emu annotate prog.elf xorshift_loop --core m4 --arg 1 --arg 100 --top 5
  cortexm-emu run prog.elf xorshift_loop --board stm32f407vg --clock 168 --cache off --arg 1 --arg 1000
  cortexm-emu boards
  cortexm-emu boards --json

--arg INT      a 32-bit integer argument: decimal, 0x hex, 0b binary, negative allowed
--arg bufK+OFF the address of the K-th --buf or --data (from 0, in command-line order) plus OFF
               bytes (0 .. its size): a pointer into the middle of a buffer (bufK alone is offset 0)
--data SPEC    a buffer like --buf that is not passed as an argument itself (only --arg bufK+OFF
               points into it); printed with the others
--arg 1.5f     a float argument (F32; 1.5d: a double, F64): in s0-s15/d0-d7 for a hard-float ELF
               (Tag_ABI_VFP_args = 1, core m4f/m7f/m33f), else its bits in core registers
--arg64 INT    a 64-bit argument (-2**63 .. 2**64-1; AAPCS: even register pair or 8-aligned stack slot)
--reg rN=INT   set r4..r12 before the call (a function with its own calling convention); without
               --reg, r4-r11 start with known values and a function that returns with one of them
               or SP changed is an error (AAPCS IHI 0042 6.1.1: they are callee-saved)
--buf SPEC     a buffer in SRAM, its address passed as the argument:
                 size:N  or bare decimal N without a leading zero (64)  -> N zero bytes
                 hex:HEX or any other bare value (00112233, deadbeef)   -> those bytes
                 f32:1.5,-2 / f64:1.5,-2  -> floats / doubles, little-endian
               so "--buf 64" is 64 zero bytes and "--buf 0064" or "--buf hex:64" is the byte 0x64.
               The stack and all buffers must fit the 512 MiB SRAM region 0x20000000-0x3FFFFFFF.
               A struct holding pointers: use the library (Buffer(..., pointers={0: Pointer("name")})).
--board NAME   run with that board's memory system (cortexm-emu boards lists them; a part number
               or board name such as STM32F407VG or NUCLEO-H753ZI is accepted): flash wait states at
               --clock MHZ (default: the board's default clock, said on stderr: the part maximum
               unless its profile's [default_clock] names another), prefetch, and ART / ICACHE / L1
               caches switched by --cache on|off (default on); the core defaults to the board's.
               Results add the memory stall cycles and the time at the clock. --core, if given,
               must be the board's core. Board options are for "run" only.
Arguments are passed in the order given. Exit status: 0 ok, 1 emulator fault or bad ELF, 2 bad arguments.
"""


def _add_board_options(parser: argparse.ArgumentParser) -> None:
    add_machine_options(parser, ("board", "clock", "cache", "prefetch", "code", "tables", "start"))


def _add_call_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("elf", help="the ELF file (32-bit little-endian Arm, with symbols)")
    parser.add_argument("function", help="the function symbol to call")
    add_machine_options(parser, ("core",))
    parser.add_argument(
        "--arg",
        type=parse_arg,
        action=Ordered,
        dest="call_args",
        metavar="INT|bufK+OFF",
        help="32-bit integer argument, or the K-th --buf's address plus OFF bytes",
    )
    parser.add_argument(
        "--reg",
        type=parse_reg,
        action="append",
        default=None,
        metavar="rN=INT",
        help="set r4..r12 before the call (repeatable); turns off the callee-saved check",
    )
    parser.add_argument(
        "--arg64",
        type=parse_int,
        action=Ordered,
        dest="call_args",
        metavar="INT",
        help="64-bit integer argument",
    )
    parser.add_argument(
        "--buf",
        type=parse_buffer,
        action=Ordered,
        dest="call_args",
        metavar="HEX|SIZE",
        help="buffer argument (see below)",
    )
    parser.add_argument(
        "--data",
        type=parse_buffer,
        action=Ordered,
        dest="call_args",
        metavar="HEX|SIZE",
        help="a buffer that is not an argument itself; --arg bufK+OFF points into it",
    )
    parser.add_argument(
        "--budget",
        type=parse_budget,
        default=DEFAULT_BUDGET,
        metavar="N",
        help=f"instruction budget (default {DEFAULT_BUDGET})",
    )
    parser.add_argument(
        "--stack",
        type=parse_stack,
        default=DEFAULT_STACK_SIZE,
        metavar="BYTES",
        help=f"stack size (default {DEFAULT_STACK_SIZE})",
    )
    parser.add_argument(
        "--accounting",
        choices=["auto", "native", "python"],
        default="auto",
        help="per-block counter (default auto: native C if a host compiler exists)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cortexm-emu",
        description="Cycle-counting Cortex-M emulator: call one function of an ELF and count its cycles. "
        + COUNT_NOTE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser(
        "run",
        help="call a function and print cycles, instructions and stack",
        description="Call FUNCTION of ELF and print cycles, instructions, stack bytes and the return value. "
        + COUNT_NOTE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES,
    )
    _add_call_options(run)
    _add_board_options(run)
    run.set_defaults(handler=_run)
    ann = sub.add_parser(
        "annotate",
        help="disassembly of the executed code with counts, cycles and the rule behind each",
        description="Call FUNCTION and print the capstone disassembly of the executed code, hottest blocks first, "
        "with execution counts, cycles per instruction and the timing rule that priced each. "
        + COUNT_NOTE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES,
    )
    _add_call_options(ann)
    ann.add_argument(
        "--top", type=parse_top, default=None, metavar="N", help="show only the N hottest blocks (N >= 1)"
    )
    ann.set_defaults(handler=_annotate)
    boards = sub.add_parser(
        "boards",
        help="list the board profiles: core, clocks, flash wait states, prefetch, caches, SRAM",
        description="List every board profile (cortexm_emu/boards/*.toml) with its default and "
        "maximum clocks and the flash wait states at each, the prefetch buffer, the caches and the "
        "SRAM regions. Every value in the files cites its ST document; --json prints them all.",
    )
    boards.add_argument("--json", action="store_true", help="print every profile as JSON")
    boards.set_defaults(handler=_boards)
    val = sub.add_parser(
        "validate",
        help="model accuracy: emulated vs published cycles of short cited sequences, per core",
        description="Run the published microbenchmarks of cortexm_emu/validation/sequences.toml (TRM "
        "worked examples, hardware measurements; each cited) on each core and print published, "
        "emulated and error per sequence, then n, mean and max |error| per core.",
    )
    add_machine_options(val, ("core",), cores=TIMED_CORES, repeatable=True)
    val.add_argument("--json", action="store_true", help="print rows and summary as JSON")
    val.set_defaults(handler=_validate)
    return parser


def _validate(args: argparse.Namespace) -> int:
    from cortexm_emu.validate import as_json, run_validation, summarize

    rows = run_validation(args.core)
    if args.json:
        print(json.dumps(as_json(rows), indent=2))
        return 0
    right = ("published", "emulated", "error %")
    print("cortexm-emu validate: published vs emulated cycles (ideal memory)")
    print(_text_table([
        {"core": r.core, "sequence": f"{r.name}: {r.sequence}", "published": f"{r.published:g}",
         "emulated": f"{r.emulated:g}", "error %": f"{r.error_percent:+.1f}"}
        for r in rows
    ], right=right))
    for s in summarize(rows):
        print(f"{s.core}: n={s.n} mean |error| {s.mean_abs_error:.1f} % max |error| {s.max_abs_error:.1f} %")
    return 0


def _with_fpu(machine: Machine) -> str:
    """' with its FPU' where a board turns on the FPU of a core named without one (m4 on an STM32F407)."""
    return " with its FPU" if machine.has_fpu and not machine.info.fpu else ""


def _board_and_clock(args: argparse.Namespace) -> tuple[Any, float]:
    """The board of --board (checked against --core and --clock) and the clock: --clock or the
    board's default clock (said on stderr)."""
    (board,) = check_machine(args)
    clock, note = board_clock(board, args.clock)
    if note:
        print(f"cortexm-emu: note: {note}", file=sys.stderr)
    return board, clock


def _arguments(args: argparse.Namespace) -> tuple[list[Any], dict[str, Buffer]]:
    """The call's arguments with each --buf named bufK (K counted from 0), so that
    ``--arg bufK+OFF`` can point into it."""
    named: dict[str, Buffer] = {}
    call_args: list[Any] = []
    for item in args.call_args or []:
        if isinstance(item, Unpassed):
            named[f"buf{len(named)}"] = item.buffer
        elif isinstance(item, Buffer):
            name = f"buf{len(named)}"
            named[name] = item
            call_args.append(name)
        else:
            call_args.append(item)
    for item in call_args:
        if isinstance(item, Pointer) and item.buffer not in named:
            raise ValueError(
                f"Invalid --arg {item.buffer}+{item.offset}: there is no {item.buffer} "
                f"({len(named)} --buf/--data given; accepted: {', '.join(named) or 'none'})"
            )
    return call_args, named


def _call(args: argparse.Namespace) -> tuple[Machine, CallResult]:
    board = getattr(args, "board", None)
    if board is not None:
        part, clock = _board_and_clock(args)
        machine = Machine.for_board(
            part,
            clock,
            args.cache or "on",
            core=None,  # the board's core, FPU included ([fpu]); --core was checked against it
            prefetch=args.prefetch,
            code=args.code or "flash",
            tables=args.tables,
            start=args.start or "warm",
            accounting=args.accounting,
            stack_size=args.stack,
        )
    else:
        check_machine(args)
        machine = Machine(args.core or "m4", accounting=args.accounting, stack_size=args.stack)
    machine.load_elf(args.elf)
    call_args, named = _arguments(args)
    registers = dict(args.reg) if args.reg else None
    return machine, machine.call(
        args.function, *call_args, buffers=named, budget=args.budget, registers=registers
    )


def _buffers(result: CallResult) -> list[tuple[str, int, bytes]]:
    """(name, address, contents) of each buffer, bufK in K order (placement order may differ:
    a buffer an earlier --arg points into is placed first)."""
    rows = list(zip(result.buffer_names, result.buffer_addresses, result.buffers))
    return sorted(rows, key=lambda row: int(row[0][3:]) if row[0][3:].isdigit() else -1)


def _json_float(value: float) -> float | str:
    """A float for JSON: finite as a number, inf/nan as their names (JSON has no such numbers)."""
    return value if math.isfinite(value) else repr(value)


def result_json(result: CallResult) -> dict[str, Any]:
    return {
        "function": result.function,
        "core": result.core,
        "cycles": result.cycles,
        "instructions": result.instructions,
        "stack_bytes": result.stack_bytes,
        "code_bytes": result.code_bytes,
        "functions": list(result.functions),
        "return_value": result.return_value,
        "return_value64": result.return_value64,
        "abi": result.abi,
        **({"return_float": _json_float(result.return_float), "return_double": _json_float(result.return_double)}
           if result.abi == "hard" else {}),
        "classes": dict(sorted(result.classes.items())),
        "buffers": [
            {"index": i, "name": name, "address": address, "size": len(data), "hex": data.hex()}
            for i, (name, address, data) in enumerate(_buffers(result))
        ],
        "accounting": result.accounting,
        "memory": result.memory,
        "memory_cycles": result.memory_cycles,
        "memory_counts": dict(result.memory_counts),
        "memory_config": dict(result.memory_config),
        "clock_mhz": result.clock_mhz,
        "time_us": result.time_us,
        "placement": dict(result.placement),
        "count_includes": COUNT_NOTE,
    }


def _run(args: argparse.Namespace) -> int:
    machine, result = _call(args)
    if args.json:
        print(json.dumps(result_json(result), indent=2))
        return 0
    lines = [
        f"function      {result.function} on {machine.info.title}{_with_fpu(machine)}, {result.memory} memory, {result.accounting} accounting",
        f"cycles        {result.cycles}",
        f"instructions  {result.instructions}",
        f"stack         {result.stack_bytes} bytes",
        f"code          {result.code_bytes} bytes ({', '.join(result.functions)})",
        f"return        r0 = {result.return_value} (0x{result.return_value:08x}), r1:r0 = 0x{result.return_value64:016x}"
        + (f"; hard float: s0 = {result.return_float!r}, d0 = {result.return_double!r}" if result.abi == "hard" else ""),
        "classes       "
        + ", ".join(
            f"{name} {n}" for name, n in sorted(result.classes.items(), key=lambda kv: -kv[1])
        ),
    ]
    for i, (_name, address, data) in enumerate(_buffers(result)):
        lines.append(f"buffer {i:<6} {len(data)} bytes at 0x{address:08x}: {data.hex()}")
    if result.clock_mhz is not None:
        counts = result.memory_counts
        lines.append(
            f"memory        {result.memory_cycles} stall cycles included "
            f"(sequential {counts.get('sequential_stall_cycles', 0)}, "
            f"branch {counts.get('branch_stall_cycles', 0)}, "
            f"flash data {counts.get('data_stall_cycles', 0)})"
        )
        lines.append(f"time          {result.time_us:.3f} us at {result.clock_mhz:g} MHz")
        lines.append(
            "placement     "
            + ", ".join(f"{name}: {where}" for name, where in result.placement.items())
        )
    lines.append(COUNT_NOTE)
    print("\n".join(lines))
    return 0


def _annotate(args: argparse.Namespace) -> int:
    machine, result = _call(args)
    blocks = annotate(machine, result)
    if args.json:
        print(json.dumps(as_json(machine, result, blocks), indent=2))
    else:
        print(render_text(machine, result, blocks, args.top))
    return 0


def board_rows() -> list[dict[str, Any]]:
    """One summary row per board profile (the ``boards`` table)."""
    rows = []
    for name in board_names():
        board = load_board(name)
        clocks = sorted({board.default_clock_mhz, board.max_clock_mhz})
        waits = ", ".join(f"{mhz:g} MHz: {wait_states(board, mhz)} WS" for mhz in clocks)
        caches = ", ".join(
            f"{c.kind} {c.size_bytes} B" if c.size_bytes else f"{c.kind} (size unknown)"
            for c in board.accelerators
        )
        rows.append(
            {
                "name": board.name,
                "part": board.part,
                "core": board.core,
                "max_mhz": f"{board.max_clock_mhz:g}",
                "default_mhz": f"{board.default_clock_mhz:g}",
                "flash_ws": waits,
                "flash_line": f"{board.flash.line_bits} bit",
                "prefetch": "yes" if board.prefetch.present else "no",
                "caches": caches or "none",
                "sram": ", ".join(f"{r.name} {r.size_kib} KiB" for r in board.sram),
            }
        )
    return rows


def _text_table(rows: list[dict[str, Any]], right: Sequence[str] = ()) -> str:
    """Rows of equal keys as plain aligned columns (the emulator has no table library), the columns
    named in ``right`` right-aligned."""
    if not rows:
        return ""
    headers = list(rows[0])
    widths = {h: max(len(h), *(len(str(r[h])) for r in rows)) for h in headers}

    def line(cells: dict[str, Any]) -> str:
        return "  ".join(str(cells[h]).rjust(widths[h]) if h in right else str(cells[h]).ljust(widths[h])
                         for h in headers).rstrip()

    return "\n".join([line({h: h for h in headers}), *(line(r) for r in rows)])


def _boards(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps([load_board(name).as_dict() for name in board_names()], indent=2))
        return 0
    print(_text_table(board_rows()))
    print(
        "Values and their ST sources: cortexm-emu boards --json (or the TOML files in cortexm_emu/boards/)."
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except ValueError as exc:
        print(f"cortexm-emu: error: {exc}", file=sys.stderr)
        return 2
    except EmulatorError as exc:
        print(f"cortexm-emu: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # e.g. `cortexm-emu annotate ... | head`: the reader left; not an error
        sys.stdout = None  # type: ignore[assignment]
        return 0
    except KeyboardInterrupt:  # Ctrl-C: the run loop returns to Python every slice (machine.RUN_SLICE)
        print("cortexm-emu: interrupted (Ctrl-C)", file=sys.stderr)
        return 130  # 128 + SIGINT, the shell's convention


if __name__ == "__main__":
    sys.exit(main())
