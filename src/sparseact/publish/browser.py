"""Look at the HTML pages the way a reader does: headless Chromium on a 1400, 1024, 800 and 390 px wide screen, and printed.

Chromium is driven through its DevTools protocol over a pipe (``--remote-debugging-pipe``: JSON messages on file
descriptors 3 and 4, each ending in a NUL byte), so nothing beyond the standard library and a Chromium binary is
needed: no driver, no network port.

:func:`find_chromium` locates the binary (``$SPARSEACT_CHROMIUM``, else ``chromium``, ``chromium-browser``,
``google-chrome`` on the ``PATH``); :class:`Browser` opens pages; :func:`inspect_page` loads one page and
:func:`measure_page` measures the open page as laid out at the present screen (overflow, broken images and local
links, raw ``$...$`` math, where the headline table and the first statement end, status cells pushed off screen, boxes
that clip their content, tables clipped inside their box, argument-graph nodes whose title is cut or runs out of its
box or is drawn below :data:`MIN_GRAPH_TEXT` px on screen; in print, columns narrower than a word of theirs, folded
sections that do not print and a main result's graph view not on a page of its own) and :func:`page_problems` turns
the measurements into readable complaints; :func:`check_pages` does both for the verification report, the argument
graph's page, every claim page and every certificate's page of a results directory or of the committed site
(``docs/site``), at every width of :data:`WIDTHS` and in print media (:data:`PRINT_WIDTH`), counting the A4 pages each
prints on (the report at most :data:`REPORT_PRINTED_PAGES`, a claim or certificate page at most
:data:`PAGE_PRINTED_PAGES`), and gives what it measured (widths, sideways scroll, A4 pages, dead local links, the
headline table's words: :func:`measured_text`; over all pages, :func:`totals_text`) on a page that passes too;
:meth:`Browser.click` follows a link as a reader clicks it (found by its visible text); :meth:`Browser.print_pdf`
prints a page on A4 as Chromium would; :func:`write_screenshots` is the workflow's step (a placeholder image saying
why when no Chromium is installed).
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import functools
import json
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from sparseact.publish.graph import PAGE_ATTRIBUTE

#: Width and height of the screen the pages are judged on, in CSS pixels.
SCREEN = (1400, 900)
#: Screen widths every page must read at without scrolling sideways (a desktop, a small laptop, a narrow window, a
#: phone).
WIDTHS = (1400, 1024, 800, 390)
#: Width of the printed page's content box in CSS pixels: US Letter (8.5 in) less Page.printToPDF's default
#: 0.4 in margins, at 96 px per inch (A4, 8.27 in, is narrower by 22 px: the checks use the narrower).
PRINT_WIDTH = round((8.27 - 2 * 0.4) * 96)
#: Height of the printed page's content box in CSS pixels: A4 (11.69 in) less the same margins.
PRINT_HEIGHT = round((11.69 - 2 * 0.4) * 96)
#: A4 paper, width and height in inches: what :meth:`Browser.print_pdf` prints on.
A4_INCHES = (8.27, 11.69)
#: A4 pages the verification report may print on: its check cards and long tables are summarised on paper
#: (:func:`sparseact.publish.cards.summarise_for_print`), the whole one link away.
REPORT_PRINTED_PAGES = 25
#: A4 pages a claim page or a certificate's page may print on.
PAGE_PRINTED_PAGES = 12

#: Chromium's switches: headless, no sandbox (the pages are our own local files; Chromium refuses to
#: run as root with it), and nothing that reaches for the network (on a closed network Chromium
#: otherwise stalls on its background services).
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--mute-audio",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--font-render-hinting=none",
    "--remote-debugging-pipe",
)

#: Chromium makes a Unix socket at ``$TMPDIR/.org.chromium.Chromium.XXXXXX/SingletonSocket`` and aborts when
#: that path is longer than a socket path may be (107 bytes on Linux); its TMPDIR is ``<profile>/tmp``.
SOCKET_PATH_MAX = 107
_SOCKET_IN_TMPDIR = len("/.org.chromium.Chromium.XXXXXX/SingletonSocket")
_PROFILE_IN_PARENT = len("/sparseact-chromium-XXXXXXXX/tmp")


def _profile_parent() -> str:
    """Where the browser's temporary profile goes: the temporary directory, or ``/tmp`` when that is too deep
    for Chromium's socket (a test's or a cluster job's TMPDIR can be)."""
    parent = tempfile.gettempdir()
    if len(parent.encode()) + _PROFILE_IN_PARENT + _SOCKET_IN_TMPDIR > SOCKET_PATH_MAX:
        return "/tmp"
    return parent


