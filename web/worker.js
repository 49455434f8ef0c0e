// Bootstraps the engine worker: the Go runtime, then worker.wasm, and the
// SIMD kernels it calls (kernels.js), when the build made them. Paths are
// relative to this script, so the site works under any sub-path.
//
// Where the page is cross-origin isolated and the machine has more than
// one core, the engine runs on threads (issue 58): worker.wasm is given a
// shared memory (shared.js), the kernels are their threads build
// (kernels-threads.wasm), and helper workers (kernels-helper.js) run the
// pieces of each product over the same memory. Each output entry is still
// one sum in one order, so the bits are the one thread's. Anywhere that
// fails, the engine runs on one thread, and says why (PDN_THREADS_WHY).
importScripts("shared.js");

// threadsWhy is why the engine runs on one thread, or "" where it may
// have more.
const threadsWhy = (() => {
  if (!self.crossOriginIsolated || typeof SharedArrayBuffer === "undefined") {
    return "not-isolated";
  }
  if ((navigator.hardwareConcurrency || 1) < 2) {
    return "one-core";
  }
  return "";
})();
// The most threads a run uses: the cores, up to 4 (the products' pieces
// stop paying beyond that on the graphs a page holds).
const threadsWanted = threadsWhy ? 1 : Math.min(navigator.hardwareConcurrency, 4);
if (threadsWanted > 1) {
  pdnCopyShared(); // before wasm_exec.js makes its decoder
}
importScripts("../wasm_exec.js", "kernels.js");

// The worker's memory may grow to 4 GiB, as the kernels' threads build
// declares.
const maxPages = 65536;

const exited = (why) => postMessage({ json: JSON.stringify({ kind: "exited", error: why }) });
const failed = (err) => postMessage({ json: JSON.stringify({ kind: "error", error: "the engine could not start: " + err }) });

// start instantiates worker.wasm and the kernels, on threads or on one,
// and runs the Go program.
async function start(threads, why) {
  const go = new Go();
  let exitCode = 0;
  const goExit = go.exit;
  go.exit = (code) => {
    exitCode = code;
    goExit.call(go, code);
  };
  go.env = { PDN_THREADS: String(threads), PDN_THREADS_WHY: why };
  const startHelper = threads > 1
    ? (data) => new Worker("kernels-helper.js").postMessage(data)
    : undefined;
  const linkKernels = pdnKernels(go.importObject, startHelper);
  let instance, kernels;
  if (threads > 1) {
    const [bytes, k] = await Promise.all([
      fetch("worker.wasm").then((r) => r.arrayBuffer()),
      WebAssembly.compileStreaming(fetch("kernels-threads.wasm")),
    ]);
    const shared = pdnShareMemory(bytes, maxPages);
    go.importObject.pdn = { memory: shared.memory };
    instance = (await WebAssembly.instantiate(shared.bytes, go.importObject)).instance;
    kernels = k;
  } else {
    const [result, k] = await Promise.all([
      WebAssembly.instantiateStreaming(fetch("worker.wasm"), go.importObject),
      WebAssembly.compileStreaming(fetch("kernels.wasm")).catch(() => null),
    ]);
    instance = result.instance;
    kernels = k;
  }
  if (kernels) {
    linkKernels(instance, kernels);
  }
  // A Go program that ends (out of memory, a panic) says so, so the
  // page can start another worker in its place.
  go.run(instance).then(
    () => exited(String(exitCode)), // the page words it
    (err) => exited(String(err)),
  );
}

start(threadsWanted, threadsWhy).catch((err) => {
  if (threadsWanted === 1) {
    failed(err);
    return;
  }
  // No threads after all (no threads build, a browser that refuses the
  // shared memory): one thread, the same bits.
  console.warn("engine: threads did not start, so one thread runs:", err);
  start(1, "no-threads").catch(failed);
});
