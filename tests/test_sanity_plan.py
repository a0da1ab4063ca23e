"""Plan: figure -> the library's workload -> kernel targets x memory configurations -> jobs.

Facts of the plan that depend on no cycle model: what each library's benchmark does per timed
unit (workloads.toml), the configurations each board profile allows, why a figure gets no
kernel, and that the jobs of a plan are distinct. Published figures are used for what they
state (library, sizes, options), never for a verdict.
"""

from __future__ import annotations

import dataclasses

import pytest

from cortexm_emu.boards import load_board
from refbench.published.model import load_figures, load_parts
from refbench.sanity.memory_configs import configurations
from refbench.sanity.plan import FigurePlan, Skipped, make_plan, plan_figure
from refbench.sanity.workloads import (
    STEADY_STATE_BYTES,
    WORKLOADS_PATH,
    KernelTarget,
    calls_for,
    kernel_build,
    kernel_target,
    load_workloads,
    operations_for,
)

FIGURES = {f.id: f for f in load_figures()}
PARTS = load_parts()
#: wolfSSL, NUCLEO-L4A6ZG (Cortex-M4 at 80 MHz), AES-128-CBC encrypt of 1024-byte blocks.
L4_CBC = FIGURES["000-0301"]
L4_LABELS = ["ART+prefetch on, 4 WS @ 80 MHz", "ART+prefetch off, 4 WS @ 80 MHz", "ART on, prefetch off, 4 WS @ 80 MHz",
             "ART off, prefetch on, 4 WS @ 80 MHz", "tables in SRAM, ART+prefetch on, 4 WS @ 80 MHz",
             "code in SRAM, 0 WS @ 80 MHz"]


def first(**fields):
    return next(f for f in FIGURES.values() if all(getattr(f, k) == v for k, v in fields.items()))


# --- workloads.toml ------------------------------------------------------------------------------------


def test_workloads_file_loads_and_names_a_bad_field(tmp_path):
    loaded = load_workloads()
    assert loaded.wolfssl["num_blocks"] == 25 and loaded.steady_state["bytes"] == STEADY_STATE_BYTES == 8000
    text = WORKLOADS_PATH.read_text(encoding="utf-8")
    bad = tmp_path / "workloads.toml"
    bad.write_text(text.replace("num_blocks = 25", 'num_blocks = "25"'), encoding="utf-8")
    with pytest.raises(ValueError, match=r"workloads.toml:\d+: field 'wolfssl.num_blocks': expected int, got '25'"):
        load_workloads(bad)
    bad.write_text(text.replace("[gmac]", "[gmac_typo]"), encoding="utf-8")
    with pytest.raises(ValueError, match=r"field 'gmac': missing table"):
        load_workloads(bad)


# --- figure -> workload -> kernel target ---------------------------------------------------------------


def test_ciphers_are_one_call_per_published_block():
    assert kernel_target(L4_CBC)[0] == KernelTarget("aes-cbc-encrypt", 16, 0, 1024, None, ())


def test_wolfssl_streamed_macs_and_hashes_are_25_blocks_per_final():
    """bench_hmac / bench_sha256 / bench_cmac / bench_poly1305 with BENCH_EMBEDDED: numBlocks = 25
    updates of 1024 bytes, then one Final."""
    hmac = first(library="wolfSSL", algorithm="HMAC-SHA-256", implementation="software")
    target = kernel_target(hmac)[0]
    assert (target.reference, target.size, target.chunk) == ("hmac-sha-256", 25 * 1024, None)
    assert any("25 updates of 1024 bytes per Final" in note for note in target.notes)


def test_cmox_messages_are_measured_in_their_chunks():
    cmox = first(library="ST CMOX (X-CUBE-CRYPTOLIB)", algorithm="AES-256-CBC", operation="encrypt", chunk_bytes=1024)
    target = kernel_target(cmox)[0]
    assert (target.reference, target.key_bytes, target.size, target.chunk) == ("aes-cbc-encrypt", 32, 8000, 1024)
    assert [job.size for job in calls_for("aes", "ttable4", "cbc-encrypt", target)] == [1024] * 7 + [832]


def test_gcm_decryption_uses_the_encryption_kernel_and_wolfssl_passes_13_bytes_of_aad():
    cyclone_gcm = first(library="CycloneCRYPTO", algorithm="AES-192-GCM", operation="decrypt", implementation="software")
    target = kernel_target(cyclone_gcm)[0]
    assert (target.reference, target.key_bytes, target.size, target.aad_bytes) == ("aes-gcm-encrypt", 24, 8000, 0)
    assert any("SP 800-38D" in note for note in target.notes)
    assert any("steady state at 8000 bytes" in note for note in target.notes)
    wolf_gcm = first(library="wolfSSL", mode="GCM", implementation="software")
    assert kernel_target(wolf_gcm)[0].aad_bytes == 13


