package experiment

import (
	"strconv"
	"strings"
)

// Tour is a guided walk through the paper's lessons: each step is a link
// (a lab and its state) with a few sentences and, where it fits, the
// element of the page to look at. A step is itself a link, its Link with
// "&tour=NAME&step=K" (see StepLink), so a teacher can send any step.
type Tour struct {
	Name, Title string
	Steps       []TourStep
}

// TourStep is one stop of a tour. Focus is the id of the element a step
// without a question points at (a control, a figure), "" for none.
// Question, if set, asks the reader to predict what the run will show
// before it does; such a step points at the figure that answers it, its
// claim's (Target), never at one set by hand.
type TourStep struct {
	Title, Text, Link, Focus string
	Question                 *Question
}

// Target is the id of the element the step points at: the figure of its
// question's claim, which shows the answer, or else its Focus.
func (s TourStep) Target() string {
	if s.Question != nil {
		if c, ok := ClaimNamed(s.Question.Claim); ok {
			return c.Figure
		}
	}
	return s.Focus
}

// Question is a step's multiple choice: the reader answers before pressing
// Play, and the run reveals the answer. Which choice is right is read from
// the run, never fixed: it is IfHolds where the claim called Claim holds
// in the step's run and IfNot where it does not. The answer stays in the
// page; nothing is sent anywhere.
type Question struct {
	Ask            string
	Choices        []string
	Claim          string
	IfHolds, IfNot int
}

// Right is the right choice for a run in which the question's claim holds
// or not.
func (q Question) Right(holds bool) int {
	if holds {
		return q.IfHolds
	}
	return q.IfNot
}

// NoTour is the tour row's value when no tour is under way.
const NoTour = "none"

// Tours are the explorer's guided tours.
var Tours = []Tour{
	{Name: "paper", Title: "The paper in six steps", Steps: []TourStep{
		{Title: "Watch the inter-class edges fade",
			Text: "Three classes, 500 nodes each; orange lines join nodes of different classes. Press Play (Space): PDN's pathfinder learns a weight for every edge. Watch the orange edges and the share of weight on them; the verdict above the graph checks what the paper found against this run.",
			Link: presetLink("default"),
			Question: &Question{Ask: "What will the pathfinder do to the orange inter-class edges?",
				Choices: []string{"Weigh them down", "Weigh them up", "Leave them about as heavy as the others"}, Claim: "inter-fades", IfHolds: 0, IfNot: 2}},
		withQuestion(presetStep("sigma-d-1", "",
			"Inter-class edges now carry the same features as intra-class ones, so no weight can tell them apart. Will PDN still beat GCN? Press Play; the verdict above the test accuracies gives this run's answer."),
			Question{Ask: "Will PDN beat GCN when σD = 1?", Choices: []string{"Yes, clearly", "No: they end about level"}, Claim: "sigma-d-1", IfHolds: 1, IfNot: 0}),
		withQuestion(presetStep("q-high", "",
			"Many inter-class edges (Q = 2⁻⁴): GCN averages over neighbours of other classes. The paper found PDN far ahead here. Press Play and compare the test accuracies: the verdict above them gives this run's answer, and the claims card says where it differs from the paper, and why."),
			Question{Ask: "With many inter-class edges, will PDN end far ahead of GCN, as in the paper?", Choices: []string{"Yes, far ahead", "No: within 0.1 of GCN"}, Claim: "q-high", IfHolds: 1, IfNot: 0}),
		withQuestion(presetStep("xor", "",
			"An edge is useful when exactly one of its two layers holds it. Can a pathfinder without a hidden layer learn that XOR? One with 2 hidden neurons? With 16? Press Play, then read each pathfinder's map of its weights: the verdict stands above them."),
			Question{Ask: "Will the pathfinder with 16 hidden neurons learn XOR?", Choices: []string{"Yes", "No"}, Claim: "xor-hidden", IfHolds: 0, IfNot: 1}),
		withQuestion(presetStep("degree", "",
			"GAT's softmax shares a node's attention among its neighbours; PDN's sigmoid weights are bound to no such sum. Press Play and see how each model's weights change with the degree."),
			Question{Ask: "As the receiving node's degree grows, what happens to GAT's mean edge weight?", Choices: []string{"It shrinks, as PDN's does not", "It stays about the same"}, Claim: "degree-gat", IfHolds: 0, IfNot: 1}),
		{Title: "What PDN attends to on Cora",
			Text: "On a real citation graph the edges carry eleven named tie-strength scores. The linear PDN's attention says which it uses (Figure 8), and the multi-scale PDN weighs the powers of Â (Figure 7). Press Play; the verdicts above each figure check both against the paper.",
			Link: presetLink("attention"),
			Question: &Question{Ask: "Which score will the linear PDN attend to least?", Choices: []string{"The degree product, which is not normalised", "Another of the eleven"},
				Claim: "fig8-degree-product", IfHolds: 0, IfNot: 1}},
	}},
	{Name: "graph", Title: "Reading the learned graph", Steps: []TourStep{
		{Title: "Train, and watch the weights",
			Text: "Press Play (Space). Each line is an edge, drawn as dark as the weight the pathfinder gives it. Watch the orange inter-class edges between the class regions.",
			Link: "lab=graph", Focus: "graph"},
		{Title: "Hide the light edges",
			Text: "The threshold hides every edge lighter than 0.5. Train, and look at which kind of edge stays.",
			Link: "lab=graph&threshold=0.5", Focus: "threshold"},
		{Title: "Let the weights place the nodes",
			Text: "A force layout pulled by the learned weights: an edge the pathfinder weighs down pulls less. Train, and watch whether the classes drift apart.",
			Link: "lab=graph&layout=learned", Focus: "graph"},
		{Title: "Read the numbers",
			Text: "The histogram splits the weights by edge kind, and a curve follows the inter-class share over the epochs. Rewind (the slider under the toolbar) shows any epoch trained so far.",
			Link: "lab=graph", Focus: "histogram"},
	}},
}

// presetLink is the link of the preset called name: the paper's tour
// walks through the presets.
func presetLink(name string) string { return presetNamed(name).Link }

// presetStep is a step that opens a preset under the preset's own title.
func presetStep(name, focus, text string) TourStep {
	p := presetNamed(name)
	return TourStep{Title: p.Title, Text: text, Link: p.Link, Focus: focus}
}

// withQuestion is step s asking q.
func withQuestion(s TourStep, q Question) TourStep {
	s.Question = &q
	return s
}

// maxTourSteps is the length of the longest tour: the step row's bound.
func maxTourSteps() int {
	m := 1
	for _, t := range Tours {
		m = max(m, len(t.Steps))
	}
	return m
}

// tourNames are the tour row's choices: no tour, then each tour.
func tourNames() []string {
	names := []string{NoTour}
	for _, t := range Tours {
		names = append(names, t.Name)
	}
	return names
}

// TourNamed returns the tour called name.
func TourNamed(name string) (Tour, bool) {
	return rowNamed(Tours, func(t Tour) string { return t.Name }, name)
}

// StepLink is the link of step k (1-based) of the tour: the step's state,
// with the tour and step rows that keep the tour going.
func (t Tour) StepLink(k int) string {
	return t.stepState(k) + "&tour=" + t.Name + "&step=" + strconv.Itoa(k)
}

// stepState is the state step k opens: its link, trained at TourSpeed
// (a step's link that sets a speed keeps its own).
func (t Tour) stepState(k int) string {
	link := t.Steps[k-1].Link
	if !strings.Contains("&"+link, "&speed=") {
		link += "&speed=" + strconv.Itoa(TourSpeed)
	}
	return link
}
