"""detect_language: the declaration stands unless the text clearly says otherwise."""

from __future__ import annotations

import time

from newscrawl.extraction.language import detect, detect_language

EN = "The city council approved the new budget on Tuesday after a long debate about schools. " * 5
DE = "Der Stadtrat hat am Dienstag nach einer langen Debatte den neuen Haushalt beschlossen. " * 5
FR = "Le conseil municipal a adopté mardi le nouveau budget après un long débat scolaire. " * 5
ZH = "市议会周二在就学校问题进行长时间辩论后批准了新的预算，居民对此反应不一。" * 10


def test_declared_tag_kept_when_detection_agrees():
    assert detect_language(EN, "en-GB") == "en-GB"
    assert detect_language(ZH, "zh-Hant-TW") == "zh-Hant-TW"


def test_detection_wins_over_a_wrong_declaration():
    assert detect_language(DE, "en") == "de"
    assert detect_language(FR, "en-US") == "fr"


def test_detection_fills_a_missing_declaration():
    assert detect_language(FR, None) == "fr"


def test_short_text_keeps_the_declaration():
    assert detect_language("Jane Doe, 5 March", "pt-BR") == "pt-BR"
    assert detect_language("", None) is None
    assert detect("short") == (None, 0.0)


def test_long_text_is_sampled_and_fast():
    text = DE * 200
    detect_language(text, "de")  # loads the model
    start = time.perf_counter()
    for _ in range(20):
        assert detect_language(text, "en") == "de"
    assert (time.perf_counter() - start) / 20 < 0.01
