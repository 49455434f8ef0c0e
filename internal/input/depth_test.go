package input

import (
	"runtime"
	"strings"
	"testing"
)

// A list or an object nested deeper than MaxDepth is refused where it
// passes it, saying how deep: by JSON (past encoding/json's own bound of
// 10,000 too, which it would call a syntax error) and by a JSONStream's
// values; at MaxDepth it is read.
func TestTooDeep(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	var v any
	if err := JSON("meta.json", []byte(nest(MaxDepth)), &v); err != nil {
		t.Errorf("%d deep: %v", MaxDepth, err)
	}
	// However deep (past encoding/json's bound, past the scan's), the
	// message says what is true: more than the most read.
	for _, n := range []int{MaxDepth + 1, 10001, 100001} {
		err := JSON("meta.json", []byte("{\"a\":\n "+nest(n)+"}"), &v)
		want := "meta.json:2:" + "101" + ": lists or objects nested more than 100 levels deep, the most the explorer reads"
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "flatten the attribute") {
			t.Errorf("JSON %d deep: %v; want %q", n, err, want)
		}
		_, err = readStream("{\"list\": [{\"id\": 0,\n \"x\": " + nest(n) + "}]}")
		want = "g.json:2:" + "106" + ": lists or objects nested more than 100 levels deep"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("stream %d deep: %v; want %q", n, err, want)
		}
	}
}

// Keys holds no field path for a list's items: a value 2,000 lists deep
// of 150,000 lists (once 900 MB of paths) takes a few MB at most, and an
// object's keys share their object's path.
func TestKeysHoldNoListPaths(t *testing.T) {
	b := []byte(strings.Repeat("[", MaxDepth-1) + strings.Repeat("[],", 150000) + "[]" + strings.Repeat("]", MaxDepth-1))
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	keys, objects, twice := Keys(b)
	runtime.ReadMemStats(&m1)
	if len(keys) != 0 || len(objects) != 0 || twice != nil {
		t.Errorf("keys %d, objects %d, twice %v", len(keys), len(objects), twice)
	}
	if grew := m1.TotalAlloc - m0.TotalAlloc; grew > 1<<20 {
		t.Errorf("Keys allocated %d bytes for lists alone", grew)
	}
	keys, objects, _ = Keys([]byte(`{"runs": [{"a": 1, "b": {"c": [1]}}, {"a": 2}]}`))
	var fields []string
	for _, k := range keys {
		fields = append(fields, k.Field())
	}
	if got := strings.Join(fields, " "); got != "runs runs[0].a runs[0].b runs[0].b.c runs[1].a" {
		t.Errorf("fields %s", got)
	}
	if len(objects) != 4 || objects["runs[1]"] != 37 || objects["runs[0].b"] != 24 {
		t.Errorf("objects %v", objects)
	}
}
