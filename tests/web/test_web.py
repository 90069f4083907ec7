#!/usr/bin/env python3
"""test_web.py BUILD_WEB: collviz's browser page as a learner uses it.

Serves the built page (scripts/web.sh) on 127.0.0.1 and drives it in
headless Chromium through Selenium (Debian's chromium, chromium-driver and
python3-selenium):

- the free stage's values can be read back off the canvas by OCR
  (tesseract), as test_render_ocr does on the desktop, and sharp at a
  device pixel ratio of 2; the canvas follows the browser window's size;
- Right plays a step: a frame during the flight and one after it differ
  from the one before, and from each other;
- a deep link opens the lesson and step it names; with &lang=zh every
  character drawn has a face (no boxes);
- a quiz answered on the page is still answered after a reload (progress in
  IndexedDB), and the page shows it so;
- a dropped NCCL log opens its communicator's ranks on the stage, a
  dropped `collviz bench --json` result as show's chart;
- S downloads a PNG of the canvas, the bar's "export GIF" an animation;
- a swipe turns a lesson's page, as on a tablet (past an unanswered
  question the first asks once, as Page Down does);
- a click on a send cell, typed digits and Enter run the collective again
  on the edited input, verified, at the step shown; keys alone (E, an
  arrow, digits, Enter) do it too, and a value int32 cannot hold is refused
  with the field left open;
- the interview drill runs in the page's text panel and keeps its score;
- a link with a bad value says so in one line and still draws;
- no JavaScript error, no failed request, in any of it.

Exit 0 when all pass, 1 otherwise (each failure named), 77 when Chromium,
its driver or tesseract is missing.
"""
import functools
import glob
import http.server
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))

try:
    from PIL import Image, ImageOps
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
except ImportError as e:
    print("SKIPPED: %s (scripts/web.sh --test installs python3-selenium and python3-pil)" % e)
    sys.exit(77)

failures = []


def fail(what):
    failures.append(what)
    print("FAIL:", what, flush=True)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(folder):
    handler = functools.partial(QuietHandler, directory=folder)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


class Page:
    """One browser (one profile: its IndexedDB lasts across reloads)."""

    def __init__(self, base, scale=1, size=(1280, 860)):
        self.base = base
        self.profile = tempfile.mkdtemp(prefix="collviz-web-")
        self.downloads = os.path.join(self.profile, "downloads")
        os.makedirs(self.downloads)
        o = Options()
        for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                  "--enable-unsafe-swiftshader", "--user-data-dir=" + self.profile,
                  "--window-size=%d,%d" % size, "--force-device-scale-factor=%g" % scale]:
            o.add_argument(a)
        o.add_experimental_option("prefs", {"download.default_directory": self.downloads,
                                            "download.prompt_for_download": False})
        o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.d = webdriver.Chrome(options=o)
        self.logs = []

    def open(self, query="", what=None):
        self.d.get(self.base + "index.html" + query)
        return self.wait_ready(what or query or "the course")

    def wait_ready(self, what, timeout=30):
        end = time.time() + timeout
        while time.time() < end:
            if self.js("return window.collvizReady || 0"):
                time.sleep(0.3)
                return True
            time.sleep(0.1)
        fail("%s: no frame drawn within %d s (status: %r)" % (what, timeout, self.status()))
        return False

    def js(self, code, *args):
        return self.d.execute_script(code, *args)

    def status(self):
        return self.js("var s = document.getElementById('status'); return s ? s.textContent : ''")

    def key(self, k, pause=0.15):
        ActionChains(self.d).send_keys(getattr(Keys, k, k)).perform()
        time.sleep(pause)

    def canvas(self):
        """The canvas's pixels as the page shows them (CSS size)."""
        png = self.d.find_element("id", "canvas").screenshot_as_png
        return Image.open(io.BytesIO(png)).convert("RGB")

    def collect_logs(self, what):
        for e in self.d.get_log("browser"):
            if e["level"] == "SEVERE":
                fail("%s: the browser logged an error: %s" % (what, e["message"][:300]))
        errors = self.js("return window.collvizErrors || []")
        for e in errors:
            fail("%s: JavaScript error: %s" % (what, e))

    def close(self):
        self.d.quit()
        shutil.rmtree(self.profile, ignore_errors=True)


