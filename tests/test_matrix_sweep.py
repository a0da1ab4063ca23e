"""The .ci/matrix sweep (refbench/sanity/matrix.py): the same results locally and on a Dask
``LocalCluster`` on loopback, for a small slice; failures are named; bad options are errors."""

from __future__ import annotations

import pytest

from refbench.measure import Job
from refbench.sanity import matrix


def slice_() -> list[matrix.Group]:
    return matrix.groups(["bignum", "sha256"], cores=("m0plus", "m4"), opts=("Os",), compilers=("zig",))


def test_groups_cover_every_variant_the_core_supports():
    tasks = slice_()
    labels = {g.label for g in tasks}
    assert "bignum/umaal m4 zig -Os" in labels and "bignum/umaal m0plus zig -Os" not in labels
    assert "bignum/m0 m0plus zig -Os" in labels
    bignum = next(g for g in tasks if g.label == "bignum/c32 m4 zig -Os")
    assert Job("bignum", "c32", "p521-mul", 68) in bignum.jobs and Job("bignum", "c32", "mont-mul", 256) in bignum.jobs
    with pytest.raises(ValueError, match="sha999"):
        matrix.groups(["sha999"])


def test_local_processes_equal_one_process():
    tasks = [g for g in slice_() if g.jobs[0].kernel == "sha256"]
    one = matrix.run(tasks, workers=1)
    two = matrix.run(tasks, workers=2)
    assert one == two and not matrix.failures(one)


def test_a_dask_cluster_gives_the_local_results():
    distributed = pytest.importorskip("distributed", reason="the optional extra refbench[cluster] is not installed")
    tasks = [g for g in slice_() if g.label in ("bignum/m0 m0plus zig -Os", "sha256/" + g.jobs[0].variant + " m4 zig -Os")]
    assert len(tasks) >= 2
    local = matrix.run(tasks, workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, protocol="tcp") as cluster:
        seen = []
        remote = matrix.run(tasks, cluster.scheduler_address, done=lambda g, ms: seen.append(g))
    assert set(seen) == set(tasks) and remote == local
    assert all(m.verified for ms in remote.values() for m in ms)


def test_a_failure_is_named_and_a_size_not_accepted_is_not_one(monkeypatch):
    from refbench.kernels import references
    wrong = matrix.Group("m4", "Os", "zig", (Job("bignum", "c32", "25519-mul", 33),))
    assert not matrix.failures(matrix.run([wrong], workers=1))  # 33 bytes: not applicable, not failed
    monkeypatch.setitem(references.REFERENCES, "fe-25519-mul", lambda a: {"r": bytes(32)})  # a wrong reference
    task = matrix.Group("m4", "Os", "zig", (Job("bignum", "c32", "25519-mul", 32),))
    bad = matrix.failures(matrix.run([task], workers=1))
    assert len(bad) == 1 and bad[0].startswith("bignum/c32 25519-mul 32 B on m4 (zig -Os): ")


def test_bad_options_are_errors_not_tracebacks(capsys):
    assert matrix.main(["--scheduler", "http://nowhere"]) == 2
    assert "Invalid --scheduler ('http://nowhere')" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        matrix.main(["--core", "m9"])


def test_an_unreachable_scheduler_is_an_error_not_a_traceback(capsys):
    pytest.importorskip("distributed", reason="the optional extra refbench[cluster] (distributed) is not installed")
    assert matrix.main(["--scheduler", "tcp://127.0.0.1:9", "--kernel", "md5", "--core", "m4", "--opt", "Os",
                        "--compiler", "zig"]) == 2
    assert "Invalid --scheduler ('tcp://127.0.0.1:9'): no Dask scheduler answered" in capsys.readouterr().err
