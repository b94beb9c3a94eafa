package reproduce

import (
	"fmt"
	"math"
	"strings"

	"linkage/dae"
	"linkage/integrate"
	"linkage/law"
	"linkage/planar"
)

// Yen1998Flex re-runs the flexible slider-crank of seed 003 (Yen, Petzold, Raha 1998),
// section 4.3: a rigid crank drives a flexible rod, k = 4 finite elements of a linearized
// Euler–Bernoulli beam in a floating frame (planar.Beam), pushing a slider; torque 0.2 N·m
// on the crank for 0 ≤ t < 0.3 s, from rest with every position zero but x₃ = 0.45 m,
// 1 s, Newton tolerance 1e-9, in fixed steps:
//
//   - Fig. 7: the rod's nodal coordinates at h = 1/2000 (ρ = Yen1998FlexRhoFine);
//   - Fig. 8: the rod angle φ₂ by the two formulations of the method at h = 1/2000;
//   - Fig. 9: the mid-span deflection at h = 1/500 for ρ = 0.5 and 0;
//   - Fig. 10: the total energy at h = 1/500 for ρ = 0, 0.5, 0.75;
//   - Fig. 11: the total energy at ρ = Yen1998FlexRhoSteps for h = 1/300, 1/500, 1/750;
//   - Fig. 12 and Table 2: the two formulations' energy at h = 1/500, ρ = 0.75, and their
//     largest steps without a Newton failure at Newton tolerances 1e-5, 1e-7, 1e-9.
//
// The paper integrates with the DAE α-method, its index-2 form (eq. 3.3) and the CM
// iteration on the coordinate-split form (eq. 3.6). Yen1998FlexOptions.Method chooses the
// integrator and its two formulations; the default is the generalized-α method of seed 002
// with ρ∞ = ρ (the parameters of seed 003, eq. 4.1) in its index-3 and stabilized index-2
// forms, a stand-in for the DAE α-method until it is wired in: its Table 2 is not the
// paper's comparison.
//
// The model's data, which the paper leaves to its reference [22] (Simeon 1996), are those
// of the IVP test set's crank (problems.Crank, examples/flexible-slider-crank.yaml): crank
// 0.36 kg, 0.15 m, 0.002727 kg m² about its pivot, its centre at mid-length; rod steel,
// E = 2e11 Pa, 7870 kg/m³, 8 mm × 8 mm, 0.3 m; slider 0.075552 kg; no gravity. Choices:
// the rod has lateral displacements only, as the paper's constraint says ("setting the
// longitudinal displacement to zero"), in the tangent frame at the crank pin, so the end
// deflection (the paper's q_{2k+1}) enters the wrist pin's constraint; "Newton tolerance"
// is an absolute bound RTol = ATol = tol with NewtonSettings.Tol = 1, as in Yen1998 of
// the bushing; the ρ of Figs. 7-8 and 11, which the paper does not give, are
// Yen1998FlexRhoFine and Yen1998FlexRhoSteps.
type Yen1998FlexResult struct {
	Method                 string    // label of the integrator
	Forms                  [2]string // labels of its two formulations (the paper's CM and index 2)
	MaxFrequency           float64   // largest natural frequency of the rod in its frame [rad/s]
	Nodal                  Yen1998FlexRun
	Phi2                   [2]Yen1998FlexRun // Fig. 8: each formulation at h = 1/2000
	Midspan                []Yen1998FlexRun  // Fig. 9: ρ = 0.5, 0
	EnergyRho, EnergySteps []Yen1998FlexRun  // Figs. 10 and 11
	Compare                [2]Yen1998FlexRun // Fig. 12
	Table2                 []Yen1998FlexRow
}

// Parameters of the reproduction (see Yen1998FlexResult).
const (
	Yen1998FlexElements  = 4
	Yen1998FlexTorque    = 0.2 // N·m, for 0 ≤ t < Yen1998FlexTorqueOff
	Yen1998FlexTorqueOff = 0.3
	Yen1998FlexTEnd      = 1.0
	Yen1998FlexTol       = 1e-9
	Yen1998FlexRhoFine   = 0.75 // Figs. 7-8
	Yen1998FlexRhoSteps  = 0.75 // Fig. 11
	Yen1998FlexRhoTable  = 0.75 // Table 2, Fig. 12
)

