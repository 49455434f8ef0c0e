// A helper thread of the engine's kernels in the page (web/worker.js, where
// the page is cross-origin isolated): the threads build of the kernels over
// the engine worker's shared memory, on a stack of its own, running the
// pieces pool_run hands out until the page closes
// (pdn/internal/kernels/pool_simd128.go). A fault in a piece is told to the
// pool (pool_helper_died), so that the engine's thread, waiting for the
// piece, stops instead of waiting for ever; then it is thrown, to the
// console. scripts/kernels-helper.js is the same for the tests under Node.
"use strict";
onmessage = (e) => {
  const { module, memory, pool, stack, index } = e.data;
  const k = new WebAssembly.Instance(module, { env: { memory } }).exports;
  k.__stack_pointer.value = stack;
  try {
    k.pool_helper(pool, index); // returns only if it traps: the pool's helpers wait for work
  } catch (err) {
    k.__stack_pointer.value = stack;
    k.pool_helper_died(pool, index);
    throw err;
  }
};