def test_gmac_and_rng_map_to_their_kernels():
    gmac = first(algorithm="GMAC", implementation="software")
    target = kernel_target(gmac)[0]
    assert (target.reference, target.key_bytes, target.size) == ("aes-gmac", 16, 1024)
    rng = first(algorithm="RNG", implementation="software")
    target = kernel_target(rng)[0]
    assert (target.reference, target.size) == ("hash-drbg-sha-256-generate", 1024)
    assert operations_for("aes-gmac") and operations_for("hash-drbg-sha-256-generate")


def test_cmox_final_tag_is_one_call_on_the_bytes_left_in_the_block():
    """8000 = 125 x 64: SHA-256's generateTag pads an empty block; 8000 = 62 x 128 + 64 for SHA-384."""
    t256, t384 = kernel_target(FIGURES["002-0139"])[0], kernel_target(FIGURES["002-0140"])[0]
    assert (t256.reference, t256.size, t256.per_op, t256.unit) == ("sha-256", 0, True, "cycles")
    assert (t384.reference, t384.size, t384.per_op) == ("sha-384", 64, True)


def test_footprints_and_unknown_operations_have_no_target():
    footprint = next(f for f in FIGURES.values() if f.is_footprint)
    assert kernel_target(footprint) == (None, "no per-byte figure to compare (a per-operation or footprint figure)")
    assert kernel_target(dataclasses.replace(L4_CBC, algorithm="ChaCha8"))[1] == \
        "no kernel operation corresponds to ChaCha8 encrypt"


def test_kernels_are_built_at_the_figures_optimisation_level():
    def level(options: str) -> str:
        return kernel_build(dataclasses.replace(L4_CBC, options=options))[0]

    assert (level("-Os"), level("-O2"), level("-O3"), level("High Speed optimisation"), level("not stated")) == (
        "Os", "O2", "O3", "O3", "Os")
    cyclone = first(library="CycloneCRYPTO", implementation="software", algorithm="AES-128-CBC")
    assert kernel_target(cyclone)[0].opt == "O3"
    assert kernel_build(cyclone)[1] == f"zig -O3; the page: {cyclone.compiler} {cyclone.options}"
    assert kernel_build(dataclasses.replace(L4_CBC, options="?"))[1] == \
        f"zig -Os; the page: {L4_CBC.compiler}, level not stated"


# --- memory configurations -----------------------------------------------------------------------------


def test_configurations_follow_the_board_profiles():
    l4 = load_board("stm32l4a6zg")
    assert [c.label for c in configurations(l4, 80)] == L4_LABELS
    assert [c.kind for c in configurations(l4, 80)] == ["cache on", "cache off", "cache on, prefetch off",
                                                        "prefetch only", "tables in SRAM", "code in SRAM"]
    assert [(c.cache, c.prefetch, c.code, c.tables) for c in configurations(l4, 80)] == [
        ("on", None, "flash", None), ("off", None, "flash", None), ("on", "off", "flash", None),
        ("off", "on", "flash", None), ("on", None, "flash", "ram"), ("on", None, "ram", None)]
    assert configurations(l4, 80)[4].memory().name.endswith("code in flash, tables in ram")
    # At 16 MHz the L4 flash has 0 wait states: caches and SRAM cannot change a count.
    assert [c.label for c in configurations(l4, 16)] == ["flash, 0 WS @ 16 MHz"]
    # STM32H7: flash on the AXI clock (hclk_divider 2), L1 caches, no flash prefetch.
    h7 = [c.label for c in configurations(load_board("stm32h753zi"), 480)]
    assert h7[0] == "L1 caches on, 4 WS (= 9 core cycles) @ 480 MHz" and h7[1].startswith("L1 caches off")
    # STM32WL33: no cache, no prefetch: one flash configuration, and code in SRAM.
    wl33 = configurations(load_board("stm32wl33cc"), 64)
    assert [c.kind for c in wl33] == ["flash", "tables in SRAM", "code in SRAM"]
    assert "no modelled cache or prefetch" in wl33[0].label
    # STM32G0: the flash cache has no documented size (not modelled); its prefetch is.
    assert configurations(load_board("stm32g071rb"), 64)[0].label.startswith("prefetch on, ")
    config = configurations(l4, 80)[1]
    assert config.memory().describe()["cache"] is False and config.memory().wait_states == 4


