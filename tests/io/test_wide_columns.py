"""Wide files: detection, reading and validation touch each column a bounded number of
times, so their cost grows linearly with the columns (issue 39: a 12,000-class
submission took 5 minutes before scoring; 100,000 columns ran past 400 s).

No timings: the tables are wrapped so every look-up is counted. Reading a table's list
of names (``column_names``, ``schema.names``, ``columns``) costs one unit per column
(Arrow builds that list anew on every call), ``column(key)`` one unit, and each
comparison of a column name with another string one unit (a name searched for in a
list of names compares it with the names before it). Ten times the columns must cost
at most about ten times as much; a look-up per column in a list of all names costs a
hundred times as much.
"""
import numpy as np
import pyarrow as pa
import pytest

from kmetric_gui.analysis.scoring import Options
from kmetric_gui.errors import InputError
from kmetric_gui.io.prepare import prepare
from kmetric_gui.metrics import Sample, choose_metric

COST = [0]


class Name(str):
    """A column name that counts its comparisons."""

    def __eq__(self, other):
        COST[0] += 1
        return str.__eq__(self, other)

    def __ne__(self, other):
        COST[0] += 1
        return str.__ne__(self, other)

    __hash__ = str.__hash__


class CountedSchema:
    def __init__(self, schema, names):
        self._schema, self._names = schema, names

    @property
    def names(self):
        COST[0] += len(self._names)
        return list(self._names)

    def __iter__(self):
        COST[0] += len(self._names)
        return iter(self._schema)

    def __len__(self):
        return len(self._names)

    def field(self, key):
        COST[0] += 1
        return self._schema.field(key if isinstance(key, int) else str(key))

    def get_field_index(self, key):
        COST[0] += 1
        return self._schema.get_field_index(str(key))

    def __getattr__(self, attr):
        return getattr(self._schema, attr)


class CountedTable:
    """A pyarrow Table whose look-ups are counted (everything else is the table's own)."""

    def __init__(self, table):
        self._t = table
        self._names = [Name(c) for c in table.schema.names]

    @property
    def column_names(self):
        COST[0] += len(self._names)
        return list(self._names)

    @property
    def schema(self):
        return CountedSchema(self._t.schema, self._names)

    @property
    def columns(self):
        COST[0] += len(self._names)
        return self._t.columns

    def column(self, key):
        COST[0] += 1
        return self._t.column(key if isinstance(key, int) else str(key))

    def slice(self, *a):
        return CountedTable(self._t.slice(*a))

    def drop_columns(self, names):
        return CountedTable(self._t.drop_columns([str(c) for c in names]))

    def __len__(self):
        return len(self._t)

    def __getattr__(self, attr):
        return getattr(self._t, attr)


def _pair(kind, c, n=6, drop=False):
    """(solution, submission) pyarrow tables of ``c`` classes and ``n`` rows."""
    rng = np.random.default_rng(c)
    ids = pa.array([f"r{i}" for i in range(n)])
    names = [f"class_{j}" for j in range(c)]
    if kind == "multilabel":             # 0/1 columns, scores
        truth = (rng.random((n, c)) < 0.2).astype(np.int64)
        truth[np.arange(n), np.arange(n) % c] = 1
        truth[0, :] = 1
        sol = {"id": ids, **{m: truth[:, j] for j, m in enumerate(names)}}
        sub = {"id": ids, **{m: rng.random(n) for m in names}}
    elif kind in ("labels", "onehot"):   # one class a row, probabilities
        codes = np.arange(n) % c
        p = rng.random((n, c))
        p /= p.sum(axis=1, keepdims=True)
        if kind == "labels":
            sol = {"id": ids, "label": pa.array([names[k] for k in codes])}
        else:
            sol = {"id": ids, **{m: (codes == j).astype(np.int64) for j, m in enumerate(names)}}
        sub = {"id": ids, **{m: p[:, j] for j, m in enumerate(names)}}
    else:                                # several real targets
        sol = {"id": ids, **{m: rng.normal(size=n) for m in names}}
        sub = {"id": ids, **{m: rng.normal(size=n) for m in names}}
    if drop:                             # a class column missing from the submission
        del sub[names[-1]]
    return pa.table(sol), pa.table(sub)


def _cost(kind, c, metric=None, drop=False):
    sol, sub = _pair(kind, c, n=max(6, c) if kind == "labels" else 6, drop=drop)
    sol, sub = CountedTable(sol), CountedTable(sub)
    COST[0] = 0
    sample = Sample(sol, sub, "id")
    try:
        choose_metric([x for x in sub.column_names if x != "id"], metric, sample)
    except InputError:
        pass
    try:
        prep = prepare(sol, sub, "solution s.csv", "submission t.csv", Options(metric=metric))
    except InputError as e:
        prep = e
    return COST[0], prep


