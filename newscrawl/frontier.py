"""One crawl shared by many workers through Redis: ``scrapy crawl news -s REDIS_URL=redis://...``.

Every worker given the same ``REDIS_URL`` takes from one frontier, on any machine. Built on
scrapy-redis: its scheduler, its priority queue (a sorted set of pickled requests, highest
priority first) and its request fingerprints (``RFPDupeFilter``); what reliability needs on
top of it is here:

- A request taken from the queue is *leased*, not removed: it moves to a sorted set scored by
  a deadline the worker renews while it holds the request, and leaves it only when Scrapy is
  done with it (downloaded, parsed, its items exported and written). A worker killed with
  SIGKILL stops renewing; once the deadline passes, the next worker that takes from the queue
  puts the request back, as it was, past the shared fingerprints, which would otherwise call
  it a repeat. A request whose lease lapsed ``NEWSCRAWL_FRONTIER_ATTEMPTS`` times (a page that
  kills every worker that reads it) is set aside in ``<spider>:dead`` rather than kill more.
- An article is claimed (``RedisExportedArticles``, what ``NEWSCRAWL_EXPORTED_FILE`` keeps
  for a single process) when it passes the duplicates pipeline, tied to its page's lease, and
  the claim becomes final the moment every feed has written the article through to the
  operating system (``newscrawl.feeds.item_exported``). A lease that lapses or is returned
  before then takes its claims back, so the retry exports the article; one that lapses after
  finds it exported, so the retry does not. Only a death in the one Redis round trip between
  the write and the record repeats an article.
- A fingerprint is added and its request queued in one step, so a death in between loses
  nothing. SIGTERM returns every request the worker still holds.
- The Redis client retries with backoff for about 50 s: Redis restarted (with AOF or
  RDB persistence) and the workers carry on where they were.
- Workers close once the shared frontier (queue and leases) has been empty for
  ``MAX_IDLE_TIME_BEFORE_CLOSE`` seconds, so a batch job ends. Seeds (``-a url=``/``-a
  sites=``) given to every worker are queued once: the fingerprints see the repeats.
- A worker that starts on an empty frontier starts the next crawl: the fingerprints of the
  last one are cleared, and its exported articles (kept in Redis) are skipped, so a crawl run
  on a schedule reads the front pages, sitemaps and feeds afresh and fetches only new pages.

Nothing here runs without ``REDIS_URL``: ``RedisFrontier`` is an add-on that raises
``NotConfigured`` then, and a single-process crawl is exactly what it was.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any, Self

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry
from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.settings import BaseSettings
from scrapy_redis.dupefilter import RFPDupeFilter
from scrapy_redis.queue import PriorityQueue
from scrapy_redis.scheduler import Scheduler
from twisted.internet import task

logger = logging.getLogger(__name__)

KEY_PREFIX = "%(spider)s"
"""Every key of one crawl starts with the spider's name; a database (``/N`` in the URL) or
another Redis keeps crawls apart."""

_PUSH = """
if ARGV[1] ~= '' and redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
return 1
"""
"""KEYS queue, fingerprints; ARGV fingerprint ('' for dont_filter), score, request."""

_RELEASE_LUA = """
local function release(m, requeue)
  local score = redis.call('HGET', KEYS[3], m)
  redis.call('HDEL', KEYS[3], m)
  redis.call('HDEL', KEYS[9], m)
  local claims = redis.call('HGET', KEYS[5], m)
  redis.call('HDEL', KEYS[5], m)
  if requeue then
    if claims then
      local c = cjson.decode(claims)
      for _, u in ipairs(c[1]) do redis.call('SREM', KEYS[6], u) end
      redis.call('SREM', KEYS[7], c[2])
    end
    redis.call('ZADD', KEYS[1], score or 0, m)
  else
    redis.call('HDEL', KEYS[4], m)
  end
end
"""
"""Shared by the scripts below. KEYS queue, leases, leased (request -> queue score),
attempts, claims (request -> its articles' URLs and text hash), exported URLs, exported
hashes, set aside, owners (request -> the worker holding its lease)."""

_TAKE = _RELEASE_LUA + """
local now = tonumber(redis.call('TIME')[1])
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 100)
local dead = 0
for _, m in ipairs(lapsed) do
  redis.call('ZREM', KEYS[2], m)
  if redis.call('HINCRBY', KEYS[4], m, 1) >= tonumber(ARGV[2]) then
    release(m, true)
    redis.call('ZREM', KEYS[1], m)
    redis.call('HDEL', KEYS[4], m)
    redis.call('RPUSH', KEYS[8], m)
    dead = dead + 1
  else
    release(m, true)
  end
