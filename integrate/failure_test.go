package integrate

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// Failures reported for what they are (issue 13, items 9, 11, 12, 13): a fixed step too
// large, the step cuts made, no stale residual, a singular position.

// implicitMethods lists every implicit method with every formulation it supports.
func implicitMethods(t *testing.T) []struct {
	name string
	form Formulation
} {
	var out []struct {
		name string
		form Formulation
	}
	for _, n := range []string{"hht", "genalpha", "genalpha-si2", "newmark", "bdf", "radau5", "gcp-newmark", "gcp-fv"} {
		e, err := Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range e.Formulations {
			out = append(out, struct {
				name string
				form Formulation
			}{n, f})
		}
	}
	return out
}

// run steps m to tEnd and returns the first error and the largest |v| of the accepted
// states.
func run(m Method, tEnd float64) (maxV float64, err error) {
	for err == nil && m.Current().T < tEnd {
		err = m.Step(tEnd)
		for _, x := range m.Current().V {
			maxV = math.Max(maxV, math.Abs(x))
		}
	}
	return maxV, err
}

// TestFixedStepTooLarge: a fixed step of 0.5 s on a chain of three 1 m pendulums (periods
// about 1 s) makes every implicit method fail its corrector (or diverge); the run must end
// with a StepError that says the fixed step is too large and suggests error control or a
// smaller step, wrapping the cause.
func TestFixedStepTooLarge(t *testing.T) {
	ch := newChain(3, 1, 1, 9.81)
	for _, c := range implicitMethods(t) {
		e, _ := Lookup(c.name)
		m, err := e.NewMethod(c.form)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Init(ch, chainStart(ch, nil), StepControl{FixedH: 0.5}); err != nil {
			t.Fatalf("%s %s: %v", c.name, c.form, err)
		}
		_, err = run(m, 10)
		var se *StepError
		if !errors.As(err, &se) || !errors.Is(err, ErrFixedStepTooLarge) {
			t.Errorf("%s %s: err = %v, want a StepError wrapping ErrFixedStepTooLarge", c.name, c.form, err)
			continue
		}
		if !errors.Is(err, ErrNoConvergence) && !errors.Is(err, ErrDiverged) && !errors.Is(err, ErrNonFinite) {
			t.Errorf("%s %s: %v: the cause (no convergence, divergence) is lost", c.name, c.form, err)
		}
		if msg := err.Error(); !strings.Contains(msg, "fixed step too large") || !strings.Contains(msg, fixedStepHint) {
			t.Errorf("%s %s: %q, want %q and the hint %q", c.name, c.form, msg, "fixed step too large", fixedStepHint)
		}
	}
}

// divergingStepper is a stepper whose corrector converges but whose error estimate is e.
type divergingStepper struct {
	e       float64
	commits int
}

func (d *divergingStepper) attempt(h float64) (int, error) { return 0, nil }
func (d *divergingStepper) errorNorm(h float64) float64    { return d.e }
func (d *divergingStepper) commit(h float64) error         { d.commits++; return nil }

// TestLadderRefusesDivergedFixedStep: with FixedH a converged attempt whose error estimate
// exceeds the solution (e·RTol > 1: 1e7·1e-6) is not accepted; one of e·RTol = 0.5 is.
func TestLadderRefusesDivergedFixedStep(t *testing.T) {
	raw := StepControl{FixedH: 0.1, RTol: 1e-6}
	c, err := raw.Resolve(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		e    float64
		want bool // accepted
	}{{5e5, true}, {1e7, false}, {math.NaN(), false}} {
		ctl := newController(c, 2, c.FixedH)
		cur := State{}
		d := &divergingStepper{e: tc.e}
		l := ladder{name: "test", m: d, raw: raw, rule: &ctl, stats: &Stats{}, cur: &cur} // begin resolves raw to c over [0, 1]
		err := l.step(1)
		if tc.want && (err != nil || d.commits != 1) {
			t.Errorf("e = %g: err %v, %d commits; want the step accepted", tc.e, err, d.commits)
		}
		if !tc.want && (!errors.Is(err, ErrDiverged) || !errors.Is(err, ErrFixedStepTooLarge) || d.commits != 0) {
			t.Errorf("e = %g: err %v, %d commits; want ErrDiverged, ErrFixedStepTooLarge and no commit", tc.e, err, d.commits)
		}
	}
}

