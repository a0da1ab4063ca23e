"""cortexm_emu.cache_files: the atomic write and the warn-once of every cache of the package."""

from __future__ import annotations

import inspect
import warnings

import pytest

from cortexm_emu.cache_files import warn_once, write_atomic


class _OneWarning(UserWarning):
    pass


class _OtherWarning(UserWarning):
    pass


def test_write_atomic_replaces_the_file_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "record.json"
    target.write_bytes(b"old")
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["record.json"]


def test_write_atomic_that_cannot_rename_raises_and_removes_its_temporary_file(tmp_path):
    target = tmp_path / "record.json"
    target.mkdir()
    (target / "inside").write_bytes(b"")  # a non-empty folder where the file should be
    with pytest.raises(OSError):
        write_atomic(target, b"new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["record.json"]


def test_warn_once_says_each_problem_once_per_class_and_subject(tmp_path):
    # subjects of this test only (warnings are said once per process and subject)
    a, b = tmp_path / "cache-a", tmp_path / "cache-b"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            warn_once(a, "a is full", _OneWarning)
        warn_once(b, "b is full", _OneWarning)
        warn_once(a, "a, another kind", _OtherWarning)
    assert [(w.category, str(w.message)) for w in caught] == [
        (_OneWarning, "a is full"), (_OneWarning, "b is full"), (_OtherWarning, "a, another kind")]


def _library_call(subject) -> None:
    warn_once(subject, "said where the library was called", _OneWarning, stacklevel=2)


def test_warn_once_points_where_warnings_warn_would_at_that_stacklevel(tmp_path):
    line = inspect.currentframe().f_lineno
    with pytest.warns(_OneWarning) as record:
        warn_once(tmp_path / "here", "said here", _OneWarning, stacklevel=1)
        _library_call(tmp_path / "library")
    assert [(w.filename, w.lineno) for w in record] == [(__file__, line + 2), (__file__, line + 3)]
