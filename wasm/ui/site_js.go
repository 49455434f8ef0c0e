//go:build js

package main

// site is native only: in the browser RunWhenOnBrowser never returns.
func site() {}
