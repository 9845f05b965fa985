"""Settings for the Postgres store: ``store``, ``postgres_url_env``, the URL and its redaction."""

from __future__ import annotations

import pytest

from rfp_retrieval.settings import SettingsError, load_settings, redact_url

URL = "postgresql://writer:s3cret@db.internal:5432/rfp"


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("RFP_RETRIEVAL_CONFIG", "RFP_RETRIEVAL_STORE", "RFP_RETRIEVAL_POSTGRES_URL_ENV"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("RFP_RETRIEVAL_POSTGRES_URL", raising=False)
    return monkeypatch


def test_default_store_is_duckdb_and_url_variable_has_its_default_name(tmp_path, clean_env):
    settings = load_settings(tmp_path)
    assert (settings.store, settings.postgres_url_env) == ("duckdb", "RFP_RETRIEVAL_POSTGRES_URL")


def test_store_from_file_and_url_read_from_the_named_variable_at_call_time(tmp_path, clean_env):
    (tmp_path / "rfp-retrieval.yaml").write_text("store: postgres\npostgres_url_env: TEAM_PG\n")
    settings = load_settings(tmp_path)
    assert (settings.store, settings.postgres_url_env) == ("postgres", "TEAM_PG")
    with pytest.raises(SettingsError, match=r"TEAM_PG holding the Postgres URL is not set"):
        _ = settings.postgres_url
    clean_env.setenv("TEAM_PG", URL)  # set after loading: still read
    assert settings.postgres_url == URL
    assert settings.postgres_url_redacted == "postgresql://writer:***@db.internal:5432/rfp"
    assert "s3cret" not in repr(settings)


def test_environment_selects_the_store(tmp_path, clean_env):
    clean_env.setenv("RFP_RETRIEVAL_STORE", "postgres")
    clean_env.setenv("RFP_RETRIEVAL_POSTGRES_URL", URL)
    settings = load_settings(tmp_path)
    assert (settings.store, settings.postgres_url) == ("postgres", URL)


def test_unknown_store_is_refused_in_file_and_environment(tmp_path, clean_env):
    (tmp_path / "rfp-retrieval.yaml").write_text("store: mysql\n")
    with pytest.raises(SettingsError, match=r"rfp-retrieval.yaml: store: mysql: unknown store"):
        load_settings(tmp_path)
    (tmp_path / "rfp-retrieval.yaml").unlink()
    clean_env.setenv("RFP_RETRIEVAL_STORE", "sqlite")
    with pytest.raises(SettingsError, match=r"RFP_RETRIEVAL_STORE=sqlite: unknown store"):
        load_settings(tmp_path)


def test_a_url_written_where_the_variable_name_belongs_is_refused(tmp_path, clean_env):
    (tmp_path / "rfp-retrieval.yaml").write_text(f"postgres_url_env: '{URL}'\n")
    with pytest.raises(SettingsError, match="not an environment variable name") as err:
        load_settings(tmp_path)
    assert "s3cret" not in str(err.value)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://u:p%40ss@h:5432/db", "postgresql://u:***@h:5432/db"),
        ("postgresql://u@h/db", "postgresql://u@h/db"),
        (
            "postgresql://u@h/db?sslmode=require&password=x",
            "postgresql://u@h/db?sslmode=require&password=***",
        ),
        ("host=h password=secret dbname=d", "host=h password=*** dbname=d"),
        ("host=h password='a b' dbname=d", "host=h password=*** dbname=d"),
    ],
)
def test_redact_url_masks_every_password_form(url, shown):
    assert redact_url(url) == shown
