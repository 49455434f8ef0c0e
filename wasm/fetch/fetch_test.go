package fetch

import (
	"testing"
	"time"

	"pdnexplorer/i18n/phrase"
)

// Each way a fetch fails is said in the page's words, naming the file and,
// where the site answered, its status; none is the browser's text.
func TestFailure(t *testing.T) {
	for _, c := range []struct {
		status   int
		timedOut bool
		want     string
	}{
		{404, false, "web/i18n/ar.json: the site answered HTTP 404"},
		{503, true, "web/i18n/ar.json: the site answered HTTP 503"},
		{0, true, "web/i18n/ar.json: no answer within 120 seconds"},
		{0, false, "web/i18n/ar.json: no answer: offline, or the site cannot be reached"},
	} {
		err := Failure("web/i18n/ar.json", c.status, c.timedOut, 2*time.Minute)
		if got := err.Error(); got != c.want {
			t.Errorf("status %d, timed out %v: %q, want %q", c.status, c.timedOut, got, c.want)
		}
		if phrase.Of(err).Key == "" {
			t.Errorf("status %d, timed out %v: the failure is not a phrase of the catalogues", c.status, c.timedOut)
		}
	}
}