_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

#: A ``$$...$$`` span or a ``$...$`` span on one line: math a renderer should have typeset.
RAW_MATH = re.compile(r"\$\$[^$]{1,1000}?\$\$|\$[^$\n]{1,300}?\$")

#: The least size, in CSS pixels, a graph node's title may be drawn at on screen.
MIN_GRAPH_TEXT = 9

_MEASURE = """(() => {
  const root = document.documentElement;
  // a table off screen is laid out only when scrolled to (content-visibility: auto, the report's .scroll): lay out
  // every one, so that a table too wide for the screen is measured wherever it is on the page
  if (!document.getElementById('sa-lay-out-all')) {
    const all = document.createElement('style');
    all.id = 'sa-lay-out-all';
    all.textContent = '* { content-visibility: visible !important; }';
    document.head.appendChild(all);
  }
  const refs = [];
  for (const el of document.querySelectorAll('[href], [src], [PAGE_ATTRIBUTE]')) {
    for (const name of ['href', 'src', 'PAGE_ATTRIBUTE']) { const v = el.getAttribute(name); if (v !== null) refs.push(v); }
  }
  const ids = new Set(Array.from(document.querySelectorAll('[id]'), e => e.id));
  const box = sel => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect() : null; };
  const top = sel => { const b = box(sel); return b ? b.top + window.scrollY : null; };
  const bottom = sel => { const b = box(sel); return b ? b.bottom + window.scrollY : null; };
  const loaded = img => img.complete && img.naturalWidth > 0;
  return {
    title: document.title,
    scroll_width: root.scrollWidth,
    viewport_width: root.clientWidth,
    broken_images: Array.from(document.images).filter(i => !loaded(i)).map(i => (i.getAttribute('src') || '').slice(0, 120)),
    refs: refs,
    missing_anchors: refs.filter(r => r.startsWith('#') && r.length > 1 && !ids.has(r.slice(1))
                                  && !ids.has(decodeURIComponent(r.slice(1)))),
    text: document.body ? document.body.innerText : '',
    statements_top: top('table.statements'),
    first_statement_bottom: bottom('table.statements tbody tr'),
    headline_bottom: bottom('table.headline'),
    headline_words: (t => t ? (t.innerText.match(/\\S+/g) || []).length : null)(document.querySelector('table.headline')),
    hidden_status: Array.from(document.querySelectorAll('td.status'))
      .filter(td => td.getBoundingClientRect().right > root.clientWidth + 1).length,
    clipped_tables: Array.from(document.querySelectorAll('table'))
      .map(t => t.parentElement)
      .filter(e => e && getComputedStyle(e).overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1)
      .map(e => (e.previousElementSibling ? e.previousElementSibling.textContent : e.textContent).trim().slice(0, 60)),
    clipped: Array.from(document.querySelectorAll('body *'))
      .filter(e => getComputedStyle(e).overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1)
      .map(e => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : '')).slice(0, 5),
    // a graph node whose title is cut ("...") or whose text runs out of its box
    cut_nodes: Array.from(document.querySelectorAll('svg.argument-graph a.node')).filter(a => {
      const box = a.querySelector('rect.box');
      if (!box) return false;
      const right = box.x.baseVal.value + box.width.baseVal.value;
      return Array.from(a.querySelectorAll('text')).some(t => /\\u2026|\\.\\.\\.$/.test(t.textContent)
        || t.x.baseVal[0].value + t.getComputedTextLength() > right + 0.5);
    }).map(a => a.dataset.key || a.getAttribute('href')).slice(0, 5),
    // a graph shown so small that its nodes' titles are drawn below MIN_GRAPH_TEXT px (a view fitted to a phone)
    small_nodes: Array.from(document.querySelectorAll('svg.argument-graph'))
      .filter(svg => svg.getClientRects().length && svg.viewBox.baseVal && svg.viewBox.baseVal.width)
      .flatMap(svg => {
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return Array.from(svg.querySelectorAll('a.node text.title'))
          .filter(t => scale * parseFloat(t.getAttribute('font-size')) < MIN_GRAPH_TEXT)
          .map(t => t.closest('a.node').dataset.key);
      }).filter((key, i, all) => all.indexOf(key) === i).slice(0, 5),
  };
})()""".replace("MIN_GRAPH_TEXT", str(MIN_GRAPH_TEXT)).replace("PAGE_ATTRIBUTE", PAGE_ATTRIBUTE)