end
local top = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #top == 0 then return {#lapsed, dead} end
redis.call('ZREM', KEYS[1], top[1])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), top[1])
redis.call('HSET', KEYS[3], top[1], top[2])
redis.call('HSET', KEYS[9], top[1], ARGV[3])
return {#lapsed, dead, top[1]}
"""
"""Put lapsed leases back (or aside, after too many), then lease the first request.
ARGV lease seconds, attempts, worker. Deadlines are Redis's clock, the same for every
machine."""

_GIVE_BACK = _RELEASE_LUA + """
local n = 0
for i = 2, #ARGV do
  local m = ARGV[i]
  if redis.call('HGET', KEYS[9], m) == ARGV[1] and redis.call('ZREM', KEYS[2], m) == 1 then
    release(m, true)
    n = n + 1
  end
end
return n
"""
"""Return requests still held (a worker stopping); ARGV worker, requests. A lease that
lapsed meanwhile is left to whoever took it back."""

_DONE = _RELEASE_LUA + """
if redis.call('HGET', KEYS[9], ARGV[2]) == ARGV[1] and redis.call('ZREM', KEYS[2], ARGV[2]) == 1
then release(ARGV[2], false) end
return 1
"""
"""ARGV worker, request. Only the lease's holder ends it: a worker that stalled past its lease
and finishes late must not end the lease of the worker that took the request back."""

_NEW_CRAWL = """
if redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[2]) > 0 then return -1 end
return redis.call('DEL', KEYS[3])
"""
"""KEYS queue, leases, fingerprints. With nothing queued or leased, the last crawl is over:
its fingerprints go (1 when there were some), in one step, so a worker that starts while
another is seeding the next crawl keeps the fingerprints of that one."""

_RENEW = """
local deadline = tonumber(redis.call('TIME')[1]) + tonumber(ARGV[1])
for i = 3, #ARGV do
  if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[2] then
    redis.call('ZADD', KEYS[1], 'XX', deadline, ARGV[i])
  end
end
return 1
"""
"""KEYS leases, owners; ARGV lease seconds, worker, requests: the worker's own leases only."""

_CLAIM = """
if ARGV[1] ~= '' then
  local urls = {}
  for i = 3, #ARGV do urls[#urls + 1] = ARGV[i] end
  if redis.call('HGET', KEYS[3], ARGV[1]) == cjson.encode({urls, ARGV[2]}) then return '' end
end
for i = 3, #ARGV do
  if redis.call('SISMEMBER', KEYS[1], ARGV[i]) == 1 then return 'url' end
end
if redis.call('SISMEMBER', KEYS[2], ARGV[2]) == 1 then return 'text' end
for i = 3, #ARGV do redis.call('SADD', KEYS[1], ARGV[i]) end
redis.call('SADD', KEYS[2], ARGV[2])
if ARGV[1] ~= '' and redis.call('ZSCORE', KEYS[4], ARGV[1]) then
  local urls = {}
  for i = 3, #ARGV do urls[#urls + 1] = ARGV[i] end
  redis.call('HSET', KEYS[3], ARGV[1], cjson.encode({urls, ARGV[2]}))
end
return ''
"""
"""KEYS exported URLs, exported hashes, claims, leases; ARGV the page's lease ('' none),
text hash, URLs. Returns which repeat it is ('url'/'text') or '' after recording it. The same
claim under the same lease again is '': a retry after Redis ran the script but the reply was
lost (the connection dropped, Redis restarted) must not find its own claim a repeat."""

IDLE_POLL = 0.5
"""Seconds between an idle worker's looks at a shared queue that other workers hold."""

RETRIES = 30
"""Redis commands are retried this many times with backoff capped at 2 s: ~50 s for Redis to
come back (a restart that reloads its AOF) before the worker stops with an error."""


class _LoggedRetry(Retry):
    """redis-py's retry, which waits in silence: a worker waiting for Redis says so once per
    command that fails, and again when Redis answers."""

    def call_with_retry(self, do: Any, fail: Any, is_retryable: Any = None,
                        with_failure_count: bool = False) -> Any:
        failures: list[Exception] = []

        def noted(error: Exception, *count: int) -> Any:
            if not failures:
                logger.warning("Redis unreachable (%s): retrying for about 50 s", error)
            failures.append(error)
            return fail(error, *count)

        result = super().call_with_retry(do, noted, is_retryable, with_failure_count)
        if failures:
            logger.warning("Redis answers again, after %d failed attempts", len(failures))
        return result


