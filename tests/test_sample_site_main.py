"""``python -m newscrawl.sample_site`` serves the sample site until interrupted, so a user can
crawl it by hand as the README's commands do."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import urllib.request

from newscrawl.demo import crawl_env


def test_the_sample_site_is_served_until_interrupted() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "newscrawl.sample_site", "--articles", "12"],
                            env=crawl_env(), stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.match(r"sample site: (http://127\.0\.0\.1:\d+)/ \((\d+) articles\)", line)
        assert m, line
        with urllib.request.urlopen(f"{m.group(1)}/robots.txt", timeout=10) as response:
            assert b"Sitemap:" in response.read()
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
