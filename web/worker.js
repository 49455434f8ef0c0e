// Bootstraps the engine worker: the Go runtime, then worker.wasm, and the
// SIMD kernels it calls (kernels.js), when the build made them. Paths are
// relative to this script, so the site works under any sub-path.
importScripts("../wasm_exec.js", "kernels.js");

const go = new Go();
const linkKernels = pdnKernels(go.importObject);
Promise.all([
  WebAssembly.instantiateStreaming(fetch("worker.wasm"), go.importObject),
  WebAssembly.compileStreaming(fetch("kernels.wasm")).catch(() => null),
])
  .then(([result, kernels]) => {
    if (kernels) {
      linkKernels(result.instance, kernels);
    }
    go.run(result.instance);
  })
  .catch((err) => {
    postMessage({ json: JSON.stringify({ kind: "error", error: "the engine could not start: " + err }) });
  });
