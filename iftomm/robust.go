package iftomm

import (
	"fmt"
	"math"
	"strings"
	"time"

	"linkage/modelfile"
)

// RobustTols are the tolerances of the robustness probe (Robust): issue 17 asks for A02's
// singular positions to be passed at 1e-6 and 1e-8; the grid between and beyond them
// shows whether a pass is a property of the method or of one tolerance's rounding.
var RobustTols = []float64{1e-6, 3e-7, 1e-7, 3e-8, 1e-8, 3e-9, 1e-9, 1e-10}

// RobustMethods are the methods the probe runs: the α-methods whose passages of A02's
// singular positions were found fragile (BENCHMARKS.md, IFToMM fourth pass).
var RobustMethods = []string{"genalpha", "hht"}

// PerturbAngle is the change of crank0's initial angle (rad) of the probe's perturbed
// start: about 60 ulps of π/2, far below any tolerance, so a run that passes from one
// start and stops from the other passed by rounding.
const PerturbAngle = 1e-13

// RobustStart is one start of the probe: the file's, or crank0's angle perturbed.
type RobustStart struct {
	Name    string
	Perturb func(*modelfile.Document)
}

// RobustStarts are the file's start and the start with crank0's initial angle raised by
// PerturbAngle (the kept coordinate, so dae.Initialize moves the rest consistently).
func RobustStarts() []RobustStart {
	return []RobustStart{
		{Name: "file"},
		{Name: fmt.Sprintf("+%g rad", PerturbAngle), Perturb: func(d *modelfile.Document) {
			st := d.Model.Initial.Bodies["crank0"]
			st.Angle += modelfile.Angle(PerturbAngle)
			d.Model.Initial.Bodies["crank0"] = st
		}},
	}
}

// RobustRun is one run of the probe: its start and the library's report.
type RobustRun struct {
	Start string
	Run
}

// RoundingStarts are n starts of A02 whose crank0 angle (the kept coordinate) is the
// file's times 1 + k·1e-15, k = 0 … n−1: k·7 ulps of π/2, rounding-level changes of the
// start (k = 0 is the file's). Over them a figure that holds by a margin holds every time;
// one that holds by rounding holds in some (`linkage reproduce iftomm-rounding`).
func RoundingStarts(n int) []RobustStart {
	starts := []RobustStart{{Name: "file"}}
	for k := 1; k < n; k++ {
		f := modelfile.Angle(1 + float64(k)*1e-15)
		starts = append(starts, RobustStart{Name: fmt.Sprintf("×(1+%de-15)", k), Perturb: func(d *modelfile.Document) {
			st := d.Model.Initial.Bodies["crank0"]
			st.Angle *= f
			d.Model.Initial.Bodies["crank0"] = st
		}})
	}
	return starts
}

// Robust runs A02 (N = 40) to tEnd with each method of methods at each tolerance of tols
// from each of starts (RobustStarts, RoundingStarts), and reports per run how far it got,
// its error at B0 against the library's reference and its work (`linkage reproduce
// iftomm --robust`).
func Robust(starts []RobustStart, methods []string, tols []float64, tEnd float64) ([]RobustRun, error) {
	var out []RobustRun
	for _, s := range starts {
		p := A02(40, tEnd)
		p.Perturb = s.Perturb
		var configs []Config
		for _, m := range methods {
			for _, tol := range tols {
				configs = append(configs, Config{Method: m, Tol: tol})
			}
		}
		runs, err := RunProblem(p, configs)
		if err != nil {
			return nil, err
		}
		for _, r := range runs {
			out = append(out, RobustRun{Start: s.Name, Run: r})
		}
	}
	return out, nil
}

// RobustTable formats the probe's runs, grouped by method and tolerance, with the
// failure of each run that stopped below the table (cut after its first clause that
// names the singular position, the joints shortened).
func RobustTable(runs []RobustRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-9s %-7s %-11s %-9s %-10s %-9s %7s %6s %6s %5s %5s %-8s  %s\n",
		"method", "tol", "start", "reached", "max error", "at t [s]", "steps", "rej", "newtf", "reg", "pass", "CPU", "result")
	var notes []string
	for _, r := range runs {
		result := "PASS"
		switch {
		case r.Err != nil:
			result = "STOP"
		case r.Branch != nil:
			result = "WRONG BRANCH"
		case !(r.MaxError <= Tolerance):
			result = "FAIL"
		}
		if r.Err != nil {
			notes = append(notes, fmt.Sprintf("%s tol %g, start %s: %s", r.Config.Method, r.Config.Tol, r.Start, shortError(r.Err)))
			result += fmt.Sprintf(" (note %d)", len(notes))
		}
		fmt.Fprintf(&b, "%-9s %-7g %-11s %-9.4g %-10.3g %-9.4g %7d %6d %6d %5d %5d %-8s  %s\n",
			r.Config.Method, r.Config.Tol, r.Start, r.Reached, r.MaxError, r.ErrorAt, r.Steps,
			r.Stats.Rejected, r.Stats.NewtonFailures, r.Stats.Regularized, r.Passages, r.CPU.Round(10*time.Millisecond), result)
	}
	for i, n := range notes {
		fmt.Fprintf(&b, "note %d: %s\n", i+1, n)
	}
	return b.String()
}

// shortError is err's message without the list of joints and the HMin explanation.
func shortError(err error) string {
	s := err.Error()
	if i := strings.Index(s, "; joints involved:"); i >= 0 {
		if j := strings.Index(s[i:], "; the step failed with:"); j >= 0 {
			s = s[:i] + s[i+j:]
		}
	}
	if i := strings.Index(s, " (HMin = "); i >= 0 {
		s = s[:i]
	}
	return s
}

// RobustCounts counts, per method and tolerance, the starts from which the probe's run
// reached the end on the physical branch and those within the library's tolerance, with
// the range of the errors of the runs that ended.
func RobustCounts(runs []RobustRun) string {
	type key struct {
		method string
		tol    float64
	}
	type count struct {
		n, ended, pass int
		lo, hi         float64
	}
	var order []key
	counts := map[key]*count{}
	for _, r := range runs {
		k := key{r.Config.Method, r.Config.Tol}
		c := counts[k]
		if c == nil {
			c = &count{lo: math.Inf(1)}
			counts[k] = c
			order = append(order, k)
		}
		c.n++
		if r.Err != nil || r.Branch != nil {
			continue
		}
		c.ended++
		c.lo, c.hi = math.Min(c.lo, r.MaxError), math.Max(c.hi, r.MaxError)
		if r.Pass() {
			c.pass++
		}
	}
	var b strings.Builder
	for _, k := range order {
		c := counts[k]
		fmt.Fprintf(&b, "%s tol %g: %d of %d starts reach the end on the physical branch, %d within %g m", k.method, k.tol, c.ended, c.n, c.pass, Tolerance)
		if c.ended > 0 {
			fmt.Fprintf(&b, " (errors %.2g … %.2g m)", c.lo, c.hi)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// RobustSummary counts, per method, the runs of the probe that reached the end, and
// those of them within the library's tolerance, out of all.
func RobustSummary(runs []RobustRun) string {
	var b strings.Builder
	for _, m := range RobustMethods {
		n, ended, pass := 0, 0, 0
		for _, r := range runs {
			if r.Config.Method != m {
				continue
			}
			n++
			if r.Err == nil && r.Branch == nil {
				ended++
			}
			if r.Pass() && r.Branch == nil {
				pass++
			}
		}
		fmt.Fprintf(&b, "%s: %d of %d runs reach the end on the physical branch, %d within %g m\n", m, ended, n, pass, Tolerance)
	}
	return b.String()
}