#: Printed: table cells with a word broken across lines (the column is narrower than the word), and folded
#: sections (``<details>``) whose content does not print.
_MEASURE_PRINT = r"""(() => {
  const broken = [];
  for (const cell of document.querySelectorAll('td, th')) {
    if (broken.length >= 5) break;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let node, found = null;
    while (!found && (node = walker.nextNode())) {
      if (node.parentElement.closest('math')) continue;
      const words = /[^\s\-\u2010-\u2014\/]{2,}/g;
      let m;
      while (!found && (m = words.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) found = m[0];
      }
    }
    if (found) {
      const table = cell.closest('table');
      const column = cell.dataset.label || (table && table.tHead && table.tHead.rows[0].cells[cell.cellIndex]
        ? table.tHead.rows[0].cells[cell.cellIndex].textContent.trim() : '');
      broken.push(`"${found.slice(0, 30)}" in column "${column.slice(0, 30)}"`);
    }
  }
  const folded = Array.from(document.querySelectorAll('details:not([open])')).filter(d => {
    const content = Array.from(d.children).find(c => c.tagName !== 'SUMMARY');
    return content && content.getClientRects().length === 0;
  }).map(d => (d.querySelector('summary') || d).textContent.trim().slice(0, 60));
  // a graph's view of one result (.graph-view) must start a printed page and fit on it
  const views_off_page = Array.from(document.querySelectorAll('.graph-view')).filter(v =>
    getComputedStyle(v).breakBefore !== 'page' || v.getBoundingClientRect().height > PRINT_HEIGHT)
    .map(v => v.id);
  return {broken_words: broken, folded: folded, views_off_page: views_off_page};
})()""".replace("PRINT_HEIGHT", str(PRINT_HEIGHT))

#: How long the browser's temporary profile may take to remove (its helper processes exit after the browser's).
PROFILE_REMOVAL_SECONDS = 5.0


#: A page object of a PDF (``/Type /Page``, not the page tree's ``/Type /Pages``).
_PDF_PAGE = re.compile(rb"/Type\s*/Page(?![A-Za-z])")


def pdf_pages(data: bytes) -> int:
    """The number of pages of a PDF as Chromium writes it (its page objects are not compressed)."""
    return len(_PDF_PAGE.findall(data))


class BrowserError(RuntimeError):
    """Chromium did not start, did not answer, or reported an error."""


def find_chromium() -> str | None:
    """The Chromium (or Chrome) binary to use, or None when none is installed.

    Returns
    -------
    str or None
        ``$SPARSEACT_CHROMIUM`` when set (an empty value means "no browser"), else the first of
        ``chromium``, ``chromium-browser``, ``google-chrome``, ``google-chrome-stable`` on the ``PATH``.
    """
    if "SPARSEACT_CHROMIUM" in os.environ:
        return os.environ["SPARSEACT_CHROMIUM"] or None
    return next((path for path in map(shutil.which, _NAMES) if path), None)


@dataclass
class PageReport:
    """What :func:`inspect_page` measured on one page (lengths in CSS pixels, from the top of the document)."""

    path: Path
    title: str
    scroll_width: int
    viewport_width: int
    broken_images: list[str]
    broken_links: list[str]
    missing_anchors: list[str]
    raw_math: list[str]
    statements_top: float | None
    first_statement_bottom: float | None
    headline_bottom: float | None
    headline_words: int | None = None
    hidden_status: int = 0
    clipped: list[str] = field(default_factory=list)
    screen_height: int = SCREEN[1]
    external: list[str] = field(default_factory=list)
    broken_anchors: list[str] = field(default_factory=list)
    clipped_tables: list[str] = field(default_factory=list)
    broken_words: list[str] = field(default_factory=list)
    folded: list[str] = field(default_factory=list)
    cut_nodes: list[str] = field(default_factory=list)
    small_nodes: list[str] = field(default_factory=list)
    views_off_page: list[str] = field(default_factory=list)
    printed_pages: int | None = None