def connect(settings: BaseSettings) -> redis.Redis:
    """A client for ``REDIS_URL`` that outlives a Redis restart (see ``RETRIES``)."""
    retry = _LoggedRetry(ExponentialBackoff(cap=2.0, base=0.05), RETRIES,
                         supported_errors=(redis.ConnectionError, redis.TimeoutError,
                                           TimeoutError))
    return redis.Redis.from_url(settings["REDIS_URL"], retry=retry, socket_timeout=30,
                                socket_connect_timeout=5, health_check_interval=15)


def lease_seconds(settings: BaseSettings) -> int:
    """``NEWSCRAWL_FRONTIER_LEASE``, refused below 3 s: renewals come every third of it."""
    lease = settings.getint("NEWSCRAWL_FRONTIER_LEASE", 60)
    if lease < 3:
        raise ValueError(f"-s NEWSCRAWL_FRONTIER_LEASE={lease}: a lease needs 3 s or more")
    return lease


class Keys:
    """The Redis keys of one crawl (``news:requests``, ``news:leases`` ...)."""

    def __init__(self, spider_name: str):
        p = KEY_PREFIX % {"spider": spider_name}
        self.queue = f"{p}:requests"
        self.fingerprints = f"{p}:dupefilter"
        self.leases = f"{p}:leases"
        self.leased = f"{p}:leased"
        self.attempts = f"{p}:attempts"
        self.claims = f"{p}:claims"
        self.exported_urls = f"{p}:exported:urls"
        self.exported_hashes = f"{p}:exported:hashes"
        self.dead = f"{p}:dead"
        self.owners = f"{p}:owners"

    def release(self) -> list[str]:
        return [self.queue, self.leases, self.leased, self.attempts, self.claims,
                self.exported_urls, self.exported_hashes, self.dead, self.owners]


class RedisFrontier:
    """Add-on (``ADDONS``): with ``REDIS_URL`` set, the crawl's scheduler is
    ``LeasedScheduler``; without it, nothing changes."""

    def update_settings(self, settings: BaseSettings) -> None:
        if not settings.get("REDIS_URL"):
            raise NotConfigured  # no message: a single-process crawl is the usual case
        settings.set("SCHEDULER", "newscrawl.frontier.LeasedScheduler", "addon")


class LeasedQueue(PriorityQueue):
    """scrapy-redis's priority queue, whose ``pop`` leases (see the module's docstring)."""

    def __init__(self, server: redis.Redis, spider: Spider, key: str, serializer: Any = None,
                 lease_seconds: int = 60, attempts: int = 3):
        super().__init__(server, spider, key, serializer)
        self.keys = Keys(spider.name)
        self.lease_seconds = lease_seconds
        self.attempts = attempts
        self.held: dict[Request, bytes] = {}
        """Requests this worker took and Scrapy has not finished with, and their entries."""
        self.worker = uuid.uuid4().hex
        """Who holds the leases this queue takes: only their holder renews or ends them."""
        self.reclaimed = 0
        self.set_aside = 0
        self._push = server.register_script(_PUSH)
        self._take = server.register_script(_TAKE)
        self._give_back = server.register_script(_GIVE_BACK)
        self._done = server.register_script(_DONE)
        self._renew = server.register_script(_RENEW)

    def push_new(self, request: Request, fingerprint: str | None) -> bool:
        """Queue ``request`` unless its fingerprint was seen (None: ``dont_filter``);
        fingerprint and request are written in one step."""
        added = self._push(keys=[self.key, self.keys.fingerprints],
                           args=[fingerprint or "", -request.priority,
                                 self._encode_request(request)])
        return bool(added)

    def push(self, request: Request) -> None:
        self.push_new(request, None)

    def pop(self, timeout: int = 0) -> Request | None:
        lapsed, dead, *taken = self._take(keys=self.keys.release(),
                                          args=[self.lease_seconds, self.attempts, self.worker])
        if lapsed:
            self.reclaimed += lapsed - dead
            self.set_aside += dead
            logger.warning("Took back %d requests whose lease lapsed (a worker died?)%s",
                           lapsed - dead, f"; {dead} set aside in {self.keys.dead} after "
                           f"{self.attempts} lapses" if dead else "")
        if not taken:
            return None
        request = self._decode_request(taken[0])
        self.held[request] = taken[0]
        return request

    def done(self, request: Request) -> None:
        """Scrapy finished with ``request``: its lease ends, its articles count as exported."""
        if (entry := self.held.pop(request, None)) is not None:
            self._done(keys=self.keys.release(), args=[self.worker, entry])

    def lease_of(self, url: str) -> bytes | None:
        """The entry of the request held for ``url``, if any (linear; few are held)."""
        for request, entry in self.held.items():
            if request.url == url:
                return entry
        return None

    def settle(self, url: str) -> None:
        """The feeds wrote the article of the request held for ``url``: its claim stays when
        the lease lapses or is returned."""
        if (entry := self.lease_of(url)) is not None:
            self.server.hdel(self.keys.claims, entry)

    def renew(self) -> None:
        if self.held:
            self._renew(keys=[self.keys.leases, self.keys.owners],
                        args=[self.lease_seconds, self.worker, *self.held.values()])

    def give_back(self) -> int:
        """Return every held request to the queue (a worker stopping)."""
        entries, self.held = list(self.held.values()), {}
        if not entries:
            return 0
        return int(self._give_back(keys=self.keys.release(), args=[self.worker, *entries]))

    def pending(self) -> int:
        """Requests queued or leased by any worker: 0 when the shared crawl is done."""
        queued, leased = self.server.pipeline(transaction=False).zcard(self.key).zcard(
            self.keys.leases).execute()
        return int(queued) + int(leased)

    def __len__(self) -> int:
        return int(self.server.zcard(self.key))


