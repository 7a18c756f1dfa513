"""One headless Chromium per container, driven by Playwright on a thread of its own.

Playwright's sync API belongs to the thread that started it, while calls reach a service on
whatever thread the runtime (or the local default) uses; so every browser action is submitted
to one worker thread. The browser is started once (about a second) and reused; each capture
gets a new browser context, which is a fresh profile: no cookies, cache, storage or service
workers carry from one call to the next. All traffic goes through the guard proxy.

Why Playwright rather than raw DevTools: it waits for load states and selectors reliably,
stitches full-page captures, ships the device descriptors behind `device`, and its wheel
carries its own driver, so nothing is downloaded at run time. The browser itself is Debian's
`chromium` locally and Playwright's Chromium build in the container image (SHOT_BROWSER_PATH).
"""

from __future__ import annotations

import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import TYPE_CHECKING, Any

from shot_service.proxy import GuardProxy
from shot_service.settings import settings

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import Browser, Playwright

# No GPU, no sandbox (Lambda has no user namespaces), no background traffic of Chromium's own
# (component updates, safe browsing, metrics), no QUIC or WebRTC paths around the proxy.
CHROMIUM_ARGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-zygote",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-first-run",
    "--disable-quic",
    "--dns-prefetch-disable",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--proxy-bypass-list=<-loopback>",
)


class BrowserHost:
    """The container's browser and its proxy; `run(fn)` calls `fn(browser)` on the browser thread."""

    def __init__(self) -> None:
        self.proxy = GuardProxy().start()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="shot-browser")
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        self._lock = threading.Lock()
        self.version: str | None = None
        self.devices: dict[str, dict[str, Any]] = {}
        """Playwright's device descriptors, once the browser has started."""

    def run[T](self, action: Callable[[Browser], T], timeout_s: float) -> T:
        with self._lock:
            return self._executor.submit(self._call, action).result(timeout=timeout_s)

    def _call[T](self, action: Callable[[Browser], T]) -> T:
        browser = self._browser
        if browser is None or not browser.is_connected():
            browser = self._browser = self._launch()
        return action(browser)

    def _launch(self) -> Browser:
        from playwright.sync_api import sync_playwright

        if self._playwright is None:
            self._playwright = sync_playwright().start()
        path = settings().shot_browser_path or None
        browser = self._playwright.chromium.launch(
            executable_path=path,
            args=list(CHROMIUM_ARGS),
            proxy={"server": self.proxy.address},
            downloads_path=tempfile.mkdtemp(prefix="shot-downloads-"),
            handle_sigint=False,
            handle_sigterm=False,
            handle_sighup=False,
        )
        self.version = f"{browser.browser_type.name} {browser.version}"
        self.devices = dict(self._playwright.devices)
        return browser


@cache
def host() -> BrowserHost:
    return BrowserHost()
