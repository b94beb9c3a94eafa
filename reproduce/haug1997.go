package reproduce

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"linkage/integrate"
	"linkage/problems"
)

// Haug1997Options configure Haug1997; the zero value takes the defaults.
type Haug1997Options struct {
	// Method names for IMPL, FV, EXPL and the reference
	// [gcp-newmark, gcp-fv, gcp-abm, rk4].
	Impl, FV, Expl, Ref string
	// Bisections is the number of bisection steps after the halving scan that brackets
	// h_max; the bracket [lo, hi] then has hi/lo − 1 ≤ 2^−Bisections [7].
	Bisections int
	// Models restricts the run to these model names (haug-pendulum, haug-crank,
	// haug-andrews); nil runs all three.
	Models []string
}

// Default method names of Haug1997Options.
const (
	DefaultHaugImpl = "gcp-newmark"
	DefaultHaugFV   = "gcp-fv"
	DefaultHaugExpl = "gcp-abm"
	DefaultHaugRef  = "rk4"
)

// defaultHaugBisections: 7 bisections give h_max to within 1% after the halving scan,
// finer than the two or three digits the paper prints.
const defaultHaugBisections = 7

// divergeFactor: a run counts as diverged once |p_i − p_ref(t_i)| exceeds this multiple of
// max(1, max |p_ref|) over the run. Unstable constant-step runs grow geometrically, so the
// threshold only decides how early a diverging run is stopped; a stable one (the
// trapezoidal rule keeps the amplitude of every oscillation) never comes near it.
const divergeFactor = 10

// errDiverged stops a run whose error passed divergeFactor.
var errDiverged = errors.New("diverged: error above 10·max(1, max|p_ref|)")

// Roles of the methods in the tables.
const (
	RoleImpl = "IMPL"
	RoleFV   = "FV"
	RoleExpl = "EXPL"
)

// HaugRun is one constant-step run of a model.
type HaugRun struct {
	Role, Method string
	H            float64
	Steps        int     // nstep
	Sup, TSup    float64 // Sup-Norm and the time t_k where it occurred
	Norm2        float64 // 2-Norm
	RelErr       float64 // Rel-Err in percent (NaN when p_ref(t_k) = 0)
	CPU          time.Duration
	NewtonIters  int    // Stats.NewtonIters of the run
	Fail         string // why the run did not reach nstep·h ("" when it did)
}

// NewtonPerStep returns the mean Newton iterations per accepted step.
func (r HaugRun) NewtonPerStep() float64 {
	return float64(r.NewtonIters) / math.Max(1, float64(r.Steps))
}

// HaugMax is the largest step that still converges for one method on one model.
type HaugMax struct {
	Role, Method string
	H            float64 // largest h found stable (0 when none was)
	Capped       bool    // the top of the search passed (T; T/10 for EXPL): the limit lies beyond it
	Probes       int     // fixed-step runs spent on the search
	Paper        float64 // the paper's value (NaN when it gives none)
}

// HaugModel holds the experiments on one model.
type HaugModel struct {
	Name, Title, Source string
	Var                 string  // the variable p of the error norms
	TEnd                float64 // T
	HRef                float64 // the reference's step
	RefErr              float64 // max |p_ref,h − p_ref,2h| / 15 over the grid of 2h: the reference's error estimate
	Runs                []HaugRun
	Max                 []HaugMax // IMPL, FV, EXPL
	// FigH is the step of the paper's iteration figure (Figs. 9-11); FigT[i] and the
	// iterations of step i of IMPL and FV at that step.
	FigH                 float64
	FigT                 []float64
	FigImpl, FigFV       []float64
	FigImplErr, FigFVErr string // the failure of the figure runs, if any
}

// Haug1997Result holds the three models.
type Haug1997Result struct {
	Impl, FV, Expl, Ref string
	Models              []HaugModel
}

// haugSpec is the per-model setup: the variable p, the reference step, the paper's numbers
// and the steps of the error table.
type haugSpec struct {
	build                        func() (problems.Problem, error)
	variable                     string
	hRef                         float64
	figH                         float64
	paperImpl, paperFV, paperExp float64
	hs                           []float64
}

