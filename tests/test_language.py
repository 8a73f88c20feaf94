"""detect_language: the declaration stands unless the text clearly says otherwise."""

from __future__ import annotations

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


def test_long_text_is_read_right():
    text = DE * 200
    assert detect_language(text, "en") == "de"


def test_window_walk_is_active_and_gives_py3langids_scores():
    """The vectorised tokenizer walk is in use, and scores exactly as py3langid's own loop."""
    import random

    import numpy as np
    from py3langid.langid import LanguageIdentifier

    from newscrawl.extraction.language import _identifier

    identifier = _identifier()
    assert identifier.window_walk is not None
    rng = random.Random(7)
    samples = [EN, DE, FR, ZH, "", "x", "\u00e9" * 3] + [rng.randbytes(rng.randint(0, 600))
                                                        for _ in range(50)]
    for sample in samples:
        data = sample if isinstance(sample, bytes) else identifier._encode(sample)
        own = LanguageIdentifier._raw_score(identifier, data)
        assert np.array_equal(identifier._raw_score(data), own)


def test_window_covers_the_tokenizer_trie():
    """The walk's premise: no DFA state lies deeper than _WINDOW bytes from the start state
    (breadth-first search over all transitions; a new py3langid model must still pass)."""
    import numpy as np

    from newscrawl.extraction.language import _WINDOW, _identifier

    identifier = _identifier()
    nextmove = np.frombuffer(identifier.tk_nextmove,
                             dtype=f"u{identifier.tk_nextmove.itemsize}")
    rowbase = np.asarray(identifier._rowbase, dtype=np.int64)
    seen = np.zeros(len(rowbase), dtype=bool)
    seen[0] = True
    frontier = np.array([0])
    depth = 0
    while len(frontier):
        following = np.unique(nextmove[(rowbase[frontier][:, None] + np.arange(256)).ravel()])
        frontier = following[~seen[following]]
        seen[frontier] = True
        depth += 1 if len(frontier) else 0
    assert seen.all() and depth <= _WINDOW


def test_a_middle_of_white_space_is_read_past_not_taken_for_a_short_text():
    """A page's prose with its tags blanked out can be spaces in the middle, where the sample
    is cut: the language is still there to read."""
    german = ("Der Stadtrat hat am Dienstag nach einer langen Debatte den neuen Haushalt "
              "beschlossen. Die Schulen bekommen mehr Geld. ") * 6
    code, _ = detect(german + " \n" * 400 + german)
    assert code == "de"
    assert detect_language(german + " \n" * 400 + german, "en") == "de"
