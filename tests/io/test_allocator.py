"""The lean allocator (io.allocator) is chosen per pair: an F-beta pair reads and
scores on it, and the next pair of another kind gets Arrow's own pool back (the
app loads many pairs in one process; the lean pair slows kappa's pieces)."""
import pyarrow as pa
import pytest

from filemaker import write
from kmetric_gui.io import allocator
from kmetric_gui.analysis.scoring import load, score_prepared


@pytest.fixture
def restored():
    yield
    allocator.use_default()


def _fbeta(tmp_path):
    sol = write(tmp_path / "f_sol.csv", "Id,PredictionString\na,x y|z\nb,w\nc,\n")
    sub = write(tmp_path / "f_sub.csv", "Id,PredictionString\nb,w\na,x y\nc,q\n")
    return sol, sub


def _kappa(tmp_path):
    sol = write(tmp_path / "k_sol.csv", "id_code,diagnosis\na,0\nb,1\nc,2\nd,2\n")
    sub = write(tmp_path / "k_sub.csv", "id_code,diagnosis\nd,2\nc,1\nb,1\na,0\n")
    return sol, sub


def test_an_fbeta_pair_then_a_kappa_pair_get_their_own_allocator(tmp_path, restored):
    own = pa.default_memory_pool().backend_name
    rep = score_prepared(load(*_fbeta(tmp_path)))
    assert allocator.is_lean() and pa.default_memory_pool().backend_name == "system"
    assert (rep.result.tp, rep.result.fp, rep.result.fn) == (2, 1, 1)   # by hand: w, x y; z; q
    rep = score_prepared(load(*_kappa(tmp_path)))
    assert not allocator.is_lean() and pa.default_memory_pool().backend_name == own
    # By hand: truth 0 1 2 2, prediction 0 1 1 2; sum W*O = 1/4, sum W*E = 1.25.
    assert rep.result.score == pytest.approx(1 - 0.25 / 1.25)


def test_use_default_without_lean_changes_nothing(restored):
    pool = pa.default_memory_pool()
    allocator.use_default()
    assert pa.default_memory_pool() is pool or \
        pa.default_memory_pool().backend_name == pool.backend_name


def test_back_to_default_sets_the_trim_threshold_too(monkeypatch, restored):
    # Setting glibc's mmap threshold freezes its trim threshold at 128 KiB: every free at
    # the heap's top went back to the system (kappa 5M after F-beta: +0.3-0.7 s of system time).
    calls = []
    monkeypatch.setattr(allocator, "_mallopt", lambda value, param=allocator._M_MMAP_THRESHOLD:
                        calls.append((param, value)))
    allocator.use_lean()
    allocator.use_default()
    assert calls == [(allocator._M_MMAP_THRESHOLD, allocator.LEAN_THRESHOLD),
                     (allocator._M_MMAP_THRESHOLD, allocator.DEFAULT_THRESHOLD),
                     (allocator._M_TRIM_THRESHOLD, allocator.DEFAULT_TRIM)]