// haugSpecs: the reference steps put h·|λ_max| of RK4 near 0.02-0.1 (fastest
// eigenvalues of the linearized state-space ODE along the run: 3.9e3 rad/s for the
// pendulum, 1.1e2 for the crank, 8.9e4 (real) for Andrews at t = 0.035), well inside RK4's
// stability interval and its asymptotic range; the error table uses the figure's step and
// two refinements by 4.
func haugSpecs() map[string]haugSpec {
	return map[string]haugSpec{
		"haug-pendulum": {
			build:    func() (problems.Problem, error) { return problems.HaugPendulum(problems.DefaultHaugPendulum()) },
			variable: "bar2.theta", hRef: 5e-6, figH: 0.0089,
			paperImpl: 0.015, paperFV: 0.0089, paperExp: 0.00012, // Table 5; section 4.1 gives 0.02 for IMPL
			hs: []float64{0.0089, 0.0089 / 4, 0.0089 / 16, 0.0089 / 64},
		},
		"haug-crank": {
			build:    func() (problems.Problem, error) { return problems.HaugCrank(problems.DefaultHaugCrank()) },
			variable: "crank.theta", hRef: 2e-5, figH: 0.0086,
			paperImpl: 0.0649, paperFV: 0.0086, paperExp: math.NaN(),
			hs: []float64{0.0086, 0.0086 / 4, 0.0086 / 16},
		},
		"haug-andrews": {
			build:    func() (problems.Problem, error) { return problems.HaugAndrews(problems.DefaultHaugAndrews()) },
			variable: "body1.theta", hRef: 5e-6, figH: 0.0001,
			paperImpl: 0.0018, paperFV: 0.0001, paperExp: math.NaN(),
			hs: []float64{0.0001, 0.0001 / 4},
		},
	}
}

// haugOrder is the paper's order of the models.
var haugOrder = []string{"haug-pendulum", "haug-crank", "haug-andrews"}

// Haug1997 re-runs the experiments of seed 000 (Haug, Negrut, Iancu 1997, section 4) on
// the three models of problems.Haug1997 (stiff double pendulum, slider-crank with a TSDA,
// Andrews' mechanism with k = 30000, c = 100000), all with constant steps:
//
//   - the errors of section 4.1 in one variable p of each model against a reference: with
//     nstep steps of size h, (nstep − 1)h < T ≤ nstep·h, and e_i = |p_ref(t_i) − p_i| at
//     t_i = i·h,
//
//     2-Norm = √(Σ_{i=1..nstep} e_i²),   Sup-Norm = max_i e_i (at t_k),
//     Rel-Err = 100·Sup-Norm / |p_ref(t_k)|,
//
//     and the CPU (wall) time of the run, for the implicit GCP method (IMPL), the
//     Fisette-Vaneghem quasi-Newton variant (FV) and the explicit ABM method (EXPL);
//
//   - the largest step that still converges for each of the three (section 4.1's
//     h_max = 0.02 for IMPL and 1.2e-4 for ABM, Table 5's IMPL vs FV), by bisection on h
//     with fixed-step runs (see StableRun for the criterion);
//
//   - the Newton iterations per step of IMPL and FV at the step of Figs. 9-11.
//
// The reference is a constant-step run of a fourth-order method (RK4, as in the paper) with
// a very small step, sampled at every step and interpolated by cubic Hermite polynomials in
// (p, p'); its own error is estimated by a second run at twice the step.
//
// nil opt takes the defaults. An unknown method or model name is an error; failed runs are
// part of the result.
func Haug1997(opt *Haug1997Options) (*Haug1997Result, error) {
	o, entries, err := haugResolve(opt)
	if err != nil {
		return nil, err
	}
	specs := haugSpecs()
	models := o.Models
	if models == nil {
		models = haugOrder
	}
	res := &Haug1997Result{Impl: o.Impl, FV: o.FV, Expl: o.Expl, Ref: o.Ref}
	for _, name := range models {
		sp, ok := specs[name]
		if !ok {
			return nil, fmt.Errorf("reproduce: haug1997: unknown model %q; valid: %s", name, strings.Join(haugOrder, ", "))
		}
		m, err := runHaugModel(sp, o, entries)
		if err != nil {
			return nil, err
		}
		res.Models = append(res.Models, *m)
	}
	return res, nil
}

