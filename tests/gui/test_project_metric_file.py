"""The project's "metric_file" field: checked before anything is used, refused in
words naming the field (hostile or careless files), a valid one read back as written."""
import json

import pytest

from kmetric_gui.gui.project_file import ProjectError, read_project

SHA = "ab" * 32


def project(tmp_path, metric_file):
    ref = {"path": "t.csv", "absolute": "/x/t.csv", "size": 3, "sha256": SHA}
    d = {"format": "kmetric-project", "format_version": 1,
         "files": {"truth": ref, "submission": dict(ref, path="s.csv")},
         "options": {}, "edits": [], "view": {}, "metric_file": metric_file}
    p = tmp_path / "p.kmetric"
    p.write_text(json.dumps(d))
    return p


GOOD = {"path": "metric.py", "absolute": "/x/metric.py", "sha256": SHA,
        "args": {"epsilon": 1e-15, "micro_average": False, "mode": "macro", "k": 3},
        "higher_is_better": False, "python": "/venvs/pandas1/bin/python", "sandbox": "require"}


def test_a_valid_metric_file_is_read_back(tmp_path):
    assert read_project(project(tmp_path, GOOD)).metric_file == GOOD
    assert read_project(project(tmp_path, None)).metric_file is None


@pytest.mark.parametrize("change, words", [
    ({"path": "metric.exe"}, "field 'metric_file.path' must be the path of a .py or .ipynb file"),
    ({"path": ""}, "field 'metric_file.path'"),
    ({"path": "a" * 5000 + ".py"}, "field 'metric_file.path'"),
    ({"path": ["metric.py"]}, "field 'metric_file.path'"),
    ({"sha256": "XYZ"}, "field 'metric_file.sha256' must be 64 hexadecimal digits"),
    ({"sha256": None}, "field 'metric_file.sha256'"),
    ({"higher_is_better": "yes"}, "field 'metric_file.higher_is_better' must be true, false or empty"),
    ({"args": []}, "field 'metric_file.args' must be an object"),
    ({"args": {f"a{i}": 1 for i in range(101)}}, "at most 100 arguments"),
    ({"args": {"__import__('os')": 1}}, "is not a Python argument name"),
    ({"args": {"x": {"nested": 1}}}, "field 'metric_file.args.x' must be a number"),
    ({"args": {"x": [1, 2]}}, "field 'metric_file.args.x' must be a number"),
    ({"args": {"x": 1e400}}, "field 'metric_file.args.x'"),
    ({"args": {"x": "a\x00b"}}, "field 'metric_file.args.x'"),
    ({"code": "import os"}, "field 'metric_file.code' is not a field of a metric file"),
    ({"sandbox": "none"}, "field 'metric_file.sandbox' must be one of auto, off, require"),
    ({"sandbox": False}, "field 'metric_file.sandbox'"),
    ({"python": ["/bin/python"]}, "field 'metric_file.python' must be empty or the path of a Python"),
    ({"python": "p" * 5000}, "field 'metric_file.python'"),
])
def test_hostile_metric_file_fields_are_refused_in_words(tmp_path, change, words):
    p = project(tmp_path, dict(GOOD, **change))
    with pytest.raises(ProjectError) as e:
        read_project(p)
    assert words in str(e.value) and "p.kmetric" in str(e.value)


@pytest.mark.parametrize("value", [[], "metric.py", 3, True])
def test_metric_file_must_be_an_object(tmp_path, value):
    with pytest.raises(ProjectError, match="field 'metric_file' must be an object"):
        read_project(project(tmp_path, value))