class Browser:
    """A headless Chromium with one tab, driven over the DevTools pipe.

    Parameters
    ----------
    binary : str, optional
        Path of the Chromium binary (default: :func:`find_chromium`).
    timeout : float
        Seconds to wait for any one answer or page load.

    Examples
    --------
    >>> with Browser() as browser:                                # doctest: +SKIP
    ...     browser.load("results/report/index.html")
    ...     browser.screenshot("index.png")
    """

    def __init__(self, binary: str | None = None, timeout: float = 60.0):
        self.binary = binary or find_chromium()
        if not self.binary:
            raise BrowserError(
                "no Chromium found: install it (Debian: apt-get install chromium) or set SPARSEACT_CHROMIUM to its path"
            )
        self.timeout = timeout
        self._next_id = 0
        self._buffer = b""
        self._events: list[dict] = []
        self._proc: subprocess.Popen | None = None
        self._session: str | None = None

    # -- process and protocol ---------------------------------------------------------------------
    def __enter__(self) -> Browser:
        self._profile = tempfile.mkdtemp(prefix="sparseact-chromium-", dir=_profile_parent())
        os.mkdir(f"{self._profile}/tmp")
        to_child, self._write = os.pipe()
        self._read, from_child = os.pipe()

        def as_fds_3_and_4():  # the child reads commands on fd 3 and writes answers on fd 4
            commands, answers = fcntl.fcntl(to_child, fcntl.F_DUPFD, 10), fcntl.fcntl(from_child, fcntl.F_DUPFD, 10)
            os.dup2(commands, 3)
            os.dup2(answers, 4)

        try:
            self._proc = subprocess.Popen(
                [self.binary, *CHROMIUM_FLAGS, f"--user-data-dir={self._profile}", "about:blank"],
                # Chromium's crash database, caches (XDG_*) and temporary files: into the profile too, removed with
                # it, never in the user's home or TMPDIR
                env={
                    **os.environ,
                    "XDG_CONFIG_HOME": f"{self._profile}/config",
                    "XDG_CACHE_HOME": f"{self._profile}/cache",
                    "TMPDIR": f"{self._profile}/tmp",
                },
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                preexec_fn=as_fds_3_and_4,
                close_fds=False,
                start_new_session=True,
            )
        finally:
            os.close(to_child)
            os.close(from_child)
        try:
            target = self.call("Target.createTarget", url="about:blank")["targetId"]
            self._session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
            self.call("Page.enable")
            self.set_screen(*SCREEN)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc) -> None:
        if self._proc is not None:
            try:
                if self._proc.poll() is None:
                    self._session = None
                    self._send("Browser.close", {})
                self._proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired, BrowserError):
                self._proc.kill()
                self._proc.wait()
            # helper processes (zygote, GPU, crash handler) outlive the browser process: end its whole session
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._proc.pid, signal.SIGKILL)
            self._proc = None
        for fd in (self._write, self._read):
            with contextlib.suppress(OSError):
                os.close(fd)
        # a helper may still be exiting for a moment after the kill
        deadline = time.monotonic() + PROFILE_REMOVAL_SECONDS
        while os.path.exists(self._profile) and time.monotonic() < deadline:
            shutil.rmtree(self._profile, ignore_errors=True)
            if os.path.exists(self._profile):
                time.sleep(0.1)

    def _send(self, method: str, params: dict) -> int:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if self._session:
            message["sessionId"] = self._session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._write, data) :]
        return self._next_id

    def _receive(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self._read], [], [], remaining)[0]:
                raise BrowserError(f"Chromium did not answer within {self.timeout:.0f} s")
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise BrowserError(f"Chromium closed the pipe (exit status {self._proc.poll()})")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, **params) -> dict:
        """Send one DevTools command (to the tab once attached) and return its result."""
        wanted = self._send(method, params)
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._receive(deadline)
            if message.get("id") != wanted:
                if "method" in message:
                    self._events.append(message)
                continue
            if "error" in message:
                raise BrowserError(f"{method}: {message['error'].get('message')}")
            return message.get("result", {})

    def _wait_for(self, event: str) -> dict:
        deadline = time.monotonic() + self.timeout
        while True:
            for i, message in enumerate(self._events):
                if message["method"] == event:
                    return self._events.pop(i)
            self._events.append(self._receive(deadline))

    # -- pages ------------------------------------------------------------------------------------
    def set_screen(self, width: int, height: int = SCREEN[1], media: str = "") -> None:
        """Emulate a ``width`` x ``height`` screen; ``media="print"`` lays pages out for print (their print styles)."""
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.call("Emulation.setEmulatedMedia", media=media)

    def _pdf(self) -> bytes:
        width, height = A4_INCHES
        data = self.call("Page.printToPDF", printBackground=True, paperWidth=width, paperHeight=height)["data"]
        return base64.b64decode(data)

    def print_pdf(self, path: str | Path) -> Path:
        """Print the open page to a PDF on A4 (Chromium's own print, background colours kept)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(self._pdf())
        return path

    def printed_pages(self) -> int:
        """How many A4 pages the open page prints on (:meth:`print_pdf`)."""
        return pdf_pages(self._pdf())

    def load(self, path: str | Path) -> None:
        """Open a local file; return once it has loaded (images included), its fonts are ready and it has painted."""
        self._events.clear()
        result = self.call("Page.navigate", url=Path(path).resolve().as_uri())
        if result.get("errorText"):
            raise BrowserError(f"{path}: {result['errorText']}")
        self._wait_for("Page.loadEventFired")
        self.evaluate(
            "document.fonts.ready.then(() => new Promise(done => "
            "requestAnimationFrame(() => requestAnimationFrame(() => done(true)))))"
        )

    def click(self, text: str, within: str = "body", row: str = "") -> str:
        """Follow the link a reader sees as ``text`` inside the first element ``within`` (a CSS selector) selects, as a
        click would: to another page (returning once it has loaded, like :meth:`load`) or to an anchor of this one
        (scrolled into view). Returns the address now open.

        Parameters
        ----------
        text : str
            The link's visible text (case and spacing ignored).
        within : str
            A CSS selector: the link is looked for inside the first element it selects.
        row : str, optional
            Look only in the first table row inside it whose first cell's visible text starts with ``row`` (a
            result's name, as a reader finds its row).

        Raises
        ------
        BrowserError
            When no element (or row) matches, or no link inside it reads ``text``.
        """
        found = self.evaluate(
            f"""(() => {{
  const norm = s => s.replace(/\\s+/g, ' ').trim().toLowerCase();
  let scope = document.querySelector({json.dumps(within)});
  if (scope && {json.dumps(row)}) scope = Array.from(scope.querySelectorAll('tr'))
    .find(tr => tr.cells.length && norm(tr.cells[0].innerText).startsWith(norm({json.dumps(row)})));
  if (!scope) return {{error: 'no element matches ' + {json.dumps(within)} + ' ' + {json.dumps(row)}}};
  const link = Array.from(scope.querySelectorAll('a[href]')).find(a => norm(a.innerText) === norm({json.dumps(text)}));
  if (!link) return {{error: 'no link reads "' + {json.dumps(text)} + '" in ' + {json.dumps(within)} + '; its links: '
    + Array.from(scope.querySelectorAll('a[href]'), a => '"' + norm(a.innerText) + '"').slice(0, 12).join(', ')}};
  return {{href: link.href, here: location.href.split('#')[0]}};
}})()"""
        )
        if "error" in found:
            raise BrowserError(found["error"])
        target, _, fragment = found["href"].partition("#")
        if target != found["here"]:
            self._events.clear()
            result = self.call("Page.navigate", url=found["href"])
            if result.get("errorText"):
                raise BrowserError(f"{found['href']}: {result['errorText']}")
            self._wait_for("Page.loadEventFired")
        self.evaluate(
            f"(() => {{ const e = document.getElementById(decodeURIComponent({json.dumps(fragment)})); "
            "if (e) { location.hash = e.id; e.scrollIntoView(); } "
            "return new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true)))); })()"
        )
        return found["href"]

    def evaluate(self, expression: str):
        """The JSON value of a JavaScript expression in the open page (promises are awaited)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"JavaScript error: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def screenshot(self, path: str | Path) -> Path:
        """Save the first screen (:data:`SCREEN`) of the open page as a PNG."""
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path


