// Bootstraps the engine worker: the Go runtime, then worker.wasm, and the
// SIMD kernels it calls (kernels.js), when the build made them. Paths are
// relative to this script, so the site works under any sub-path.
//
// With ?reader=1 it bootstraps the reader of the user's files instead: the
// same program built with the readers (reader.wasm), on one thread. The
// engine's program links no reader, so a first visit does not fetch them.
//
// Where the page is cross-origin isolated (its responses carry COOP and
// COEP: make run's server sends them, and the site's service worker adds
// them for hosts that set no headers), the engine gets threads (issue 58):
// worker.wasm runs on a shared memory (shared.js) with the threads build of
// the kernels (kernels-threads.wasm), whose helper threads (helper.js) run
// pieces of its products, and pdnThreads offers it the browser's cores but
// one, up to four, or the number this script's query asks (threads=N, 1 to
// 4: the page passes its state's threads row).
// Elsewhere (an embed in a page that is not isolated, an old browser, a
// failed fetch) it runs on one thread, with the same bits.
"use strict";
const isolated = self.crossOriginIsolated === true && typeof SharedArrayBuffer !== "undefined";
if (isolated) {
  importScripts("shared.js");
  pdnCopyShared(); // before wasm_exec.js makes its decoder
}
importScripts("../wasm_exec.js", "kernels.js");

const maxThreads = 4;
const query = new URLSearchParams(self.location.search);
const reader = query.has("reader");
const program = reader ? "reader.wasm" : "worker.wasm";
const asked = Math.floor(Number(query.get("threads")));
// By default a core is left to the page's own thread, which draws the run
// (on 2 cores, 2 threads measured 0.6-1.1 times one's epochs a second in
// the graph lab: docs/architecture.md).
const cores = navigator.hardwareConcurrency || 1;
self.pdnThreads = !isolated || reader ? 1 : asked >= 1 ? Math.min(asked, maxThreads) : Math.max(1, Math.min(cores - 1, maxThreads));

const go = new Go();
let exitCode = 0;
const goExit = go.exit;
go.exit = (code) => {
  exitCode = code;
  goExit.call(go, code);
};
// A helper's fault has been told to the pool (helper.js), which ends the
// batch and this program with it; here it is only written out.
const startHelper = (data) => {
  const helper = new Worker("helper.js");
  helper.onerror = (e) => {
    console.error("engine: a helper thread died:", e.message);
    e.preventDefault();
  };
  helper.postMessage(data);
};
const linkKernels = pdnKernels(go.importObject, startHelper);

// shared instantiates worker.wasm on a shared memory, with the threads
// build of the kernels, fetched first (a build without clang has none);
// it throws where they cannot be had, after keeping worker.wasm's bytes
// in fetched, if it got them, so that they are not fetched twice.
let fetched = null;
async function shared() {
  const kernels = await WebAssembly.compileStreaming(fetch("kernels-threads.wasm"));
  const r = await fetch(program);
  if (!r.ok) {
    throw new Error(program + ": " + r.status);
  }
  fetched = await r.arrayBuffer();
  const { bytes, memory } = pdnShareMemory(fetched, 65536); // 4 GiB, wasm32's most
  go.importObject.pdn = { memory };
  const result = await WebAssembly.instantiate(bytes, go.importObject);
  return [result.instance, kernels];
}

// single instantiates worker.wasm on its own memory, with the kernels of
// one thread if they were built.
async function single() {
  const module = fetched ? WebAssembly.instantiate(fetched, go.importObject) : WebAssembly.instantiateStreaming(fetch(program), go.importObject);
  const [result, kernels] = await Promise.all([module, WebAssembly.compileStreaming(fetch("kernels.wasm")).catch(() => null)]);
  return [result.instance, kernels];
}

async function start() {
  if (self.pdnThreads > 1) {
    try {
      return await shared();
    } catch (err) {
      console.warn("engine: one thread, as the threads could not be had:", err);
      delete go.importObject.pdn;
      self.pdnThreads = 1;
    }
  }
  return single();
}

start()
  .then(([instance, kernels]) => {
    if (kernels) {
      linkKernels(instance, kernels);
    }
    // A Go program that ends (out of memory, a panic) says so, so the
    // page can start another worker in its place. The page words it: the
    // browser's own words, in the browser's language, go to the console.
    const exited = (code) => postMessage({ json: JSON.stringify({ kind: "exited", error: code }) });
    go.run(instance).then(
      () => exited(String(exitCode)),
      (err) => {
        console.error("engine: its program failed:", err);
        exited("");
      },
    );
  })
  .catch((err) => {
    console.error("engine: could not start:", err);
    postMessage({ json: JSON.stringify({ kind: "start-failed" }) });
  });
