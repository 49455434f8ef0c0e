// Package fetch gets a file of the site for the page's program or the
// engine's worker (a language's words, a shipped graph's files), and says
// why it could not in the page's own words, in the reader's language: the
// browser's text of a failed fetch ("TypeError: Failed to fetch", or its
// translation into the browser's language) is not shown.
//
// Every fetch of the Go programs goes through Bytes (internal/rules holds
// them to it), so that each failure is worded by Failure.
package fetch

import (
	"time"

	"pdnexplorer/i18n/phrase"
)

// Failure says why a fetch of url failed: the site answered with status
// (not 0, and not a success), or nothing answered, within timeout
// (timedOut) or at all (offline, or the site cannot be reached).
func Failure(url string, status int, timedOut bool, timeout time.Duration) error {
	switch {
	case status != 0:
		return phrase.Errorf("%s: the site answered HTTP %d", url, status)
	case timedOut:
		return phrase.Errorf("%s: no answer within %d seconds", url, int(timeout.Seconds()))
	default:
		return phrase.Errorf("%s: no answer: offline, or the site cannot be reached", url)
	}
}