class _Anchors(HTMLParser):
    """The ``id`` (and ``<a name>``) values of an HTML file."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is not None and (name == "id" or (tag == "a" and name == "name")):
                self.found.add(value)


@functools.lru_cache(maxsize=64)
def _anchors_of(path: Path, mtime_ns: int) -> frozenset[str]:
    parser = _Anchors()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return frozenset(parser.found)


def anchors_of(path: str | Path) -> frozenset[str]:
    """Every ``id`` (and ``<a name>``) of a local HTML file: the anchors a link ``file#anchor`` may name."""
    path = Path(path).resolve()
    return _anchors_of(path, path.stat().st_mtime_ns)


def _is_local(ref: str) -> bool:
    parts = urlsplit(ref)
    return not (parts.scheme or parts.netloc or ref.startswith("#") or not ref.strip())


def inspect_page(browser: Browser, path: str | Path, printed: bool = False) -> PageReport:
    """Load ``path`` in ``browser`` and measure what a reader would notice.

    Parameters
    ----------
    browser : Browser
        An open browser (its screen is :data:`SCREEN`).
    path : str or Path
        A local HTML file.

    Returns
    -------
    PageReport
        Widths, images that did not load, relative links or sources that name no file, ``#anchors``
        that name no element (on the page, or on the local page a ``page.html#anchor`` link opens),
        ``$...$`` spans left in the visible text, where the first row of the
        statements table (``table.statements``) and the headline table (``table.headline``) end,
        status cells (``td.status``) right of the screen, boxes whose content is wider than they are
        while they do not let it overflow (scrolled or cut off), tables among them, graph nodes whose title is cut
        (``…``) or runs out of its box, and, on screen, graph nodes whose title is drawn below :data:`MIN_GRAPH_TEXT`
        px; with ``printed`` (a page laid out for print), table cells that break a word
        across lines, folded sections that do not print and graph views (``.graph-view``) that do not start a page
        or do not fit on it.
    """
    path = Path(path).resolve()
    browser.load(path)
    return measure_page(browser, path, printed)


