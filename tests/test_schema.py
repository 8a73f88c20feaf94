"""The output schema: valid, in step with the Article item, and met by every exported line."""

from __future__ import annotations

import json
from importlib.resources import files
from typing import TYPE_CHECKING

import jsonschema
import pytest
from itemadapter import ItemAdapter

from newscrawl.items import Article

if TYPE_CHECKING:
    from crawlutil import CrawlResult


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(files("newscrawl").joinpath("article.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def test_schema_lists_exactly_the_item_fields(validator: jsonschema.Validator) -> None:
    assert set(validator.schema["properties"]) == set(
        ItemAdapter.get_json_schema(Article)["properties"])


def test_every_exported_line_validates(sample_crawl: CrawlResult,
                                       validator: jsonschema.Validator) -> None:
    assert sample_crawl.items
    for item in sample_crawl.items:
        validator.validate(item)


def test_schema_rejects_broken_lines(sample_crawl: CrawlResult,
                                     validator: jsonschema.Validator) -> None:
    good = sample_crawl.items[0]
    for broken in ({k: v for k, v in good.items() if k != "text"}, {**good, "text": ""},
                   {**good, "content_hash": "xyz"}, {**good, "body": "<html>"}):
        assert not validator.is_valid(broken)
