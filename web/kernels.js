// Links the engine's WebAssembly SIMD kernels (kernels.wasm, built from
// pdn/internal/kernels/c/kernels.c) to the Go program that calls them: the Go module
// imports "pdnkernels" functions (pdn/internal/kernels/wasm_simd128.go), and the kernels run
// in the Go module's own memory, so they can only be instantiated after it.
// The imports are therefore trampolines, filled in by link(). Without
// kernels (a build without clang, or a failed fetch) abi() answers 0 and
// the Go loops run, with the same bits. The page's worker and the Node
// runner of the tests (scripts/kernels-exec) both use this file.
globalThis.pdnKernels = function (importObject) {
  let k = null;
  importObject.pdnkernels = new Proxy({}, {
    get: (_, name) => {
      switch (name) {
        case "abi": return () => (k ? k.abi() : 0);
        case "set_stack": return (top) => { k.__stack_pointer.value = top; };
        default: return (...args) => k[name](...args);
      }
    },
  });
  return (goInstance, kernelsModule) => {
    k = new WebAssembly.Instance(kernelsModule, { env: { memory: goInstance.exports.mem } }).exports;
  };
};
