/*
 * node_env.js: collviz-node (the browser build's libraries run by node, for
 * the build's own steps and benchmarks) sees the process's environment, as
 * the desktop program does: COLLVIZ_ASSETS_DIR, COLLVIZ_LESSONS_DIR and the
 * rest. (emcc --pre-js)
 */
var Module = typeof Module !== "undefined" ? Module : {};
Module.preRun = (Module.preRun || []).concat(function () {
  Object.assign(ENV, process.env);
});