// haugResolve fills the defaults of opt (nil: all defaults) and looks the methods up.
func haugResolve(opt *Haug1997Options) (Haug1997Options, map[string]integrate.Entry, error) {
	var o Haug1997Options
	if opt != nil {
		o = *opt
	}
	if o.Impl == "" {
		o.Impl = DefaultHaugImpl
	}
	if o.FV == "" {
		o.FV = DefaultHaugFV
	}
	if o.Expl == "" {
		o.Expl = DefaultHaugExpl
	}
	if o.Ref == "" {
		o.Ref = DefaultHaugRef
	}
	if o.Bisections < 0 {
		return o, nil, fmt.Errorf("reproduce: haug1997: Bisections = %d, want >= 0", o.Bisections)
	}
	if o.Bisections == 0 {
		o.Bisections = defaultHaugBisections
	}
	entries := map[string]integrate.Entry{}
	for _, n := range []string{o.Impl, o.FV, o.Expl, o.Ref} {
		e, err := integrate.Lookup(n)
		if err != nil {
			return o, nil, fmt.Errorf("reproduce: haug1997: %w", err)
		}
		entries[n] = e
	}
	return o, entries, nil
}

// haugRef is the reference solution of p: its samples at t_j = j·h and their rates.
type haugRef struct {
	h       float64
	p, rate []float64
	maxAbs  float64
}

// at returns p_ref(t) by the cubic Hermite interpolant of (p, p') on the step holding t.
func (r *haugRef) at(t float64) float64 {
	j := int(t / r.h)
	j = max(0, min(j, len(r.p)-2))
	s := (t - float64(j)*r.h) / r.h
	h00 := (1 + 2*s) * (1 - s) * (1 - s)
	h10 := s * (1 - s) * (1 - s)
	h01 := s * s * (3 - 2*s)
	h11 := s * s * (s - 1)
	return h00*r.p[j] + h10*r.h*r.rate[j] + h01*r.p[j+1] + h11*r.h*r.rate[j+1]
}

// refRun integrates p with the reference method at step h up to tEnd.
func refRun(e integrate.Entry, p problems.Problem, idx int, h, tEnd float64) (*haugRef, error) {
	n := int(math.Ceil(tEnd/h - 1e-9))
	r := &haugRef{h: h, p: make([]float64, 0, n+1), rate: make([]float64, 0, n+1)}
	r.p = append(r.p, p.Start.Q[idx])
	r.rate = append(r.rate, p.Start.V[idx])
	m := e.New()
	_, err := integrate.Solve(m, e.Name, p.System, p.Start.Clone(), float64(n)*h, integrate.SolveOptions{
		Control: integrate.StepControl{FixedH: h},
		Output:  []float64{p.Start.T},
		Observer: func(s *integrate.State) error {
			r.p = append(r.p, s.Q[idx])
			r.rate = append(r.rate, s.V[idx])
			return nil
		},
	})
	if err != nil {
		return nil, fmt.Errorf("reproduce: haug1997: %s reference (%s, h = %g): %w", p.Name, e.Name, h, err)
	}
	for _, x := range r.p {
		r.maxAbs = math.Max(r.maxAbs, math.Abs(x))
	}
	return r, nil
}

func runHaugModel(sp haugSpec, o Haug1997Options, entries map[string]integrate.Entry) (*HaugModel, error) {
	p, err := sp.build()
	if err != nil {
		return nil, fmt.Errorf("reproduce: haug1997: %w", err)
	}
	idx := coordinateIndex(p.System, sp.variable)
	if idx < 0 {
		return nil, fmt.Errorf("reproduce: haug1997: %s has no coordinate %q", p.Name, sp.variable)
	}
	// The runs go up to nstep·h < T + h ≤ 2T, so the reference covers [0, 2T].
	ref, err := refRun(entries[o.Ref], p, idx, sp.hRef, 2*p.TEnd)
	if err != nil {
		return nil, err
	}
	coarse, err := refRun(entries[o.Ref], p, idx, 2*sp.hRef, 2*p.TEnd)
	if err != nil {
		return nil, err
	}
	var refErr float64
	for j := range coarse.p {
		refErr = math.Max(refErr, math.Abs(coarse.p[j]-ref.p[2*j]))
	}
	hm := &HaugModel{Name: p.Name, Title: p.Title, Source: p.Source, Var: sp.variable, TEnd: p.TEnd,
		HRef: sp.hRef, RefErr: refErr / 15, FigH: sp.figH} // RK4: e(2h) − e(h) ≈ 15 e(h)
	roles := []struct{ role, name string }{{RoleImpl, o.Impl}, {RoleFV, o.FV}, {RoleExpl, o.Expl}}
	paper := map[string]float64{RoleImpl: sp.paperImpl, RoleFV: sp.paperFV, RoleExpl: sp.paperExp}
	for _, r := range roles {
		top := p.TEnd
		if r.role == RoleExpl {
			top = p.TEnd / explMinSteps
		}
		mx := largestStep(entries[r.name], p, idx, ref, top, o.Bisections)
		mx.Role, mx.Paper = r.role, paper[r.role]
		hm.Max = append(hm.Max, mx)
	}
	for _, r := range roles {
		hs := append([]float64(nil), sp.hs...)
		for _, mx := range hm.Max {
			if mx.Role == r.role && mx.H > 0 {
				hs = append(hs, mx.H)
			}
		}
		sort.Sort(sort.Reverse(sort.Float64Slice(hs)))
		for _, h := range hs {
			run, _ := haugRun(entries[r.name], p, idx, ref, h, nil)
			run.Role = r.role
			hm.Runs = append(hm.Runs, run)
		}
	}
	var iters []float64
	run, _ := haugRun(entries[o.Impl], p, idx, ref, sp.figH, &iters)
	hm.FigImpl, hm.FigImplErr = iters, run.Fail
	iters = nil
	run, _ = haugRun(entries[o.FV], p, idx, ref, sp.figH, &iters)
	hm.FigFV, hm.FigFVErr = iters, run.Fail
	for i := range max(len(hm.FigImpl), len(hm.FigFV)) {
		hm.FigT = append(hm.FigT, float64(i+1)*sp.figH)
	}
	return hm, nil
}

