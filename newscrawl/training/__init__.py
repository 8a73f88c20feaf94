"""Labelling, fitting and cross-validation of the node classifier; never imported by the crawler."""
