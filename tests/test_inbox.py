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


def test_two_names_with_one_key_keep_the_older_file_and_report_the_other(tmp_path):
    import os

    from rfp_retrieval.inbox import skipped_in_inbox

    older, newer = tmp_path / "rfp_1.md", tmp_path / "RFP 1.md"
    older.write_text("# Older\n")
    newer.write_text("# Newer\n")
    os.utime(older, ns=(1_000_000_000, 1_000_000_000))
    os.utime(newer, ns=(2_000_000_000, 2_000_000_000))
    found = scan_inbox(tmp_path)
    assert sorted(found) == ["rfp-1-md"]
    assert found["rfp-1-md"].path.name == "rfp_1.md"
    skipped = skipped_in_inbox(tmp_path)
    assert [(p.name, r) for p, r in skipped] == [
        (
            "RFP 1.md",
            "its partition key 'rfp-1-md' is already taken by rfp_1.md (the names differ only "
            "in case, spaces or punctuation); rename one of the two files",
        )
    ]