def measure_page(browser: Browser, path: str | Path, printed: bool = False) -> PageReport:
    """:func:`inspect_page` of the page ``path`` that is open in ``browser`` already, laid out at its present screen
    (:meth:`Browser.set_screen` lays it out anew, as a reader's window does when resized)."""
    path = Path(path).resolve()
    found = browser.evaluate(_MEASURE)
    on_paper = browser.evaluate(_MEASURE_PRINT) if printed else {"broken_words": [], "folded": [], "views_off_page": []}
    broken_links, broken_anchors, external = [], [], []
    for ref in dict.fromkeys(found["refs"]):
        if not _is_local(ref):
            if urlsplit(ref).scheme in ("http", "https"):
                external.append(ref)
            continue
        parts = urlsplit(ref)
        target = path.parent / unquote(parts.path)
        if not target.is_file():
            broken_links.append(ref)
        elif (
            parts.fragment and target.suffix in (".html", ".htm") and unquote(parts.fragment) not in anchors_of(target)
        ):
            broken_anchors.append(ref)
    return PageReport(
        path=path,
        title=found["title"],
        scroll_width=found["scroll_width"],
        viewport_width=found["viewport_width"],
        broken_images=found["broken_images"],
        broken_links=broken_links,
        missing_anchors=sorted(set(found["missing_anchors"])),
        raw_math=RAW_MATH.findall(found["text"]),
        statements_top=found["statements_top"],
        first_statement_bottom=found["first_statement_bottom"],
        headline_bottom=found["headline_bottom"],
        headline_words=found["headline_words"],
        hidden_status=found["hidden_status"],
        clipped=found["clipped"],
        external=external,
        broken_anchors=broken_anchors,
        clipped_tables=found["clipped_tables"],
        broken_words=on_paper["broken_words"],
        folded=on_paper["folded"],
        cut_nodes=found["cut_nodes"],
        small_nodes=found["small_nodes"],
        views_off_page=on_paper["views_off_page"],
    )


#: The measurements of :class:`PageReport` that list what is wrong, and how to say it (``clipped``: in print only;
#: ``small_nodes``: on screen only).
_LISTED_PROBLEMS = (
    ("broken_images", "{count} image(s) do not load: {first}"),
    ("broken_links", "{count} local link(s) name no file: {first}"),
    ("missing_anchors", "{count} #anchor(s) name no element: {first}"),
    ("broken_anchors", "{count} link(s) to another page name an anchor it lacks: {first}"),
    ("raw_math", "{count} raw $...$ math span(s) in the visible text: {first}"),
    ("clipped", "clipped in print (content wider than its box): {first}"),
    ("clipped_tables", "{count} table(s) clipped inside their box: {first}"),
    ("broken_words", "column(s) narrower than their longest word: {first}"),
    ("folded", "{count} folded section(s) do not print: {first}"),
    ("cut_nodes", "{count} graph node(s) with a title cut or running out of its box: {first}"),
    ("small_nodes", f"{{count}} graph node(s) whose title is drawn below {MIN_GRAPH_TEXT} px on screen: {{first}}"),
    ("views_off_page", "{count} graph view(s) of a main result not on a printed page of their own: {first}"),
)


