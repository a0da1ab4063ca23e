"""The documentation site builds in MkDocs' strict mode (broken links, missing pages and bad nav
entries are errors), with the tutorials' plots drawn by the commands on the pages."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_site_builds_strict(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    pages = {p.relative_to(tmp_path / "site").as_posix() for p in (tmp_path / "site").rglob("index.html")}
    assert "tutorials/aes-to-cycles/index.html" in pages
    assert (tmp_path / "site" / "generated" / "hash-curves.png").stat().st_size > 1000


def test_every_tutorial_is_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in sorted((ROOT / "docs" / "tutorials").glob("*.md")):
        assert f"tutorials/{page.name}" in nav, f"{page.name} is not in mkdocs.yml nav"
