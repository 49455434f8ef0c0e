// Bootstraps the engine worker: the Go runtime, then worker.wasm, and the
// SIMD kernels it calls (kernels.js), when the build made them. Paths are
// relative to this script, so the site works under any sub-path.
importScripts("../wasm_exec.js", "kernels.js");

const go = new Go();
let exitCode = 0;
const goExit = go.exit;
go.exit = (code) => {
  exitCode = code;
  goExit.call(go, code);
};
const linkKernels = pdnKernels(go.importObject);
Promise.all([
  WebAssembly.instantiateStreaming(fetch("worker.wasm"), go.importObject),
  WebAssembly.compileStreaming(fetch("kernels.wasm")).catch(() => null),
])
  .then(([result, kernels]) => {
    if (kernels) {
      linkKernels(result.instance, kernels);
    }
    // A Go program that ends (out of memory, a panic) says so, so the
    // page can start another worker in its place.
    const exited = (why) => postMessage({ json: JSON.stringify({ kind: "exited", error: why }) });
    go.run(result.instance).then(
      () => exited(String(exitCode)), // the page words it
      (err) => exited(String(err)),
    );
  })
  .catch((err) => {
    postMessage({ json: JSON.stringify({ kind: "error", error: "the engine could not start: " + err }) });
  });
