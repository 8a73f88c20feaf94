"""The title-choice analysis must find a labelling convention when the page shows one: its
finding that WCXB's title misses are not learnable is only worth something if it would have
learned a convention that is."""

from __future__ import annotations

from pathlib import Path

from datautil import write_labelled_page

from newscrawl.evaluation.title_choice import FEATURES, choice_ceiling, title_candidates
from newscrawl.extraction.parse import parse

TOPICS = ("Wedding Planning Tools", "Garden Pest Control", "Budget Travel Tips",
          "Home Espresso Basics", "Winter Cycling Gear", "Beginner Bread Baking",
          "Small Office Networks", "Kitchen Knife Care", "Balcony Vegetable Growing",
          "Trail Running Shoes", "Family Board Games", "Used Car Inspections",
          "Freelance Invoicing Habits", "Watercolour Paper Choices", "Aquarium Water Testing",
          "Camping Stove Fuels", "Houseplant Light Needs", "Podcast Microphone Setup",
          "Puppy Crate Training", "Rainwater Harvesting Barrels")


def _page(topic: str, site: str) -> str:
    return (f"<html><head><title>{topic} - A Longer Subtitle Here - {site}</title></head><body>"
            f"<h1>{topic} – A Longer Subtitle Here</h1>"
            f"<p>{topic} explained at length for readers who want the details.</p>"
            "</body></html>")


def test_candidates_mark_where_a_segment_sits():
    root = parse(_page("Wedding Planning Tools", "Happily Connected"))
    texts, rows = title_candidates(root, "https://happily.example/tools")
    by_text = dict(zip(texts, rows, strict=True))
    first = by_text["Wedding Planning Tools"]
    assert first[FEATURES.index("first_segment")] == 1
    assert first[FEATURES.index("opens_h1")] == 1
    assert first[FEATURES.index("rules")] == 0
    assert by_text["Happily Connected"][FEATURES.index("last_segment")] == 1
    assert rows.shape == (len(texts), len(FEATURES))


def test_learns_a_convention_the_rules_do_not_follow(tmp_path: Path):
    # Every label is the <title>'s first segment, where the rules take the <h1>: the rules
    # score nothing, and a chooser that learns from the candidates' marks gets them right.
    for i, topic in enumerate(TOPICS):
        site = f"Site Number {i}"
        write_labelled_page(tmp_path, f"{i:04d}", _page(topic, site), topic,
                            f"https://site{i}.example/{i}", title=topic)
    result = choice_ceiling(str(tmp_path), folds=4, seeds=1)
    assert result["pages"] == len(TOPICS)
    assert result["candidates_hold_label"] == 1.0
    assert result["rules"] == 0.0
    assert result["learned_with_rules"][0] >= 0.9
    assert result["learned_without_rules"][0] >= 0.9
    assert result["first_segment_opening_rules_title"] == {"label_is_segment": len(TOPICS)}