// Yen1998FlexStepGrid are the N of the steps 1/N Table 2 searches, from the largest step
// (read only).
var Yen1998FlexStepGrid = []int{10, 15, 20, 25, 30, 40, 50, 75, 100, 125, 150, 175, 200, 250, 300, 350, 400, 450, 500, 600, 700, 800, 1000, 1200, 1600, 2000}

// Yen1998FlexPaper is Table 2 of the paper: Newton tolerance, largest N of h = 1/N by CM and
// by the index-2 form.
var Yen1998FlexPaper = [][3]float64{{1e-5, 100, 175}, {1e-7, 250, 500}, {1e-9, 400, 800}}

// Yen1998FlexMethod makes the integrator of the runs: New returns a Method for spectral
// radius ρ and formulation form at Newton tolerance tol (the caller sets RTol = ATol = tol
// in the StepControl); Forms are the two formulations compared (the paper's CM first, then
// its index-2 form).
type Yen1998FlexMethod struct {
	Name  string
	Forms [2]integrate.Formulation
	New   func(rho float64, form integrate.Formulation) integrate.Method
}

// Yen1998FlexDAEAlpha is the default Yen1998FlexMethod, the paper's comparison: the DAE
// α-method (integrate.DAEAlpha) with ρ, the coordinate-split form by the CM iteration
// (eq. 3.6) against the index-2 form (eq. 3.3), Jacobian at every iteration and the
// corrector's stop on RTol = ATol = the Newton tolerance (as Yen1998's bushing).
func Yen1998FlexDAEAlpha() Yen1998FlexMethod {
	return Yen1998FlexMethod{
		Name:  "daealpha",
		Forms: [2]integrate.Formulation{integrate.CoordinateSplit, integrate.Index2},
		New: func(rho float64, form integrate.Formulation) integrate.Method {
			return &integrate.DAEAlpha{RhoInf: rho, Formulation: form,
				Newton: integrate.NewtonSettings{Tol: 1, Jacobian: integrate.JacobianEveryIteration}}
		},
	}
}

// Yen1998FlexGenAlpha is a Yen1998FlexMethod for comparison: GenAlpha with ρ∞ = ρ, index 3 and
// stabilized index 2, Jacobian at every iteration (a Newton failure is then the method's,
// not a stale matrix's).
func Yen1998FlexGenAlpha() Yen1998FlexMethod {
	return Yen1998FlexMethod{
		Name:  "genalpha",
		Forms: [2]integrate.Formulation{integrate.Index3, integrate.StabilizedIndex2},
		New: func(rho float64, form integrate.Formulation) integrate.Method {
			p, err := integrate.GenAlphaFromRhoInf(rho)
			if err != nil {
				panic(err) // ρ comes from this file's constants
			}
			return &integrate.GenAlpha{Params: p, Formulation: form,
				Newton: integrate.NewtonSettings{Tol: 1, Jacobian: integrate.JacobianEveryIteration}}
		},
	}
}

// Yen1998FlexOptions configure Yen1998Flex; the zero value runs the default method.
type Yen1998FlexOptions struct {
	Method *Yen1998FlexMethod // nil: Yen1998FlexDAEAlpha
	// Short leaves out the runs at h = 1/2000 (Figs. 7-8) and Table 2 (for tests).
	Short bool
}

// Yen1998FlexRun is one fixed-step run sampled at every step.
type Yen1998FlexRun struct {
	Rho, H         float64
	Form           string
	T              []float64
	Phi2           []float64   // rod angle
	Nodes          [][]float64 // Nodes[i]: lateral deflection w of node i+1 (i = 0..k−1)
	Energy         []float64   // T + V (V = the rod's strain energy; no gravity)
	Strain         []float64   // the rod's strain energy ½ eᵀ K e
	NewtonFailures int         // attempts retried after a Newton failure
	Err            string      // the failure, if the run stopped early
	Stats          integrate.Stats
}

// Yen1998FlexRow is one row of Table 2: the largest N (h = 1/N) of each formulation
// without a Newton failure, the paper's beside, and what stopped each search.
type Yen1998FlexRow struct {
	Tol          float64
	N, Paper     [2]int
	FirstFailure [2]string
}