// haugRun integrates p with e at the constant step h over nstep steps (section 4.1) and
// measures the error of coordinate idx against ref. When iters is not nil it receives the
// Newton iterations of every step. The returned bool is StableRun's verdict.
func haugRun(e integrate.Entry, p problems.Problem, idx int, ref *haugRef, h float64, iters *[]float64) (HaugRun, bool) {
	nstep := int(math.Ceil(p.TEnd/h - 1e-9))
	run := HaugRun{Method: e.Name, H: h}
	bound := divergeFactor * math.Max(1, ref.maxAbs)
	m := e.New()
	lastIters := 0
	var sum2 float64
	sol, err := integrate.Solve(m, e.Name, p.System, p.Start.Clone(), float64(nstep)*h, integrate.SolveOptions{
		Control: integrate.StepControl{FixedH: h},
		Output:  []float64{p.Start.T},
		Observer: func(s *integrate.State) error {
			run.Steps++
			ei := math.Abs(ref.at(s.T) - s.Q[idx])
			if math.IsNaN(ei) || ei > bound {
				return errDiverged
			}
			sum2 += ei * ei
			if ei > run.Sup || run.Steps == 1 {
				run.Sup, run.TSup = ei, s.T
			}
			if iters != nil {
				n := m.Stats().NewtonIters
				*iters = append(*iters, float64(n-lastIters))
				lastIters = n
			}
			return nil
		},
	})
	if sol != nil {
		run.CPU = sol.Wall
		run.NewtonIters = sol.Stats.NewtonIters
	}
	run.Norm2 = math.Sqrt(sum2)
	run.RelErr = math.NaN()
	if pk := math.Abs(ref.at(run.TSup)); pk > 0 {
		run.RelErr = 100 * run.Sup / pk
	}
	if err != nil {
		run.Fail = err.Error()
	}
	return run, StableRun(run, nstep)
}

// StableRun is the criterion of "the largest step that still converges": the run took all
// nstep steps (every Newton iteration converged, nothing became NaN or Inf) and its error
// stayed below divergeFactor·max(1, max|p_ref|), so that an explicit method's geometric
// blow-up counts as failure while an implicit method's inaccurate but bounded solution at
// a large step counts as converged: the paper measures robustness, not accuracy (section
// 4, first paragraph), and its IMPL h_max = 0.02 on a 0.1 s run cannot be accurate.
func StableRun(r HaugRun, nstep int) bool { return r.Fail == "" && r.Steps == nstep }

// explMinSteps: the explicit method's largest step is sought at or below T/10. Its
// instability shows as geometric growth over many steps, and ABM's first steps come from
// a one-step starter, so a run of one or two steps of any size "converges" (a single ABM
// step of h = T = 0.1 on the slider-crank ends 9.9 rad off and still counts as bounded).
// The implicit methods fail by a Newton iteration that does not converge, which one step
// shows, so their search starts at T, as the paper's IMPL h_max = 0.0649 on a 0.1 s run
// (two steps) implies.
const explMinSteps = 10

