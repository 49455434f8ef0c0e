package app

import (
	"strings"
	"testing"
	"time"

	"pdnexplorer/i18n"
	"pdnexplorer/i18n/phrase"
)

// Every number with its unit the page shows is said whole: in Arabic it is
// one isolate (FSI … PDI), the number before its unit inside it, so the
// bidi algorithm cannot turn 292.4 kB into "kB 292.4"; in English it
// reads as written, with no isolate.
func TestNumbersWithUnitsAreIsolatedInArabic(t *testing.T) {
	t.Cleanup(func() { lang = i18n.English })
	for _, tc := range []struct {
		name       string
		q          phrase.Text
		en, number string
	}{
		{"a size", sizeText(292400), "292.4 kB", "292.4"},
		{"megabytes", megabytesText(64 << 20), "64 MB", "64"},
		{"seconds", durationText(40 * time.Second), "40 s", "40"},
		{"minutes", durationText(9 * time.Minute), "9 min", "9"},
		{"hours", durationText(130 * time.Minute), "2 h 10 min", "2"},
		{"an epoch's milliseconds", epochTimeText(0.033), "33 ms", "33"},
		{"an epoch's seconds", epochTimeText(3), "3.0 s", "3.0"},
		{"a pace", rateText(10), "10/s", "10"},
		{"bytes", phrase.Bytes(1 << 20), "1,048,576 bytes", "1,048,576"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lang = i18n.English
			if got := say(tc.q); got != tc.en {
				t.Errorf("in English %q, want %q", got, tc.en)
			}
			lang = "ar"
			got := say(tc.q)
			if !strings.HasPrefix(got, "\u2068") || !strings.HasSuffix(got, "\u2069") || strings.Count(got, "\u2068") != 1 {
				t.Errorf("in Arabic %q: want the number and its unit in one isolate", got)
			}
			if !strings.HasPrefix(strings.TrimPrefix(got, "\u2068"), tc.number) {
				t.Errorf("in Arabic %q: want the number %s first", got, tc.number)
			}
			if in := say(phrase.New("the files hold %s; the explorer opens up to %s", tc.q, tc.q)); strings.Count(in, "\u2068") != 2 || !strings.Contains(in, got) {
				t.Errorf("in an Arabic sentence %q: want it isolated whole, as %q", in, got)
			}
		})
	}
}
