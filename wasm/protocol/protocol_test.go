package protocol

import (
	"math"
	"reflect"
	"testing"
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
	g := Event{Kind: KindGraph, Graph: &Graph{Nodes: 3, Src: []int32{0}, Dst: []int32{2}, Labels: []int{0, 1, 1}, Kinds: []int8{2}, Test: []bool{false, true, false}}}
	back, err := DecodeEvent(Encode(g))
	if err != nil || !reflect.DeepEqual(back.Graph, g.Graph) {
		t.Errorf("graph round trip: %+v, %v", back.Graph, err)
	}
}

func TestCommandRoundTrip(t *testing.T) {
	c := Command{Op: OpSet, State: "classes=3&p=0.01"}
	back, err := DecodeCommand(Encode(c))
	if err != nil || back != c {
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