// largestStep brackets the largest stable h by halving from top, then bisects the
// bracket geometrically.
func largestStep(e integrate.Entry, p problems.Problem, idx int, ref *haugRef, top float64, bisections int) HaugMax {
	mx := HaugMax{Method: e.Name}
	try := func(h float64) bool {
		mx.Probes++
		_, ok := haugRun(e, p, idx, ref, h, nil)
		return ok
	}
	hi := top
	if try(hi) {
		mx.H, mx.Capped = hi, true
		return mx
	}
	lo := hi / 2
	for !try(lo) {
		hi = lo
		lo /= 2
		if lo < 1e-7*p.TEnd { // nothing converges at a sensible step
			return mx
		}
	}
	for range bisections {
		mid := math.Sqrt(lo * hi)
		if try(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	mx.H = lo
	return mx
}

// Table renders, per model, the error table of section 4.1, the largest steps beside the
// paper's (section 4.1 and Table 5) and the mean Newton iterations of Figs. 9-11.
func (r *Haug1997Result) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed 000 (Haug, Negrut, Iancu 1997), section 4: IMPL = %s, FV = %s, EXPL = %s, reference %s\n",
		r.Impl, r.FV, r.Expl, r.Ref)
	for _, m := range r.Models {
		fmt.Fprintf(&b, "\n%s: %s, T = %g s, error in %s\n  %s\n  reference: %s at h = %g, estimated error %.1e\n",
			m.Name, m.Title, m.TEnd, m.Var, m.Source, r.Ref, m.HRef, m.RefErr)
		fmt.Fprintf(&b, "  %-5s %-12s %10s %6s %10s %8s %10s %10s %9s %8s  %s\n",
			"role", "method", "h", "nstep", "sup-norm", "t(sup)", "2-norm", "rel-err %", "cpu", "newton/st", "")
		for _, run := range m.Runs {
			fail := ""
			if run.Fail != "" {
				fail = "FAILED: " + firstLine(run.Fail)
			}
			fmt.Fprintf(&b, "  %-5s %-12s %10.4g %6d %10.3e %8.4f %10.3e %10.3g %9s %8.2f  %s\n",
				run.Role, run.Method, run.H, run.Steps, run.Sup, run.TSup, run.Norm2, run.RelErr,
				run.CPU.Round(10*time.Microsecond), run.NewtonPerStep(), fail)
		}
		fmt.Fprintf(&b, "  largest step that still converges (bisection, fixed steps):\n")
		for _, mx := range m.Max {
			capped := ""
			if mx.Capped {
				capped = " (top of the search: T, or T/10 for EXPL)"
			}
			paper := "-"
			if !math.IsNaN(mx.Paper) {
				paper = fmt.Sprintf("%g", mx.Paper)
			}
			fmt.Fprintf(&b, "    %-5s %-12s h_max = %-10.4g paper %-8s probes %d%s\n", mx.Role, mx.Method, mx.H, paper, mx.Probes, capped)
		}
		fmt.Fprintf(&b, "  Newton iterations per step at h = %g (Figs. 9-11): IMPL mean %.2f max %.0f, FV mean %.2f max %.0f%s%s\n",
			m.FigH, mean(m.FigImpl), maxOf(m.FigImpl), mean(m.FigFV), maxOf(m.FigFV),
			failNote(" IMPL", m.FigImplErr), failNote(" FV", m.FigFVErr))
	}
	fmt.Fprintf(&b, "\nTable 5: largest step, IMPL vs FV (ours | paper)\n")
	fmt.Fprintf(&b, "  %-14s %10s %10s %10s | %8s %8s\n", "model", "IMPL", "FV", "EXPL", "IMPL", "FV")
	for _, m := range r.Models {
		fmt.Fprintf(&b, "  %-14s %10.4g %10.4g %10.4g | %8g %8g\n", m.Name, m.Max[0].H, m.Max[1].H, m.Max[2].H, m.Max[0].Paper, m.Max[1].Paper)
	}
	return b.String()
}

func firstLine(s string) string {
	if len(s) > 90 {
		return s[:90] + "…"
	}
	return s
}

func failNote(who, err string) string {
	if err == "" {
		return ""
	}
	return ";" + who + " failed: " + firstLine(err)
}

func mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func maxOf(x []float64) float64 {
	m := math.NaN()
	for i, v := range x {
		if i == 0 || v > m {
			m = v
		}
	}
	return m
}

// Get returns the model called name, or nil.
func (r *Haug1997Result) Get(name string) *HaugModel {
	for i := range r.Models {
		if r.Models[i].Name == name {
			return &r.Models[i]
		}
	}
	return nil
}

// MaxOf returns the HaugMax of role on the model.
func (m *HaugModel) MaxOf(role string) HaugMax {
	for _, mx := range m.Max {
		if mx.Role == role {
			return mx
		}
	}
	return HaugMax{Role: role}
}
