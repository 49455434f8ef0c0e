// Links the engine's WebAssembly SIMD kernels (kernels.wasm, built from
// pdn/internal/kernels/c/kernels.c) to the Go program that calls them: the Go module
// imports "pdnkernels" functions (pdn/internal/kernels/wasm_simd128.go), and the kernels run
// in the Go module's own memory, so they can only be instantiated after it.
// The imports are therefore trampolines, filled in by link(). Without
// kernels (a build without clang, or a failed fetch) abi() answers 0 and
// the Go loops run, with the same bits. The page's worker and the Node
// runner of the tests (scripts/kernels-exec) both use this file.
//
// Where the Go module's memory is shared (web/shared.js) and the kernels
// are the threads build, startHelper, given by the host, starts one helper
// thread from { module, memory, pool, stack, index } (index: its number in
// its pool, from the first the Go side names): a thread that
// instantiates the kernels over the same memory, points its stack at stack
// and calls pool_helper(pool, index) (pdn/internal/kernels/pool_simd128.go). Without it the
// Go side is told no helper started, and runs its products alone.
globalThis.pdnKernels = function (importObject, startHelper) {
  let k = null;
  let module = null;
  let memory = null;
  const spawn = (pool, n, stacks, first) => {
    if (!k || !startHelper || typeof SharedArrayBuffer === "undefined" || !(memory.buffer instanceof SharedArrayBuffer)) {
      return 0;
    }
    const tops = new Uint32Array(memory.buffer, stacks, n).slice();
    let now = 0;
    for (const stack of tops) {
      try {
        startHelper({ module, memory, pool, stack, index: first + now });
      } catch (err) {
        console.warn("kernels: a helper thread did not start:", err);
        break;
      }
      now++;
    }
    return now;
  };
  importObject.pdnkernels = new Proxy({}, {
    get: (_, name) => {
      switch (name) {
        case "abi": return () => (k ? k.abi() : 0);
        case "pool_threads": return () => (k && k.pool_threads ? k.pool_threads() : 0);
        case "spawn_helpers": return spawn;
        case "set_stack": return (top) => { k.__stack_pointer.value = top; };
        default: return (...args) => k[name](...args);
      }
    },
  });
  return (goInstance, kernelsModule) => {
    module = kernelsModule;
    memory = goInstance.exports.mem;
    k = new WebAssembly.Instance(kernelsModule, { env: { memory } }).exports;
  };
};