def page_problems(
    report: PageReport,
    front_page: bool = False,
    first_screen: bool = True,
    printed: bool = False,
    max_printed_pages: int | None = None,
) -> list[str]:
    """What is wrong with a page, one sentence each (empty when nothing is).

    Parameters
    ----------
    report : PageReport
        Measurements of :func:`inspect_page`.
    front_page : bool
        The verification report: its first screen must show the whole headline table; any other page
        (a claim page) must show its first statement's status on the first screen.
    first_screen : bool
        Check the first screen at all (only at the full :data:`SCREEN`; narrower screens are read by scrolling).
    printed : bool
        Laid out for print: a box that scrolls would be cut off on paper.
    max_printed_pages : int, optional
        The A4 pages the page may print on (its ``printed_pages``, when measured).
    """
    problems = []
    if max_printed_pages is not None and report.printed_pages is not None and report.printed_pages > max_printed_pages:
        problems.append(f"prints on {report.printed_pages} A4 pages, more than {max_printed_pages}")
    if report.scroll_width > report.viewport_width:
        problems.append(f"scrolls sideways: {report.scroll_width} px wide on a {report.viewport_width} px screen")
    for name, complaint in _LISTED_PROBLEMS:
        found = getattr(report, name)
        if found and (printed or name != "clipped") and not (printed and name == "small_nodes"):
            problems.append(complaint.format(count=len(found), first=found[:3]))
    if report.hidden_status:
        problems.append(f"{report.hidden_status} status cell(s) right of the screen")
    if first_screen:
        name, bottom = (
            ("headline table (table.headline)", report.headline_bottom)
            if front_page
            else ("first statement (table.statements row)", report.first_statement_bottom)
        )
        if bottom is None:
            problems.append(f"no {name}")
        elif bottom > report.screen_height:
            problems.append(f"the {name} ends at {bottom:.0f} px, below the first screen ({report.screen_height} px)")
    return problems


def report_pages(results: str | Path) -> list[Path]:
    """The verification report, the argument graph's page, every claim page and every certificate's page under a
    results directory, or under the committed site (:mod:`sparseact.publish.site`: a folder with ``index.html`` at its
    root and no ``report/``), front page first."""
    results = Path(results)
    report = results if (results / "index.html").is_file() and not (results / "report").exists() else results / "report"
    return [
        report / "index.html",
        report / "graph.html",
        *sorted((results / "pages").glob("*.html")),
        *sorted((report / "certificates").rglob("*.html")),
    ]


def check_page(
    browser: Browser,
    path: str | Path,
    front_page: bool = False,
    first_screen: bool = True,
    max_printed_pages: int | None = None,
    measured: dict | None = None,
) -> list[str]:
    """:func:`page_problems` of one page at every width of :data:`WIDTHS` and printed, each prefixed by where
    (``first_screen=False``: a page whose first screen holds no statement table, such as the argument graph's;
    ``max_printed_pages``: the A4 pages it may print on, counted in a PDF of it).

    ``measured``, when given, is filled with the numbers the verdict rests on, so that a reader sees them on a page
    that passes too (:func:`measured_text`): ``widths`` (screen width -> the page's width there), ``printed_pages``
    (counted in a PDF), ``headline_words`` (the words of ``table.headline`` at :data:`SCREEN`, or None) and
    ``dead_links`` (its distinct local links, ``#anchors`` and graph nodes' claim-page links that lead nowhere).

    The page is loaded once, at the first width; each other width, and print, lays it out anew (a page's layout
    depends on its screen and media, not on the screen it was loaded at: tests/test_browser.py checks that a load
    at each width finds the same)."""
    problems, widths = [], {}
    try:
        for i, width in enumerate(WIDTHS):
            browser.set_screen(width)
            if i == 0:
                browser.load(path)
            report = measure_page(browser, path)
            widths[width] = report.scroll_width
            if width == SCREEN[0] and measured is not None:
                measured["headline_words"] = report.headline_words
                measured["dead_links"] = len({*report.broken_links, *report.missing_anchors, *report.broken_anchors})
            problems += [
                f"at {width} px: {p}" for p in page_problems(report, front_page, first_screen and width == SCREEN[0])
            ]
        browser.set_screen(PRINT_WIDTH, media="print")
        report = measure_page(browser, path, printed=True)
        if max_printed_pages is not None or measured is not None:
            report.printed_pages = browser.printed_pages()
        problems += [
            f"printed: {p}"
            for p in page_problems(report, front_page, False, printed=True, max_printed_pages=max_printed_pages)
        ]
    finally:
        browser.set_screen(*SCREEN)
    if measured is not None:
        measured.update(widths=widths, printed_pages=report.printed_pages)
    return problems


