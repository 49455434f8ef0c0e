package protocol

import (
	"reflect"
	"testing"
)

// FuzzDecodeCommand reads any message as a command: no panic, and what
// reads writes back to the same command.
func FuzzDecodeCommand(f *testing.F) {
	for _, s := range []string{`{"op":"set","state":"classes=3"}`, `{"op":"start"}`, `{}`, `null`, `[]`, `{"op":1}`, `{"op":"set","state":"` + "\\u0000" + `"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := DecodeCommand(s)
		if err != nil {
			return
		}
		back, err := DecodeCommand(Encode(c))
		if err != nil || !reflect.DeepEqual(back, c) {
			t.Fatalf("%+v does not read back: %+v, %v", c, back, err)
		}
	})
}

// FuzzDecodeEvent reads any message as an event: no panic, and what reads
// writes and reads again to the same event.
func FuzzDecodeEvent(f *testing.F) {
	for _, s := range []string{
		Encode(Event{Kind: KindSnapshot, Gen: 2, Snap: &Snapshot{Epoch: 3, Loss: 0.5, TestAcc: Num(0.8)}}),
		`{"kind":"snapshot","snap":{"loss":null,"testAcc":"x"}}`,
		`{"kind":"graph","graph":{"nodes":-1,"src":[1,2],"dst":[1]}}`,
		`{"kind":"progress","progress":{"done":1e400}}`,
		`{"kind":"error","error":"x","field":"lr"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ev, err := DecodeEvent(s)
		if err != nil {
			return
		}
		once := Encode(ev)
		again, err := DecodeEvent(once)
		if err != nil {
			t.Fatalf("%s does not read back: %v", once, err)
		}
		if Encode(again) != once {
			t.Fatalf("%s reads back as %s", once, Encode(again))
		}
	})
}

func FuzzFloat32Bytes(f *testing.F) {
	f.Add([]byte{0, 0, 128, 63, 1, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		v := BytesFloat32(nil, b)
		if len(v) != len(b)/4 {
			t.Fatalf("%d values from %d bytes", len(v), len(b))
		}
		if back := Float32Bytes(nil, v); !reflect.DeepEqual(back, b[:4*len(v)]) && len(v) > 0 {
			// NaN payloads survive too: the bits go through unchanged.
			t.Fatalf("%v does not write back to %v", v, b)
		}
	})
}
