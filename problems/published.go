package problems

import (
	"embed"
	"encoding/json"
	"fmt"
	"math"
)

// data holds the team's descriptions of the IVP test-set problems, copied unchanged from
// shared/problems: the published solver runs are read from them.
//
//go:embed data/*.json
var data embed.FS

// PublishedRun is one published run of a solver on a test-set problem, as the test-set
// report tabulates it (TESTSET2003): tolerances, accuracy and work.
type PublishedRun struct {
	Solver     string
	RTol, ATol float64
	H0         float64 // initial step; NaN where the table gives "-"
	MESCD, SCD float64 // mixed-error and relative significant correct digits (see Definitions)
	Steps      int     // attempted steps
	Accepted   int
	FEvals     int
	Jacobians  int
	LU         int // LU decompositions
	CPU        float64
}

// PublishedRuns is a test-set table of published runs with its provenance. Definitions
// and Note say how its scd was measured, which may differ from Reference.SCD (other
// components or another reference).
type PublishedRuns struct {
	Table, Machine, Definitions, Note string
	Rows                              []PublishedRun
}

// Published returns the published runs of the test-set problem name ("andrews", "crank"),
// or false when the test set publishes none for it.
func Published(name string) (PublishedRuns, bool) {
	raw, err := data.ReadFile("data/" + name + ".json")
	if err != nil {
		return PublishedRuns{}, false
	}
	var doc struct {
		P *struct {
			Table, Machine, Definitions, Note string
			Rows                              []struct {
				Solver                 string
				RTol, ATol, MESCD, SCD float64
				H0                     any
				Steps, Accept, NF      int
				NJac, NLU              int
				CPU                    float64 `json:"cpu_s"`
			}
		} `json:"published_run_characteristics"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		panic(fmt.Sprintf("problems: embedded data/%s.json: %v", name, err)) // fixed at build time; TestPublished reads it
	}
	if doc.P == nil {
		return PublishedRuns{}, false
	}
	out := PublishedRuns{Table: doc.P.Table, Machine: doc.P.Machine, Definitions: doc.P.Definitions, Note: doc.P.Note}
	for _, r := range doc.P.Rows {
		h0, ok := r.H0.(float64)
		if !ok {
			h0 = math.NaN()
		}
		out.Rows = append(out.Rows, PublishedRun{Solver: r.Solver, RTol: r.RTol, ATol: r.ATol, H0: h0, MESCD: r.MESCD,
			SCD: r.SCD, Steps: r.Steps, Accepted: r.Accept, FEvals: r.NF, Jacobians: r.NJac, LU: r.NLU, CPU: r.CPU})
	}
	return out, true
}
