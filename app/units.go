package app

import (
	"math"
	"strconv"
	"time"

	"pdnexplorer/i18n/phrase"
)

// Numbers with their units: a size, a time, a rate. Each is a message made
// by phrase.Quantity (a test over the source holds every such key to it),
// and the page shows it through say, which in a language written right to
// left isolates the number and its unit whole: the bidi algorithm left
// them bare and showed Arabic readers "kB 292.4" for 292.4 kB.

// sizeText is a size in bytes said in kilobytes: "292.4 kB".
func sizeText(bytes int) phrase.Text { return phrase.Quantity("%.1f kB", float64(bytes)/1000) }

// megabytesText is a whole number of megabytes (2²⁰ bytes): "64 MB".
func megabytesText(bytes int) phrase.Text { return phrase.Quantity("%d MB", bytes>>20) }

// durationText is a time as people say it: 40 s, 9 min, 2 h 10 min.
func durationText(d time.Duration) phrase.Text {
	sec := int(math.Ceil(d.Seconds()))
	switch {
	case sec < 90:
		return phrase.Quantity("%d s", sec)
	case sec < 90*60:
		return phrase.Quantity("%d min", (sec+30)/60)
	}
	return phrase.Quantity("%d h %d min", sec/3600, (sec%3600+30)/60)
}

// duration is durationText in the page's language.
func duration(d time.Duration) string { return say(durationText(d)) }

// epochTimeText is how long an epoch takes, in seconds, or in
// milliseconds below a tenth of a second (which "0.0 s" would hide).
func epochTimeText(sec float64) phrase.Text {
	if sec < 0.1 {
		return phrase.Quantity("%.0f ms", 1000*sec)
	}
	return phrase.Quantity("%.1f s", sec)
}

// rateText is a pace in epochs a second: "10/s".
func rateText(perSecond float64) phrase.Text {
	return phrase.Quantity("%s/s", strconv.FormatFloat(perSecond, 'g', 4, 64))
}
