package main

import (
	"strconv"

	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// threadsOf reads how many threads the page's worker script gave the
// engine (PDN_THREADS, and PDN_THREADS_WHY where it gave one): more than
// one only where the kernels' threads build is linked over a shared
// memory (pdn.KernelThreads), else one, with why.
func threadsOf(n, why string) (int, string) {
	t, err := strconv.Atoi(n)
	switch {
	case err != nil || t < 2:
		if why == "" {
			why = protocol.ThreadsFailed
		}
		return 1, why
	case !pdn.KernelThreads():
		return 1, protocol.ThreadsFailed
	}
	return min(t, 4), ""
}
