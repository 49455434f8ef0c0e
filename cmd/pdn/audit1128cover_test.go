package main

import (
	"bufio"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// audit1128Tests names, for every case of testdata/audit-2026-11-28.jsonl
// by its id, the tests that assert what the explorer does with it now: a
// test of this package by its name ("TestAuditCLI"), a subtest of it
// ("TestAudit1128CLI/32": the rows of that id), or another package's test
// by its folder's name ("app.TestCatalogueLinks", "worker.TestX" for
// wasm/worker). TestAudit1128IsCovered fails for a case without a test,
// and for a named test that does not exist.
//
// Cases 10, 161 and 162 are asserted by tests of the busy branch of issue
// 52 (run_pyg.py's argument checks, make bench-compare's BASE), which
// fixed them; this package's coverage test passes once that branch is in.
var audit1128Tests = map[int][]string{
	1:   {"TestAudit1128CLI/1", "experiment.TestEditsErrors"},
	2:   {"app.TestCatalogueLinks", "e2e.TestAudit52Links"},
	3:   {"TestAuditLabelsAndStructure", "datasets.TestUnlabelledAlikeInEveryFormat"},
	4:   {"TestAuditLabelsAndStructure", "datasets.TestUnlabelledAlikeInEveryFormat"},
	5:   {"TestAuditLabelsAndStructure"},
	6:   {"TestAuditLabelsAndStructure"},
	7:   {"TestAuditLabelsAndStructure"},
	8:   {"TestAuditLabelsAndStructure"},
	9:   {"e2e.TestAudit52Columns", "worker.TestLinksColumnsThatDoNotFitAreSaid"},
	10:  {"pyg.TestScriptArgumentsAreChecked"},
	11:  {"TestAuditCLI", "datasets.TestFeatherRepeatsSummed"},
	12:  {"TestAuditCLI"},
	13:  {"TestAuditCLI"},
	14:  {"TestAuditCLI"},
	15:  {"TestAuditCLI"},
	16:  {"TestAuditCLI"},
	17:  {"TestAuditCLI", "datasets.TestReadGraphMLSparseAndGephi"},
	18:  {"TestAuditCLI", "datasets.TestReadPlainComments"},
	19:  {"TestAuditCLI"},
	20:  {"TestAuditCLI"},
	21:  {"TestAuditCLI"},
	22:  {"TestAuditReaders"},
	23:  {"TestAudit1128CLI/23"},
	24:  {"TestAuditReaders"},
	25:  {"worker.TestAudit1128ZipsOpenInTurn", "e2e.TestZipLayoutsInThePage"},
	26:  {"e2e.TestOpenAMeasuredTargetInBins", "TestAuditCLI"},
	27:  {"e2e.TestAuditPageCases"},
	28:  {"datasets.TestReadGraphMLSparseAndGephi"},
	29:  {"e2e.TestAuditPageCases", "worker.TestQuietRunIsTheCLIsRun"},
	30:  {"datasets.TestOGBRawFilesAlone"},
	31:  {"e2e.TestAuditPageCases", "datasets.TestReadPlainComments"},
	32:  {"TestAudit1128CLI/32"},
	33:  {"TestAuditCLI"},
	34:  {"TestMergeRefusesIncompleteShards"},
	35:  {"TestAudit1128CLI/35", "TestMergeRefusesIncompleteShards"},
	36:  {"TestMergeRefusesShardsThatDoNotMix"},
	37:  {"TestMergeRefusesShardsThatDoNotMix"},
	38:  {"TestMergeRefusesShardsThatDoNotMix"},
	39:  {"TestAuditMergeCases"},
	40:  {"TestShardsMergeIntoTheWhole"},
	41:  {"TestAudit1128Table4InSevenShards"},
	42:  {"TestAudit1128CLI/42", "app.TestCatalogueLinks"},
	43:  {"TestAuditCLI"},
	44:  {"app.TestGraphEditor", "e2e.TestEditTheGraph"},
	45:  {"app.TestTraceAtAnEpochWithoutOne"},
	46:  {"e2e.TestSweepLabIsTheCLIsSweep"},
	47:  {"e2e.TestAudit52Links"},
	48:  {"e2e.TestAudit52Results", "app.TestLinkResultsEnterEveryLabAtOnePlace"},
	49:  {"e2e.TestAudit52Results", "app.TestSweepLabSaysHowLongAndWhatCameWithTheLink"},
	50:  {"app.TestSweepLabSaysHowLongAndWhatCameWithTheLink", "e2e.TestSweepSaysWhatItCostsAndWhereResultsCameFrom"},
	51:  {"TestAuditLabelsAndStructure"},
	52:  {"TestAuditCLI"},
	53:  {"TestAuditCLI"},
	54:  {"TestAuditLabelsAndStructure", "TestAuditCLI"},
	55:  {"TestAuditCLI", "TestUnstableRunWarns"},
	56:  {"TestTrainRealGraphs/gen converts the folder"},
	57:  {"TestAuditCLI", "TestNoCommandWritesAmongItsInputs"},
	58:  {"TestNothingWrittenWhereItIsRead"},
	59:  {"TestNothingWrittenWhereItIsRead"},
	60:  {"TestMetaSaysTheSplitItHolds"},
	61:  {"TestAudit1128CLI/61"},
	62:  {"TestAuditReaders"},
	63:  {"TestAuditReaders"},
	64:  {"app.TestAudit1128TimeLeftFollowsThePace"},
	65:  {"TestSweepGraphWithoutEdges", "pdn.TestNewTrainerRefusesUnlearnableGraphs", "app.TestSweepLabResultsLinkPauseAndClear"},
	66:  {"app.TestSweepLabRendersOnceAFlush"},
	67:  {"app.TestAudit1128ShareHoldsTheWholeState", "viz.TestQRDrawsEveryModule"},
	68:  {"app.TestCatalogueLinks"},
	69:  {"e2e.TestPrintedLabIsOnePage"},
	70:  {"app.TestCatalogueLinks"},
	71:  {"app.TestLanguageChangeKeepsTheRuns"},
	72:  {"datasets.TestPageLimitsMetWhileReading"},
	73:  {"worker.TestLoadRefusesWhatTheModelCannotTrainHere"},
	74:  {"worker.TestLoadRefusesWhatTheModelCannotTrainHere"},
	75:  {"TestAuditCLI", "TestAuditLabelsAndStructure"},
	76:  {"TestAuditCLI"},
	77:  {"app.TestAnotherGraphDropsWhatBelongedToTheGraphBefore", "e2e.TestAudit52GraphArrival"},
	78:  {"app.TestFilePickerFiltersNothing"},
	79:  {"TestAuditCLI", "datasets.TestEuropeanCSV"},
	80:  {"TestAudit1128CLI/80"},
	81:  {"TestAuditCLI"},
	82:  {"TestAuditCLI"},
	83:  {"TestAudit1128CLI/83"},
	84:  {"TestAuditLabelsAndStructure"},
	85:  {"TestAuditCLI"},
	86:  {"TestAudit1128CLI/86", "TestOwnFormatsCLI"},
	87:  {"TestAudit1128CLI/87"},
	88:  {"TestAuditReaders"},
	89:  {"app.TestSweepLabSaysHowLongAndWhatCameWithTheLink"},
	90:  {"e2e.TestAudit52Columns", "worker.TestLinksColumnsThatDoNotFitAreSaid"},
	91:  {"TestAudit1128CLI/91", "TestAuditCLI"},
	92:  {"TestMergeRefusesShardsThatDoNotMix"},
	93:  {"TestTrainExportRunsInPyG"},
	94:  {"TestTrainExportRunsInPyG"},
	95:  {"TestTrainExportRunsInPyG"},
	96:  {"TestAuditCLI"},
	97:  {"TestMergeRefusesShardsThatDoNotMix"},
	98:  {"worker.TestSessionEditCarriesOn"},
	99:  {"app.TestEditorNamesTheEdgeFeatures"},
	100: {"datasets.TestPageLimitsMetWhileReading"},
	101: {"TestAudit1128CLI/101"},
	102: {"TestAuditRowsThatDoNotApply"},
	103: {"TestAudit1128CLI/103"},
	104: {"TestAuditRowsThatDoNotApply"},
	105: {"TestAudit1128CLI/105"},
	106: {"TestAudit1128CLI/106"},
	107: {"TestAuditRowsThatDoNotApply"},
	108: {"TestAudit1128CLI/108"},
	109: {"TestAuditRowsThatDoNotApply", "TestClaimsWithRefusesRowsItsClaimsDoNotRead"},
	110: {"TestAuditRowsThatDoNotApply"},
	111: {"TestAudit1128CLI/111"},
	112: {"TestAudit1128CLI/112"},
	113: {"TestAuditRowsThatDoNotApply", "TestAudit1128CLI/113"},
	114: {"TestAudit1128CLI/114"},
	115: {"TestForceWritesBesideTheUsersFiles"},
	116: {"TestNoCommandWritesAmongItsInputs"},
	117: {"TestForceWritesBesideTheUsersFiles"},
	118: {"TestAudit1128CLI/118", "TestForceWritesBesideTheUsersFiles"},
	119: {"TestInterruptedRunsLoseNothing/gen", "TestAudit1128CLI/119", "datasets.TestHiddenFoldersAreNotTheGraphs"},
	120: {"TestInterruptedRunsLoseNothing/train -export"},
	121: {"TestInterruptedRunsLoseNothing/structure"},
	123: {"TestASecondRunFailsNamingTheFirst"},
	124: {"pdn.TestVectorsKeepTheBits"},
	125: {"TestVectorsVariableIsChecked", "pdn.TestVectorsSetting"},
	126: {"pdn.TestVectorsSetting"},
	127: {"TestAudit1128CLI/127"},
	128: {"TestAudit1128CLI/128"},
	129: {"TestAudit1128CLI/129"},
	130: {"TestAudit1128CLI/130"},
	131: {"TestAuditLabelsAndStructure"},
	132: {"TestAudit1128CLI/132"},
	133: {"TestAudit1128CLI/133"},
	134: {"TestAuditRowsThatDoNotApply", "experiment.TestUnreadRowsOfTheAudit"},
	135: {"TestAuditRowsThatDoNotApply", "experiment.TestUnreadRowsOfTheAudit"},
	136: {"TestAuditRowsThatDoNotApply", "pdn.TestNewTrainerRefusesUnlearnableGraphs"},
	137: {"TestAudit1128CLI/137"},
	138: {"TestAudit1128CLI/138"},
	139: {"TestAuditRowsThatDoNotApply", "experiment.TestUnreadRowsOfTheAudit"},
	140: {"TestAudit1128CLI/140"},
	141: {"pyg.TestPyGTakesPDNsLearnedGraph"},
	142: {"pyg.TestPyGReproducesTheRun"},
	143: {"TestAuditRowsThatDoNotApply", "experiment.TestUnreadRowsOfTheAudit"},
	144: {"TestAudit1128CLI/144"},
	145: {"TestAudit1128CLI/145"},
	146: {"TestAudit1128CLI/146"},
	147: {"TestAuditReaders"},
	148: {"TestAuditReaders"},
	149: {"TestAuditReaders"},
	150: {"TestAuditReaders"},
	151: {"TestAuditReaders", "TestAuditCLI"},
	152: {"TestAuditReaders"},
	153: {"TestAuditReaders"},
	155: {"TestAuditReaders"},
	156: {"TestAuditReaders"},
	157: {"TestAuditReaders"},
	158: {"TestAuditReaders"},
	159: {"TestAuditReaders"},
	161: {"pyg.TestScriptArgumentsAreChecked"},
	162: {"pdn.TestBenchCompareRefusesABadBase"},
	163: {"TestAudit1128BenchCompareOnADirtyTree"},
	164: {"app.TestCatalogueLinks", "e2e.TestAudit52Links"},
	165: {"e2e.TestAudit52Links"},
	166: {"e2e.TestAudit52Links"},
	167: {"e2e.TestAudit52Links"},
	168: {"e2e.TestAudit52Links"},
	170: {"app.TestStructureLabRefusesTooManyResultsInItsOwnWords", "e2e.TestAudit52Results"},
	171: {"app.TestStructureLabRefusesTooManyResultsInItsOwnWords", "app.TestCatalogueLinks", "e2e.TestAudit52Results"},
	172: {"app.TestCatalogueLinks", "experiment.TestStepBeyondTheTour"},
	173: {"e2e.TestTourQuestionRevealsAfterTheRun", "experiment.TestTourQuestionsReadTheirStepsClaims"},
	174: {"app.TestCatalogueLinks", "e2e.TestAudit52Links"},
	175: {"app.TestCatalogueLinks", "experiment.TestUnreadRowsOfTheAudit"},
	176: {"worker.TestSessionNamesThePerturbationThatDroppedEveryEdge", "pdn.TestNewTrainerRefusesUnlearnableGraphs"},
	178: {"worker.TestAudit1128GCNOverPDNsGraphTrains"},
	179: {"app.TestAudit1128CompareLabModelsFromALink", "worker.TestSessionRunsEveryModel"},
	180: {"e2e.TestAudit52Links"},
	181: {"e2e.TestAudit52Columns", "app.TestLinksColumnsShowAndClear", "worker.TestLinksColumnsThatDoNotFitAreSaid"},
	182: {"e2e.TestAudit52Columns", "e2e.TestOpenAMeasuredTargetInBins"},
	183: {"e2e.TestAudit52GraphArrival", "worker.TestHandedGraphTrainsOnTheSameBits"},
	184: {"TestAudit1128CLI/184"},
	185: {"TestAudit1128CLI/185"},
	186: {"TestAudit1128CLI/186"},
	189: {"TestAuditLabelsAndStructure"},
	190: {"app.TestOpenedNoticeCountsUnlabelled", "e2e.TestAudit52Columns"},
	193: {"TestAudit1128CLI/193"},
}

// audit1128Classes are the audit's classes, the faults first.
var audit1128Classes = []string{"crash", "hang", "freeze", "data lost", "silent", "unclear", "clear", "fine"}

// TestAudit1128IsCovered keeps the tests in step with the audit: the file
// holds its 184 cases; every case names tests (audit1128Tests) that exist
// in the module's test files, and every row of TestAudit1128CLI is named;
// the classification after the fixes (audit-2026-11-28-now.jsonl: each
// case as published, with "now" and the "test" that asserts it) has every
// case clear or fine and names the tests audit1128Tests names.
func TestAudit1128IsCovered(t *testing.T) {
	cases := readJSONL(t, filepath.Join("testdata", "audit-2026-11-28.jsonl"))
	if len(cases) != 184 {
		t.Fatalf("%d cases, want the audit's 184", len(cases))
	}
	ids := map[int]bool{}
	for _, c := range cases {
		id := caseID(t, c)
		if ids[id] {
			t.Errorf("case %d is in the file twice", id)
		}
		ids[id] = true
		if _, ok := audit1128Tests[id]; !ok {
			t.Errorf("audit case %d (%s, %s) has no test: %s", id, c["class"], c["surface"], c["action"])
		}
	}
	for id := range audit1128Tests {
		if !ids[id] {
			t.Errorf("audit1128Tests names case %d, which the audit does not hold", id)
		}
	}

	tests := moduleTests(t)
	rows := map[string]bool{}
	for _, r := range audit1128CLI() {
		rows[strconv.Itoa(r.id)] = true
		if !ids[r.id] {
			t.Errorf("a row of TestAudit1128CLI is of case %d, which the audit does not hold", r.id)
		} else if !slices.Contains(audit1128Tests[r.id], "TestAudit1128CLI/"+strconv.Itoa(r.id)) {
			t.Errorf("case %d has rows in TestAudit1128CLI that audit1128Tests does not name", r.id)
		}
	}
	for id, names := range audit1128Tests {
		if len(names) == 0 {
			t.Errorf("case %d names no test", id)
		}
		for _, name := range names {
			fn, sub, _ := strings.Cut(name, "/")
			if !tests[fn] {
				t.Errorf("case %d names %s: no such test function in the module's test files", id, name)
			}
			if fn == "TestAudit1128CLI" && !rows[sub] {
				t.Errorf("case %d names %s: TestAudit1128CLI has no row of case %s", id, name, sub)
			}
		}
	}

	now := readJSONL(t, filepath.Join("testdata", "audit-2026-11-28-now.jsonl"))
	if len(now) != len(cases) {
		t.Fatalf("the classification holds %d cases, the audit %d", len(now), len(cases))
	}
	for i, c := range now {
		id := caseID(t, c)
		published := map[string]any{}
		for k, v := range c {
			if k != "now" && k != "test" {
				published[k] = v
			}
		}
		if !reflect.DeepEqual(published, cases[i]) {
			t.Errorf("line %d of the classification is not case %d as the audit published it", i+1, caseID(t, cases[i]))
		}
		class, _ := c["now"].(string)
		if !slices.Contains(audit1128Classes, class) {
			t.Errorf("case %d: now %q is none of the audit's classes %v", id, class, audit1128Classes)
		} else if class != "clear" && class != "fine" {
			t.Errorf("case %d is still %s: %s", id, class, c["action"])
		}
		var named []string
		list, _ := c["test"].([]any)
		for _, n := range list {
			s, _ := n.(string)
			named = append(named, s)
		}
		if !slices.Equal(named, audit1128Tests[id]) {
			t.Errorf("case %d: the classification names %v, audit1128Tests %v", id, named, audit1128Tests[id])
		}
	}
}

// readJSONL reads a file of one JSON object a line.
func readJSONL(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s:%d: %v", path, len(out)+1, err)
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func caseID(t *testing.T, c map[string]any) int {
	t.Helper()
	id, ok := c["id"].(float64)
	if !ok || id != float64(int(id)) {
		t.Fatalf("a case without a whole id: %v", c)
	}
	return int(id)
}

// moduleTests are the test functions of the module's test files, parsed:
// this package's by their name, every other's as folder.Name (the
// folder's last element: app, worker, e2e, pdn) and path.Name
// (wasm/worker.Name).
func moduleTests(t *testing.T) map[string]bool {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no module at %s: %v", root, err)
	}
	here, _ := os.Getwd()
	fset := token.NewFileSet()
	out := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" || d.Name() == "dist") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.Dir(p)
		rel, _ := filepath.Rel(root, dir)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") {
				continue
			}
			if dir == here {
				out[fn.Name.Name] = true
				continue
			}
			out[filepath.Base(dir)+"."+fn.Name.Name] = true
			out[filepath.ToSlash(rel)+"."+fn.Name.Name] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 300 {
		t.Fatalf("found only %d test functions under %s", len(out), root)
	}
	return out
}