class LeasedScheduler(Scheduler):
    """scrapy-redis's scheduler on a ``LeasedQueue``, made safe for workers that die.

    Settings: ``REDIS_URL``; ``NEWSCRAWL_FRONTIER_LEASE`` (seconds a request stays leased
    without renewal); ``NEWSCRAWL_FRONTIER_ATTEMPTS``; ``MAX_IDLE_TIME_BEFORE_CLOSE``
    (scrapy-redis's: seconds the frontier must stay empty before a worker closes; 0 never).
    The queue and fingerprints always persist (``SCHEDULER_PERSIST``): they are shared.
    """

    def __init__(self, crawler: Crawler, server: redis.Redis, lease_seconds: int,
                 attempts: int, max_idle: int, **kwargs: Any):
        super().__init__(server, persist=True, queue_cls=LeasedQueue, **kwargs)
        self.crawler = crawler
        self.stats = crawler.stats
        self.lease_seconds = lease_seconds
        self.attempts = attempts
        self.max_idle = max_idle
        self.queue: LeasedQueue
        self._empty_since: float | None = None
        self._renewal = task.LoopingCall(self._renew)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        if not settings.get("REDIS_URL"):
            raise NotConfigured("REDIS_URL is not set")
        server = connect(settings)
        server.ping()  # fail now, not at the first request
        scheduler = cls(crawler, server, lease_seconds(settings),
                        settings.getint("NEWSCRAWL_FRONTIER_ATTEMPTS", 3),
                        settings.getint("MAX_IDLE_TIME_BEFORE_CLOSE", 0),
                        flush_on_start=settings.getbool("SCHEDULER_FLUSH_ON_START"))
        crawler.signals.connect(scheduler._on_idle, signal=signals.spider_idle)
        return scheduler

    def open(self, spider: Spider) -> None:
        keys = Keys(spider.name)
        self.df = RFPDupeFilter(self.server, key=keys.fingerprints,
                                debug=self.crawler.settings.getbool("DUPEFILTER_DEBUG"))
        self.spider = spider
        self.queue = LeasedQueue(self.server, spider, keys.queue, self.serializer,
                                 self.lease_seconds, self.attempts)
        if self.flush_on_start:
            self.flush()
        elif self.server.register_script(_NEW_CRAWL)(
                keys=[keys.queue, keys.leases, keys.fingerprints]) == 1:
            # The fingerprints remember front pages, sections, sitemaps and feeds, so a crawl
            # of the same sites would request nothing at all; what it must not fetch again is
            # what was exported (``RedisExportedArticles``), which stays.
            logger.info("Shared frontier empty: a new crawl; the last one's request "
                        "fingerprints are cleared, its exported articles stay exported")
        # Scrapy calls nothing when it is done with a request: its engine drops it from the
        # slot's in-progress set, after the scraper has handled the response and its items.
        slot = self.crawler.engine._slot
        remove = slot.remove_request

        def remove_request(request: Request) -> None:
            remove(request)
            self.queue.done(request)

        slot.remove_request = remove_request
        self._renewal.start(max(1.0, self.lease_seconds / 3), now=False)
        logger.info("Shared frontier at %s: %d requests queued or leased", self._where(),
                    self.queue.pending())

    def close(self, reason: str) -> None:
        if self._renewal.running:
            self._renewal.stop()
        returned = self.queue.give_back()
        if returned:
            logger.info("Returned %d requests this worker held to the shared queue", returned)
        self.stats.set_value("frontier/returned", returned)
        self.stats.set_value("frontier/reclaimed", self.queue.reclaimed)
        self.stats.set_value("frontier/set_aside", self.queue.set_aside)

    def flush(self) -> None:
        self.server.delete(*Keys(self.spider.name).release(), self.df.key)

    def enqueue_request(self, request: Request) -> bool:
        fingerprint = None if request.dont_filter else self.df.request_fingerprint(request)
        if not self.queue.push_new(request, fingerprint):
            self.df.log(request, self.spider)
            self.stats.inc_value("frontier/filtered")
            return False
        self.stats.inc_value("scheduler/enqueued/redis")
        return True

    def next_request(self) -> Request | None:
        request = self.queue.pop()
        if request is not None:
            self.stats.inc_value("scheduler/dequeued/redis")
            self._empty_since = None
        return request

    def has_pending_requests(self) -> bool:
        return len(self.queue) > 0

    def lease_of(self, url: str) -> bytes | None:
        return self.queue.lease_of(url)

    def _renew(self) -> None:
        try:
            self.queue.renew()
        except redis.RedisError as exc:  # the next renewal tries again
            logger.warning("Lease renewal failed: %s", exc)

    def _on_idle(self) -> None:
        """Keep the worker open while any request is queued or leased anywhere (a dead
        worker's lease comes back when it lapses), then ``max_idle`` seconds more.

        An idle engine asks the scheduler again only at its 5 s heartbeat; a worker that
        found the queue empty while others hold every request (one started beside another)
        asks every ``IDLE_POLL`` seconds instead, to join as soon as their links arrive."""
        if self.queue.pending():
            self._empty_since = None
            self.crawler.engine._slot.nextcall.schedule(IDLE_POLL)
            raise DontCloseSpider
        now = time.monotonic()
        if self._empty_since is None:
            self._empty_since = now
        if self.max_idle == 0 or now - self._empty_since < self.max_idle:
            raise DontCloseSpider

    def _where(self) -> str:
        kwargs = self.server.connection_pool.connection_kwargs
        return f"{kwargs.get('host')}:{kwargs.get('port')}/{kwargs.get('db', 0)}"


