"""The screenshots of docs/screenshots.md: every page of every served game, at a phone's
width (390 px) and a desktop's (1280 px), into ``docs/screenshots/``.

    .venv/bin/python tools/screenshots.py [--out docs/screenshots] [--rules ettin ...]
    make screenshots

A server of its own (a temporary data folder, the machine's Redis or
``$REDIS_URL``), one game of each served rules a few bot moves in
(``tests/web/tables.py``, the same tables the layout tests measure), and
Debian's headless Chromium driven by Playwright (``make browser`` installs
it). Each picture is ``<rules>-<page>-<width>.png`` (the lobby once, as
``lobby-<width>.png``), the page from its top, at most ``MAX_HEIGHT`` px
long. Nothing is asserted here: the tests do that; this only draws.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.integration.conftest import ServerProcess  # noqa: E402
from tests.web.browser import DESKTOP, FLAGS, PHONE, chromium_path, settle  # noqa: E402
from tests.web.tables import PAGES, READY, TABLES, open_page, set_table  # noqa: E402

#: The longest picture, in CSS pixels: a page's top, where a reader looks first.
MAX_HEIGHT = 2400
WIDTHS = {"390": PHONE, "1280": DESKTOP}

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize


def shoot(page: Any, path: Path) -> None:
    """The page from its top, as long as it is (up to ``MAX_HEIGHT``)."""
    settle(page)
    height = int(page.evaluate("document.scrollingElement.scrollHeight"))
    width = int(page.evaluate("window.innerWidth"))
    page.screenshot(path=str(path), full_page=True,
                    clip={"x": 0, "y": 0, "width": width, "height": min(height, MAX_HEIGHT)})
    print(f"  {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--rules", nargs="*", default=list(TABLES),
                        help="the rules ids to draw (default: every served game)")
    args = parser.parse_args(argv)
    browser_path = chromium_path()
    if browser_path is None:
        print("no Chromium here: `make browser` (as root) installs Debian's", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="arbiter-shots-") as tmp:
        server = ServerProcess(Path(tmp) / "data",
                               os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
                               {"ARBITER_WEB_ADDRESS": "127.0.0.1:0"})
        server.start()
        try:
            tables = [set_table(server, rules) for rules in args.rules]
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=browser_path,
                                                     headless=True, args=FLAGS)
                for width, viewport in WIDTHS.items():
                    context = browser.new_context(viewport=cast("ViewportSize", viewport))
                    page = context.new_page()
                    open_page(page, f"{server.web_url}/", False, READY["lobby"])
                    shoot(page, out / f"lobby-{width}.png")
                    for table in tables:
                        urls = table.urls(server.web_url)
                        for name in PAGES[1:]:
                            url, with_token = urls[name]
                            open_page(page, url, with_token, READY[name])
                            shoot(page, out / f"{table.rules}-{name}-{width}.png")
                    context.close()
                browser.close()
        finally:
            server.stop()
    print(f"{len(list(out.glob('*.png')))} pictures in {out} ({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
