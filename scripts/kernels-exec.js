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
const go = new Go();
go.argv = process.argv.slice(2);
go.env = Object.assign({ TMPDIR: require("os").tmpdir() }, process.env);
go.exit = process.exit;
const link = pdnKernels(go.importObject);
WebAssembly.instantiate(fs.readFileSync(process.argv[2]), go.importObject).then((result) => {
  link(result.instance, new WebAssembly.Module(fs.readFileSync(kernelsPath)));
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
