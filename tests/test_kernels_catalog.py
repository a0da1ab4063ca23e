"""The kernel catalogue's build facts: include path, preprocessor definitions, manifest errors.

The kernels' outputs are proven in test_kernels_hash/block/stream; this file checks how the
manifests become builds: which family folders a variant's sources see, and that a bad
``defines`` entry or a missing one is named.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from cortexm_emu.datafile import DataFileError
from cortexm_emu.toolchain import ToolchainError
from refbench.kernels import catalog

KERNELS = catalog.KERNELS


def _names(folders: tuple[Path, ...]) -> list[str]:
    return [folder.name for folder in folders]


def test_include_path_is_common_own_family_then_reused_families() -> None:
    assert _names(catalog.family("hmac").variant("rolled").include_dirs) == [
        "common", "hmac", "md5", "sha1", "sha256", "sha512",
    ]
    assert _names(catalog.family("sm4").variant("ttable1").include_dirs) == [
        "common", "sm4", "aes", "gcm", "ccm",
    ]
    assert _names(catalog.family("sha256").variant("rolled").include_dirs) == ["common", "sha256"]


def test_no_forwarding_headers() -> None:
    """A header whose only content is an #include of another folder's header works around the
    include path; family folders are on it instead (catalog.Variant.include_dirs)."""
    for header in KERNELS.glob("**/*.h"):
        code = re.sub(r"/\*.*?\*/", "", header.read_text(encoding="utf-8"), flags=re.DOTALL).split()
        assert not (len(code) == 2 and code[0] == "#include"), f"{header} only forwards to {code[1]}"


def test_every_kernel_header_has_a_name_and_an_include_guard_of_its_own() -> None:
    """No build depends on the order of the include folders: a header name, and its guard, is
    found once under refbench/kernels/."""
    names: dict[str, Path] = {}
    guards: dict[str, Path] = {}
    for header in sorted(KERNELS.glob("**/*.h")):
        assert header.name not in names, f"{header} and {names[header.name]} share a name"
        names[header.name] = header
        guard = re.search(r"^#ifndef (\w+)\n#define \1$", header.read_text(encoding="utf-8"), re.M)
        assert guard, f"{header} has no include guard (#ifndef X / #define X)"
        assert guard.group(1) not in guards, f"{header} and {guards[guard.group(1)]} share the guard {guard.group(1)}"
        guards[guard.group(1)] = header


def test_the_block_cipher_families_name_their_cipher_header() -> None:
    expected = {"aes": "aes_cipher.h", "gcm": "aes_cipher.h", "ccm": "aes_cipher.h", "cmac": "aes_cipher.h",
                "sm4": "sm4_cipher.h", "tdea": "tdea_cipher.h"}
    for name, header in expected.items():
        for variant in catalog.family(name).variants.values():
            assert f'CIPHER_HEADER="{header}"' in variant.defines, variant.path
            assert sum((Path(d) / header).is_file() for d in variant.include_dirs) == 1, variant.path


def test_sources_resolve_to_their_family_folder() -> None:
    assert catalog.family_folder(KERNELS / "hmac" / ".." / "sha512" / "ref" / "sha512.c") == KERNELS / "sha512"
    for outside in (Path(__file__), KERNELS / "catalog.py"):
        with pytest.raises(ValueError, match=r"Kernel source .* is not inside a family folder"):
            catalog.family_folder(outside)


def _manifest(tmp_path: Path, variant_lines: str) -> Path:
    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "toy.c").write_text("void toy(void) {}\n")
    manifest = folder / "kernel.toml"
    manifest.write_text(
        'family = "toy"\nstandard = "none"\n\n'
        '[[operations]]\nname = "toy"\nfunction = "toy"\nargs = []\nreference = "md5"\n\n'
        f'[variants.plain]\nsources = ["toy.c"]\ntrades = "nothing"\n{variant_lines}'
    )
    return manifest


def test_defines_are_read_from_the_manifest(tmp_path: Path) -> None:
    variant = catalog.load_family(_manifest(tmp_path, 'defines = ["WIDTH=2", "FAST"]\n')).variant("plain")
    assert variant.defines == ("WIDTH=2", "FAST")


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('defines = ["TWO WORDS"]', "must be NAME or NAME=VALUE"),
        ('defines = ["2X=1"]', "must be NAME or NAME=VALUE"),
        ('defines = "X=1"', "must be a list"),
    ],
)
def test_bad_define_names_file_line_and_field(tmp_path: Path, line: str, problem: str) -> None:
    manifest = _manifest(tmp_path, line + "\n")
    with pytest.raises(DataFileError, match=re.escape(problem)) as info:
        catalog.load_family(manifest)
    assert info.value.path == str(manifest)
    assert info.value.line == 13
    assert info.value.field == "variants.plain.defines"


def test_an_error_in_a_later_operation_names_that_operation_s_line(tmp_path: Path) -> None:
    manifest = _manifest(tmp_path, "")
    text = manifest.read_text().replace('[variants.plain]', '[[operations]]\nname = "two"\nfunction = "toy"\n'
                                        'args = ["nosuch"]\nreference = "md5"\n\n[variants.plain]')
    manifest.write_text(text)
    with pytest.raises(DataFileError, match="unknown role") as info:
        catalog.load_family(manifest)
    assert info.value.field == "operations[1].args"
    assert text.splitlines()[info.value.line - 1] == 'args = ["nosuch"]'


def test_a_missing_field_names_the_line_of_its_table(tmp_path: Path) -> None:
    manifest = _manifest(tmp_path, "")
    manifest.write_text(manifest.read_text().replace('trades = "nothing"\n', ""))
    with pytest.raises(DataFileError, match="missing") as info:
        catalog.load_family(manifest)
    assert info.value.field == "variants.plain.trades"
    assert manifest.read_text().splitlines()[info.value.line - 1] == "[variants.plain]"


def test_a_missing_top_level_field_names_the_first_line(tmp_path: Path) -> None:
    manifest = _manifest(tmp_path, "")
    manifest.write_text(manifest.read_text().replace('family = "toy"\n', ""))
    with pytest.raises(DataFileError, match="missing") as info:
        catalog.load_family(manifest)
    assert (info.value.path, info.value.line, info.value.field) == (str(manifest), 1, "family")


def test_bitsliced_aes_without_its_parallel_width_does_not_build() -> None:
    """The shared modes learn the bitsliced cipher's two blocks per call from the manifest; the
    variant's source refuses to build without it rather than disagree with the modes."""
    bitsliced = catalog.family("aes").variant("bitsliced")
    assert bitsliced.defines == ('CIPHER_HEADER="aes_cipher.h"', "CIPHER_PARALLEL_BLOCKS=2")
    with pytest.raises(ToolchainError, match=r"must define CIPHER_PARALLEL_BLOCKS=2"):
        catalog.build_variant(replace(bitsliced, defines=bitsliced.defines[:1]), "m4")