class RedisExportedArticles:
    """``ExportedArticles`` kept in Redis, shared by every worker of the crawl.

    A claim (``claim``) is tied to the lease of the page's request: released with it once the
    feed wrote the article, taken back with it when the lease lapses or is returned.
    """

    state_file = None

    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self.server = connect(crawler.settings)
        self._claim = self.server.register_script(_CLAIM)
        self._keys: Keys | None = None

    @property
    def keys(self) -> Keys:
        if self._keys is None:
            self._keys = Keys(self.crawler.spider.name)
        return self._keys

    new_hashes: frozenset[str] = frozenset()
    """Nothing waits for a save: ``claim`` records in Redis."""

    def exported_before(self, url: str) -> bool:
        """Exported by any worker, in this crawl or an earlier one on the same Redis."""
        from newscrawl.pipelines import canonical

        return bool(self.server.sismember(self.keys.exported_urls, canonical(url)))

    def exported_now(self, url: str) -> bool:
        """``exported_before`` already answers for this crawl's articles."""
        return False

    def add(self, urls: set[str], content_hash: str, url: str) -> None:
        """The feeds wrote the article ``claim`` recorded: the claim no longer goes with its
        request's lease, so a worker killed from here on does not have it exported again."""
        if (scheduler := self._scheduler()) is not None:
            scheduler.queue.settle(url)

    def claim(self, urls: set[str], content_hash: str, url: str) -> str | None:
        """Record an article unless its URLs or text were exported; return 'url' or 'text'
        for a repeat."""
        lease = scheduler.lease_of(url) if (scheduler := self._scheduler()) else None
        keys = self.keys
        repeat = self._claim(keys=[keys.exported_urls, keys.exported_hashes, keys.claims,
                                   keys.leases],
                             args=[lease or "", content_hash, *sorted(urls)])
        repeat = repeat.decode() if isinstance(repeat, bytes) else repeat
        return repeat or None

    def _scheduler(self) -> LeasedScheduler | None:
        scheduler = getattr(getattr(self.crawler.engine, "_slot", None), "scheduler", None)
        return scheduler if isinstance(scheduler, LeasedScheduler) else None

    def save(self) -> None:
        """Nothing to save: Redis holds the record."""

    def summary(self) -> dict[str, int]:
        return {"urls": int(self.server.scard(self.keys.exported_urls)),
                "hashes": int(self.server.scard(self.keys.exported_hashes))}