def test_f4_configurations_run_the_stack_where_the_linker_scripts_put_it_and_with_the_data():
    # the memory-block rule (R8): a load from the stack next to a load from a buffer pipelines only
    # when both lie in one block; both placements are real builds, so both ends of the range stay
    f437 = configurations(load_board("stm32f437ii"), 168)
    assert len(f437) == 12 and [c.kind for c in f437[::2]] == [c.kind for c in f437[1::2]]
    top, low = f437[0], f437[1]
    assert top.label.endswith("stack at the top of RAM in SRAM3") and top.stack is None
    assert low.label.endswith("stack with the data in SRAM1") and low.stack == "SRAM1"
    assert (top.memory().describe()["stack"], low.memory().describe()["stack"]) == ("SRAM3", "SRAM1")
    assert low.as_json()["stack"] == "SRAM1" and "stack" not in top.as_json()
    assert all(c.stack is None for c in configurations(load_board("stm32l4a6zg"), 80))  # no R8 there


# --- figure -> plan -> jobs ----------------------------------------------------------------------------


def test_a_software_figure_plans_every_variant_the_library_ships_in_every_configuration():
    p = plan_figure(L4_CBC, PARTS)
    assert isinstance(p, FigurePlan) and (p.board.name, p.clock_mhz, p.clock_note) == ("stm32l4a6zg", 80.0, "")
    assert [c.label for c in p.configs] == L4_LABELS
    # wolfSSL's software AES: T-tables, or WOLFSSL_AES_SMALL_TABLES (libraries.toml); no bitsliced AES.
    assert {variant for _, variant, _ in p.operations} == {"bytewise", "ttable4"}
    assert len(p.jobs()) == 12 and {m.opt for m in p.jobs()} == {"Os"}


def test_a_clock_above_the_part_maximum_is_planned_at_the_maximum():
    wl55 = first(library="wolfSSL", part="STM32WL55", algorithm="AES-128-CBC", operation="encrypt",
                 implementation="software")
    p = plan_figure(wl55, PARTS)
    assert wl55.clock_mhz == 64 and p.clock_mhz == 48
    assert p.clock_note.startswith("published clock 64 MHz exceeds the STM32WL55JC maximum 48 MHz")


def test_why_a_figure_gets_no_kernel():
    footprint = next(f for f in FIGURES.values() if f.is_footprint)
    hardware = FIGURES["000-0261"]
    sha999 = dataclasses.replace(FIGURES["001-0059"], algorithm="SHA-999", id="syn-sha-999")
    m7 = FIGURES["000-0074"]  # STM32H753ZI, Cortex-M7
    plan = make_plan([footprint, hardware, sha999, m7], PARTS, timed_cores=("m0plus", "m3", "m4"))
    statuses = [(p.status, p.explanation) for p in plan.figures if isinstance(p, Skipped)]
    assert statuses[0] == ("not applicable", "a footprint figure (bytes), not a speed")
    assert statuses[1][0] == "hardware" and plan.figures[1].profile.name == PARTS[hardware.part].board
    assert statuses[2] == ("not emulated yet", "not emulated yet: no kernel computes sha-999")
    assert statuses[3] == ("not emulated yet", "not emulated yet: core m7 (stm32h753zi) has no timing model")
    assert plan.jobs() == []
    off = make_plan([L4_CBC, hardware], PARTS, emulator=False)
    assert [p.status for p in off.figures] == ["not emulated", "hardware"] and off.jobs() == []


def test_figures_of_the_same_work_share_their_jobs():
    twin = dataclasses.replace(L4_CBC, id="syn-twin")
    jobs = make_plan([L4_CBC, twin], PARTS).jobs()
    assert len(jobs) == len(set(jobs)) == 12


def test_an_rng_whose_build_hashes_on_the_hash_peripheral_is_not_held_to_the_software_drbg():
    """wolfSSL's Hash_DRBG calls wc_Sha256*: in a section whose SHA-256 figures are hardware the DRBG
    hashes on the HASH peripheral, which no kernel models; the same RNG beside a software SHA-256
    is emulated as usual."""
    rng = next(f for f in FIGURES.values() if f.library == "wolfSSL" and f.algorithm == "RNG" and f.implementation == "software"
               and f.part == "STM32U585")
    sha = next(f for f in FIGURES.values() if f.source == rng.source and f.part == rng.part and f.algorithm == "SHA-256")
    hashed = dataclasses.replace(sha, id="syn-sha-hw", section=rng.section, implementation="hardware", hw=("HASH",))
    soft = dataclasses.replace(sha, id="syn-sha-sw", section=rng.section, implementation="software", hw=())
    plan = make_plan([rng, hashed], PARTS)
    skipped = next(p for p in plan.figures if p.figure.id == rng.id)
    assert isinstance(skipped, Skipped) and skipped.status == "not emulated yet"
    assert "HASH peripheral" in skipped.explanation
    planned = next(p for p in make_plan([rng, soft], PARTS).figures if p.figure.id == rng.id)
    assert isinstance(planned, FigurePlan)
