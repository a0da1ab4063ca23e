"""The README states facts about the product; each one that a command can compute is checked here,
so the README cannot drift: every path it names exists, every command of its table is a command of
the CLIs, the quick start is what CI runs, and its counts are the data's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _quick_start() -> list[str]:
    block = README.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return [line.strip() for line in block.strip().splitlines()]


def test_the_quick_start_is_two_commands_and_ci_runs_the_second():
    commands = _quick_start()
    assert len(commands) == 2, commands
    assert commands[0].endswith("refbench sanity") and "pytest" in commands[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert commands[1] in ci, f".ci/run does not run the README's test command {commands[1]!r}"


@pytest.mark.parametrize("path", sorted({p for p in re.findall(r"`((?:\.ci|refbench|cortexm_emu|docs|tests|benchmarks)"
                                                               r"/[\w./*-]*)`", README)}))
def test_every_path_the_readme_names_exists(path):
    assert list(ROOT.glob(path.rstrip("/"))), f"README.md names {path}, which is not in the repository"


def test_every_command_of_the_table_is_a_command():
    from cortexm_emu.cli import build_parser as emu_parser
    from refbench.cli import build_parser as refbench_parser

    commands = {"refbench": refbench_parser(), "cortexm-emu": emu_parser()}
    table = README.split("| command | what it prints |", 1)[1].split("\n\n", 1)[0]
    named = re.findall(r"^\| `(refbench|cortexm-emu) (\w[\w-]*)", table, flags=re.MULTILINE)
    assert len(named) >= 10
    for program, command in named:
        subparsers = next(a for a in commands[program]._actions if a.__class__.__name__ == "_SubParsersAction")
        assert command in subparsers.choices, f"README's table names `{program} {command}`, not a command"


def test_the_counts_of_figures_and_pages_are_the_data():
    from refbench.published.model import load_figures

    figures = load_figures()
    pages = {figure.source for figure in figures}
    words = {5: "five"}
    assert f"({len(figures):,} figures from {words.get(len(pages), len(pages))}" in README.replace("\n", " ")


def test_no_product_file_cites_the_research_notes_outside_the_product():
    """A citation must name a source a reader of the product can find: the manual, datasheet or
    code the research notes quote, never the notes themselves (they are not shipped)."""
    cited = [f"{path.relative_to(ROOT)}:{number}"
             for folder in ("refbench", "cortexm_emu", "docs")
             for path in sorted((ROOT / folder).rglob("*"))
             if path.is_file() and path.suffix in (".py", ".toml", ".md", ".c", ".h", ".S", ".json")
             and "build" not in path.parts
             for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
             if "shared/notes" in line]
    assert not cited, "cites shared/notes (not in the product): " + ", ".join(cited)


def _validation_table() -> dict[str, tuple[str, str, str]]:
    """The README's model-accuracy table: core -> (sequences, mean |error|, max |error|) as written."""
    table = README.split("| core | sequences | mean \\|error\\| | max \\|error\\| |", 1)[1].split("\n\n", 1)[0]
    rows = [line.strip("|").split("|") for line in table.strip().splitlines()[1:]]
    return {cells[0].strip(): tuple(cell.strip() for cell in cells[1:4]) for cells in rows}


def test_the_model_accuracy_table_counts_the_sequences_file():
    """Per core, the sequences (and those with the FPU on) of cortexm_emu/validation/sequences.toml."""
    from cortexm_emu.validate import load_sequences

    sequences = load_sequences()
    counts = {core: sum(core in s.published for s in sequences) for s in sequences for core in s.published}
    fpu = {core: sum(core in s.published and dict(s.options).get("fpu") == "on" for s in sequences) for core in counts}
    written = {core: row[0] for core, row in _validation_table().items()}
    expected = {core: f"{n}" + (f" ({fpu[core]} with the FPU on)" if fpu[core] else "") for core, n in counts.items()}
    assert written == expected


