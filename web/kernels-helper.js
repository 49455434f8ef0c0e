// A helper thread of the engine's kernels (web/worker.js, where the page
// has threads): the kernels' threads build over the engine's shared
// memory, on a stack of its own, running the pieces of each product that
// pool_run hands out until the worker ends (pdn/internal/kernels/pool_simd128.go).
// The Node runner of the tests has its own (scripts/kernels-helper.js).
"use strict";
self.onmessage = (event) => {
  const { module, memory, pool, stack } = event.data;
  const k = new WebAssembly.Instance(module, { env: { memory } }).exports;
  k.__stack_pointer.value = stack;
  k.pool_helper(pool);
};