def ocr(img, scale=3):
    """tesseract's words on img: light text on dark made black on white,
    scaled up without smoothing (as tests/test_render_ocr.c prepares it)."""
    grey = ImageOps.grayscale(img)
    if sum(grey.resize((32, 32)).getdata()) / 1024 < 128:
        grey = ImageOps.invert(grey)
    grey = grey.resize((grey.width * scale, grey.height * scale), Image.NEAREST)
    path = os.path.join(tempfile.gettempdir(), "collviz-web-ocr-%d.png" % os.getpid())
    grey.save(path)
    out = subprocess.run(["tesseract", path, "-", "--psm", "11"], capture_output=True, text=True)
    os.unlink(path)
    return out.stdout


def ocr_find(img, pattern, scales=(4, 5, 6, 3)):
    """Whether OCR finds pattern in img at one of the scales (small type is
    read at some scales and not others); the text of the last try."""
    text = ""
    for k in scales:
        text = ocr(img, scale=k)
        if re.search(pattern, text):
            return True, text
    return False, text


def differs(a, b):
    return a.size != b.size or a.tobytes() != b.tobytes()


# ----------------------------------------------------------------- tests

def test_stage(base):
    """The free stage: readable sums at 8 ranks, a step that plays."""
    p = Page(base)
    try:
        q = "?op=allreduce&algo=ring&ranks=8&count=8&init=index"
        if not p.open(q):
            return
        p.key("END", 1.0)  # the last step landed: every rank holds the sums
        text = ocr(p.canvas())
        # rank r holds 100 r + i: the sum over 8 ranks is 2800 + 8 i
        want = {str(2800 + 8 * i) for i in range(8)}
        got = want & set(re.findall(r"\d{4}", text))
        if len(got) < 6:
            fail("stage: OCR read %d of the 8 sums %s (read: %r)"
                 % (len(got), sorted(want), text[:300]))
        p.key("HOME", 0.8)
        before = p.canvas()
        frames = p.js("return Module._web_frames_drawn()")
        p.key("ARROW_RIGHT", 0.35)
        during = p.canvas()
        time.sleep(2.5)
        after = p.canvas()
        if not differs(before, during) or not differs(during, after) or not differs(before, after):
            fail("stage: Right did not animate a step (frames before/during/after alike)")
        if p.js("return Module._web_frames_drawn()") <= frames + 2:
            fail("stage: playing a step drew no frames")
        p.collect_logs("stage")
    finally:
        p.close()


def test_hidpi(base):
    """At a device pixel ratio of 2 the canvas has twice the pixels, and the
    values stay readable."""
    p = Page(base, scale=2, size=(1024, 800))
    try:
        if not p.open("?op=allreduce&algo=ring&ranks=4&count=8&init=index"):
            return
        w, cw = p.js("var c = document.getElementById('canvas'); "
                     "return [c.width, c.clientWidth]")
        if w < 2 * cw - 2:
            fail("hidpi: canvas %d pixels wide for %d CSS pixels at ratio 2" % (w, cw))
        p.key("END", 1.0)
        text = ocr(p.canvas(), scale=2)
        want = {str(600 + 4 * i) for i in range(8)}  # 4 ranks: 600 + 4 i
        if len(want & set(re.findall(r"\d{3}", text))) < 6:
            fail("hidpi: OCR did not read the sums at ratio 2 (read: %r)" % text[:200])
        # The browser window made smaller: the canvas and the frame follow.
        frames = p.js("return Module._web_frames_drawn()")
        p.d.set_window_size(800, 640)
        time.sleep(1.5)
        w, cw, h, ch = p.js("var c = document.getElementById('canvas'); "
                            "return [c.width, c.clientWidth, c.height, c.clientHeight]")
        if abs(w - 2 * cw) > 2 or abs(h - 2 * ch) > 2:
            fail("resize: canvas %dx%d for %dx%d CSS pixels at ratio 2" % (w, h, cw, ch))
        if p.js("return Module._web_frames_drawn()") <= frames:
            fail("resize: no frame drawn at the new size")
        text = ocr(p.canvas(), scale=2)
        if not re.search(r"GPU\s*3", text):
            fail("resize: the stage is not readable at the new size (read: %r)" % text[:200])
        p.collect_logs("hidpi")
    finally:
        p.close()


