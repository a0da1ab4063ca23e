"""A floor any code must pay for a public-key operation: its 32x32-bit products at the core's best
multiply throughput, plus the words every field operation must read and write.

The floor is for closed libraries (ST CMOX): their code is not public, so they may be faster than
every composed C candidate (:mod:`refbench.sanity.pubkey_plan`) and such a figure is flagged only
below this floor. An open library is bounded by kernels of its own code (pubkey_costs.toml
[[libraries]]); its figure meets the floor only while its page claims hand-written assembly of
which no kernel runs. For each kernel call of a recipe's work (:mod:`refbench.sanity.pubkey_cost`),
on n 32-bit limbs:

* products: a product of two n-limb numbers needs at least K(n) 32x32 products, K(1) = 1,
  K(n) = 3 K(ceil(n/2)) (Karatsuba at every level, Knuth TAOCP vol. 2 §4.3.3; fewer than the n^2 of
  schoolbook, which every measured kernel uses; wolfSSL's SP code uses Karatsuba for large operands,
  sp_c32.c sp_2048_mul_64); a squaring at least min(K(n), n(n+1)/2); a Montgomery multiplication or
  squaring one more K(n) for q x n (REDC needs that product, Montgomery 1985); the special-form
  reductions of P-256/384/521, 2^255 - 19, 2^448 - 2^224 - 1 none (counted as free); additions,
  subtractions, selects, swaps and the one-word constant multiplication no product at all, and
  the caller's side of a call (bignum "call") neither products nor words (code may inline);
* words: every call reads its operands and writes its result at least once (a multiplication 3n
  words, a squaring 2n, an addition or subtraction or select 3n, a swap 4n, a constant multiplication 2n).

Cycles per 32x32->64 product, at best, by core: Cortex-M4 1 (UMULL/UMLAL/UMAAL single cycle, DDI
0439D Tables 3-1, 3-2), Cortex-M7 1 (one MAC unit, multiplies do not dual-issue with each other:
LLVM ARMScheduleM7.td M7UnitMAC, jnk0le's measurements), Cortex-M33 1 (inverse throughput 1, the
measurements cited in cortexm_emu/timing/data/m33.toml), Cortex-M3 3 (UMULL 3..5, ARM 100165_0201
Table 3-1), Cortex-M0/M0+ 3 (no 64-bit product: MULS 32x32->32 takes 1 cycle with the fast
multiplier, DDI 0484C Table 3.1, and a 64-bit product needs at least three 16x16 ones, Karatsuba on
halves). A word moved costs at least one cycle (LDM/STM: 1 + N cycles), and on the dual-issue cores
(Cortex-M7, M33; refbench/sanity/code_bounds.py ISSUE_WIDTH) products and moves may pair: the
floor there is max(products x c, (products x c + words) / 2). Everything else an implementation
needs (carries, additions, loop control, the additions of Karatsuba) is left out, so a real
implementation is slower; a figure below the floor cannot be the stated work at the stated clock.
The floor of a figure is the smallest over its recipes, so it holds for the counted methods
(a method cheaper than every counted one would lower it).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from refbench.sanity.code_bounds import issue_width

#: What the floor is for: closed libraries, whose code no kernel can model. An open library's figure is
#: bounded by the kernels of its own code; it falls back to the floor only where its page claims
#: hand-written assembly and no kernel of that operation's instructions runs (the figure's reason says so).
FLOOR_SCOPE = ("closed libraries (ST CMOX, refbench/sanity/libraries.toml closed: code not public, so no kernel models "
               "it); an open library is bounded by kernels of its own code and meets this floor only where its page "
               "claims hand-written assembly of which no kernel runs")

#: Cycles per 32x32->64 product at best, by core (the module docstring gives each source).
PRODUCT_CYCLES = {"m0": 3, "m0plus": 3, "m3": 3, "m4": 1, "m7": 1, "m33": 1}
_SPECIAL_FIELDS = ("p256", "p384", "p521", "sm2", "25519", "448")


@cache
def karatsuba(n: int) -> int:
    """K(n): 32x32 products of an n-limb product with Karatsuba at every level."""
    return 1 if n <= 1 else 3 * karatsuba(-(-n // 2))


#: CycloneCRYPTO's own-shape operations (bignum cy-*, mpi_cyclone.h, ec_cyclone.h) -> the operation whose
#: result-bound floor they share: the same product, the same reduced sum; the remainder of a 2k-word number
#: (cy-mod) and a Montgomery reduction (cy-mont-red) at least one k-word product, like the field multiplication;
#: P-256's Montgomery form (p256-mont-mul/-sqr) reduces with mp = 1 by word additions, no products: the field's
_SAME_RESULT = {"cy-mont-mul": "mont-mul", "cy-mont-red": "p256-mul", "cy-bp-mul": "mont-mul", "cy-bp-sqr": "mont-sqr",
                "cy-mod": "p256-mul", "cy-ec-add": "mont-add", "cy-ec-sub": "mont-sub",
                "p256-mont-mul": "p256-mul", "p256-mont-sqr": "p256-sqr"}


#: Entries one call of a table read scans (bignum sp-table-read, ref10-cmov-table: table.h); ``size`` is an entry's bytes
_TABLE_READ_ENTRIES = {"sp-table-read": 15, "ref10-cmov-table": 8}


def call_floor(operation: str, size: int) -> tuple[int, int]:
    """(products, words moved) at least, of one call of kernel ``operation`` on ``size``-byte operands."""
    operation = _SAME_RESULT.get(operation, operation.removeprefix("cy-"))
    n = size // 4
    sqr = min(karatsuba(n), n * (n + 1) // 2)
    if operation == "mont-mul":
        return 2 * karatsuba(n), 3 * n
    if operation == "mont-sqr":
        return sqr + karatsuba(n), 2 * n
    if operation.startswith(_SPECIAL_FIELDS):
        kind = operation.split("-", 1)[1]
        if kind == "mul":
            return karatsuba(n), 3 * n
        if kind == "sqr":
            return sqr, 2 * n
        if kind in ("mul-a24", "mul-const"):
            return 0, 2 * n
    if operation.endswith(("-add", "-sub")) or operation == "select":
        return 0, 3 * n
    if operation.endswith("-cswap"):
        return 0, 4 * n  # reads both elements, writes both
    if operation in _TABLE_READ_ENTRIES:
        return 0, (_TABLE_READ_ENTRIES[operation] + 1) * n  # a constant-time read reads every entry, writes one
    if operation == "call":
        return 0, 0  # the caller's side of a call: code that inlines pays none
    raise ValueError(f"Invalid operation {operation!r} for the any-code floor; accepted: mont-mul, mont-sqr, "
                     f"<field>-mul/-sqr/-add/-sub/-mul-a24/-mul-const/-cswap for {', '.join(_SPECIAL_FIELDS)}, mont-add, mont-sub, "
                     "select, sp-table-read, ref10-cmov-table, call")


def core_name(core: str) -> str:
    return core.lower().removeprefix("cortex-").replace("+", "plus")


def floor_cycles(work: Mapping[tuple[str, int], int], core: str) -> tuple[float, int, int]:
    """(cycles, products, words) no code can beat for ``work`` on ``core``."""
    c = PRODUCT_CYCLES.get(core_name(core))
    if c is None:
        raise ValueError(f"Invalid core {core!r} for the any-code floor; accepted: {', '.join(PRODUCT_CYCLES)}")
    products = words = 0
    for (op, size), calls in work.items():
        p, w = call_floor(op, size)
        products += calls * p
        words += calls * w
    width = issue_width(core_name(core))
    cycles = products * c + words if width == 1 else max(products * c, (products * c + words) / width)
    return cycles, products, words


def describe(cycles: float, products: int, words: int, core: str, recipe: str) -> str:
    """The floor in words, for verdict reasons."""
    c = PRODUCT_CYCLES[core_name(core)]
    width = issue_width(core_name(core))
    how = "+" if width == 1 else f"paired at issue width {width} with"
    return (f"floor any code must pay: {products:,} 32x32 products (Karatsuba counts, {recipe}) x {c} cycle(s) on "
            f"{core} {how} {words:,} operand words moved = {cycles:,.0f} cycles (pubkey_floor.py; the bound kept "
            f"for {FLOOR_SCOPE})")


__all__ = ["FLOOR_SCOPE", "PRODUCT_CYCLES", "call_floor", "describe", "floor_cycles", "karatsuba"]
