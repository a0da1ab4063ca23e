"""bignum/umull_asm_bytecopy: umull_asm whose mont-mul writes the product to a stack buffer and copies it
into the reduction's buffer with a call of a byte-loop memcpy (umull_asm/memcpy_bytes.S), the shape of
wolfSSL SP Cortex-M's sp_2048_mul_64 / sp_2048_mul_32 with WOLFSSL_SP_SMALL up to 5.3.0 ("XMEMCPY(r,
tmp_arr, sizeof(tmp_arr))") linked against newlib as GNU Tools for STM32 builds it."""

from __future__ import annotations

from functools import cache

import capstone
import pytest
from elftools.elf.elffile import ELFFile

from cortexm_emu import Buffer
from refbench.kernels import catalog
from refbench.kernels.harness import KernelHarness

VARIANT = "bignum", "umull_asm_bytecopy"


def le(x: int, size: int) -> bytes:
    return x.to_bytes(size, "little")


def mont_ctx(n: int, limbs: int) -> bytes:
    """mont.h's bn_mont_ctx: limbs, -n^-1 mod 2^32, the modulus in 128 words."""
    return le(limbs, 4) + le(-pow(n, -1, 2**32) % 2**32, 4) + le(n, 4 * 128)


@cache
def harness(variant: str, core: str) -> KernelHarness:
    return KernelHarness("bignum", variant, core)


def executed(h: KernelHarness, result, mnemonics: set[str]) -> int:
    return sum(c * sum(i.mnemonic in mnemonics for i in h.machine.block(addr).insns)
               for addr, c in result.block_counts.items())


@pytest.mark.parametrize("core", ["m3", "m4", "m33"])
@pytest.mark.parametrize("limbs", [8, 32, 64])
def test_mont_mul_copies_the_product_byte_by_byte_and_still_multiplies(core, limbs):
    """bn_mont_mul executes 8 limbs LDRB and as many STRB (the 2 limbs-word product, one byte a step), its
    result is a b R^-1 mod n as umull_asm's, and it costs more than umull_asm's by the copy; bn_mont_sqr
    copies nothing (sp_2048_sqr_64 has no XMEMCPY)."""
    n = (1 << (32 * limbs - 1)) + 2**40 + 1
    a, b = n // 3, n // 7
    size = 4 * limbs
    want = a * b * pow(1 << (32 * limbs), -1, n) % n
    runs = {}
    for variant in ("umull_asm", "umull_asm_bytecopy"):
        h = harness(variant, core)
        result = h.machine.call("bn_mont_mul", Buffer(mont_ctx(n, limbs), "ctx"), "r", Buffer(le(a, size)),
                                Buffer(le(b, size)), buffers={"r": Buffer(bytes(size), "r")})
        assert int.from_bytes(result.buffer("r"), "little") == want, variant
        runs[variant] = (result.cycles, executed(h, result, {"ldrb"}), executed(h, result, {"strb"}))
    assert runs["umull_asm"][1:] == (0, 0)
    assert runs["umull_asm_bytecopy"][1:] == (8 * limbs, 8 * limbs)
    assert runs["umull_asm_bytecopy"][0] > runs["umull_asm"][0] + 8 * limbs  # at least a cycle a byte more
    h = harness("umull_asm_bytecopy", core)
    sqr = h.machine.call("bn_mont_sqr", Buffer(mont_ctx(n, limbs), "ctx"), "r", Buffer(le(a, size)),
                         buffers={"r": Buffer(bytes(size), "r")})
    assert int.from_bytes(sqr.buffer("r"), "little") == a * a * pow(1 << (32 * limbs), -1, n) % n
    assert executed(h, sqr, {"ldrb", "strb"}) == 0


def test_memcpy_bytes_is_a_byte_loop_called_by_mont_mul_only():
    """memcpy_bytes moves bytes only (LDRB/STRB, no word, halfword or multiple load or store); bn_mont_mul
    calls it once (BL), bn_mont_sqr never."""
    elf = catalog.build_variant(catalog.family(VARIANT[0]).variant(VARIANT[1]), "m4").elf
    with elf.open("rb") as f:
        e = ELFFile(f)
        text = e.get_section_by_name(".text")
        code, address = text.data(), text["sh_addr"]
        spans = {s.name: (s["st_value"] & ~1, s["st_size"]) for s in e.get_section_by_name(".symtab").iter_symbols()
                 if s["st_info"]["type"] == "STT_FUNC" and s.name in ("bn_mont_mul", "bn_mont_sqr", "memcpy_bytes")}
    cs = capstone.Cs(capstone.CS_ARCH_ARM, capstone.CS_MODE_THUMB | capstone.CS_MODE_MCLASS)

    def insns(name: str) -> list:
        start, size = spans[name]
        assert size > 0, name
        return list(cs.disasm(code[start - address:start - address + size], start))

    copy = {i.mnemonic for i in insns("memcpy_bytes")}
    assert {"ldrb", "strb"} <= copy
    assert not copy & {"ldr", "str", "ldrh", "strh", "ldrd", "strd", "ldm", "ldmia", "stm", "stmia"}
    calls = [int(i.op_str.lstrip("#"), 16) for i in insns("bn_mont_mul") if i.mnemonic == "bl"]
    assert calls == [spans["memcpy_bytes"][0]]
    assert not [i for i in insns("bn_mont_sqr") if i.mnemonic == "bl"]


def test_wolfssl_sp_cortex_m_offers_the_copy_to_rsa_and_dh_only_and_treats_it_as_assembly():
    """pubkey_costs.toml [[libraries]]: an SP Cortex-M RSA or DH figure may run umull_asm_bytecopy (its products'
    XMEMCPY up to 5.3.0), an elliptic-curve one not (sp_256_mul_8 copies nothing); the emulator rule counts its
    mont-mul and mont-sqr as the page's hand-written assembly, as umull_asm's."""
    import dataclasses

    from refbench.published.model import load_figures
    from refbench.sanity.emulator_rule import ASM_COVERS
    from refbench.sanity.pubkey_cost import library_variants

    base = next(f for f in load_figures() if f.library.startswith("wolfSSL"))
    for algorithm, offered in (("RSA-2048", True), ("DH-2048", True), ("ECDH-P256", False), ("ECDSA-P256", False)):
        f = dataclasses.replace(base, math="SP math, Cortex-M assembly", asm=None, algorithm=algorithm)
        variants, _ = library_variants(f)
        assert ("umull_asm_bytecopy" in variants) == offered, algorithm
        assert "umull_asm" in variants and "umull_umaal_asm" in variants
    assert ASM_COVERS["umull_asm_bytecopy"] == ASM_COVERS["umull_asm"]