def test_lessons(base):
    """A deep link, Chinese without boxes, a quiz answer that survives a
    reload."""
    p = Page(base)
    try:
        if not p.open("?lesson=algo-ring-allreduce&step=3"):
            return
        # The narration panel's head: "Algorithms · 3 / 7" over the title.
        img = p.canvas()
        found, text = ocr_find(img.crop((img.width * 2 // 3, 0, img.width, img.height // 4)),
                               r"3\s*/\s*7")
        if not found or "Ring" not in text:
            fail("deep link: lesson algo-ring-allreduce at step 3 of 7 not shown (read: %r)"
                 % text[:300])
        # The quiz of this beat: rank 1's recv[0] after the next step is 3,
        # the second option. A number key picks it, Enter answers.
        p.key("2")
        p.key("ENTER", 1.0)
        saved = p.js("try { return FS.readFile('/persist/collviz/progress.json', "
                     "{encoding: 'utf8'}); } catch (e) { return ''; }")
        if "first-partial-sum" not in saved:
            fail("quiz: the answer is not in the progress file (%r)" % saved[:200])
        time.sleep(1.0)  # the copy into IndexedDB is asynchronous
        if not p.open("?lesson=algo-ring-allreduce&step=3", "reload"):
            return
        saved = p.js("try { return FS.readFile('/persist/collviz/progress.json', "
                     "{encoding: 'utf8'}); } catch (e) { return ''; }")
        if "first-partial-sum" not in saved:
            fail("quiz: after a reload the progress file lacks the answer (%r)" % saved[:200])
        # The lessons menu (Tab) scores each lesson's quizzes: this one 1/6,
        # every other 0/N. Down moves the highlight off its row.
        p.key("TAB", 0.6)
        p.key("ARROW_DOWN", 0.6)
        text = ocr(p.canvas(), scale=4)  # the scores are small
        if not re.search(r"(?<![\w/])[1lI|i]\s*/\s*6\b", text):
            fail("quiz: after a reload the lessons menu does not score the answer 1/6 (read: %r)"
                 % text[:400])
        p.key("ESCAPE", 0.3)
        if not p.open("?lesson=algo-ring-allreduce&step=3&lang=zh"):
            return
        missing = p.js("return Module._web_missing_glyphs()")
        if missing:
            fail("zh: %d characters drawn as boxes, the first U+%04X"
                 % (missing, p.js("return Module._web_missing_first()")))
        p.key("ARROW_RIGHT", 0.3)
        p.key("ARROW_RIGHT", 0.3)
        if p.js("return Module._web_missing_glyphs()"):
            fail("zh: boxes on the next pages")
        p.collect_logs("lessons")
    finally:
        p.close()


def test_ncclog(base):
    """A dropped NCCL log opens on the stage with its ranks."""
    p = Page(base)
    try:
        if not p.open("?op=allreduce"):
            return
        log = open(os.path.join(SRC, "assets", "ncclog", "two-nodes-16.log")).read()
        p.js("window.collvizReady = 0; Module.collvizTake('two-nodes-16.log', arguments[0]);", log)
        if not p.wait_ready("dropped NCCL log"):
            return
        if "nccl-log=two-nodes-16.log" not in p.d.current_url:
            fail("ncclog: the page did not open the dropped log (%s)" % p.d.current_url)
        text = ocr(p.canvas())
        if not re.search(r"16 ranks", text) or not re.search(r"GPU\s*15", text):
            fail("ncclog: the stage does not show the log's 16 ranks (read: %r)" % text[:300])
        p.js("Module.collvizTake('notes.txt', 'hello')")
        if "neither an NCCL log" not in p.status():
            fail("ncclog: a file that is not a log was not refused in a line (%r)" % p.status())
        # A bench result opens as show's chart.
        # (collviz bench --op allreduce --ranks 4 -b 1K -e 4M -f 4 -n 3 --json)
        bench = open(os.path.join(HERE, "bench-allreduce.json")).read()
        p.js("window.collvizReady = 0; Module.collvizTake('r.json', arguments[0]);", bench)
        if not p.wait_ready("a dropped bench result"):
            return
        text = ocr(p.canvas())
        if "show=r.json" not in p.d.current_url or not re.search(r"busbw", text):
            fail("show: the dropped bench result is not charted (%s; read: %r)"
                 % (p.d.current_url, text[:300]))
        # nccl-tests' output, pasted with its tags, opens as the chart too.
        paste = open(os.path.join(SRC, "tests", "show", "nccltests",
                                  "mooncake-3484-rows-only.txt")).read()
        p.js("window.collvizReady = 0; Module.collvizTake('perf.txt', arguments[0]);", paste)
        if not p.wait_ready("dropped nccl-tests output"):
            return
        text = ocr(p.canvas())
        if "show=perf.txt" not in p.d.current_url or not re.search(r"8 ranks", text):
            fail("show: the dropped nccl-tests output is not charted (%s; read: %r)"
                 % (p.d.current_url, text[:300]))
        # A trace recorded elsewhere (collviz run --op allreduce --algo tree
        # --ranks 5 --count 7 --trace-out) replays on the stage with its
        # backend and host in the header.
        trace = open(os.path.join(HERE, "trace-tree-5.json")).read()
        p.js("window.collvizReady = 0; Module.collvizTake('t5.json', arguments[0]);", trace)
        if not p.wait_ready("a dropped trace"):
            return
        # (tesseract reads this face's 7 as "/" and 5 as "S" at times)
        found, text = ocr_find(p.canvas(), r"recorded on node[7/]")
        if "trace=t5.json" not in p.d.current_url or not found:
            fail("trace: the dropped trace is not replayed with its host (%s; read: %r)"
                 % (p.d.current_url, text[:300]))
        p.collect_logs("ncclog")
    finally:
        p.close()


def test_shot_and_bad_link(base):
    """S downloads the canvas as a PNG; a bad value in the link is one line
    on the page and the stage still draws."""
    p = Page(base)
    try:
        if not p.open("?op=allreduce&ranks=4"):
            return
        p.key("s", 2.0)
        shots = glob.glob(os.path.join(p.downloads, "collviz-*.png"))
        if not shots:
            fail("shot: S downloaded no PNG")
        else:
            img = Image.open(shots[0])
            w = p.js("return document.getElementById('canvas').width")
            if img.size[0] != w:
                fail("shot: the PNG is %dx%d, the canvas %d wide" % (img.size + (w,)))
        if not p.open("?op=allreduce&ranks=abc", "a bad link"):
            return
        line = p.status()
        if "ranks" not in line or "\n" in line.strip():
            fail("bad link: the page did not say what is wrong in one line (%r)" % line)
        if not p.open("?colour=blue", "an unknown parameter"):
            return
        if "colour" not in p.status():
            fail("unknown parameter: not named on the page (%r)" % p.status())
        # Every spec field's key is the link's too (the table in
        # app/cli/cli_fields.c): proto= and inter-link= open the stage.
        if not p.open("?op=allreduce&ranks=4&nodes=2&proto=ll128&inter-link=ib-hdr",
                      "proto and inter-link"):
            return
        said = " | ".join(p.js("return window.collvizSaid || []"))
        if "not one collviz knows" in said or "proto" in said or "inter-link" in said:
            fail("proto=, inter-link=: the link was refused (%r)" % said)
        p.collect_logs("shot")
    finally:
        p.close()


def swipe(p, x0, x1, y):
    """A finger across the canvas from x0 to x1 (CSS pixels), through CDP."""
    def touch(kind, x):
        pts = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        p.d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})
    touch("touchStart", x0)
    for k in range(1, 6):
        touch("touchMove", x0 + (x1 - x0) * k / 5)
        time.sleep(0.02)
    touch("touchEnd", x1)


