"""Parsing of ``cortexm-emu`` option values: each bad value is an argparse error naming it
and the expected form (exit status 2). Sizes are bounded by the memory map before anything is
allocated (the SRAM region holds the stack and every buffer)."""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from typing import Any

from cortexm_emu.call import MAX_BUFFER_SIZE, SETTABLE_REGISTERS, U64, Buffer, Pointer
from cortexm_emu.float_abi import F32, F64
from cortexm_emu.memory_map import SRAM_END, SRAM_START


def parse_int(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid integer {text!r}; expected e.g. 42, -1, 0x2A or 0b101010"
        ) from None


def parse_buffer(text: str) -> Buffer:
    form = ("expected size:N, hex:HEX, f32:X,Y,.. or f64:X,Y,.. (floats or doubles), a decimal size such "
            "as 64 or hex bytes such as 00112233")
    if text.startswith(("f32:", "f64:")):
        try:
            return Buffer.floats([float(v) for v in text[4:].split(",")], double=text.startswith("f64:"))
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"invalid buffer {text!r} ({exc}); {form}") from None
    if text.startswith("size:"):
        size_text = text[5:]
        if not size_text.isdigit():
            raise argparse.ArgumentTypeError(
                f"invalid buffer size {size_text!r} in {text!r}; {form}"
            )
        return _zeros(size_text, text, form)
    if text.startswith("hex:"):
        hex_text = text[4:]
    elif text.isdigit() and (text == "0" or not text.startswith("0")):
        return _zeros(text, text, form)
    else:
        hex_text = text
    hex_text = hex_text.removeprefix("0x")
    try:
        return Buffer(bytes.fromhex(hex_text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid buffer {text!r} (not an even number of hex digits); {form}"
        ) from None


def _zeros(size_text: str, text: str, form: str) -> Buffer:
    size = int(size_text)
    if size > MAX_BUFFER_SIZE:
        raise argparse.ArgumentTypeError(
            f"invalid buffer size {size} in {text!r}: larger than the {MAX_BUFFER_SIZE}-byte SRAM region "
            f"0x{SRAM_START:08x}-0x{SRAM_END - 1:08x} that holds the stack and every buffer; {form}"
        )
    return Buffer.zeros(size)


_POINTER = re.compile(r"buf(\d{1,6})(?:\+(0x[0-9a-fA-F]{1,8}|\d{1,10}))?")


_FLOAT = re.compile(r"([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|inf|nan))([fd])", re.IGNORECASE)


def parse_arg(text: str) -> int | Pointer | F32 | F64:
    """``--arg``: an integer, ``bufK[+OFF]`` (the K-th --buf's address plus OFF), or a float with
    the suffix ``f`` (float, F32) or ``d`` (double, F64): ``1.5f``, ``-2e3d``."""
    match = _POINTER.fullmatch(text)
    if match is not None:
        return Pointer(f"buf{int(match.group(1))}", int(match.group(2) or "0", 0))
    floating = _FLOAT.fullmatch(text.strip())
    if floating is not None:
        try:
            return (F32 if floating.group(2).lower() == "f" else F64)(float(floating.group(1)))
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"invalid float {text!r}: {exc}") from None
    try:
        return parse_int(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"invalid integer {text!r}; expected e.g. 42, -1, 0x2A or 0b101010, "
            "bufK+OFF (the K-th --buf plus OFF bytes) such as buf0+16, or a float 1.5f / double 1.5d"
        ) from None


def parse_reg(text: str) -> tuple[str, int]:
    """``--reg rN=INT`` for r4..r12."""
    name, sep, value = text.partition("=")
    name = name.strip().lower()
    if not sep or name not in SETTABLE_REGISTERS:
        raise argparse.ArgumentTypeError(
            f"invalid register setting {text!r}; expected rN=INT with rN one of "
            f"{', '.join(SETTABLE_REGISTERS)} (r0-r3 are the arguments), e.g. r4=0x10"
        )
    number = parse_int(value)
    if not -(1 << 31) <= number < (1 << 32):
        raise argparse.ArgumentTypeError(
            f"invalid register setting {text!r}: {number} does not fit 32 bits; expected -2**31 .. 2**32-1"
        )
    return name, number


def parse_stack(text: str) -> int:
    size = parse_int(text)
    limit = SRAM_END - SRAM_START
    if not 256 <= size <= limit or size % 8:
        raise argparse.ArgumentTypeError(
            f"invalid stack size {text!r}; expected a multiple of 8 from 256 to {limit} bytes "
            f"(the SRAM region 0x{SRAM_START:08x}-0x{SRAM_END - 1:08x}, less the program's data, must hold it)"
        )
    return size


def parse_top(text: str) -> int:
    value = parse_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"invalid --top {text!r}; expected a number of blocks >= 1")
    return value


def parse_budget(text: str) -> int:
    value = parse_int(text)
    if not 0 < value < (1 << 63):
        raise argparse.ArgumentTypeError(
            f"invalid budget {text!r}; expected a number of instructions from 1 to 2**63-1"
        )
    return value


@dataclass(frozen=True)
class Unpassed:
    """A --data buffer: placed and named like a --buf, not passed as an argument."""

    buffer: Buffer


class Ordered(argparse.Action):
    """Collect --arg/--arg64/--buf/--data into one list, in command-line order."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        items = list(getattr(namespace, "call_args", None) or [])
        if option_string == "--arg64":
            if not -(1 << 63) <= values < (1 << 64):
                parser.error(
                    f"argument --arg64: {values} does not fit 64 bits; expected -2**63 .. 2**64-1"
                )
            values = U64(values)
        elif option_string == "--data":
            values = Unpassed(values)
        elif option_string == "--arg" and isinstance(values, int) and not -(1 << 31) <= values < (1 << 32):
            parser.error(
                f"argument --arg: {values} does not fit 32 bits; expected -2**31 .. 2**32-1 (use --arg64)"
            )
        items.append(values)
        namespace.call_args = items

