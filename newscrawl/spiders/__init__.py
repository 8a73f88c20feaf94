"""Spiders find article URLs and hand raw responses to the pipelines; they never extract."""
