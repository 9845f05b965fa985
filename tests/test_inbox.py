from rfp_retrieval.inbox import partition_key_for, scan_inbox


def test_partition_key_keeps_suffix_and_slugs_the_stem():
    assert partition_key_for("RFP 001 (Navy).md") == "rfp-001-navy-md"
    assert partition_key_for("18f-hhs-tdrs-rfq-final.docx") == "18f-hhs-tdrs-rfq-final-docx"
    assert partition_key_for("18f-hhs-tdrs-rfq-final.md") == "18f-hhs-tdrs-rfq-final-md"


def test_partition_key_never_holds_range_separator_slashes_or_newlines():
    names = ["a...b.md", "../../etc/passwd.md", "line\nbreak.pdf", "Ünïcødé RFP.pdf", "x" * 300]
    keys = [partition_key_for(n) for n in names]
    for key in keys:
        assert "..." not in key and "/" not in key and "\n" not in key
        assert len(key) <= 80
        assert key == key.lower()
    assert len(set(keys)) == len(keys)


def test_lossy_names_get_a_hash_so_they_do_not_collide():
    assert partition_key_for("Prüfung.md") != partition_key_for("Prfung.md")
    assert partition_key_for("Prüfung.md").startswith("pr-fung-md-")


def test_scan_inbox_skips_hidden_temp_and_unsupported_files(tmp_path):
    (tmp_path / "a.md").write_text("# A")
    (tmp_path / ".hidden.md").write_text("# H")
    (tmp_path / "~$lock.docx").write_text("x")
    (tmp_path / "notes.rtf").write_text("x")
    (tmp_path / "logo.png").write_bytes(b"x")
    (tmp_path / "questionnaire.xlsx").write_bytes(b"x")
    assert sorted(scan_inbox(tmp_path)) == ["a-md", "questionnaire-xlsx"]
