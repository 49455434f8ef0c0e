//go:build js

package main

// serveSite is native only: in the browser RunWhenOnBrowser never returns.
func serveSite() {}
