// Package i18n holds the explorer's words in every language it speaks:
// one catalogue per language, keyed by the English text.
//
// A message is looked up by its English text, the key: T(lang, key) is
// its translation, or the key itself when the language is English or the
// catalogue lacks it (a test fails if any catalogue lacks a key that the
// English catalogue, en.json, has). A key with fmt verbs (%d, %s) keeps
// them, in the order the translation may need: "%[2]s … %[1]d".
//
// Figures, formulas and numbers are never translated: numbers stay in
// ASCII digits in every language, so that a figure reads the same on a
// projector in any room and the page's data-metric values parse alike.
//
// Written here rather than with golang.org/x/text/message: that printer
// localises every number it formats (grouping, digits), which would
// change the figures and the values tests and exports read, and it adds
// its language tables to the page's program; a lookup by the English text
// is a map read.
package i18n

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"pdnexplorer/i18n/phrase"
)

// English is the language of the keys.
const English = "en"

// Language is one language the explorer speaks.
type Language struct {
	Code string // BCP 47: en, es, zh, ar
	Name string // its own name for itself, as a menu shows it
	RTL  bool   // written right to left: the page mirrors
}

// Languages are the languages with a catalogue, English first.
var Languages = []Language{
	{Code: "en", Name: "English"},
	{Code: "es", Name: "Español"},
	{Code: "zh", Name: "简体中文"},
	{Code: "ar", Name: "العربية", RTL: true},
}

// catalogues are the translations by language code; keys lists the
// English catalogue's keys. The page's program embeds neither (see
// embed.go): it fetches the one language it speaks, with Add.
var (
	mu         sync.RWMutex
	catalogues = map[string]map[string]string{}
	keys       []string
)

// Add reads data, the JSON catalogue of lang (for English, the list of
// keys), and makes it lang's.
func Add(lang string, data []byte) error {
	if lang == English {
		var ks []string
		if err := json.Unmarshal(data, &ks); err != nil {
			return notCatalogue(lang, err)
		}
		mu.Lock()
		keys = ks
		mu.Unlock()
		return nil
	}
	m := map[string]string{}
	if err := json.Unmarshal(data, &m); err != nil {
		return notCatalogue(lang, err)
	}
	mu.Lock()
	catalogues[lang] = m
	mu.Unlock()
	return nil
}

// notCatalogue is Add's error for lang's file that err could not read, in
// the page's words (the decoder's are English), with where it went wrong
// where the decoder says.
func notCatalogue(lang string, err error) error {
	// json.Unmarshal returns its *SyntaxError bare; errors.As would link
	// reflection into the page's program (24 kB) for nothing.
	if syntax, ok := err.(*json.SyntaxError); ok {
		return phrase.Errorf("%s.json is not a catalogue of words this page reads: it breaks off at byte %d", lang, syntax.Offset)
	}
	return phrase.Errorf("%s.json is not a catalogue of words this page reads", lang)
}

// Ready reports whether lang can be spoken now: English always, another
// language once its catalogue is added.
func Ready(lang string) bool {
	mu.RLock()
	defer mu.RUnlock()
	_, ok := catalogues[lang]
	return ok || lang == English
}

// T returns key in lang: its translation, or key itself for English, an
// unknown language or a key the catalogue lacks.
func T(lang, key string) string {
	mu.RLock()
	t, ok := catalogues[lang][key]
	mu.RUnlock()
	if ok && t != "" {
		return t
	}
	return key
}

// F formats args by key's translation in lang, as fmt.Sprintf.
func F(lang, key string, args ...any) string {
	return fmt.Sprintf(T(lang, key), args...)
}

// Keys returns the English catalogue's keys, sorted.
func Keys() []string {
	mu.RLock()
	defer mu.RUnlock()
	return append([]string(nil), keys...)
}

// Has reports whether lang's catalogue holds key (English holds every
// key of en.json).
func Has(lang, key string) bool {
	mu.RLock()
	defer mu.RUnlock()
	if lang == English {
		i := sort.SearchStrings(keys, key)
		return i < len(keys) && keys[i] == key
	}
	_, ok := catalogues[lang][key]
	return ok
}

// Lookup returns the language of code, if the explorer speaks it.
func Lookup(code string) (Language, bool) {
	for _, l := range Languages {
		if l.Code == code {
			return l, true
		}
	}
	return Language{}, false
}

// Match returns the first language of prefs (a browser's, as
// navigator.languages lists them: "es-MX", "zh-Hans-CN", "ar") the
// explorer speaks, by its primary subtag; English if none.
func Match(prefs []string) string {
	for _, p := range prefs {
		primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(p)), "-")
		primary, _, _ = strings.Cut(primary, "_")
		if _, ok := Lookup(primary); ok {
			return primary
		}
	}
	return English
}

// CatalogueKeys returns the keys lang's catalogue translates, sorted.
func CatalogueKeys(lang string) []string {
	mu.RLock()
	defer mu.RUnlock()
	var out []string
	for k := range catalogues[lang] {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
