"""What the browser tests share: a folder served over HTTP, Chromium, and a page whose script
errors fail the test. Each is a context manager that stops what it started, also on failure."""

import contextlib
import functools
import http.server
import shutil
import threading

FLAGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def served(folder):
    """The folder served by a plain HTTP server on a free port: its base URL."""
    handler = functools.partial(QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@contextlib.contextmanager
def site_served(books, folder):
    """A site of ``books`` (name to book) written to ``folder`` and served: its base URL."""
    from treegen.views.site import build_site
    build_site(list(books.items()), folder)
    with served(folder) as base:
        yield base


@contextlib.contextmanager
def chromium():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                    args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def watched(browser, width=1280, height=800, phone=False):
    """A new page (a phone's: touch, and a mobile viewport); an uncaught script error on it fails
    the test."""
    page = browser.new_page(viewport={"width": width, "height": height}, is_mobile=phone,
                            has_touch=phone)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page
    finally:
        page.close()
    assert errors == []
