package reproduce

import (
	"fmt"
	"math"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
)

// CardenalPendulum is the double pendulum of seed 001 (Fig. 1, Table 1) in natural
// coordinates: two uniform bars of mass m and length l, the first pinned at the origin, the
// second at the free end of the first; the basic points are P1 (the elbow) and P2 (the
// tip), q = (x1, y1, x2, y2). A uniform bar between points i and j has
// T = m/6 (|ṙᵢ|² + ṙᵢ·ṙⱼ + |ṙⱼ|²), so with the origin fixed
//
//	M = [2m/3 I   m/6 I]      f = (0, −m g, 0, −m g/2)   (each bar's weight shared by its ends),
//	    [m/6 I    m/3 I],
//
// a constant mass matrix, and the constraints are the constant lengths scaled to unity,
// Φ₁ = (|P1|² − l²)/(2l), Φ₂ = (|P2 − P1|² − l²)/(2l). V = m g (y1/2 + (y1 + y2)/2), zero at
// the release (bars horizontal at the support level, at rest): Π = T + V = 0.
type CardenalPendulum struct{ M, L, G float64 }

// DefaultCardenalPendulum has the paper's values: 1 kg, 1 m, g = 9.81.
func DefaultCardenalPendulum() CardenalPendulum { return CardenalPendulum{M: 1, L: 1, G: 9.81} }

var (
	_ dae.EnergyInvariant = CardenalPendulum{}
	_ dae.ConstantMass    = CardenalPendulum{}
)

// Size returns 4 coordinates and 2 constraints.
func (p CardenalPendulum) Size() (int, int) { return 4, 2 }

// ConstantMass reports the constant mass matrix of natural coordinates.
func (p CardenalPendulum) ConstantMass() bool { return true }

// Mass writes M (see CardenalPendulum).
func (p CardenalPendulum) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	for k := range 2 {
		dst.Set(k, k, 2*p.M/3)
		dst.Set(2+k, 2+k, p.M/3)
		dst.Set(k, 2+k, p.M/6)
		dst.Set(2+k, k, p.M/6)
	}
}

// Force writes the weights shared by the bars' ends.
func (p CardenalPendulum) Force(dst []float64, t float64, q, v []float64) {
	dst[0], dst[1], dst[2], dst[3] = 0, -p.M*p.G, 0, -p.M*p.G/2
}

// Constraint writes the scaled length constraints.
func (p CardenalPendulum) Constraint(dst []float64, t float64, q []float64) {
	dx, dy := q[2]-q[0], q[3]-q[1]
	dst[0] = (q[0]*q[0] + q[1]*q[1] - p.L*p.L) / (2 * p.L)
	dst[1] = (dx*dx + dy*dy - p.L*p.L) / (2 * p.L)
}

// ConstraintJacobian writes G.
func (p CardenalPendulum) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dx, dy := q[2]-q[0], q[3]-q[1]
	dst.Zero()
	dst.Set(0, 0, q[0]/p.L)
	dst.Set(0, 1, q[1]/p.L)
	dst.Set(1, 0, -dx/p.L)
	dst.Set(1, 1, -dy/p.L)
	dst.Set(1, 2, dx/p.L)
	dst.Set(1, 3, dy/p.L)
}

// ConstraintTimeDerivative writes 0 (scleronomic).
func (p CardenalPendulum) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	dst[0], dst[1] = 0, 0
}

// Gamma writes γ = −(|Ṗ1|², |Ṗ2 − Ṗ1|²)/l.
func (p CardenalPendulum) Gamma(dst []float64, t float64, q, v []float64) {
	du, dv := v[2]-v[0], v[3]-v[1]
	dst[0] = -(v[0]*v[0] + v[1]*v[1]) / p.L
	dst[1] = -(du*du + dv*dv) / p.L
}

// Energy returns T = vᵀMv/2 and V.
func (p CardenalPendulum) Energy(t float64, q, v []float64) (float64, float64) {
	kin := p.M / 6 * (2*(v[0]*v[0]+v[1]*v[1]) + (v[2]*v[2] + v[3]*v[3]) + (v[0]*v[2] + v[1]*v[3]))
	return kin, p.M * p.G * (q[1] + q[3]/2)
}

// NonConservativePower is 0: gravity only.
func (p CardenalPendulum) NonConservativePower(t float64, q, v []float64) float64 { return 0 }

// DrivingPower is 0: no motions.
func (p CardenalPendulum) DrivingPower(t float64, q, lambda []float64) float64 { return 0 }

// Start returns the release state: bars horizontal, at rest.
func (p CardenalPendulum) Start() integrate.State {
	s := integrate.NewState(4, 2)
	s.Q[0], s.Q[2] = p.L, 2*p.L
	return s
}

