package input

import (
	"bytes"
	"encoding/json"
)

// ObjectKeys calls key for each key of the JSON object b holds, in order,
// with the line it is on, stopping at the first error key returns; it
// reads only the keys (each value is skipped whole). It is how a reader
// finds a key given twice, which encoding/json (as Python's json) reads
// as its last value without a word. Malformed JSON ends it without an
// error: json.Unmarshal, which reads the whole, says what is wrong.
func ObjectKeys(b []byte, key func(k string, line int) error) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	line, at := 1, 0
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		k, _ := tok.(string)
		off := int(dec.InputOffset())
		line, at = line+bytes.Count(b[at:off], []byte("\n")), off
		if err := key(k, line); err != nil {
			return err
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil
		}
	}
	return nil
}