// yen1998Flex is the mechanism with its consistent start and the columns read.
type yen1998Flex struct {
	sys   *planar.System
	start integrate.State
	rod   planar.BodyID
	phi2  int   // column of the rod's θ
	nodes []int // columns of w₁..w_k
}

// yen1998Step is the crank torque: Yen1998FlexTorque before Yen1998FlexTorqueOff, 0 after.
type yen1998Step struct{}

func (yen1998Step) Eval(t float64) (f, df, ddf float64) {
	if t < Yen1998FlexTorqueOff {
		return Yen1998FlexTorque, 0, 0
	}
	return 0, 0, 0
}

var _ law.Func = yen1998Step{}

// yen1998FlexRod is the rod's beam (Simeon's data, lateral only, tangent frame).
func yen1998FlexRod() planar.Beam {
	const b, h = 0.008, 0.008
	return planar.Beam{Length: 0.3, Elements: Yen1998FlexElements, E: 2e11, A: b * h, I: b * h * h * h / 12, Density: 7870, NoAxial: true}
}

func newYen1998Flex() (*yen1998Flex, error) {
	m := planar.NewModel()
	crank := m.AddBody(planar.Body{Name: "crank", Mass: 0.36, Inertia: 0.002727 - 0.36*0.075*0.075, Pos: planar.Vec{0.075, 0}})
	rod := m.AddFlexibleBody(planar.Body{Name: "rod", Pos: planar.Vec{0.15, 0}}, yen1998FlexRod())
	slider := m.AddBody(planar.Body{Name: "slider", Mass: 0.075552, Inertia: 1e-4, Pos: planar.Vec{0.45, 0}})
	mk := func(b planar.BodyID, x float64) planar.MarkerID {
		return m.AddMarker(planar.Marker{Body: b, Point: planar.Vec{x, 0}})
	}
	m.AddRevolute("main", mk(planar.Ground, 0), mk(crank, -0.075))
	m.AddRevolute("crankpin", mk(crank, 0.075), mk(rod, 0))
	wrist := mk(slider, 0)
	m.AddRevolute("wristpin", mk(rod, 0.3), wrist)
	m.AddTranslational("slide", mk(planar.Ground, 0), wrist)
	m.AddTorque("motor", crank, yen1998Step{})
	sys, err := m.Assemble()
	if err != nil {
		return nil, err
	}
	nq, nc := sys.Size()
	q0, v0 := sys.InitialGuess()
	c, err := dae.Initialize(sys, 0, q0, v0, &dae.InitOptions{Keep: seqInts(nq)})
	if err != nil {
		return nil, fmt.Errorf("reproduce: yen1998-flex: the dead-centre start is not consistent: %w", err)
	}
	f := &yen1998Flex{sys: sys, start: integrate.NewState(nq, nc), rod: rod}
	copy(f.start.Q, c.Q)
	copy(f.start.V, c.V)
	copy(f.start.A, c.A)
	copy(f.start.Lambda, c.Lambda)
	col := map[string]int{}
	for i := range nq {
		col[sys.CoordinateName(i)] = i
	}
	f.phi2 = col["rod.theta"]
	for i := 1; i <= Yen1998FlexElements; i++ {
		f.nodes = append(f.nodes, col[fmt.Sprintf("rod.w%d", i)])
	}
	return f, nil
}

