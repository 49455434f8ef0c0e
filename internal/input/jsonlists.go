package input

// Pos is a place in a text: its line and byte column, from 1.
type Pos struct{ Line, Col int }

// ListElements is where each element of the list under the top-level
// key of the JSON object b begins, in one pass over b (a reader that
// names the line of the element at fault, for every element: ElementAt
// would scan b once for each); over says the list holds more than limit
// elements, and the scan stopped at the first beyond it (the last of at),
// before they are decoded. A key
// given twice is RepeatedKey's to refuse: the first list is the one
// found. Malformed JSON ends it where it stops making sense.
func ListElements(b []byte, key string, limit int) (at []Pos, over bool) {
	depth, line, lineStart := 0, 1, 0
	expectKey, lastKey := false, ""
	inList, want, done := false, false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\n' {
			line, lineStart = line+1, i+1
			continue
		}
		if want && c != ' ' && c != '\t' && c != '\r' && c != ']' {
			if len(at) == limit { // where the first beyond it begins, last
				return append(at, Pos{line, i - lineStart + 1}), true
			}
			at = append(at, Pos{line, i - lineStart + 1})
			want = false
		}
		switch c {
		case '"':
			end := stringEnd(b, i)
			if end < 0 {
				return at, false
			}
			if depth == 1 && expectKey {
				lastKey, expectKey = jsonString(b[i:end+1]), false
			}
			i = end
		case '{', '[':
			if depth == 1 && c == '[' && lastKey == key && !done {
				inList, want, done = true, true, true
			}
			depth++
			expectKey = depth == 1 && c == '{'
		case '}', ']':
			depth--
			if depth == 1 {
				inList, want = false, false
			}
		case ',':
			if depth == 1 {
				expectKey = true
			}
			if depth == 2 && inList {
				want = true
			}
		}
	}
	return at, false
}
