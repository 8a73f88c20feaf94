"""Thin CLI subcommands over the extraction library."""
