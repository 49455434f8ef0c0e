package experiment

import (
	"math"

	"pdnexplorer/i18n/phrase"
)

// What a run's learned edge weights say about the classes, read from their
// distribution on intra- and inter-class edges (Figures: IntraDeciles,
// InterDeciles, Saturated): the one rule the CLI (pdn train), the page's
// labs and the claims read, so that one run says one sentence everywhere. The deciles are computed once, in lessons.WeightSpread; the
// page has only them (it links no engine), so the rule reads nothing else.
//
// With m_intra and m_inter the medians (the 50th percentiles) and r_intra,
// r_inter the 10–90 inter-decile ranges:
//
//  1. No reading (WeightsNone) for a model without edge weights or a graph
//     without edges of both kinds: never a sentence made up.
//  2. The kinds weigh differently when |m_intra − m_inter| exceeds the
//     tolerance max(SameBand, SpreadShare · (r_intra + r_inter)/2) and the
//     larger median is at least MinFactor times the smaller: the middles
//     stand apart both against the weights' own spread (a fifth of the
//     10–90 range is about half a standard deviation of a normal) and
//     against the band within which the model weighs edges alike, and the
//     factor is one worth a sentence. Then the factor is the ratio of the
//     medians: WeightsDown (inter-class edges weigh less) or WeightsUp
//     (more), also when most weights are pinned (an XOR graph's intra-class
//     edges at 1 and inter-class ones at 0 is the pathfinder's best, not a
//     failure).
//  3. Otherwise the kinds weigh alike: WeightsSaturated when more than
//     half of all edges weigh within SameBand of 0 or of 1 (the
//     pathfinder's sigmoid pinned: a GCN that costs more at 1, an MLP at
//     0), else WeightsSame.
const (
	// SameBand is how near two weights, or a weight and 0 or 1, are the same.
	SameBand = 0.01
	// SpreadShare is the share of the mean 10–90 range the medians must
	// stand apart by.
	SpreadShare = 0.2
	// MinFactor is the least ratio of the medians that is a difference.
	MinFactor = 1.1
	// maxFactor is where a factor is said as "over": a median of 0 (a
	// sigmoid that underflowed) gives an infinite ratio.
	maxFactor = 1000
)

// The readings of the learned weights: stable keys for -json, claims and
// the page's data attributes.
const (
	WeightsNone      = ""
	WeightsSame      = "same"
	WeightsDown      = "down" // inter-class edges weigh Factor times less
	WeightsUp        = "up"   // inter-class edges weigh Factor times more
	WeightsSaturated = "saturated"
)

// Deciles is how many percentiles a spread holds: the 0th, 10th, …, 100th.
const Deciles = 11

// WeightReading is what a run's learned weights say: its Kind (one of
// Weights*), Factor (≥ 1 for WeightsDown and WeightsUp, NaN otherwise),
// the two medians and the saturated share it was read from.
type WeightReading struct {
	Kind                     string
	Factor                   float64
	MedianIntra, MedianInter float64
	Saturated                float64
}

// ReadWeights applies the rule to the deciles of the weights on intra- and
// inter-class edges (Deciles values each, lowest first; any other length,
// or a NaN, reads as none) and the share of edges pinned near 0 or 1.
func ReadWeights(intra, inter []float64, saturated float64) WeightReading {
	r := WeightReading{Kind: WeightsNone, Factor: math.NaN(), MedianIntra: math.NaN(), MedianInter: math.NaN(), Saturated: saturated}
	if !decilesValid(intra) || !decilesValid(inter) {
		return r
	}
	mi, me := intra[Deciles/2], inter[Deciles/2]
	r.MedianIntra, r.MedianInter = mi, me
	spread := (intra[9] - intra[1] + inter[9] - inter[1]) / 2
	tolerance := math.Max(SameBand, SpreadShare*spread)
	hi, lo := math.Max(mi, me), math.Min(mi, me)
	switch {
	case hi-lo > tolerance && hi >= MinFactor*lo:
		r.Kind, r.Factor = WeightsDown, hi/lo
		if me > mi {
			r.Kind = WeightsUp
		}
	case saturated > 0.5:
		r.Kind = WeightsSaturated
	default:
		r.Kind = WeightsSame
	}
	return r
}

func decilesValid(d []float64) bool {
	if len(d) != Deciles {
		return false
	}
	for _, x := range d {
		if math.IsNaN(x) {
			return false
		}
	}
	return true
}

// WeightReading is the reading of the run's learned weights (ReadWeights);
// its Kind is WeightsNone for a run without them.
func (f Figures) WeightReading() (kind string, factor float64) {
	r := f.LearnedWeights()
	return r.Kind, r.Factor
}

// LearnedWeights is the whole reading of the run's learned weights.
func (f Figures) LearnedWeights() WeightReading {
	return ReadWeights(f.IntraDeciles, f.InterDeciles, f.Saturated)
}

// Sentence is the reading said in words, as a catalogue message; ok is
// false for WeightsNone, which says nothing.
func (r WeightReading) Sentence() (t phrase.Text, ok bool) {
	switch r.Kind {
	case WeightsSame:
		return phrase.New("The weights are the same on edges within and between classes (median %.3g and %.3g): what the pathfinder reads of an edge carries no class information here.", r.MedianIntra, r.MedianInter), true
	case WeightsSaturated:
		return phrase.New("%.0f%% of the edges weigh within 0.01 of 0 or of 1, alike within and between classes (median %.3g and %.3g): the pathfinder is saturated, so it tells no edges apart here.", 100*r.Saturated, r.MedianIntra, r.MedianInter), true
	case WeightsDown:
		if r.Factor > maxFactor {
			return phrase.New("Edges between classes get over %d times less weight than edges within them (median %.3g against %.3g).", maxFactor, r.MedianInter, r.MedianIntra), true
		}
		return phrase.New("Edges between classes get %.1f times less weight than edges within them (median %.3g against %.3g).", r.Factor, r.MedianInter, r.MedianIntra), true
	case WeightsUp:
		if r.Factor > maxFactor {
			return phrase.New("Edges between classes get over %d times more weight than edges within them (median %.3g against %.3g).", maxFactor, r.MedianInter, r.MedianIntra), true
		}
		return phrase.New("Edges between classes get %.1f times more weight than edges within them (median %.3g against %.3g).", r.Factor, r.MedianInter, r.MedianIntra), true
	}
	return phrase.Text{}, false
}
