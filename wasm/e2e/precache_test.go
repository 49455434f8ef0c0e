package e2e

import "testing"

// A lab that trains nothing on its own (the sweep's, whose runs are quiet
// and wait for Play) still gets its offline copy: the service worker,
// registered once the page is ready to train so that its precache does
// not share a first visit's link (app.registerServiceWorker), is
// registered at the latest a few seconds after the engine started.
func TestOfflineCopyWithoutTraining(t *testing.T) {
	srv := serve(t, distDir(t), "/pdn/")
	ctx := browser(t)
	open(t, ctx, srv, "#lab=sweep&scenario=1&reps=1&models=gcn,mlp&epochs=20")
	waitFor(t, ctx, "the service worker", swReady)
	waitFor(t, ctx, "the offline cache", cacheFilled)
}
