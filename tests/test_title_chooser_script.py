"""scripts/title_chooser_cv.py backs the claim that WCXB's title misses are the labels'
conventions (a learned chooser finds no more than the rules). It reads the metadata module's
internals, so it must keep running as they change, and its learner must find a convention
when the pages do show one, or its "no gain" says nothing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from datautil import write_labelled_page

ROOT = Path(__file__).resolve().parents[1]
TOPICS = ("Wedding Planning Tools", "Garden Pest Control", "Budget Travel Tips",
          "Home Espresso Basics", "Winter Cycling Gear", "Beginner Bread Baking",
          "Small Office Networks", "Kitchen Knife Care", "Balcony Vegetable Growing",
          "Trail Running Shoes", "Family Board Games", "Used Car Inspections",
          "Freelance Invoicing Habits", "Watercolour Paper Choices", "Aquarium Water Testing",
          "Camping Stove Fuels", "Houseplant Light Needs", "Podcast Microphone Setup",
          "Puppy Crate Training", "Rainwater Harvesting Barrels")


def test_chooser_learns_a_convention_the_rules_do_not_follow(tmp_path: Path):
    # Every label is the <title>'s first segment where the rules take the whole <h1>
    # ("Wedding Planning Tools – A Longer Subtitle Here"): the rules score nothing on these
    # pages, and a chooser that learns from the candidates' features gets them right.
    for i, topic in enumerate(TOPICS):
        html = (f"<html><head><title>{topic} - A Longer Subtitle Here - Site {i}</title>"
                f"</head><body><h1>{topic} – A Longer Subtitle Here</h1>"
                f"<p>{topic} explained at length for readers who want the details.</p>"
                "</body></html>")
        write_labelled_page(tmp_path, f"{i:04d}", html, topic, f"https://site{i}.example/p",
                            title=topic)
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "title_chooser_cv.py"), "--data", str(tmp_path)],
        capture_output=True, text=True, check=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout
    assert "a candidate equals the label on 1.0000" in out
    cv = [tuple(map(float, m)) for m in re.findall(r"CV: learned ([\d.]+) rules ([\d.]+)", out)]
    assert len(cv) == 3
    for learned, rules in cv:
        assert rules == 0.0
        assert learned >= 0.9
