package kernels

import "runtime"

// GoThreads reports whether the engine's goroutines run on threads of
// their own: natively they do; in the browser's WebAssembly Go has one
// thread, and a product's pieces run side by side only on the pool's
// helpers (Pooled).
func GoThreads() bool { return runtime.GOOS != "js" }