// TestStepCutsCountRejections: with RTol = 1e-12 and an HMin far above the steps that
// tolerance needs, the error test shrinks the first step below HMin; every rejection of
// that Step is a step cut and the report must count it (it said "0 step cuts" after tens
// of error-test rejections).
func TestStepCutsCountRejections(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	cutsRe := regexp.MustCompile(`(\d+) step cuts`)
	for _, c := range []struct {
		name string
		ctl  StepControl
	}{
		{"hht", StepControl{RTol: 1e-12, HMin: 0.01, H0: 0.1}},
		{"genalpha", StepControl{RTol: 1e-12, HMin: 0.01, H0: 0.1}},
		{"newmark", StepControl{RTol: 1e-12, HMin: 0.01, H0: 0.1}},
		{"gcp-newmark", StepControl{RTol: 1e-12, HMin: 0.01, H0: 0.1}},
		{"radau5", StepControl{RTol: 1e-12, HMin: 0.01, H0: 0.1}},
		{"bdf", StepControl{RTol: 1e-12, HMin: 1e-4}}, // IDA's first step is 1e-3 of the span
	} {
		e, _ := Lookup(c.name)
		m := e.New()
		if err := m.Init(p, pendulumStart(p, 1, 0), c.ctl); err != nil {
			t.Fatal(err)
		}
		_, err := run(m, 1)
		var se *StepError
		if !errors.As(err, &se) || !errors.Is(err, ErrStepSizeTooSmall) || se.T != 0 {
			t.Errorf("%s: err = %v, want ErrStepSizeTooSmall in the first step", c.name, err)
			continue
		}
		n := -1
		if sm := cutsRe.FindStringSubmatch(se.Tried); sm != nil {
			n, _ = strconv.Atoi(sm[1])
		}
		if rej := m.Stats().Rejected; rej == 0 || n < rej {
			t.Errorf("%s: %d rejected attempts, tried %q; want at least as many step cuts", c.name, rej, se.Tried)
		}
	}
}

// TestMaxStepsReportsNoStaleResidual: a first attempt of h = 1 fails its corrector (and
// records its residual); the run then stops at MaxSteps = 30 between two accepted steps.
// The StepError must not quote the residual of that early attempt: no attempt of the
// failing Step found anything, so Worst is empty.
func TestMaxStepsReportsNoStaleResidual(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	for _, c := range implicitMethods(t) {
		e, _ := Lookup(c.name)
		m, _ := e.NewMethod(c.form)
		if err := m.Init(p, pendulumStart(p, 1.5, 0), StepControl{H0: 1, MaxSteps: 30}); err != nil {
			t.Fatal(err)
		}
		_, err := run(m, 10)
		var se *StepError
		if !errors.As(err, &se) || !errors.Is(err, ErrMaxSteps) {
			t.Errorf("%s %s: err = %v, want ErrMaxSteps", c.name, c.form, err)
			continue
		}
		if m.Stats().NewtonFailures == 0 {
			t.Errorf("%s %s: no corrector failure at h = 1: the test measures nothing", c.name, c.form)
		}
		if se.Worst.Block != "" {
			t.Errorf("%s %s: %v: Worst = %+v is stale (no attempt of this Step failed)", c.name, c.form, err, se.Worst)
		}
	}
}

// slider is a point mass on a rod of length 1 from the origin whose x is driven as
// x = x0 + t: the rod row "rod.d" and the motion row "drive.c",
//
//	g = ((x² + y² − 1)/2, x − x0 − t),   G = [x y; 1 0],   g_t = (0, −1),   γ = (−|v|², 0),
//
// which reaches a singular position (G loses rank, the rod lies along x) at x = 1.
type slider struct{ x0 float64 }

func (s slider) Size() (int, int) { return 2, 2 }
func (s slider) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	dst.Set(0, 0, 1)
	dst.Set(1, 1, 1)
}
func (s slider) Force(dst []float64, t float64, q, v []float64) { dst[0], dst[1] = 0, -9.81 }
func (s slider) Constraint(dst []float64, t float64, q []float64) {
	dst[0] = (q[0]*q[0] + q[1]*q[1] - 1) / 2
	dst[1] = q[0] - s.x0 - t
}
func (s slider) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, q[0])
	dst.Set(0, 1, q[1])
	dst.Set(1, 0, 1)
	dst.Set(1, 1, 0)
}
func (s slider) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	dst[0], dst[1] = 0, -1
}
func (s slider) Gamma(dst []float64, t float64, q, v []float64) {
	dst[0], dst[1] = -(v[0]*v[0] + v[1]*v[1]), 0
}
func (s slider) CoordinateName(i int) string { return [...]string{"bob.x", "bob.y"}[i] }
func (s slider) ConstraintName(i int) string { return [...]string{"rod.d", "drive.c"}[i] }

