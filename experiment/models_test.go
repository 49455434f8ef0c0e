package experiment

import (
	"slices"
	"strings"
	"testing"
)

// Every model's own settings are rows of the state table in their range,
// each one the model reads (its own rows, or a training row); a model
// that starts from them on a family names every row of the family's it
// reads, so none of the family's is left half applied.
func TestModelsOwnSettingsAreRowsTheyRead(t *testing.T) {
	for _, m := range Models {
		t.Run(m.Name, func(t *testing.T) {
			if m.Own == "" {
				if len(m.OwnOn) > 0 || m.OwnRowNormalise {
					t.Fatalf("starts from its own settings on %v (features row-normalised: %v), but has none", m.OwnOn, m.OwnRowNormalise)
				}
				return
			}
			named := map[string]bool{}
			for _, kv := range strings.Split(m.Own, "&") {
				k, v, ok := strings.Cut(kv, "=")
				p, known := Lookup(k)
				if !ok || !known {
					t.Fatalf("own setting %q is not a row=value of the state table", kv)
				}
				if !slices.Contains(m.Rows, k) && p.Group != GroupTrain {
					t.Errorf("own setting %s: %s does not read it", k, m.Name)
				}
				e := Default()
				if err := p.Set(&e, v); err != nil {
					t.Errorf("own setting %s: %v", kv, err)
				}
				named[k] = true
			}
			for _, recipe := range m.OwnOn {
				if recipe != RecipeBagOfWords && recipe != RecipePaper {
					t.Errorf("OwnOn: %q is no recipe", recipe)
				}
				for _, kv := range recipeRowsOf(recipe) {
					p, _ := Lookup(kv[0])
					if (slices.Contains(m.Rows, kv[0]) || p.Group == GroupTrain) && !named[kv[0]] {
						t.Errorf("starts from its own settings on %s graphs, which leave out the family's %s", recipe, kv[0])
					}
				}
			}
		})
	}
}

// recipeRowsOf are the rows recipe sets beyond the table's defaults.
func recipeRowsOf(recipe string) [][2]string {
	if recipe == RecipeBagOfWords {
		return recipeRows()
	}
	return nil
}

// A model starts from its own settings on the families it was measured
// better on, from the family's rows elsewhere, and a row a flag or link
// set stays as set.
func TestApplyModelRecipe(t *testing.T) {
	own := ModelsWhere(func(m ModelKind) bool { return len(m.OwnOn) > 0 })
	family := ModelsWhere(func(m ModelKind) bool { return !slices.Contains(m.OwnOn, RecipeBagOfWords) })
	none := func(string) bool { return false }
	for _, kind := range family {
		e := Default()
		e.Model.Kind = kind
		e.ApplyModelRecipe(RecipeBagOfWords, none)
		if ModelRowNormalises(RecipeBagOfWords, kind) {
			t.Errorf("%s on a bag-of-words graph: row-normalised, though it starts from the family's rows", kind)
		}
		if e.Train.WeightDecay != 0.005 || e.Model.Dropout != 0.9 {
			t.Errorf("%s on a bag-of-words graph: weight decay %v, dropout %v; want the family's 0.005 and 0.9", kind, e.Train.WeightDecay, e.Model.Dropout)
		}
		p := Default()
		p.Model.Kind = kind
		p.ApplyModelRecipe(RecipePaper, none)
		want := Default()
		want.Model.Kind = kind
		if p.EncodeRun() != want.EncodeRun() {
			t.Errorf("%s on the paper's graphs: %s; want the table's defaults", kind, p.EncodeRun())
		}
	}
	for _, kind := range own {
		m, _ := ModelNamed(kind)
		for _, recipe := range m.OwnOn {
			e := Default()
			e.Model.Kind = kind
			e.ApplyModelRecipe(recipe, none)
			if ModelRowNormalises(recipe, kind) != m.OwnRowNormalise {
				t.Errorf("%s on %s graphs: row-normalised %v; want its own %v", kind, recipe, !m.OwnRowNormalise, m.OwnRowNormalise)
			}
			for _, kv := range strings.Split(m.Own, "&") {
				k, v, _ := strings.Cut(kv, "=")
				p, _ := Lookup(k)
				if !sameValue(p, &e, v) {
					t.Errorf("%s on %s graphs: %s is %s; want its own %s", kind, recipe, k, p.Get(&e), v)
				}
			}
		}
	}
	e := Default()
	e.Model.Kind, e.Model.Dropout = GCN, 0.3
	e.ApplyModelRecipe(RecipeBagOfWords, func(name string) bool { return name == "dropout" })
	if e.Model.Dropout != 0.3 {
		t.Errorf("a dropout set by a flag became %v", e.Model.Dropout)
	}
}

// Every model is in one of the groups a menu lists them in.
func TestEveryModelHasAGroup(t *testing.T) {
	for _, m := range Models {
		if !slices.ContainsFunc(ModelGroups, func(g ModelGroup) bool { return g.Name == m.Group }) {
			t.Errorf("%s: group %q is none of ModelGroups", m.Name, m.Group)
		}
	}
}
