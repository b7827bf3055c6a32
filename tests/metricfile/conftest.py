import pytest


@pytest.fixture(autouse=True)
def own_config(tmp_path_factory, monkeypatch):
    """The once-per-file notice remembers files in a folder of the test's own."""
    monkeypatch.setenv("KMETRIC_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
