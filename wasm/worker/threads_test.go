package main

import (
	"testing"

	"pdnexplorer/pdn"
	"pdnexplorer/wasm/protocol"
)

// The engine's reason for one thread where the page's script asked for
// more is a reason the page words (app.oneThreadWhy).
func TestOneThreadReasonIsThePages(t *testing.T) {
	if pdn.ThreadsNotStarted != protocol.ThreadsFailed {
		t.Errorf("pdn says %q, the protocol %q", pdn.ThreadsNotStarted, protocol.ThreadsFailed)
	}
}