// Table1Paper is seed 001's Table 1: Δt, then the maximum energy error and CPU time [s] of
// index 1 and index 3 (SGI Indigo², 200 MHz R4400).
var Table1Paper = [][5]float64{
	{1e-2, 3.848e-1, 0.39, 2.241e-1, 0.26},
	{1e-3, 4.680e-3, 2.95, 4.854e-3, 1.49},
	{1e-4, 4.421e-5, 24.94, 4.399e-5, 14.70},
	{1e-5, 5.061e-7, 238.8, 3.962e-7, 149.2},
	{1e-6, 1.258e-7, 2370, 1.086e-4, 1470},
}

// Table1Row is one step size of the reproduction of Table 1.
type Table1Row struct {
	H    float64
	Span float64 // simulated time [s]: 10 s, shorter for the smallest steps (Cardenal1997Options)
	// Err is the maximum |Π(t) − Π(0)| over the run [J] and CPU its wall time, for ali1 and
	// ali3; Fail says why a run stopped ("" when it did not).
	Err1, Err3   float64
	CPU1, CPU3   time.Duration
	Fail1, Fail3 string
	Iters1       float64 // Newton (= multiplier) iterations per step
	Iters3       float64
}

// Cardenal1997Options configure Cardenal1997; zero values take the defaults.
type Cardenal1997Options struct {
	// Steps are the Δt of Table 1 [1e-2 … 1e-6].
	Steps []float64
	// MaxSteps bounds the steps of one run: a Δt whose 10 s would take more runs over
	// MaxSteps·Δt instead [1e6: 10 s at Δt ≥ 1e-5, 1 s at 1e-6], so that the experiment
	// stays within a minute. The energy error of the shortened run is then a lower bound.
	MaxSteps int
	// SkipSuspension leaves the suspension comparison out.
	SkipSuspension bool
}

// Cardenal1997Result is the reproduction of seed 001's experiments.
type Cardenal1997Result struct {
	Table1 []Table1Row
	// EnergyT, Energy: Π(t) of ali3 at Δt = 1e-3 (Fig. 2) and DPi the change of Π over each
	// step (the local error estimate, beside Fig. 3's local error).
	EnergyT, Energy, DPi []float64
	// MultiT, MultiH, MultiIndex: the step-size and index history of the multi-index run
	// on the double pendulum (Fig. 5) and its report.
	MultiT, MultiH, MultiIndex []float64
	MultiReport                integrate.IndexReport
	MultiErr                   float64 // its maximum |Π − Π₀|
	Suspension                 *SuspensionResult
}

// Cardenal1997 runs Table 1 (ali1 and ali3 on the double pendulum, α = 1e7), the energy
// history of Fig. 2, the multi-index run on the double pendulum and the suspension
// comparison (SuspensionComparison).
func Cardenal1997(opt Cardenal1997Options) (*Cardenal1997Result, error) {
	if opt.Steps == nil {
		for _, r := range Table1Paper {
			opt.Steps = append(opt.Steps, r[0])
		}
	}
	if opt.MaxSteps == 0 {
		opt.MaxSteps = 1_000_000
	}
	p := DefaultCardenalPendulum()
	res := &Cardenal1997Result{}
	for _, h := range opt.Steps {
		span := math.Min(10, float64(opt.MaxSteps)*h)
		row := Table1Row{H: h, Span: span}
		row.Err1, row.CPU1, row.Iters1, row.Fail1 = pendulumEnergyRun(p, &integrate.ALI1{}, h, span, nil)
		row.Err3, row.CPU3, row.Iters3, row.Fail3 = pendulumEnergyRun(p, &integrate.ALI3{}, h, span, nil)
		res.Table1 = append(res.Table1, row)
	}
	pendulumEnergyRun(p, &integrate.ALI3{}, 1e-3, 10, func(t, pi float64) {
		if n := len(res.Energy); n > 0 {
			res.DPi = append(res.DPi, math.Abs(pi-res.Energy[n-1]))
		} else {
			res.DPi = append(res.DPi, 0)
		}
		res.EnergyT = append(res.EnergyT, t)
		res.Energy = append(res.Energy, pi)
	})
	if err := res.multiPendulum(p); err != nil {
		return nil, err
	}
	if !opt.SkipSuspension {
		s, err := SuspensionComparison()
		if err != nil {
			return nil, err
		}
		res.Suspension = s
	}
	return res, nil
}

// pendulumEnergyRun integrates the double pendulum with m at fixed h over span and returns
// the maximum |Π − Π₀|, the wall time, the iterations per step and the failure ("" when
// none); each accepted state's (t, Π) goes to sample when it is not nil.
func pendulumEnergyRun(p CardenalPendulum, m integrate.Method, h, span float64, sample func(t, pi float64)) (float64, time.Duration, float64, string) {
	return pendulumEnergyRunTol(p, m, h, span, 0, sample)
}