def test_a_mode_source_without_its_cipher_header_does_not_build() -> None:
    variant = catalog.family("tdea").variant(next(iter(catalog.family("tdea").variants)))
    with pytest.raises(ToolchainError, match=r"CIPHER_HEADER must name the block cipher's header"):
        catalog.build_variant(replace(variant, defines=()), "m4")


def test_a_build_is_remembered_until_the_builds_are_forgotten() -> None:
    variant = catalog.family("sha256").variant("rolled")
    catalog.forget_builds()  # not a build an earlier test of this process remembered (under another cache)
    first = catalog.build_variant(variant, "m0plus")
    assert catalog.build_variant(variant, "m0plus") is first  # the process's own build, not asked again
    catalog.forget_builds()
    again = catalog.build_variant(variant, "m0plus")
    assert again is not first and again.elf == first.elf  # asked the build cache, which has it


def test_source_digest_follows_included_sources():
    """A variant's digest covers the files its sources include by name beyond its headers: m0_kara's
    kara.S includes m0_asm/mont.S and its kara.c includes m0/bignum.c, so an edit to either is a new build."""
    from refbench.kernels.catalog import _read_paths
    read = {p.relative_to(catalog.KERNELS).as_posix() for p in _read_paths(catalog.family("bignum").variant("m0_kara"))}
    assert {"bignum/m0_asm/mont.S", "bignum/m0/bignum.c", "bignum/m0_asm/kara.S", "bignum/ct.h"} <= read


def test_assembly_includes_are_in_the_source_digest_and_guarded():
    """The macros several assembly files share live once in a .inc beside them (e.g. bignum/m0_asm/mul16.inc),
    pulled in by a quoted #include: every variant whose sources include it reads it (its digest covers it, so
    an edit is a new build), and its include guard lets two of a variant's files include it."""
    incs = sorted(KERNELS.glob("**/*.inc"))
    assert incs, "no .inc under refbench/kernels"
    for inc in incs:
        assert re.search(r"^#ifndef (\w+)\n#define \1$", inc.read_text(encoding="utf-8"), re.M), f"{inc} has no include guard"
        users = {s.resolve() for s in inc.parent.glob("*.S") if f'#include "{inc.name}"' in s.read_text(encoding="utf-8")}
        assert users, f"{inc} is included by no .S beside it"
        checked = 0
        for fam in catalog.families().values():
            for variant in fam.variants.values():
                if users & {Path(s).resolve() for s in variant.sources}:
                    assert inc.resolve() in catalog._read_paths(variant), f"{variant.path} does not read {inc}"
                    checked += 1
        assert checked, f"no variant builds a source that includes {inc}"
