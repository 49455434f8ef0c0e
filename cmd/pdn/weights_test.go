package main

import (
	"math"
	"strings"
	"testing"

	"pdnexplorer/experiment"
	"pdnexplorer/internal/numtext"
)

// pdn train -json says what the learned weights say: 11 deciles on each
// kind of edge, the saturated share, the reading's kind and its sentence,
// which the text output prints too; a model without edge weights says
// nothing of them (no key, no sentence).
func TestTrainSaysWhatTheWeightsSay(t *testing.T) {
	for _, tc := range []struct {
		model string
		says  bool
	}{{"pdn", true}, {"pdn-linear", true}, {"gcn", false}, {"gat", false}, {"mlp", false}} {
		t.Run(tc.model, func(t *testing.T) {
			args := append([]string{"train", "-model", tc.model}, small...)
			out, errOut, code := runCLI(t, append(args, "-json")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			lw, ok := lastJSON(t, out)["learned_weights"].(map[string]any)
			if ok != tc.says {
				t.Fatalf("learned_weights present = %v, want %v: %s", ok, tc.says, out)
			}
			text, _, _ := runCLI(t, args...)
			if strings.Contains(text, "what the weights say:") != tc.says {
				t.Errorf("the text output's sentence present = %v:\n%s", !tc.says, text)
			}
			if !tc.says {
				return
			}
			for _, k := range []string{"intra_deciles", "inter_deciles"} {
				if d, _ := lw[k].([]any); len(d) != experiment.Deciles {
					t.Errorf("%s: %v", k, lw[k])
				}
			}
			intra, inter := floatsOf(lw["intra_deciles"]), floatsOf(lw["inter_deciles"])
			sat, _ := lw["saturated_share"].(float64)
			r := experiment.ReadWeights(intra, inter, sat)
			sentence, _ := r.Sentence()
			if lw["kind"] != r.Kind || r.Kind == experiment.WeightsNone || lw["sentence"] != sentence.String() {
				t.Errorf("kind %v, sentence %v: the rule reads %q, %q from the deciles printed", lw["kind"], lw["sentence"], r.Kind, sentence.String())
			}
			if _, hasFactor := lw["factor"]; hasFactor != (r.Kind == experiment.WeightsDown || r.Kind == experiment.WeightsUp) {
				t.Errorf("factor present = %v for %s", hasFactor, r.Kind)
			}
			if !strings.Contains(text, sentence.String()) {
				t.Errorf("the text output does not say %q:\n%s", sentence.String(), text)
			}
		})
	}
}

func floatsOf(v any) []float64 {
	xs, _ := v.([]any)
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i], _ = x.(float64)
	}
	return out
}

// A run whose learned weights say nothing says why: weights that are not
// numbers, or a kind of edge the graph lacks.
func TestWhyNoReading(t *testing.T) {
	nan := numtext.Num(math.NaN())
	for _, tc := range []struct {
		name string
		w    weightsResult
		want string
	}{
		{"diverged", weightsResult{IntraDeciles: []numtext.Num{nan}, InterDeciles: []numtext.Num{0.5}}, "diverged"},
		{"no inter-class edges", weightsResult{IntraDeciles: []numtext.Num{0.1, 0.5}}, "lacks intra- or inter-class edges"},
	} {
		if got := whyNoReading(&tc.w); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q", tc.name, got)
		}
	}
}
