"""Scoring and timing of the extractor; imported by the CLI only."""
