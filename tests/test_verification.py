"""The registry behind `refbench verify`: counting, failures kept, broken suites reported."""

from refbench.errors import InvalidTag
from refbench.verification import Outcome, Suite, expect_equal, expect_raises, run_suite, select


def _raise_tag():
    raise InvalidTag


def test_counts_and_keeps_failures():
    suite = Suite("X", "src", lambda: [expect_equal("a", b"\x01", b"\x01"), expect_equal("b", b"\x01", b"\x02")])
    report = run_suite(suite)
    assert (report.vectors, report.passed, report.failed) == (2, 1, 1)
    assert report.failures[0].detail == "expected 01, got 02"
    assert report.as_json()["failed"] == 1


def test_expect_raises_distinguishes_accept_and_wrong_error():
    assert expect_raises("t", InvalidTag, _raise_tag).passed
    accepted = expect_raises("t", InvalidTag, lambda: b"plain")
    assert not accepted.passed and "returned 706c61696e" in accepted.detail
    wrong = expect_raises("t", InvalidTag, lambda: 1 / 0)
    assert not wrong.passed and "ZeroDivisionError" in wrong.detail


def test_a_suite_that_breaks_or_runs_nothing_fails():
    def broken():
        yield Outcome("first", True)
        raise OSError("file vanished")

    report = run_suite(Suite("X", "src", broken))
    assert report.passed == 1 and report.failed == 1 and "file vanished" in report.failures[0].detail
    empty = run_suite(Suite("Y", "src", lambda: []))
    assert empty.failed == 1 and "no vector" in empty.failures[0].detail


def test_select_by_name_and_slowness():
    suites = [Suite("AES-128-GCM", "s", list), Suite("SHA-256", "s", list, slow=True)]
    assert [s.algorithm for s in select(suites, "aes")] == ["AES-128-GCM"]
    assert [s.algorithm for s in select(suites, "sha")] == []
    assert [s.algorithm for s in select(suites, "sha", slow=True)] == ["SHA-256"]
