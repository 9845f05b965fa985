"""``run`` refuses at once, exit 2 and no traceback, when a folder it writes cannot be made:
the DuckDB file's folder or ``output_dir`` (break-it: a raw traceback from the store's mkdir,
or every RFP failing in its last step after all the work)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli.app import app
from rfp_retrieval.settings import SettingsError, load_settings, prepare_output_folders


@pytest.fixture
def project(tmp_path, monkeypatch):
    for name in ("CONFIG", "DB_PATH", "OUTPUT_DIR", "STORE"):
        monkeypatch.delenv(f"RFP_RETRIEVAL_{name}", raising=False)
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("setting", "value", "folder", "reason"),
    [
        ("db_path", "a-file/store.duckdb", "a-file", "File exists"),
        ("output_dir", "a-file", "a-file", "File exists"),
    ],
)
def test_a_folder_the_run_writes_that_cannot_be_made_is_a_settings_error(
    project, setting, value, folder, reason
):
    (project / "rfp-retrieval.yaml").write_text(f"{setting}: {value}\n", encoding="utf-8")
    settings = load_settings(project)
    with pytest.raises(SettingsError) as info:
        prepare_output_folders(settings)
    assert str(info.value).startswith(
        f"{setting}: cannot create the folder {project / folder} ({reason}); set {setting}"
    )
    result = CliRunner().invoke(app, ["run", "--config", str(project / "rfp-retrieval.yaml")])
    assert result.exit_code == 2
    assert "Settings error:" in result.output and "Traceback" not in result.output


def test_missing_folders_are_created(project):
    (project / "rfp-retrieval.yaml").write_text(
        "db_path: var/new/store.duckdb\noutput_dir: out/briefs\n", encoding="utf-8"
    )
    settings = load_settings(project)
    prepare_output_folders(settings)
    assert (project / "var" / "new").is_dir() and (project / "out" / "briefs").is_dir()


def test_an_existing_folder_the_run_cannot_write_in_is_a_settings_error(project, monkeypatch):
    """Break-it: a read-only project folder (a copy from a read-only share) passed the check
    (its folders exist) and every RFP failed in its last step. Root writes anywhere, so the
    refusal is simulated where the probe file is made."""
    import os
    import tempfile

    (project / "rfp-retrieval.yaml").write_text(
        "db_path: var/store.duckdb\noutput_dir: out\n", encoding="utf-8"
    )
    (project / "out").mkdir()
    real = tempfile.TemporaryFile

    def read_only(*args, dir=None, **kwargs):  # noqa: A002 -- tempfile's own name
        if dir is not None and os.path.samefile(dir, project / "out"):
            raise PermissionError(13, "Permission denied")
        return real(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "TemporaryFile", read_only)
    with pytest.raises(SettingsError) as info:
        prepare_output_folders(load_settings(project))
    assert str(info.value) == (
        f"output_dir: cannot write in the folder {project / 'out'} (Permission denied); set "
        "output_dir in rfp-retrieval.yaml / RFP_RETRIEVAL_OUTPUT_DIR to a folder you can write"
    )
    result = CliRunner().invoke(app, ["run", "--config", str(project / "rfp-retrieval.yaml")])
    assert result.exit_code == 2
    assert "cannotwriteinthefolder" in "".join(result.output.split())
    assert list((project / "out").iterdir()) == [] and list((project / "var").iterdir()) == []