def measured_text(measured: dict) -> str:
    """What :func:`check_page` measured, in one line: the page's width at each screen width and how far it scrolls
    sideways at the narrowest, its printed A4 pages, its dead local links and the words of its headline table (when
    it has one)."""
    widths, pages = measured["widths"], measured["printed_pages"]
    narrowest = min(widths)
    text = (
        f"{'/'.join(str(w) for w in widths.values())} px wide on {'/'.join(str(w) for w in widths)} px screens "
        f"(sideways scroll at {narrowest} px: {widths[narrowest] - narrowest} px); "
        f"prints on {pages} A4 page{'' if pages == 1 else 's'}; {measured['dead_links']} dead local link"
        f"{'' if measured['dead_links'] == 1 else 's'}"
    )
    if measured.get("headline_words") is not None:
        text += f"; headline table {measured['headline_words']} words"
    return text


def totals_text(measured: dict[str, dict]) -> str:
    """What :func:`check_pages` measured over all its pages, in one line: how many, the most A4 pages one prints on,
    the widest sideways scroll at the narrowest screen and the dead local links in all."""
    if not measured:
        return "no page checked"
    longest = max(measured, key=lambda page: measured[page]["printed_pages"] or 0)
    narrowest = min(WIDTHS)
    scroll = max(numbers["widths"][narrowest] - narrowest for numbers in measured.values())
    dead = sum(numbers["dead_links"] for numbers in measured.values())
    return (
        f"{len(measured)} pages: the longest prints on {measured[longest]['printed_pages']} A4 pages ({longest}); "
        f"widest sideways scroll at {narrowest} px: {scroll} px; {dead} dead local links in all"
    )


def check_pages(
    results: str | Path, browser: Browser | None = None, measured: dict | None = None
) -> dict[str, list[str]]:
    """:func:`check_page` of every page of :func:`report_pages`, keyed by path relative to ``results`` (the first
    screen is judged on the front page and the claim pages, which open with a table of statements; the printed
    length on the front page, at most :data:`REPORT_PRINTED_PAGES` A4 pages, and on the claim and certificate
    pages, at most :data:`PAGE_PRINTED_PAGES`). ``measured``, when given, is filled with each page's numbers (the
    same keys; :func:`check_page`)."""
    pages = report_pages(results)
    if browser is None:
        with Browser() as own:
            return check_pages(results, own, measured)
    claim_pages, graph = Path(results) / "pages", pages[1]
    found = {}
    for i, page in enumerate(pages):
        name = str(page.relative_to(results))
        numbers = measured.setdefault(name, {}) if measured is not None else None
        found[name] = check_page(
            browser,
            page,
            front_page=i == 0,
            first_screen=i == 0 or page.parent == claim_pages,
            max_printed_pages=REPORT_PRINTED_PAGES if i == 0 else None if page == graph else PAGE_PRINTED_PAGES,
            measured=numbers,
        )
    return found


def placeholder_png(path: str | Path, message: str) -> Path:
    """A small PNG that says, in words, why there is no screenshot (byte-identical for the same message)."""
    # deferred: matplotlib loads only to draw a placeholder, where no Chromium is installed
    import matplotlib

    matplotlib.use("Agg")
    # after matplotlib.use: the backend is chosen before pyplot loads
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(7, 1.2), dpi=100)
    fig.text(0.02, 0.5, message, va="center", ha="left", fontsize=10, wrap=True)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png", metadata={"Software": None})
    plt.close(fig)
    return path


def write_screenshots(pages: dict[str | Path, str | Path], printed: dict[str | Path, str | Path] | None = None) -> str:
    """Screenshot each page's first screen, and each printed page's first page; placeholders when no Chromium runs.

    Parameters
    ----------
    pages : dict
        HTML file -> PNG file of its first screen (:data:`SCREEN`).
    printed : dict, optional
        HTML file -> PNG file of its first printed page: laid out with its print styles, the content box of
        an A4 page (:data:`PRINT_WIDTH` x :data:`PRINT_HEIGHT`).

    Returns
    -------
    str
        One line saying what was written (and, for placeholders, why).
    """
    printed = printed or {}
    reason = None
    if find_chromium() is None:
        reason = (
            "No screenshot: no Chromium was found when the report was built. Install it (Debian: "
            "apt-get install chromium) and rerun the report rule."
        )
    else:
        try:
            with Browser() as browser:
                for page, png in pages.items():
                    browser.load(page)
                    browser.screenshot(png)
                browser.set_screen(PRINT_WIDTH, PRINT_HEIGHT, media="print")
                for page, png in printed.items():
                    browser.load(page)
                    browser.screenshot(png)
            return f"screenshots of {len(pages)} page(s) and {len(printed)} printed page(s) by {find_chromium()}"
        except BrowserError as exc:
            reason = f"No screenshot: Chromium failed ({exc})."
    for png in [*pages.values(), *printed.values()]:
        placeholder_png(png, reason)
    return reason
