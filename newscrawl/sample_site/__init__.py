"""The sample news site newscrawl ships: generated pages, a manifest of true bodies, a server."""

from newscrawl.sample_site.generate import Manifest, build_site
from newscrawl.sample_site.server import SiteServer

__all__ = ["Manifest", "SiteServer", "build_site"]
