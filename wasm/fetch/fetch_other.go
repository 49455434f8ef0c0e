//go:build !js

package fetch

import "time"

// Bytes has no site to fetch from outside the browser: nothing answers.
func Bytes(url string, timeout time.Duration) ([]byte, error) {
	return nil, Failure(url, 0, false, timeout)
}