func seqInts(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// run integrates with n steps of 1/n s at Newton tolerance tol.
func (f *yen1998Flex) run(meth *Yen1998FlexMethod, rho float64, form integrate.Formulation, n int, tol float64, record bool) Yen1998FlexRun {
	h := 1 / float64(n)
	r := Yen1998FlexRun{Rho: rho, H: h, Form: string(form), Nodes: make([][]float64, len(f.nodes))}
	m := meth.New(rho, form)
	sample := func(s *integrate.State) {
		if !record {
			return
		}
		e := f.sys.Energies(s.T, s.Q, s.V)
		r.T = append(r.T, s.T)
		r.Phi2 = append(r.Phi2, s.Q[f.phi2])
		r.Energy = append(r.Energy, e.Kinetic+e.Potential())
		r.Strain = append(r.Strain, e.Strain)
		for i, c := range f.nodes {
			r.Nodes[i] = append(r.Nodes[i], s.Q[c])
		}
	}
	err := m.Init(f.sys, f.start, integrate.StepControl{FixedH: h, RTol: tol, ATol: tol})
	if err == nil {
		sample(m.Current())
		err = runFixedSteps(m, Yen1998FlexTEnd, sample)
	}
	r.Stats = m.Stats()
	r.NewtonFailures = r.Stats.NewtonFailures
	if err != nil {
		r.Err = err.Error()
	}
	return r
}

// runFixedSteps steps the initialized m to tEnd, calling each after every accepted step.
func runFixedSteps(m integrate.Method, tEnd float64, each func(*integrate.State)) error {
	for m.Current().T < tEnd {
		if err := m.Step(tEnd); err != nil {
			return err
		}
		each(m.Current())
	}
	return nil
}

// maxStep returns the largest N of grid (increasing N, so decreasing steps 1/N) whose run
// and the runs of every smaller step of the grid had no Newton failure, searched from the
// smallest step up, and what stopped the search.
func (f *yen1998Flex) maxStep(meth *Yen1998FlexMethod, form integrate.Formulation, tol float64, grid []int) (int, string) {
	best := 0
	for i := len(grid) - 1; i >= 0; i-- {
		n := grid[i]
		r := f.run(meth, Yen1998FlexRhoTable, form, n, tol, false)
		if r.Err != "" || r.NewtonFailures > 0 {
			msg := fmt.Sprintf("at 1/%d: %d Newton failures", n, r.NewtonFailures)
			if r.Err != "" {
				msg += "; " + firstLine(r.Err)
			}
			return best, msg
		}
		best = n
	}
	return best, fmt.Sprintf("none down to 1/%d, the grid's largest step", grid[0])
}

// Yen1998Flex runs the experiment (see Yen1998FlexResult).
func Yen1998Flex(opt Yen1998FlexOptions) (*Yen1998FlexResult, error) {
	meth := opt.Method
	if meth == nil {
		d := Yen1998FlexDAEAlpha()
		meth = &d
	}
	f, err := newYen1998Flex()
	if err != nil {
		return nil, err
	}
	res := &Yen1998FlexResult{Method: meth.Name, Forms: [2]string{string(meth.Forms[0]), string(meth.Forms[1])}}
	freqs, err := f.sys.BeamFrequencies(f.rod)
	if err != nil {
		return nil, err
	}
	res.MaxFrequency = freqs[len(freqs)-1]
	cm, ix2 := meth.Forms[0], meth.Forms[1]
	if !opt.Short {
		res.Nodal = f.run(meth, Yen1998FlexRhoFine, cm, 2000, Yen1998FlexTol, true)
		res.Phi2 = [2]Yen1998FlexRun{res.Nodal, f.run(meth, Yen1998FlexRhoFine, ix2, 2000, Yen1998FlexTol, true)}
	}
	byRho := map[float64]Yen1998FlexRun{}
	for _, rho := range []float64{0, 0.5, 0.75} {
		byRho[rho] = f.run(meth, rho, cm, 500, Yen1998FlexTol, true)
		res.EnergyRho = append(res.EnergyRho, byRho[rho])
	}
	res.Midspan = []Yen1998FlexRun{byRho[0.5], byRho[0]}
	for _, n := range []int{300, 500, 750} {
		r := byRho[Yen1998FlexRhoSteps]
		if n != 500 {
			r = f.run(meth, Yen1998FlexRhoSteps, cm, n, Yen1998FlexTol, true)
		}
		res.EnergySteps = append(res.EnergySteps, r)
	}
	res.Compare = [2]Yen1998FlexRun{byRho[Yen1998FlexRhoTable], f.run(meth, Yen1998FlexRhoTable, ix2, 500, Yen1998FlexTol, true)}
	for _, runs := range [][]Yen1998FlexRun{res.EnergyRho, res.EnergySteps, res.Compare[:]} {
		for _, r := range runs {
			if r.Err != "" {
				return res, fmt.Errorf("reproduce: yen1998-flex: ρ = %g, h = %g, %s: %s", r.Rho, r.H, r.Form, r.Err)
			}
		}
	}
	if opt.Short {
		return res, nil
	}
	for _, p := range Yen1998FlexPaper {
		row := Yen1998FlexRow{Tol: p[0], Paper: [2]int{int(p[1]), int(p[2])}}
		for k, form := range meth.Forms {
			row.N[k], row.FirstFailure[k] = f.maxStep(meth, form, p[0], Yen1998FlexStepGrid)
		}
		res.Table2 = append(res.Table2, row)
	}
	return res, nil
}

// Table renders the model's highest frequency, the energy retained at t = 1 s by each run
// and Table 2 beside the paper's.
func (r *Yen1998FlexResult) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed 003 section 4.3: flexible slider-crank, k = %d elements, method %s (%s | %s)\n",
		Yen1998FlexElements, r.Method, r.Forms[0], r.Forms[1])
	fmt.Fprintf(&b, "highest natural frequency of the rod in its frame: %.4g rad/s (paper: |λ_max| ≈ 1.3e4; h = 1/2000 is %.2f of its period)\n",
		r.MaxFrequency, (1.0/2000)/(2*math.Pi/r.MaxFrequency))
	fmt.Fprintf(&b, "\nenergy T + V at t = 1 s (input 0.2 N·m over 0.3 s; E(0.3) is the energy when the torque stops)\n")
	fmt.Fprintf(&b, "%-8s %-6s %-10s %12s %12s %8s %14s %8s\n", "form", "ρ", "h", "E(0.3) [J]", "E(1) [J]", "E1/E0.3", "max U, 0.8-1 s", "Newton")
	seen := map[string]bool{}
	for _, runs := range [][]Yen1998FlexRun{r.Phi2[:], r.EnergyRho, r.EnergySteps, r.Compare[:]} {
		for _, run := range runs {
			key := fmt.Sprintf("%s %g %g", run.Form, run.Rho, run.H)
			if len(run.T) == 0 || seen[key] {
				continue
			}
			seen[key] = true
			e3, e1 := run.energyAt(Yen1998FlexTorqueOff), run.Energy[len(run.Energy)-1]
			fmt.Fprintf(&b, "%-8s %-6g 1/%-8.0f %12.6g %12.6g %8.4f %14.4g %8d\n", run.Form, run.Rho, 1/run.H, e3, e1, e1/e3,
				run.MaxStrain(0.8), run.Stats.NewtonIters)
		}
	}
	if len(r.Table2) > 0 {
		fmt.Fprintf(&b, "\nTable 2: largest step 1/N without a Newton failure, ρ = %g (paper: CM | index 2)\n", Yen1998FlexRhoTable)
		fmt.Fprintf(&b, "%-8s %12s %12s %8s   %12s %12s   %s\n", "tol", r.Forms[0], r.Forms[1], "h₁/h₂", "paper CM", "paper ix2", "first failures")
		for _, row := range r.Table2 {
			fmt.Fprintf(&b, "%-8.0e %12s %12s %8.2f   %12s %12s   %s | %s\n", row.Tol, stepLabel(row.N[0]), stepLabel(row.N[1]),
				ratioOf(row.N[1], row.N[0]), stepLabel(row.Paper[0]), stepLabel(row.Paper[1]), row.FirstFailure[0], row.FirstFailure[1])
		}
	}
	return b.String()
}

// MaxStrain returns the largest strain energy of the rod at or after t0: what is left of
// its vibration.
func (run *Yen1998FlexRun) MaxStrain(t0 float64) float64 {
	var m float64
	for i, t := range run.T {
		if t >= t0 {
			m = math.Max(m, run.Strain[i])
		}
	}
	return m
}

// energyAt returns the energy at the first sample at or after t.
func (run *Yen1998FlexRun) energyAt(t float64) float64 {
	for i, ti := range run.T {
		if ti >= t-1e-12 {
			return run.Energy[i]
		}
	}
	return math.NaN()
}

func stepLabel(n int) string {
	if n == 0 {
		return "none"
	}
	return fmt.Sprintf("1/%d", n)
}

// ratioOf returns the ratio of the steps 1/a over 1/b, a/b (NaN when a step is missing).
func ratioOf(a, b int) float64 {
	if a == 0 || b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}