def test_export_and_swipe(base):
    """The bar's "export GIF" downloads an animated GIF of the stage; a
    swipe turns a lesson's page."""
    p = Page(base)
    try:
        # The export carries the link's fields (proto and link too).
        if not p.open("?op=allgather&algo=ring&ranks=4&proto=ll128&link=nvlink3"):
            return
        p.d.find_element("id", "gif").click()
        end = time.time() + 60
        gifs = []
        while time.time() < end and not gifs:
            gifs = [g for g in glob.glob(os.path.join(p.downloads, "*.gif"))]
            time.sleep(0.3)
        if not gifs:
            fail("export: no GIF downloaded within 60 s (status %r)" % p.status())
        else:
            time.sleep(0.5)
            img = Image.open(gifs[0])
            if img.format != "GIF" or getattr(img, "n_frames", 1) < 10:
                fail("export: %s is not an animation (%s, %d frames)"
                     % (gifs[0], img.format, getattr(img, "n_frames", 1)))
        if not p.open("?lesson=algo-ring-allreduce&step=3"):
            return
        cw, ch = p.js("var c = document.getElementById('canvas'); "
                      "return [c.clientWidth, c.clientHeight]")
        # Page 3 holds a question: the first swipe past it unanswered asks
        # once (as Page Down does), the second turns the page.
        swipe(p, cw * 0.6, cw * 0.2, ch * 0.5)
        time.sleep(1.0)
        swipe(p, cw * 0.6, cw * 0.2, ch * 0.5)
        time.sleep(1.5)
        img = p.canvas()
        found, text = ocr_find(img.crop((img.width * 2 // 3, 0, img.width, img.height // 4)),
                               r"4\s*/\s*7")
        if not found:
            fail("swipe: a swipe to the left did not turn to page 4 of 7 (read: %r)" % text[:200])
        p.collect_logs("export")
    finally:
        p.close()


def test_edit(base):
    """Edit a value on the stage: a click on GPU 1's send[2] (where the page
    says it is drawn), 300, Enter; then E, Down, -4, Enter; then a refusal."""
    p = Page(base)
    try:
        if not p.open("?op=allreduce&algo=ring&ranks=4&count=8&init=index&dtype=int32"):
            return
        p.key("ARROW_RIGHT", 3.0)  # step 1, played and landed
        t = p.js("return Module._web_time()")
        at = p.js("return Module._web_send_cell_at(1, 2)")
        if at < 0:
            fail("edit: GPU 1's send[2] is not drawn")
            return
        x, y = at // 65536, at % 65536
        canvas = p.d.find_element("id", "canvas")
        w, h = p.js("var r = document.getElementById('canvas').getBoundingClientRect(); "
                    "return [r.width, r.height]")
        # W3C actions: the offset is from the element's centre
        ActionChains(p.d).move_to_element_with_offset(canvas, int(x - w / 2),
                                                      int(y - h / 2)).click().perform()
        time.sleep(0.3)
        if not p.js("return Module._web_editing()"):
            fail("edit: a click at (%d, %d) on GPU 1's send[2] opened no field" % (x, y))
        for k in "300":
            p.key(k, 0.1)
        p.key("ENTER", 1.0)
        got = (p.js("return Module._web_input_value(1, 2)"), p.js("return Module._web_wrong()"),
               p.js("return Module._web_time()"), p.js("return Module._web_editing()"))
        if got != (300, 0, t, 0):
            fail("edit: after 300 and Enter: input %r, %r wrong, t %r (was %r), field open %r"
                 % (got[0], got[1], got[2], t, got[3]))
        # Keys alone: E reopens the edited cell, Down goes to GPU 2's.
        for k in ["e", "ARROW_DOWN", "-", "4"]:
            p.key(k, 0.1)
        p.key("ENTER", 1.0)
        if p.js("return Module._web_input_value(2, 2)") != -4 or p.js("return Module._web_wrong()"):
            fail("edit: E, Down, -4, Enter: GPU 2's send[2] holds %r"
                 % p.js("return Module._web_input_value(2, 2)"))
        p.key("e", 0.1)
        for k in "99999999999":
            p.key(k, 0.05)
        p.key("ENTER", 0.5)
        if not p.js("return Module._web_editing()") or \
                p.js("return Module._web_input_value(2, 2)") != -4:
            fail("edit: 99999999999 in int32 was not refused with the field left open")
        p.key("ESCAPE", 0.3)
        if p.js("return Module._web_editing()"):
            fail("edit: Esc left the field open")
        p.collect_logs("edit")
    finally:
        p.close()


def test_drill(base):
    """The interview drill in the page's text panel: questions, an answer
    judged, the score kept in the progress file; a bad link refused."""
    p = Page(base)
    try:
        if not p.open("?drill&count=3&time=0"):
            return
        out = lambda: p.js("return document.getElementById('drill-out').textContent")
        if "Interview drill: 3 questions" not in out() or "== 1/3" not in out():
            fail("drill: the first question is not shown (%r)" % out()[:300])
        box = p.d.find_element("id", "drill-in")
        box.send_keys("zzz" + Keys.ENTER)  # no answer: asked again
        time.sleep(0.3)
        if "== 2/3" in out():
            fail("drill: a line that is no answer moved on")
        box.send_keys(Keys.ENTER)  # Enter alone passes
        time.sleep(0.3)
        if "== 2/3" not in out() or "Standard answer" not in out():
            fail("drill: passing did not show the card and the next question (%r)"
                 % out()[-400:])
        box.send_keys("q" + Keys.ENTER)
        time.sleep(0.5)
        if "Score: 0 of 1" not in out():
            fail("drill: no score after q (%r)" % out()[-300:])
        saved = p.js("try { return FS.readFile('/persist/collviz/progress.json', "
                     "{encoding: 'utf8'}); } catch (e) { return ''; }")
        if not re.search(r'"runs":\s*1', saved):
            fail("drill: the run is not in the progress file (%r)" % saved[:300])
        if not p.open("?drill&time=-4", "a bad drill link"):
            return
        if "time=-4" not in p.status():
            fail("drill: a bad time is not said in a line (%r)" % p.status())
        p.collect_logs("drill")
    finally:
        p.close()


def main():
    if len(sys.argv) != 2 or not os.path.isfile(os.path.join(sys.argv[1], "index.html")):
        print("usage: test_web.py BUILD_WEB (the folder scripts/web.sh builds)")
        return 2
    for tool in ["chromium", "chromedriver", "tesseract"]:
        if not shutil.which(tool):
            print("SKIPPED: no %s (scripts/web.sh --test installs it)" % tool)
            return 77
    srv = serve(os.path.abspath(sys.argv[1]))
    base = "http://127.0.0.1:%d/" % srv.server_address[1]
    tests = [test_stage, test_hidpi, test_lessons, test_ncclog, test_shot_and_bad_link,
             test_export_and_swipe, test_edit, test_drill]
    only = os.environ.get("COLLVIZ_WEB_TEST")
    for t in tests:
        if only and only not in t.__name__:
            continue
        t0 = time.time()
        n = len(failures)
        try:
            t(base)
        except Exception as e:  # a driver failure is a test failure, named
            fail("%s: %s: %s" % (t.__name__, type(e).__name__, e))
        print("%-24s %s (%.1f s)" % (t.__name__, "ok" if len(failures) == n else "FAILED",
                                     time.time() - t0), flush=True)
    srv.shutdown()
    if failures:
        print("test_web: %d failed" % len(failures))
        return 1
    print("test_web: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
