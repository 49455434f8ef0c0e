// A helper thread of the kernels' pool under Node (scripts/kernels-exec,
// PDN_SHARED=1): the kernels over the test binary's shared memory, on a
// stack of their own, running the pieces pool_run hands out until the
// process ends (pdn/internal/kernels/pool_simd128.go).
"use strict";
const { workerData } = require("worker_threads");
const { module: kernels, memory, pool, stack, index } = workerData;
const k = new WebAssembly.Instance(kernels, { env: { memory } }).exports;
k.__stack_pointer.value = stack;
try {
  k.pool_helper(pool, index);
} catch (err) {
  // The pool learns of the fault, so pool_run stops waiting for the piece.
  k.__stack_pointer.value = stack;
  k.pool_helper_died(pool, index);
  throw err;
}