// TestSingularPositionNamesJoints: driving the slider past x = 1 (at t = 0.5) must end
// with ErrSingularPosition naming the rod and the drive and the time, not with the huge
// residual of the last failed attempt. (The index-3 forms satisfy g only to the Newton
// tolerance, so their last accepted x may lie a few 1e-11 past 1.)
func TestSingularPositionNamesJoints(t *testing.T) {
	s := slider{x0: 0.5}
	y := -math.Sqrt(1 - 0.25)
	start := consistentState(s, 0, []float64{0.5, y}, []float64{1, -0.5 / y})
	var _ dae.Namer = s
	for _, name := range []string{"hht", "genalpha", "newmark", "bdf", "radau5", "dopri5"} {
		e, _ := Lookup(name)
		m := e.New()
		if err := m.Init(s, start.Clone(), StepControl{RTol: 1e-6}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, err := run(m, 1)
		var se *StepError
		if !errors.As(err, &se) || !errors.Is(err, ErrSingularPosition) {
			t.Errorf("%s: err = %v, want ErrSingularPosition", name, err)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, "joints involved: rod, drive") || !strings.Contains(msg, "rank of G dropped to 1 of 2") ||
			math.Abs(m.Current().T-0.5) > 0.01 || se.Worst.Block != "" {
			t.Errorf("%s: %q at t = %g; want the rank, the joints rod and drive, t near 0.5, no residual", name, msg, m.Current().T)
		}
	}
}

// TestIndex2BaumgarteTightTolerance: bdf on the index-2 Baumgarte form (seed 002, eq. 87)
// at tight tolerances on the pendulum and a three-link chain. With α₀ = C/h following the
// variable step the error test failed down to HMin (the pendulum at 1e-10 stopped at
// t = 5e-8); with the constant α₀ = C/HMax the runs complete, with the drift in g bounded.
func TestIndex2BaumgarteTightTolerance(t *testing.T) {
	p := newPendulum(1, 1, 9.81)
	ch := newChain(3, 1, 1, 9.81)
	for _, c := range []struct {
		name string
		sys  dae.System
		s    State
		tEnd float64
	}{{"pendulum", p, pendulumStart(p, 5*math.Pi/180, 0), 1.25}, {"chain3", ch, chainStart(ch, nil), 1}} {
		for _, tol := range []float64{1e-8, 1e-10, 1e-12} {
			m, err := bdfEntry.NewMethod(Index2Baumgarte)
			if err != nil {
				t.Fatal(err)
			}
			sol, err := Solve(m, "bdf", c.sys, c.s.Clone(), c.tEnd, SolveOptions{Control: StepControl{RTol: tol}})
			if err != nil {
				t.Errorf("%s tol %g: %v", c.name, tol, err)
				continue
			}
			// |g| stays at the tolerance level: 100·tol allows for the global error.
			if sol.MaxResidual.Pos > 100*tol {
				t.Errorf("%s tol %g: max |g| = %.3g, want ≤ 100·tol", c.name, tol, sol.MaxResidual.Pos)
			}
		}
	}
}

// TestExplicitFixedStepFailure: the one ladder gives the dopri5 family the divergence
// test of a fixed step and its report (issue 14, item 2): a fixed step ten times beyond the
// stability limit of a stiff pendulum (ω = 100 rad/s, hω = 10) is refused at its first
// as ErrFixedStepTooLarge with the fixed-step hint (the projecting forms at their first
// step; dopri5 on index1 when it reaches NaN), where no member of the family named the
// fixed step.
func TestExplicitFixedStepFailure(t *testing.T) {
	for _, name := range []string{"dopri5", "mdop5", "hedop5", "dopri5/index1"} {
		e, err := Lookup(strings.TrimSuffix(name, "/index1"))
		if err != nil {
			t.Fatal(err)
		}
		p := newPendulum(1, 1, 1e4)
		m := e.New()
		if name == "dopri5/index1" {
			m = &DOPRI5{Formulation: Index1}
		}
		if err := m.Init(p, pendulumStart(p, 0.5, 0), StepControl{FixedH: 0.1}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := 0; i < 100 && err == nil; i++ {
			err = m.Step(10)
		}
		if !errors.Is(err, ErrFixedStepTooLarge) || !strings.Contains(err.Error(), fixedStepHint) {
			t.Errorf("%s: err %v; want ErrFixedStepTooLarge and the fixed-step hint", name, err)
		}
		if s := m.Stats(); s.Steps != 0 && name != "dopri5/index1" {
			t.Errorf("%s: %d steps; want the first step refused", name, s.Steps)
		}
	}
}
