// Bootstraps the engine worker: the Go runtime, then worker.wasm. Paths are
// relative to this script, so the site works under any sub-path.
importScripts("../wasm_exec.js");

const go = new Go();
WebAssembly.instantiateStreaming(fetch("worker.wasm"), go.importObject)
  .then((result) => go.run(result.instance))
  .catch((err) => {
    postMessage({ json: JSON.stringify({ kind: "error", error: "the engine could not start: " + err }) });
  });
