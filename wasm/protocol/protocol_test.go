package protocol

import (
	"math"
	"reflect"
	"regexp"
	"testing"

	"pdnexplorer/edgekind"
	"pdnexplorer/i18n/phrase"
)

func TestEventRoundTrip(t *testing.T) {
	in := Event{Kind: KindSnapshot, Gen: 3, Snap: &Snapshot{Epoch: 7, Epochs: 200, Loss: 0.5, TrainAcc: 0.9, TestAcc: 0.8,
		WIntra: Num(math.NaN()), WInter: Num(math.Inf(1)), Running: true, Model: "pdn"}}
	out, err := DecodeEvent(Encode(in))
	if err != nil {
		t.Fatal(err)
	}
	if out.Kind != in.Kind || out.Gen != 3 || out.Snap.Epoch != 7 || out.Snap.Loss != 0.5 || !out.Snap.Running {
		t.Errorf("round trip gave %+v", out.Snap)
	}
	if !math.IsNaN(float64(out.Snap.WIntra)) || !math.IsNaN(float64(out.Snap.WInter)) {
		t.Errorf("NaN and Inf should come back as NaN: %v %v", out.Snap.WIntra, out.Snap.WInter)
	}
}

// A graph's arrays travel beside its JSON and come back whole; a message
// whose arrays do not match its counts is refused.
func TestGraphRoundTrip(t *testing.T) {
	for _, gr := range []*Graph{
		{Nodes: 3, Src: []int32{0}, Dst: []int32{2}, Labels: []int{0, 1, 1}, Kinds: []edgekind.Kind{edgekind.Inter}, Test: []bool{false, true, false}, State: "seed=1"},
		{Nodes: 2, Src: []int32{1 << 30, 0}, Dst: []int32{-1, 1}, Labels: []int{5, -3}, Test: []bool{true, true}, ClassNames: []string{"a", "b"}, Edited: true},
		{Nodes: 0, Src: []int32{}, Dst: []int32{}, Labels: []int{}, Test: []bool{}},
	} {
		f32 := gr.PackArrays(nil)
		back, err := DecodeEvent(Encode(Event{Kind: KindGraph, Graph: gr}))
		if err != nil {
			t.Fatal(err)
		}
		if err := back.Graph.UnpackArrays(f32); err != nil || !reflect.DeepEqual(back.Graph, gr) {
			t.Errorf("graph round trip: %+v, %v, want %+v", back.Graph, err, gr)
		}
		if len(f32) > 0 {
			if err := back.Graph.UnpackArrays(f32[1:]); err == nil {
				t.Errorf("%d values for a graph that wrote %d read without an error", len(f32)-1, len(f32))
			}
		}
	}
}

func TestCommandRoundTrip(t *testing.T) {
	c := Command{Op: OpSet, State: "classes=3&p=0.01"}
	back, err := DecodeCommand(Encode(c))
	if err != nil || !reflect.DeepEqual(back, c) {
		t.Errorf("got %+v, %v", back, err)
	}
	if _, err := DecodeCommand("{not json"); err == nil {
		t.Error("bad JSON accepted")
	}
}

func TestFloat32Bytes(t *testing.T) {
	in := []float32{0, 1, -2.5, float32(math.Inf(1)), 3.14159}
	b := Float32Bytes(nil, in)
	if len(b) != 4*len(in) || b[4] != 0 || b[7] != 0x3f { // 1.0 = 0x3f800000, little endian
		t.Errorf("bytes %v", b)
	}
	if out := BytesFloat32(nil, b); !reflect.DeepEqual(out, in) {
		t.Errorf("round trip %v", out)
	}
}

func TestSnapshotSplit(t *testing.T) {
	f32 := []float32{0.5, 0.25, 1, 0, 0.9, 0.6}
	for _, tc := range []struct {
		name          string
		weights, node int
		want          [3]int // lengths, or -1 for nil
	}{
		{"weights and two nodes", 2, 2, [3]int{2, 2, 2}},
		{"no weights, three nodes", 0, 3, [3]int{0, 3, 3}},
		{"lengths that do not add up", 2, 3, [3]int{-1, -1, -1}},
		{"negative", -2, 4, [3]int{-1, -1, -1}},
	} {
		w, p, q := Snapshot{Weights: tc.weights, Nodes: tc.node}.Split(f32)
		for i, got := range [][]float32{w, p, q} {
			n := len(got)
			if got == nil {
				n = -1
			}
			if n != tc.want[i] {
				t.Errorf("%s: part %d has length %d, want %d", tc.name, i, n, tc.want[i])
			}
		}
	}
	w, p, _ := Snapshot{Weights: 2, Nodes: 2}.Split(f32)
	if grown := append(w, 7); p[0] != 1 || len(grown) != 3 {
		t.Error("appending to the weights overwrote the predictions")
	}
}

// A failure crosses to the page as a message the page can put in its
// language, and as English text for logs and older pages.
func TestFailureKeepsItsMessage(t *testing.T) {
	err := phrase.Errorf("Your graph was not opened: %w", phrase.Errorf("more than %s nodes", "2,000,000"))
	ev, derr := DecodeEvent(Encode(Failure(err)))
	if derr != nil {
		t.Fatal(derr)
	}
	if ev.Kind != KindError || ev.Error != err.Error() || ev.Say == nil {
		t.Fatalf("decoded %+v", ev)
	}
	es := map[string]string{"Your graph was not opened: %w": "Tu grafo no se abrió: %w", "more than %s nodes": "más de %s nodos"}
	if got, want := ev.Say.In(func(k string) string { return es[k] }), "Tu grafo no se abrió: más de 2,000,000 nodos"; got != want {
		t.Errorf("in Spanish %q, want %q", got, want)
	}
}

// Every word the worker sends the page travels as a phrase, which the page
// says in its language: a field of any message that carries reasons,
// warnings, errors, notes or refusals (a string, or strings in a slice or
// map) is a phrase.Text, or it is English beside the phrase that says it
// (proseBeside). A new plain-string field of that kind (a warning sent as
// err.Error()) fails here.
func TestWordsTravelAsPhrases(t *testing.T) {
	words := regexp.MustCompile(`(?i)(error|warning|message|notice|reason|why|refus|note|hint|advice)`)
	proseBeside := map[string]string{"Event.Error": "Say", "Baseline.Error": "Say"}
	names := map[string]bool{"Snapshot.WarningField": true} // a row's name, not words
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Array || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] || ty == reflect.TypeFor[phrase.Text]() {
			return
		}
		seen[ty] = true
		for i := range ty.NumField() {
			f := ty.Field(i)
			name := ty.Name() + "." + f.Name
			if words.MatchString(f.Name) && holdsStrings(f.Type) && !names[name] {
				if say, ok := proseBeside[name]; !ok {
					t.Errorf("%s carries words as plain strings: make it phrase.Text", name)
				} else if _, has := ty.FieldByName(say); !has {
					t.Errorf("%s is English beside %s, which %s lacks", name, say, ty.Name())
				}
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[Event]())
	walk(reflect.TypeFor[Command]())
	if !seen[reflect.TypeFor[Snapshot]()] {
		t.Fatal("the walk did not reach Snapshot")
	}
}

// holdsStrings reports whether a value of ty is a string or holds strings
// as the values of its slices, arrays, maps or pointers.
func holdsStrings(ty reflect.Type) bool {
	for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Array || ty.Kind() == reflect.Map {
		ty = ty.Elem()
	}
	return ty.Kind() == reflect.String
}
