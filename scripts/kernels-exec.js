// Node runner for wasm test binaries that call the SIMD kernels: Go's
// wasm_exec_node.js, plus the kernels linked through web/kernels.js.
"use strict";
const { execFileSync } = require("child_process");
globalThis.require = require;
globalThis.fs = require("fs");
globalThis.path = require("path");
globalThis.TextEncoder = require("util").TextEncoder;
globalThis.TextDecoder = require("util").TextDecoder;
globalThis.performance ??= require("performance");
globalThis.crypto ??= require("crypto");

const goroot = execFileSync("go", ["env", "GOROOT"]).toString().trim();
require(path.join(goroot, "lib", "wasm", "wasm_exec.js"));
require(path.join(__dirname, "..", "web", "kernels.js"));

const kernelsPath = process.env.PDN_KERNELS;
if (!kernelsPath || !fs.existsSync(kernelsPath)) {
  console.error("kernels-exec: PDN_KERNELS must name the built kernels.wasm (make kernels)");
  process.exit(1);
}
// PDN_SHARED=1 runs the binary on a shared memory (web/shared.js), as the
// page's worker does where it can have threads, with the kernels built
// for it (kernels-threads.wasm, beside PDN_KERNELS).
const shared = process.env.PDN_SHARED === "1";
let binary = fs.readFileSync(process.argv[2]);
let kernels = kernelsPath;
if (shared) {
  require(path.join(__dirname, "..", "web", "shared.js"));
  pdnCopyShared();
  kernels = kernelsPath.replace(/\.wasm$/, "-threads.wasm");
}
const go = new Go();
go.argv = process.argv.slice(2);
go.env = Object.assign({ TMPDIR: require("os").tmpdir() }, process.env);
go.exit = process.exit;
// A helper's fault is written out; the pool has been told of it
// (kernels-helper.js), and the Go side ends the batch.
const startHelper = shared
  ? (data) => new (require("worker_threads").Worker)(path.join(__dirname, "kernels-helper.js"), { workerData: data })
    .on("error", (err) => console.error("kernels: a helper thread died:", err.message))
  : undefined;
const link = pdnKernels(go.importObject, startHelper);
if (shared) {
  const { bytes, memory } = pdnShareMemory(binary, 65536);
  binary = bytes;
  go.importObject.pdn = { memory };
}
WebAssembly.instantiate(binary, go.importObject).then((result) => {
  if (shared && !(result.instance.exports.mem.buffer instanceof SharedArrayBuffer)) {
    throw new Error("kernels-exec: PDN_SHARED=1, and the Go module's memory is not shared");
  }
  link(result.instance, new WebAssembly.Module(fs.readFileSync(kernels)));
  process.on("exit", (code) => {
    if (code === 0 && !go.exited) {
      go._pendingEvent = { id: 0 };
      go._resume();
    }
  });
  return go.run(result.instance);
}).catch((err) => {
  console.error(err);
  process.exit(1);
});
