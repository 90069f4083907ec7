#!/usr/bin/env python3
"""web_bench.py BUILD_WEB [DESKTOP_COLLVIZ]: what the browser page costs,
beside the desktop in the same run.

- Download: every file the page fetches, raw and gzipped (what a static
  host that compresses sends). Target: at most 3 MB gzipped.
- First frame: from navigation to the first drawn stage, in headless
  Chromium on 127.0.0.1 (performance.now() when the program presents its
  first frame), for the course (the default page), a deep link into a
  lesson and the free stage; the median of 5 loads each, in a fresh
  profile each time. Target: at most 1.5 s.
- Frame time: ring AllReduce, 16 ranks, playing at 1x on a 1920x1080
  canvas for 600 frames; the median time the program spends on a frame
  that draws (events, playback, drawing and handing the pixels to the
  canvas), read from the page (web_frame_median_ms), and of it the drawing
  alone (web_draw_median_ms). Beside it, the
  desktop's software renderer on the same setup and machine (`collviz
  render --bench --ranks 16 --size 1920x1080 --frames 600`, with
  SDL_VIDEODRIVER=dummy), when DESKTOP_COLLVIZ is given. Targets: the page
  within 2x of the desktop, and under 16.7 ms.

Prints a table and the targets met or missed; exit 0 when all are met.
"""
import gzip
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "web"))
import test_web  # noqa: E402  (the server and the browser driver)


def sizes(folder):
    raw = gz = 0
    rows = []
    for name in sorted(os.listdir(folder)):
        data = open(os.path.join(folder, name), "rb").read()
        z = len(gzip.compress(data, 9))
        rows.append((name, len(data), z))
        raw += len(data)
        gz += z
    return rows, raw, gz


def first_frame(base, query, runs=5):
    times = []
    for _ in range(runs):
        p = test_web.Page(base)
        try:
            p.d.get(base + "index.html" + query)
            end = time.time() + 30
            t = 0
            while time.time() < end and not t:
                t = p.js("return window.collvizReady || 0")
                time.sleep(0.02)
            times.append(t)
        finally:
            p.close()
    return statistics.median(times), times


def page_frames(base):
    p = test_web.Page(base)
    try:
        # The viewport exactly: the bar on top, a 1920x1080 canvas under it.
        p.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 1920, "height": 1080 + 24, "deviceScaleFactor": 1,
                             "mobile": False})
        p.open("?op=allreduce&algo=ring&ranks=16&count=16")
        w, h = p.js("var c = document.getElementById('canvas'); return [c.width, c.height]")
        p.key("SPACE", 0.1)
        start = p.js("return Module._web_frames_drawn()")
        end = time.time() + 60
        while time.time() < end and p.js("return Module._web_frames_drawn()") < start + 600:
            time.sleep(0.25)
        n = min(p.js("return Module._web_frames_drawn()") - start, 600)
        return (p.js("return Module._web_frame_median_ms(arguments[0])", n),
                p.js("return Module._web_draw_median_ms(arguments[0])", n), n, (w, h))
    finally:
        p.close()


def desktop_frames(collviz):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy")
    out = subprocess.run([collviz, "render", "--bench", "--ranks", "16", "--size", "1920x1080",
                          "--frames", "600"], capture_output=True, text=True, env=env)
    m = re.search(r"median\s+([\d.]+)\s*ms", out.stdout + out.stderr)
    return float(m.group(1)) if m else None, (out.stdout + out.stderr).strip()


def main():
    if len(sys.argv) not in (2, 3) or not os.path.isfile(os.path.join(sys.argv[1], "index.html")):
        print("usage: web_bench.py BUILD_WEB [DESKTOP_COLLVIZ]")
        return 2
    if not shutil.which("chromium") or not shutil.which("chromedriver"):
        print("web_bench: needs chromium and chromium-driver (scripts/web.sh --bench installs them)")
        return 2
    folder = os.path.abspath(sys.argv[1])
    srv = test_web.serve(folder)
    base = "http://127.0.0.1:%d/" % srv.server_address[1]
    ok = True

    rows, raw, gz = sizes(folder)
    print("## Download (%s)" % folder)
    print("| file | bytes | gzipped |")
    print("|---|---:|---:|")
    for name, r, z in rows:
        print("| %s | %d | %d |" % (name, r, z))
    print("| all | %d | %d (%.2f MB) |" % (raw, gz, gz / 1e6))
    if gz > 3e6:
        ok = False
        print("MISSED: more than 3 MB gzipped")

    print("\n## From navigation to the first drawn stage (median of 5, ms)")
    for what, q in [("the course (no link)", ""),
                    ("a lesson's step (?lesson=algo-ring-allreduce&step=3)",
                     "?lesson=algo-ring-allreduce&step=3"),
                    ("the free stage, 16 ranks", "?op=allreduce&ranks=16")]:
        med, all_ = first_frame(base, q)
        print("- %s: %.0f (%s)" % (what, med, ", ".join("%.0f" % t for t in all_)))
        if not med or med > 1500:
            ok = False
            print("  MISSED: over 1.5 s")

    print("\n## Frame time, ring AllReduce, 16 ranks, 1920x1080, playing at 1x")
    web_ms, draw_ms, n, (w, h) = page_frames(base)
    print("- the page in headless Chromium: median %.2f ms over %d frames (canvas %dx%d), of "
          "which drawing %.2f ms (median of its own), the rest handing the changed pixels to "
          "the canvas" % (web_ms, n, w, h, draw_ms))
    if web_ms < 0 or web_ms > 16.7:
        ok = False
        print("  MISSED: over 16.7 ms")
    if len(sys.argv) == 3:
        desk, text = desktop_frames(sys.argv[2])
        if desk:
            print("- the desktop's software renderer, same run: median %.2f ms" % desk)
            print("- ratio page / desktop: %.2f" % (web_ms / desk))
            if web_ms > 2 * desk:
                ok = False
                print("  MISSED: the page over 2x the desktop")
        else:
            print("- the desktop's figure could not be read: %s" % text[:300])
            ok = False
    srv.shutdown()
    print("\nweb_bench: %s" % ("all targets met" if ok else "some targets missed"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