CASES = [("multilabel", None), ("multilabel", "auc"), ("multilabel", "lwlrap"),
         ("labels", None), ("labels", "logloss"), ("labels", "auc"), ("labels", "lwlrap"),
         ("onehot", "logloss"), ("real", None), ("real", "mcrmse")]


@pytest.mark.parametrize("kind,metric", CASES)
@pytest.mark.parametrize("drop", [False, True], ids=["same columns", "one missing"])
def test_look_ups_grow_linearly_with_the_columns(kind, metric, drop):
    if drop and kind == "labels":
        pytest.skip("a labels solution has no class columns to miss")
    small, prep = _cost(kind, 40, metric, drop)
    big, prep_big = _cost(kind, 400, metric, drop)
    assert type(prep) is type(prep_big)
    if drop or metric is not None:   # the layout was read (or refused) by the metric asked for
        assert not isinstance(prep_big, Exception) or drop, prep_big
    assert big <= 13 * small, (small, big)


def test_the_counts_see_a_quadratic_look_up():
    """The measure itself: a name searched for in the list of names, once per column."""
    def quadratic(c):
        t = CountedTable(_pair("real", c)[0])
        COST[0] = 0
        for name in t.column_names:
            assert name in t.column_names
        return COST[0]
    assert quadratic(400) > 50 * quadratic(40)


def test_detection_counts_and_reasons_unchanged_by_the_counting():
    sol, sub = _pair("multilabel", 30)
    plain = choose_metric([c for c in sub.column_names if c != "id"], None, Sample(sol, sub, "id"))
    counted = choose_metric([c for c in sub.column_names if c != "id"], None,
                            Sample(CountedTable(sol), CountedTable(sub), "id"))
    assert (plain[0].name, plain[1]) == (counted[0].name, counted[1])


def _write(path, table):
    import pyarrow.csv as pacsv
    pacsv.write_csv(table, path)
    return str(path)


@pytest.mark.parametrize("case", ["missing columns", "classes never held"])
def test_a_wide_pairs_problem_is_one_short_line(tmp_path, capsys, case):
    """Problems and notes about many columns name a few and count them (a 12,000-class pair
    printed every class name on one line: 100 kB). Classes the solution never holds are
    scored as Kaggle scores them, with a note (issue 35); missing columns are refused."""
    from kmetric_gui.cli import main
    if case == "missing columns":
        sol, sub = _pair("multilabel", 600)
        sub = sub.select(list(range(101)))            # id + 100 of the 600 classes
        argv = ["--metric", "auc"]
        expect = "500 in all"
    else:
        sol, sub = _pair("labels", 600, n=50)         # 50 rows hold 50 of 600 classes
        argv = ["--metric", "logloss"]
        expect = "550 in all"
    code = main(["score", _write(tmp_path / "s.csv", sol), _write(tmp_path / "t.csv", sub), *argv])
    out = capsys.readouterr()
    lines = (out.err if case == "missing columns" else out.out).splitlines()
    assert code == (2 if case == "missing columns" else 0), out.err
    line = next(x for x in lines if expect in x)
    assert len(line) < 400, line


def test_a_header_over_the_width_limit_is_not_parsed_for_the_sample(tmp_path, monkeypatch):
    """The first-rows sample that picks the fast reader checks the header's width first:
    a 100,000-column header was parsed and sampled before the full read refused it."""
    import pyarrow.csv as pacsv
    from kmetric_gui.analysis import scoring
    from kmetric_gui.io.width import MAX_COLUMNS
    wide = tmp_path / "wide.csv"
    wide.write_text(",".join(f"c{i}" for i in range(MAX_COLUMNS + 1)) + "\n"
                    + ",".join(["1"] * (MAX_COLUMNS + 1)) + "\n")
    parsed = []
    real = pacsv.open_csv
    monkeypatch.setattr(pacsv, "open_csv", lambda *a, **k: parsed.append(a) or real(*a, **k))
    assert scoring._sample_choice(wide, wide, scoring.Options()) is None
    assert parsed == []
    narrow = tmp_path / "narrow.csv"
    narrow.write_text("id,target\na,1\nb,2\nc,3\n")
    scoring._sample_choice(narrow, narrow, scoring.Options())
    assert parsed                                   # the sample is still read otherwise
