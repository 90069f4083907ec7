/*
 * web.js: the page's side of collviz in the browser, run before the
 * program starts (emcc --pre-js). It keeps /persist (progress, dropped
 * files) in the browser's IndexedDB, so a reload finds the learner where
 * they were; shows the program's one-line messages on the page; offers a
 * screenshot for download; takes a dropped, chosen or pasted NCCL log or
 * bench result and opens it (by reloading the page on ?nccl-log=NAME or
 * ?show=NAME); runs the bar's
 * "export GIF" and turns a swipe into the next page or step; and tells the
 * tests and the benchmark when the first stage is drawn.
 *
 * The folder names here are app/web/web.h's.
 */
var Module = typeof Module !== "undefined" ? Module : {};

(function () {
  "use strict";
  var PERSIST = "/persist", DROPPED = "/persist/dropped";
  var status = document.getElementById("status");

  /* One line at the bottom of the page; stays until the next one. Every
   * line said is kept in window.collvizSaid too, for the page's tests (a
   * later line hides an earlier one). */
  window.collvizSaid = [];
  function say(line) {
    if (line)
      window.collvizSaid.push(line);
    if (!status)
      return;
    status.textContent = line;
    status.style.display = line ? "block" : "none";
  }
  Module.collvizSay = say;
  window.collvizErrors = [];

  Module.print = function (text) {
    console.log(text);
  };
  /* The program's own messages start with "collviz: ": those reach the
   * page; the rest (SDL's chatter) only the console. */
  Module.printErr = function (text) {
    console.warn(text);
    if (/^collviz: /.test(text))
      say(text.slice(9));
  };

  /* ------------------------------------------------- lasting storage */

  var syncing = false, again = false;
  function persist() {
    if (syncing) {
      again = true;
      return;
    }
    syncing = true;
    FS.syncfs(false, function (err) {
      syncing = false;
      if (err)
        say("progress could not be kept in this browser's storage (" + err + ")");
      if (again) {
        again = false;
        persist();
      }
    });
  }

  Module.preRun = (Module.preRun || []).concat(function () {
    FS.mkdir(PERSIST);
    FS.mount(IDBFS, {}, PERSIST);
    addRunDependency("collviz-persist");
    FS.syncfs(true, function (err) {
      if (err)
        say("this browser keeps no storage for the page (" + err + "): progress lasts until " +
            "the page is closed");
      try {
        FS.mkdir(DROPPED);
      } catch (e) {
        /* already there */
      }
      removeRunDependency("collviz-persist");
    });
  });

  /* ----------------------------------------------- files written */

  function download(path) {
    var data = FS.readFile(path);
    var name = path.split("/").pop();
    var type = /\.gif$/.test(name) ? "image/gif" : "image/png";
    var url = URL.createObjectURL(new Blob([data], {type: type}));
    var a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
    FS.unlink(path); /* the download has it; memory is the page's */
  }

  Module.collvizFileWritten = function (path, user) {
    if (user)
      download(path);
    else
      persist();
  };

  /* ------------------------------------------------------- signals */

  Module.collvizFirstFrame = function () {
    window.collvizReady = performance.now();
    var loading = document.getElementById("loading");
    if (loading)
      loading.style.display = "none";
  };
  Module.collvizStopped = function () {
    say("collviz has stopped. Reload the page to start again.");
  };
  window.addEventListener("error", function (e) {
    window.collvizErrors.push(String(e.message || e));
  });

  /* ------------------------------------------------ dropped files */

  /* A file the page was given: an NCCL log is stored and opened on the
   * stage (one whose only news is NCCL's tuning table, as the chart of
   * NCCL's choice by size); a bench result (collviz bench --json) or
   * nccl-tests' output as show's chart; a trace (collviz run --trace-out)
   * replayed on the stage; anything else is refused in one line. */
  var NCCLTESTS_ROW = new RegExp("^.*?\\b\\d+\\s+\\d+\\s+(float|half|bfloat16|double|" +
      "int8|uint8|int32|uint32|int64|uint64|char|int|f8e4m3|f8e5m2)\\s", "m");
  function kindOf(text) {
    var tuning = /Latency\/AlgBw|Algorithm {3}\|/.test(text);
    var rings = /NCCL INFO (Channel \d+\/|Ring \d+|Trees? |comm 0x)/.test(text);
    if (/NCCL INFO/.test(text) && (rings || !tuning) && !NCCLTESTS_ROW.test(text))
      return "nccl-log";
    if (/^\s*\{/.test(text) && /"format"\s*:\s*"collviz-run"/.test(text))
      return "trace";
    if (/^\s*\{/.test(text) && /"results"/.test(text))
      return "show";
    if (NCCLTESTS_ROW.test(text) || tuning)
      return "show";
    return null;
  }
  function take(name, text) {
    var kind = kindOf(text);
    if (!kind) {
      say(name + " is neither an NCCL log (no \"NCCL INFO\" line) nor a `collviz bench " +
          "--json` result nor nccl-tests' output nor a trace (`collviz run --trace-out`): " +
          "the page opens those four");
      return;
    }
    var safe = name.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100) || "dropped.log";
    if (safe === "." || safe === "..")
      safe = "dropped.log";
    FS.writeFile(DROPPED + "/" + safe, text);
    syncing = true;
    FS.syncfs(false, function () {
      syncing = false;
      var q = new URLSearchParams(location.search);
      ["lesson", "step", "nccl-log", "show", "trace", "comm", "channel"].forEach(function (k) {
        q.delete(k);
      });
      if (kind === "trace") /* the trace is the run: the link's own setup goes */
        ["op", "algo", "ranks", "count", "dtype", "redop", "root", "slices", "nodes", "init",
         "seed", "compare"].forEach(function (k) { q.delete(k); });
      q.set(kind, safe);
      location.search = q.toString();
    });
  }

  function readFile(file) {
    if (file.size > 64 * 1024 * 1024) {
      say(file.name + " is larger than 64 MiB: too large to open in the page");
      return;
    }
    file.text().then(function (text) { take(file.name, text); });
  }

  document.addEventListener("dragover", function (e) {
    e.preventDefault();
  });
  document.addEventListener("drop", function (e) {
    e.preventDefault();
    if (e.dataTransfer && e.dataTransfer.files.length)
      readFile(e.dataTransfer.files[0]);
  });
  document.addEventListener("paste", function (e) {
    var text = e.clipboardData ? e.clipboardData.getData("text") : "";
    if (text)
      take("pasted.log", text);
  });
  var chooser = document.getElementById("open");
  if (chooser)
    chooser.addEventListener("change", function () {
      if (chooser.files.length)
        readFile(chooser.files[0]);
    });
  Module.collvizTake = take; /* for the tests: as if dropped */

  /* ------------------------------------------------------ the drill */

  /* The drill's text panel: what the drill prints, a line to answer in,
   * the clock (web_drill.c runs the drill itself). */
  Module.collvizDrill = function (zh, seconds, count) {
    var panel = document.getElementById("drill"), out = document.getElementById("drill-out");
    var input = document.getElementById("drill-in"), clock = document.getElementById("drill-clock");
    panel.style.display = "flex";
    Module.canvas.style.display = "none";
    var loading = document.getElementById("loading");
    if (loading)
      loading.style.display = "none";
    function show(text) {
      if (text) {
        out.textContent += text;
        out.scrollTop = out.scrollHeight;
      }
    }
    show(Module.ccall("web_drill_start", "string", ["number", "number", "number"],
                      [zh, seconds, count]));
    window.collvizReady = performance.now();
    input.focus();
    input.addEventListener("keydown", function (e) {
      if (e.key !== "Enter")
        return;
      var line = input.value;
      input.value = "";
      out.textContent += line + "\n";
      show(Module.ccall("web_drill_answer", "string", ["string"], [line]));
    });
    var timer = setInterval(function () {
      show(Module.ccall("web_drill_tick", "string", [], []));
      var left = Module._web_drill_left();
      clock.textContent = left >= 0 ? Math.floor(left / 60) + ":" + ("0" + left % 60).slice(-2)
                                    : "";
      if (left === -2) {
        clearInterval(timer);
        input.disabled = true;
      }
    }, 250);
  };

  /* ----------------------------------------------- the bar, a finger */

  var gif = document.getElementById("gif");
  if (gif)
    gif.addEventListener("click", function (e) {
      e.preventDefault();
      if (!Module._web_export_gif)
        return;
      say("making the GIF of this stage…");
      setTimeout(function () { /* let the line show before the page is held */
        var rc = Module._web_export_gif();
        say(rc === 3 ? "export GIF works on the stage and in the lessons"
            : rc ? "the GIF could not be made (the console says why)" : "");
        Module.canvas.focus();
      }, 30);
    });

  /* A quick horizontal swipe: the next page of a lesson, or the next step. */
  var touch = null;
  var canvas = Module.canvas;
  canvas.addEventListener("touchstart", function (e) {
    if (e.touches.length === 1)
      touch = {x: e.touches[0].clientX, y: e.touches[0].clientY, t: performance.now()};
  }, {passive: true});
  canvas.addEventListener("touchend", function (e) {
    if (!touch || !e.changedTouches.length || !Module._web_swipe)
      return;
    var dx = e.changedTouches[0].clientX - touch.x, dy = e.changedTouches[0].clientY - touch.y;
    if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy) && performance.now() - touch.t < 800)
      Module._web_swipe(dx < 0 ? 1 : -1);
    touch = null;
  }, {passive: true});
})();
