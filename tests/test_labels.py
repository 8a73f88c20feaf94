"""Label alignment: ground truth written by people differs from the DOM's text in whitespace,
Unicode forms and small edits, and short boilerplate strings occur in it by chance."""

from __future__ import annotations

from newscrawl.training.labels import label_nodes

TRUTH = """Storm closes coast road

The coast road was closed on Monday after waves broke over the sea wall near the harbour.

Engineers said the wall would be inspected tomorrow, and that repairs could take weeks.

Share this story with friends who live near the coast."""


def test_exact_and_reformatted_paragraphs_are_content() -> None:
    texts = [
        "Storm closes coast road",
        "The coast  road was closed on Monday\nafter waves broke over the sea wall near the "
        "harbour.",
        "ENGINEERS said the wall would be inspected tomorrow, and that repairs could take weeks.",
    ]
    assert label_nodes(texts, TRUTH).tolist() == [1, 1, 1]


def test_fuzzy_paragraph_with_a_few_words_changed_is_content() -> None:
    texts = ["Engineers said the wall would be inspected tomorrow, and that the repairs could "
             "take several weeks."]
    assert label_nodes(texts, TRUTH).tolist() == [1]


def test_unrelated_paragraph_and_far_short_string_are_not() -> None:
    texts = [
        "Subscribe to our newsletter for the latest offers from our partners.",
        "The coast road was closed on Monday after waves broke over the sea wall near the "
        "harbour.",
        "Engineers said the wall would be inspected tomorrow, and that repairs could take weeks.",
        "Storm closes",  # in the truth, but far before where the content run has got to
    ]
    labels = label_nodes(texts, TRUTH).tolist()
    assert labels == [0, 1, 1, 0]


def test_short_string_next_to_matched_content_is_content() -> None:
    texts = ["Storm closes coast road", "harbour", "Unrelated sidebar teaser about football."]
    assert label_nodes(texts, "Storm closes coast road\n\nharbour").tolist() == [1, 1, 0]


def test_chinese_truth_aligns_by_character() -> None:
    truth = "北京今天下雪了。交通受到影响，市民出行请注意安全。"
    texts = ["首页 新闻 体育", "北京今天下雪了。交通受到影响，", "市民出行请注意安全。"]
    assert label_nodes(texts, truth).tolist() == [0, 1, 1]


def test_empty_truth_labels_nothing() -> None:
    assert label_nodes(["Some text here"], "").tolist() == [0]
