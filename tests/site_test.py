#!/usr/bin/env python3
"""The findings site (`topocheck report --html`) in a real browser.

Usage: site_test.py TOPOCHECK CORPUS REPORT.json OUT

Writes the site from REPORT.json (the gate's verify --budget quick report) into OUT/site, then:
  - validates every page with tidy (HTML5: no error, no warning) and parses every SVG as XML
    (root <svg> with a <title>);
  - checks, without a browser, that every internal link and image of every page names a file of
    the site and every #fragment an id of its page;
  - opens the index and every paper page in headless Chromium (served from 127.0.0.1 so that one
    harness page can look inside them): every <img> must have loaded (naturalWidth > 0) and every
    internal link must answer;
  - keeps screenshots (OUT/screenshots/*.png): the index at desktop and phone width, each paper page,
    and one drawing of each kind;
  - negative controls: a corpus whose case has a witness node outside the topology must make
    `report` fail with exit 2 and leave no site; a page with a missing image must be caught by the
    checks above.
Needs the Debian packages chromium and tidy (the launcher installs them).
"""
import functools
import html.parser
import http.server
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FAILS = []


def fail(message):
    FAILS.append(message)
    print("FAIL:", message)


class Links(html.parser.HTMLParser):
    """The ids, links and images of one page."""

    def __init__(self):
        super().__init__()
        self.ids, self.hrefs, self.images = set(), [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
        if tag == "img":
            self.images.append(a.get("src", ""))
            if not a.get("alt"):
                fail(f"an <img> without alt text: {a.get('src')}")


def parse_page(path):
    p = Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def static_checks(site):
    """Every page valid, every internal link and image resolves; returns the problems."""
    problems = []
    pages = sorted(site.glob("*.html"))
    parsed = {page.name: parse_page(page) for page in pages}
    for page in pages:
        out = subprocess.run(["tidy", "-q", "-e", "-utf8", "--gnu-emacs", "yes", str(page)], capture_output=True, text=True)
        if out.returncode != 0:
            problems.append(f"tidy: {page.name}: {out.stderr.strip()[:2000]}")
        info = parsed[page.name]
        for ref in info.hrefs + info.images:
            if re.match(r"^[a-z]+:", ref):
                problems.append(f"{page.name}: external reference {ref} (the site must open offline)")
                continue
            target, _, fragment = ref.partition("#")
            file = (page.parent / target) if target else page
            if not file.is_file():
                problems.append(f"{page.name}: {ref} names no file of the site")
                continue
            if fragment and file.suffix == ".html":
                ids = parsed[file.name].ids if file.name in parsed else parse_page(file).ids
                if fragment not in ids:
                    problems.append(f"{page.name}: {ref}: no id {fragment} in {file.name}")
        for image in info.images:
            file = page.parent / image
            if file.suffix == ".svg" and file.is_file():
                try:
                    root = ET.parse(file).getroot()
                except ET.ParseError as e:
                    problems.append(f"{image}: not well-formed SVG: {e}")
                    continue
                if not root.tag.endswith("svg") or not any(child.tag.endswith("title") for child in root.iter()):
                    problems.append(f"{image}: not an <svg> with a <title>")
    return problems


HARNESS = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>harness</title></head><body>
<pre id="result">running</pre>
<script>
const pages = %s;
async function check(page) {
  const out = [];
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  await new Promise(done => { frame.onload = done; frame.src = 'site/' + page; });
  const doc = frame.contentDocument;
  for (const img of doc.images) {
    if (!img.complete) await new Promise(done => { img.onload = img.onerror = done; });
    if (img.naturalWidth === 0) out.push(page + ': image did not load: ' + img.getAttribute('src'));
  }
  for (const a of doc.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href');
    if (/^[a-z]+:/.test(href) || href.startsWith('#')) continue;
    const r = await fetch(new URL(href, frame.contentWindow.location.href));
    if (!r.ok) out.push(page + ': link does not resolve: ' + href);
  }
  out.push(page + ': checked ' + doc.images.length + ' images');
  frame.remove();
  return out;
}
(async () => {
  let lines = [];
  for (const p of pages) lines = lines.concat(await check(p));
  document.getElementById('result').textContent = JSON.stringify(lines);
})();
</script></body></html>
"""


def chromium(args, timeout=120):
    base = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--disable-extensions", "--hide-scrollbars"]
    return subprocess.run(base + args, capture_output=True, text=True, timeout=timeout)


def browser_checks(out, pages):
    """Loads every page in Chromium through the harness; returns the problems and the lines seen."""
    (out / "harness.html").write_text(HARNESS % json.dumps(pages), encoding="utf-8")
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/harness.html"
        run = chromium(["--virtual-time-budget=60000", "--dump-dom", url], timeout=300)
    finally:
        server.shutdown()
    m = re.search(r'<pre id="result">(.*?)</pre>', run.stdout, re.S)
    if not m or m.group(1).strip() == "running":
        return [f"the browser did not finish the checks: {run.stderr.strip()[-800:]}"], []
    lines = json.loads(html.unescape(m.group(1)))
    return [l for l in lines if "checked" not in l], [l for l in lines if "checked" in l]


def screenshot(url, path, size):
    run = chromium([f"--window-size={size}", f"--screenshot={path}", url])
    if not path.is_file() or path.stat().st_size == 0:
        fail(f"no screenshot of {url}: {run.stderr.strip()[-400:]}")


def main():
    tc, corpus, report, out = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3], pathlib.Path(sys.argv[4])
    if CHROMIUM is None or shutil.which("tidy") is None:
        print("FAIL: chromium and tidy are needed (the launcher installs them)")
        return 1
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    site = out / "site"
    run = subprocess.run([tc, "--corpus", str(corpus), "report", "--html", str(site), "--from", report],
                         capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"report exited {run.returncode}: {run.stderr.strip()[-1500:]}")
        return 1
    pages = sorted(p.name for p in site.glob("*.html"))
    if len(pages) != 6:
        fail(f"expected the index and 5 paper pages, found {pages}")

    for problem in static_checks(site):
        fail(problem)

    problems, seen = browser_checks(out, pages)
    for problem in problems:
        fail("browser: " + problem)
    for line in seen:
        print("browser:", line)
    if len(seen) != len(pages):
        fail(f"the browser checked {len(seen)} of {len(pages)} pages")

    shots = out / "screenshots"
    shots.mkdir()
    screenshot((site / "index.html").as_uri(), shots / "index-desktop.png", "1280,1400")
    screenshot((site / "index.html").as_uri(), shots / "index-phone.png", "390,1600")
    for page in pages:
        if page != "index.html":
            screenshot((site / page).as_uri(), shots / page.replace(".html", ".png"), "1280,4000")
    # One screenshot per kind of drawing (the kind ends each drawing's <title>: "aapc schedule",
    # "metacube paths", "wormhole deadlock", ...), the smallest drawing of that kind, which is
    # the one most readable at window size.
    kinds = {}
    for svg in sorted((site / "drawings").rglob("*.svg")):
        title = re.search(r'<title id="topocheck-title">([^<]*)</title>', svg.read_text(encoding="utf-8"))
        kind = re.sub(r"[^a-z0-9]+", "-", title.group(1).rsplit(": ", 1)[-1].lower()).strip("-") if title else "untitled"
        if kind not in kinds or svg.stat().st_size < kinds[kind].stat().st_size:
            kinds[kind] = svg
    for kind, svg in sorted(kinds.items()):
        # Scaled to the window as the pages scale it (a wide path drawing is wider than any screen).
        frame = out / f"drawing-{kind}.html"
        frame.write_text(f'<!DOCTYPE html><html><body style="margin:0"><img src="{svg.as_uri()}" '
                         f'style="max-width:100%;height:auto" alt="{kind}"></body></html>', encoding="utf-8")
        screenshot(frame.as_uri(), shots / f"drawing-{kind}.png", "1200,900")
    print(f"screenshots: {sorted(p.name for p in shots.iterdir())}")

    # Negative control 1: a page whose image is missing is caught by the static checks and the browser.
    broken = out / "broken"
    shutil.copytree(site, broken / "site")
    victim = next((broken / "site" / "drawings").rglob("*.svg"))
    victim.unlink()
    if not any("names no file" in p for p in static_checks(broken / "site")):
        fail("negative control: a missing drawing was not caught by the static checks")
    missed, _ = browser_checks(broken, pages)
    if not any("did not load" in p for p in missed):
        fail("negative control: a missing drawing was not caught in the browser")

    # Negative control 2: a witness node outside the topology must fail the report (exit 2), and
    # no site may be written.
    bad_corpus = out / "bad-corpus"
    shutil.copytree(corpus, bad_corpus)
    case = next(p for p in sorted((bad_corpus / "metacube" / "thm2.disjoint").glob("*.json")))
    data = json.loads(case.read_text())
    data["witness"]["paths"][0][1] = "1" * (len(data["witness"]["paths"][0][1]) + 2)
    case.write_text(json.dumps(data, indent=1))
    bad_site = out / "bad-site"
    run = subprocess.run([tc, "--corpus", str(bad_corpus), "report", "--html", str(bad_site), "--from", report],
                         capture_output=True, text=True)
    if run.returncode != 2 or bad_site.exists():
        fail(f"negative control: a witness node outside the topology gave exit {run.returncode} "
             f"(site written: {bad_site.exists()}): {run.stderr.strip()[-400:]}")
    else:
        print("negative control: bad witness rejected:", run.stderr.strip().splitlines()[-1])

    print(f"site_test: {len(FAILS)} failure(s)")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
