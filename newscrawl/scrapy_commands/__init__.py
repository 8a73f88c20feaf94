"""Scrapy commands of the project (``COMMANDS_MODULE``); the ``newscrawl`` CLI's own commands
are in ``newscrawl.commands``."""
