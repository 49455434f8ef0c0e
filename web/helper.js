// A helper thread of the engine's kernels in the page (web/worker.js, where
// the page is cross-origin isolated): the threads build of the kernels over
// the engine worker's shared memory, on a stack of its own, running the
// pieces pool_run hands out until the page closes
// (pdn/internal/kernels/pool_simd128.go). scripts/kernels-helper.js is the
// same for the tests under Node.
"use strict";
onmessage = (e) => {
  const { module, memory, pool, stack, index } = e.data;
  const k = new WebAssembly.Instance(module, { env: { memory } }).exports;
  k.__stack_pointer.value = stack;
  k.pool_helper(pool, index); // never returns: the pool's helpers wait for work
};