func pendulumEnergyRunTol(p CardenalPendulum, m integrate.Method, h, span, tol float64, sample func(t, pi float64)) (float64, time.Duration, float64, string) {
	start := p.Start()
	pi0 := 0.0
	worst := 0.0
	t0 := time.Now()
	ctl := integrate.StepControl{FixedH: h, RTol: tol, ATol: tol, MaxSteps: int(span/h) + 10}
	if err := m.Init(p, start, ctl); err != nil {
		return math.NaN(), 0, 0, err.Error()
	}
	if sample != nil {
		sample(0, pi0)
	}
	fail := ""
	for m.Current().T < span {
		if err := m.Step(span); err != nil {
			fail = err.Error()
			break
		}
		s := m.Current()
		k, v := p.Energy(s.T, s.Q, s.V)
		worst = math.Max(worst, math.Abs(k+v-pi0))
		if sample != nil {
			sample(s.T, k+v)
		}
	}
	st := m.Stats()
	return worst, time.Since(t0), float64(st.NewtonIters) / math.Max(1, float64(st.Steps)), fail
}

// multiPendulum runs the multi-index method on the double pendulum (U_r = 1e-5) and keeps
// its step and index history (Fig. 5).
func (res *Cardenal1997Result) multiPendulum(p CardenalPendulum) error {
	m := &integrate.MultiIndex{Upper: 1e-5}
	if err := m.Init(p, p.Start(), integrate.StepControl{}); err != nil {
		return err
	}
	for m.Current().T < 10 {
		index := m.Index()
		if err := m.Step(10); err != nil {
			return fmt.Errorf("reproduce: cardenal1997: multi-index on the double pendulum: %w", err)
		}
		s := m.Current()
		res.MultiT = append(res.MultiT, s.T)
		res.MultiH = append(res.MultiH, s.T-m.Previous().T)
		res.MultiIndex = append(res.MultiIndex, float64(index))
		k, v := p.Energy(s.T, s.Q, s.V)
		res.MultiErr = math.Max(res.MultiErr, math.Abs(k+v))
	}
	res.MultiReport = m.Report()
	return nil
}

// Table prints Table 1 beside the paper's, the multi-index run and the suspension
// comparison, with what is and is not reproduced.
func (res *Cardenal1997Result) Table() string {
	var b strings.Builder
	fmt.Fprintln(&b, "seed 001 (Cardenal, Cuadrado, Bayo 1997), Table 1: double pendulum, two 1 m 1 kg bars released horizontal, 10 s, α = 1e7")
	fmt.Fprintln(&b, "max |Π(t) − Π(0)| [J] and CPU [s]; paper: SGI Indigo² R4400 (compare ratios, not seconds)")
	fmt.Fprintf(&b, "%-8s %-6s | %-10s %-9s %-10s %-9s | %-10s %-8s %-10s %-8s | %s\n",
		"Δt", "span", "ali1 err", "ali1 CPU", "ali3 err", "ali3 CPU", "paper I1", "CPU", "paper I3", "CPU", "iters/step ali1, ali3")
	for _, r := range res.Table1 {
		paper := [5]float64{r.H, math.NaN(), math.NaN(), math.NaN(), math.NaN()}
		for _, p := range Table1Paper {
			if p[0] == r.H {
				paper = p
			}
		}
		fmt.Fprintf(&b, "%-8.0e %-6g | %-10s %-9.3f %-10s %-9.3f | %-10.3e %-8.2f %-10.3e %-8.2f | %.2f, %.2f\n",
			r.H, r.Span, errOrFail(r.Err1, r.Fail1), r.CPU1.Seconds(), errOrFail(r.Err3, r.Fail3), r.CPU3.Seconds(),
			paper[1], paper[2], paper[3], paper[4], r.Iters1, r.Iters3)
	}
	for _, r := range res.Table1 {
		for _, f := range []string{r.Fail1, r.Fail3} {
			if f != "" {
				fmt.Fprintf(&b, "Δt = %g: %s\n", r.H, f)
			}
		}
	}
	fmt.Fprintf(&b, "multi-index (U_r = 1e-5) on the double pendulum: max |Π − Π₀| = %.3e J; %d steps in index 3 (%.3f s), %d in index 1 (%.3f s); changes 3→1: %d, 1→3: %d\n",
		res.MultiErr, res.MultiReport.Steps3, res.MultiReport.Time3, res.MultiReport.Steps1, res.MultiReport.Time1, res.MultiReport.To1, res.MultiReport.To3)
	if s := res.Suspension; s != nil {
		fmt.Fprint(&b, s.Table())
	}
	return b.String()
}

func errOrFail(e float64, fail string) string {
	if fail != "" {
		return "failed"
	}
	return fmt.Sprintf("%.3e", e)
}