@pytest.mark.slow
@pytest.mark.validate
def test_the_model_accuracy_table_is_what_validate_prints():
    from cortexm_emu.validate import run_validation, summarize

    written = {core: row[1:] for core, row in _validation_table().items()}
    measured = {s.core: (f"{s.mean_abs_error:.1f} %", f"{s.max_abs_error:.1f} %") for s in summarize(run_validation())}
    assert written == measured


def one_figure(count: int) -> int:
    """``count`` to one significant figure (9,600 -> 10,000; 14,999 -> 10,000; 15,000 -> 20,000): a
    kernel variant (a few hundred measurements) rarely changes it."""
    unit = 10 ** (len(str(count)) - 1)
    return int(count / unit + 0.5) * unit


FRACTIONS = {1: "about a quarter", 2: "about half", 3: "about three quarters"}


def in_quarters(part: int, whole: int) -> str:
    """``part / whole`` to the nearest quarter, in words (4,000 of 8,700 and 4,800 of 9,600: "about half")."""
    return FRACTIONS.get(int(4 * part / whole + 0.5), f"{part}/{whole} (no word for it)")


def test_the_rounding_of_the_counts():
    assert [one_figure(n) for n in (8_700, 9_600, 10_400, 14_999, 15_000, 940)] == [9_000, 10_000, 10_000, 10_000,
                                                                                     20_000, 900]
    assert in_quarters(4_000, 8_700) == "about half"
    assert [in_quarters(n, 9_600) for n in (4_800, 2_000, 7_000)] == ["about half", "about a quarter",
                                                                      "about three quarters"]


def test_the_count_of_emulated_measurements_is_the_plans():
    """"about N emulated measurements (about half of them the ... public-key figures)": the distinct
    jobs of the whole report's plan to one significant figure, and the share of its public-key
    figures' jobs to the nearest quarter (coarse enough that a new kernel variant does not change it)."""
    from refbench.published.model import load_figures, load_parts
    from refbench.sanity.plan import make_plan
    from refbench.sanity.pubkey_plan import PubkeyPlan

    plan = make_plan(load_figures(), load_parts())
    pubkey = {m for p in plan.figures if isinstance(p, PubkeyPlan) for m in p.jobs()}
    match = re.search(r"about ([\d,]+) emulated measurements \((about [a-z ]+) of them the field and bignum calls",
                      README.replace("\n", " "))
    assert match, "README.md no longer states the count of emulated measurements"
    jobs = len(plan.jobs())
    assert (int(match.group(1).replace(",", "")), match.group(2)) == (one_figure(jobs), in_quarters(len(pubkey), jobs))


def test_the_count_of_tutorials_is_the_docs():
    """The README's count of tutorials is the number of pages in docs/tutorials/, and docs/index.md's
    table lists each of them."""
    pages = sorted(p.name for p in (ROOT / "docs" / "tutorials").glob("*.md"))
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| \d+ \| \[[^]]+\]\(tutorials/([\w-]+\.md)\)", index, flags=re.MULTILINE)
    assert sorted(listed) == pages
    words = {8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}
    assert f"a site of {words.get(len(pages), len(pages))} tutorials" in README.replace("\n", " ")


def test_the_layout_table_names_every_package():
    """Each package of refbench (a folder with an __init__.py) is a row of the Layout table."""
    table = README.split("## Layout", 1)[1].split("\n\n", 2)[1]
    packages = sorted(p.name for p in (ROOT / "refbench").iterdir() if (p / "__init__.py").is_file())
    missing = [name for name in packages if f"`refbench/{name}/`" not in table]
    assert not missing, f"README.md's Layout table does not name refbench/{', refbench/'.join(missing)}/"


def test_the_composition_bound_and_its_check_count_are_the_records():
    from refbench.sanity.pubkey_whole import COMPOSITION_BOUND, recorded

    stated = re.search(r"the composition bound, ([\d.]+)%, is the worst measured error plus\s+the spread of "
                       r"the (\d+) checks", README)
    assert stated, "the README no longer states the composition bound"
    assert float(stated.group(1)) == round(COMPOSITION_BOUND * 100, 1)
    assert int(stated.group(2)) == len(recorded())
