"""A variant's own limb representation (refbench/kernels/representation.py, a manifest's `limbs`):
the conversion the harness does outside the measured call, and the manifest's errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cortexm_emu.datafile import DataFileError
from refbench.kernels import catalog
from refbench.kernels.references import FIELDS
from refbench.kernels.representation import decode, encode, from_limbs, limb_shape, to_limbs


def test_limbs_round_trip_and_partly_reduced_limbs_decode_to_the_residue():
    p = FIELDS["25519"][0]
    for x in (0, 1, 2**29 - 1, 2**29, p - 1, 2**255 + 5):
        data = to_limbs(x.to_bytes(32, "little"), 29, 9)
        assert len(data) == 36 and int.from_bytes(from_limbs(data, 29, "25519"), "little") == x % p
    # limb 0 = -19 and limb 8 = 2^23 (value 2^255 - 19 = p): a negative limb and a full top limb
    raw = (-19).to_bytes(4, "little", signed=True) + bytes(28) + (2**23).to_bytes(4, "little")
    assert from_limbs(raw, 29, "25519") == bytes(32)
    with pytest.raises(ValueError, match="do not fit 9 limbs of 29 bits"):
        to_limbs((2**261).to_bytes(33, "little"), 29, 9)


def test_only_the_fields_a_variant_lists_are_converted():
    fam = catalog.family("bignum")
    ops = {op.name: op for op in fam.operations}
    listed = {v.name: dict(v.limbs) for v in fam.variants.values() if v.limbs}
    assert listed, "no bignum variant keeps its own limbs"
    name, fields = next(iter(listed.items()))
    variant = fam.variant(name)
    inputs = {"a": (5).to_bytes(32, "little"), "b": (7).to_bytes(32, "little")}
    if "25519" in fields:
        count = -(-255 // fields["25519"])
        assert limb_shape(variant, ops["25519-mul"]) == (fields["25519"], count)
        assert len(encode(variant, ops["25519-mul"], inputs)["a"]) == 4 * count
    assert limb_shape(variant, ops["p256-mul"]) is None or "p256" in fields
    assert encode(variant, ops["x25519"], inputs) == inputs
    assert decode(variant, ops["x25519"], "r", b"\x01" * 32) == b"\x01" * 32
    plain = fam.variant("c32")
    assert not plain.limbs and encode(plain, ops["25519-mul"], inputs) == inputs


def _manifest(tmp_path: Path, limbs_line: str) -> Path:
    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "toy.c").write_text("void toy(void) {}\n")
    manifest = folder / "kernel.toml"
    manifest.write_text(
        'family = "toy"\nstandard = "none"\n\n'
        '[[operations]]\nname = "toy"\nfunction = "toy"\nargs = []\nreference = "md5"\n\n'
        f'[variants.plain]\nsources = ["toy.c"]\ntrades = "nothing"\n{limbs_line}\n'
    )
    return manifest


def test_limbs_are_read_from_the_manifest(tmp_path: Path):
    variant = catalog.load_family(_manifest(tmp_path, 'limbs = { "448" = 28 }')).variant("plain")
    assert variant.limbs == (("448", 28),)


@pytest.mark.parametrize(("line", "problem", "field"), [
    ('limbs = { "p999" = 28 }', "unknown field", "variants.plain.limbs.p999"),
    ('limbs = { "448" = 32 }', "an integer from 1 to 31", "variants.plain.limbs.448"),
    ('limbs = { "448" = "28" }', "an integer from 1 to 31", "variants.plain.limbs.448"),
    ('limbs = 28', "must be a dict", "variants.plain.limbs"),
])
def test_bad_limbs_name_file_and_field(tmp_path: Path, line: str, problem: str, field: str):
    manifest = _manifest(tmp_path, line)
    with pytest.raises(DataFileError, match=re.escape(problem)) as info:
        catalog.load_family(manifest)
    assert info.value.path == str(manifest) and info.value.field == field
