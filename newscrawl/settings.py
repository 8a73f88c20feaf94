# Scrapy settings for the newscrawl project
#
# Only the settings that matter for a polite, bounded news crawl are set here; the
# NEWSCRAWL_* group configures the project's own components. See
#
#     https://docs.scrapy.org/en/latest/topics/settings.html

BOT_NAME = "newscrawl"

SPIDER_MODULES = ["newscrawl.spiders"]
NEWSPIDER_MODULE = "newscrawl.spiders"
COMMANDS_MODULE = "newscrawl.scrapy_commands"  # crawl: the spider's -a arguments checked first

# -o/-O name the output; NEWSCRAWL_DEFAULT_FEEDS (below) only when they do not (newscrawl/feeds.py).
# -s REDIS_URL=redis://host:6379/0 makes this crawl one worker of a crawl shared through Redis
# (newscrawl/frontier.py, docs/distributed.md); unset, that add-on does nothing.
ADDONS = {"newscrawl.feeds.DefaultFeed": 0, "newscrawl.frontier.RedisFrontier": 100}
REDIS_URL = None
NEWSCRAWL_FRONTIER_LEASE = 60  # s a taken request stays leased unrenewed (a dead worker's)
NEWSCRAWL_FRONTIER_ATTEMPTS = 3  # lapsed leases before a request is set aside as deadly
MAX_IDLE_TIME_BEFORE_CLOSE = 30  # s the shared frontier stays empty before a worker closes

# newscrawl's own components (pipelines.py, extensions.py)
NEWSCRAWL_EXTRACTION_ENABLED = True  # off: the pipeline passes raw Page items through
NEWSCRAWL_MODEL = None  # path to a node model (.ubj); None: the shipped models/nodes-v1.ubj
NEWSCRAWL_PAGE_MODEL = None  # article-or-not classifier (.ubj); None: models/pages-v1.ubj
NEWSCRAWL_SITE_PAGES = 50  # a site's template is read from its last N pages extracted; 0: off
# Extraction threads (lxml and XGBoost release the GIL; one site's pages in order): -1 one per
# core this process may use, 0 none (extraction in the reactor thread, holding downloads)
NEWSCRAWL_EXTRACTION_THREADS = -1
NEWSCRAWL_MIN_WORDS = 80  # shorter extractions are dropped as too_short (a CJK character = 1/2)
NEWSCRAWL_DEDUP_ENABLED = True  # drop repeats by canonical URL and by normalised-text hash
# A crawl run on a schedule: the articles already exported (URLs and text hashes) are kept in
# this JSON file; each run skips their pages and adds its own. None: JOBDIR's, if any.
NEWSCRAWL_EXPORTED_FILE = None
# YYYY-MM-DD: articles published before it are dropped (too_old), and sitemap and feed entries
# dated before it are not requested. None: no limit.
NEWSCRAWL_SINCE = None
NEWSCRAWL_STATS_FILE = None  # write the final stats as JSON here (the demo's summary reads it)
NEWSCRAWL_WARC_DIR = None  # archive every response as it came, in a .warc.gz here (warc.py)

# Crawl responsibly by identifying yourself (and your website) on the user-agent
USER_AGENT = "newscrawl/0.1 (+https://github.com/newscrawl/newscrawl; news text corpus crawler)"

# Obey robots.txt rules
ROBOTSTXT_OBEY = True

# Concurrency and throttling settings
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 4
DOWNLOAD_DELAY = 0.5

# Give up on slow or huge responses instead of stalling the crawl
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 10 * 1024 * 1024  # a bigger page is cancelled and counted as too_large
DOWNLOAD_WARNSIZE = 4 * 1024 * 1024
RETRY_ENABLED = True
RETRY_TIMES = 2
REDIRECT_MAX_TIMES = 10

# Bounds that keep an endless calendar or a crawler trap finite
DEPTH_LIMIT = 8
DEPTH_PRIORITY = 1  # breadth-first: front and section pages before deep archives
SCHEDULER_DISK_QUEUE = "scrapy.squeues.PickleFifoDiskQueue"
SCHEDULER_MEMORY_QUEUE = "scrapy.squeues.FifoMemoryQueue"

# Disable cookies (enabled by default)
COOKIES_ENABLED = False

# Disable Telnet Console (enabled by default)
TELNETCONSOLE_ENABLED = False
# ... and Scrapy's remote-control HTTP server (on by default since 2.19), which runs code sent
# to it: a corpus crawl on a shared host has no use for it
REMOTE_CONTROL_ENABLED = False

# Override the default request headers:
DEFAULT_REQUEST_HEADERS = {
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "Accept-Language": "en,zh;q=0.8,*;q=0.5",
}

# Spider middleware: pages already exported as articles are not requested again
# See https://docs.scrapy.org/en/latest/topics/spider-middleware.html
SPIDER_MIDDLEWARES = {
    "newscrawl.middlewares.SkipExportedMiddleware": 550,
}

# Enable or disable extensions
# See https://docs.scrapy.org/en/latest/topics/extensions.html
EXTENSIONS = {
    # Scrapy's, which also tells the record of exported articles what the feeds wrote
    "scrapy.extensions.feedexport.FeedExporter": None,
    "newscrawl.feeds.FeedExporter": 0,
    "newscrawl.extensions.StatsFile": 500,
}

# A full site's queued pages are not downloaded (50); every response is archived as it came,
# next to the download handler (950, only with NEWSCRAWL_WARC_DIR)
# See https://docs.scrapy.org/en/latest/topics/downloader-middleware.html
DOWNLOADER_MIDDLEWARES = {
    # a site's denied URLs (redirect targets too) and a full site's queued pages: not downloaded
    "newscrawl.limits.SiteRequestsMiddleware": 50,
    "newscrawl.warc.WarcArchiveMiddleware": 950,
}

# Configure item pipelines: raw Page -> Article (300), then repeats removed (400)
# See https://docs.scrapy.org/en/latest/topics/item-pipeline.html
ITEM_PIPELINES = {
    "newscrawl.pipelines.ExtractionPipeline": 300,
    "newscrawl.pipelines.DuplicatesPipeline": 400,
    "newscrawl.limits.MaxItemsPipeline": 450,  # a site's max_items, exact
}

# Export articles (raw pages, with extraction off) as JSON lines here when the command line
# names no output (-o/-O replace it; FEEDS set in your own settings do too). A job resumed
# from JOBDIR appends to an -O file.
# See https://docs.scrapy.org/en/latest/topics/feed-exports.html
NEWSCRAWL_DEFAULT_FEEDS = {
    "out/%(name)s-%(time)s.jsonl": {"format": "jsonlines", "encoding": "utf-8"},
}

# Enable and configure the AutoThrottle extension
# See https://docs.scrapy.org/en/latest/topics/autothrottle.html
AUTOTHROTTLE_ENABLED = True
# The initial download delay
AUTOTHROTTLE_START_DELAY = 1
# The maximum download delay to be set in case of high latencies
AUTOTHROTTLE_MAX_DELAY = 30
# The average number of requests Scrapy should be sending in parallel to
# each remote server
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0

# Enable and configure HTTP caching (disabled by default)
# See https://docs.scrapy.org/en/latest/topics/downloader-middleware.html#httpcache-middleware-settings
# HTTPCACHE_ENABLED = True
# HTTPCACHE_EXPIRATION_SECS = 0
# HTTPCACHE_DIR = "httpcache"

LOG_LEVEL = "INFO"

# Set settings whose default value is deprecated to a future-proof value
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
FEED_EXPORT_ENCODING = "utf-8"
