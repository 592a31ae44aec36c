package rank

import (
	"reflect"
	"testing"
)

// TestSameResultIsDeepEqual: sameResult answers as reflect.DeepEqual for
// Results that differ in each field, in nil against empty slices, and for
// equal ones.
func TestSameResultIsDeepEqual(t *testing.T) {
	t.Parallel()
	base := func() Result {
		return Result{Query: "srv", Paths: 9, Total: 2, Matches: []Match{{Index: 1, Score: 50, Positions: []int{0, 2}}, {Index: 4, Score: 30, Positions: []int{1, 3}}}}
	}
	variants := map[string]func(*Result){
		"equal":           func(*Result) {},
		"query":           func(r *Result) { r.Query = "sr" },
		"paths":           func(r *Result) { r.Paths++ },
		"total":           func(r *Result) { r.Total++ },
		"fewer matches":   func(r *Result) { r.Matches = r.Matches[:1] },
		"no matches, nil": func(r *Result) { r.Matches = nil },
		"no matches":      func(r *Result) { r.Matches = []Match{} },
		"index":           func(r *Result) { r.Matches[1].Index = 5 },
		"score":           func(r *Result) { r.Matches[0].Score = 49 },
		"position":        func(r *Result) { r.Matches[1].Positions[1] = 4 },
		"positions, nil":  func(r *Result) { r.Matches[0].Positions = nil },
		"positions empty": func(r *Result) { r.Matches[0].Positions = []int{} },
		"order":           func(r *Result) { r.Matches[0], r.Matches[1] = r.Matches[1], r.Matches[0] },
	}
	for name, a := range variants {
		for other, b := range variants {
			x, y := base(), base()
			a(&x)
			b(&y)
			if got, want := sameResult(x, y), reflect.DeepEqual(x, y); got != want {
				t.Errorf("%s against %s: sameResult %v, DeepEqual %v", name, other, got, want)
			}
		}
	}
}
