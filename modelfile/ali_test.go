package modelfile

import (
	"math"
	"testing"

	"linkage/dae"
	"linkage/integrate"
)

// coordinateIndex is the index of the coordinate of b.System called name.
func coordinateIndex(t *testing.T, b *Built, name string) int {
	t.Helper()
	nq, _ := b.System.Size()
	for i := range nq {
		if dae.CoordinateName(b.System, i) == name {
			return i
		}
	}
	t.Fatalf("no coordinate %q", name)
	return -1
}

// fullStart is b.Start sized for the full system b.System (every joint row).
func fullStart(b *Built) integrate.State {
	nq, nc := b.System.Size()
	s := integrate.NewState(nq, nc)
	s.T = b.Start.T
	copy(s.Q, b.Start.Q)
	copy(s.V, b.Start.V)
	return s
}

// TestALIRedundantParallelogram: the augmented Lagrangian methods (seed 001) integrate
// the parallelogram with its redundant third crank without reducing it (the full system,
// 12 rows of rank 11, whose KKT matrix is singular), keep every row, the redundant one
// included, below 1e-10, and keep crank 3 turning with crank 1. ali1 projects q and q̇;
// ali3 projects q̇ and q̈ and holds Φ = 0 to its corrector's tolerance (about 1e-3·RTol
// relative), so it runs at RTol = 1e-8 with α = 1e8 (inside the paper's index-3 range),
// at which the multiplier iteration contracts fast enough at h = 1e-3 (at 1e9 and
// RTol = 1e-9 the corrector meets rounding: M + αGᵀG has a condition number near 1e11).
func TestALIRedundantParallelogram(t *testing.T) {
	b := loadExample(t, "parallelogram")
	if nq, nc := b.System.Size(); nq != 12 || nc != 12 {
		t.Fatalf("size (%d, %d), want (12, 12)", nq, nc)
	}
	th1, th3 := coordinateIndex(t, b, "crank1.theta"), coordinateIndex(t, b, "crank3.theta")
	for _, c := range []struct {
		m   integrate.Method
		tol float64
	}{{&integrate.ALI3{Alpha: 1e8}, 1e-8}, {&integrate.ALI1{}, 0}} {
		m := c.m
		sol, err := integrate.Solve(m, "ali", b.System, fullStart(b), 3,
			integrate.SolveOptions{Control: integrate.StepControl{FixedH: 1e-3, RTol: c.tol, ATol: c.tol}})
		if err != nil {
			t.Fatalf("%T: %v", m, err)
		}
		if r := sol.MaxResidual; !(r.Pos <= 1e-10 && r.Vel <= 1e-10) {
			t.Errorf("%T: max |g| %.2g, |G v + g_t| %.2g over the run, want ≤ 1e-10 on every row", m, r.Pos, r.Vel)
		}
		worst := 0.0
		for _, q := range sol.Q {
			worst = math.Max(worst, math.Abs(q[th1]-q[th3]))
		}
		if worst > 1e-7 { // as TestParallelogramRedundant: near the horizontal the rows fix the angles to √|g|
			t.Errorf("%T: crank angles differ by up to %.2g rad", m, worst)
		}
	}
}

// squareFourBar is the four-bar of the IFToMM N-four-bar benchmark (A02) with N = 1:
// ground pivots 1 m apart, two 1 m cranks and a 1 m coupler, uniform 1 kg bars, under
// gravity, released with the cranks vertical turning clockwise at 1 rad/s. Whenever the
// cranks are horizontal every bar lies on the ground line: G loses rank (the change point
// at which the linkage could switch to its crossed branch).
const squareFourBar = `
name: square-four-bar
gravity: [0, -9.81]
bodies:
  - {name: crank1, mass: 1, inertia: 0.08333333333333333}
  - {name: crank2, mass: 1, inertia: 0.08333333333333333}
  - {name: coupler, mass: 1, inertia: 0.08333333333333333}
markers:
  - {name: G1, body: ground, point: [0, 0]}
  - {name: G2, body: ground, point: [1, 0]}
  - {name: c1.O, body: crank1, point: [-0.5, 0]}
  - {name: c1.A, body: crank1, point: [0.5, 0]}
  - {name: c2.O, body: crank2, point: [-0.5, 0]}
  - {name: c2.A, body: crank2, point: [0.5, 0]}
  - {name: K1, body: coupler, point: [-0.5, 0]}
  - {name: K2, body: coupler, point: [0.5, 0]}
joints:
  - {name: ground1, type: revolute, i: G1, j: c1.O}
  - {name: ground2, type: revolute, i: G2, j: c2.O}
  - {name: top1, type: revolute, i: c1.A, j: K1}
  - {name: top2, type: revolute, i: c2.A, j: K2}
initial:
  bodies:
    crank1: {position: [0, 0.5], angle: 90 deg, angular_velocity: -1}
    crank2: {position: [1, 0.5], angle: 90 deg}
    coupler: {position: [0.5, 1], angle: 0}
  keep: [crank1.theta]
simulation:
  t_end: 3
`

// squareFourBarAngle integrates the one-degree-of-freedom equation of the square four-bar,
// (2·mL²/3 + mL²) θ̈ = −(2·mgL/2 + mgL) cos θ, i.e. θ̈ = −1.2 g cos θ (m = L = 1), by RK4 with
// a step of 1e-5 s: the reference crank angle at t.
func squareFourBarAngle(t float64) float64 {
	const g = 9.81
	th, om := math.Pi/2, -1.0
	n := int(math.Round(t / 1e-5))
	h := t / float64(n)
	f := func(th float64) float64 { return -1.2 * g * math.Cos(th) }
	for range n {
		k1t, k1o := om, f(th)
		k2t, k2o := om+h/2*k1o, f(th+h/2*k1t)
		k3t, k3o := om+h/2*k2o, f(th+h/2*k2t)
		k4t, k4o := om+h*k3o, f(th+h*k3t)
		th += h / 6 * (k1t + 2*k2t + 2*k3t + k4t)
		om += h / 6 * (k1o + 2*k2o + 2*k3o + k4o)
	}
	return th
}

// TestALISingularFourBar: the augmented Lagrangian methods run through the singular
// positions of the square four-bar (cranks horizontal, all bars collinear, 3 s: the
// cranks turn through both singular positions several times) without reducing anything,
// with the constraint residuals below 1e-10, the cranks parallel (the linkage does not
// jump to its crossed branch) and the crank angle on the one-DOF reference to 1e-3 rad
// (trapezoidal rule at h = 1e-3; measured below).
func TestALISingularFourBar(t *testing.T) {
	doc, err := Parse("square-four-bar.yaml", []byte(squareFourBar))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	th1, th2 := coordinateIndex(t, b, "crank1.theta"), coordinateIndex(t, b, "crank2.theta")
	ref := squareFourBarAngle(3)
	for _, c := range []struct {
		m   integrate.Method
		tol float64
	}{{&integrate.ALI3{Alpha: 1e8}, 1e-8}, {&integrate.ALI1{}, 0}} {
		m := c.m
		sol, err := integrate.Solve(m, "ali", b.System, fullStart(b), 3,
			integrate.SolveOptions{Control: integrate.StepControl{FixedH: 1e-3, RTol: c.tol, ATol: c.tol}})
		if err != nil {
			t.Fatalf("%T: %v", m, err)
		}
		if r := sol.MaxResidual; !(r.Pos <= 1e-10 && r.Vel <= 1e-10) {
			t.Errorf("%T: max |g| %.2g, |G v + g_t| %.2g over the run, want ≤ 1e-10", m, r.Pos, r.Vel)
		}
		worst := 0.0
		for _, q := range sol.Q {
			worst = math.Max(worst, math.Abs(q[th1]-q[th2]))
		}
		if worst > 1e-6 {
			t.Errorf("%T: crank angles differ by up to %.2g rad: the linkage left its branch", m, worst)
		}
		d := math.Remainder(sol.Final.Q[th1]-ref, 2*math.Pi)
		t.Logf("%T: crank angle %.6f, reference %.6f (error %.2g), %d turns through a singular position", m, sol.Final.Q[th1], ref, d, crossings(sol.Q, th1))
		if math.Abs(d) > 1e-3 {
			t.Errorf("%T: crank angle at t = 3 off the reference by %.2g rad", m, d)
		}
		if n := crossings(sol.Q, th1); n < 2 {
			t.Errorf("%T: the cranks passed a singular position %d times, want ≥ 2 for the test to mean anything", m, n)
		}
	}
}

// crossings counts the times the angle q[i] crosses a multiple of π (cranks horizontal).
func crossings(qs [][]float64, i int) int {
	n := 0
	for k := 1; k < len(qs); k++ {
		if math.Floor(qs[k-1][i]/math.Pi) != math.Floor(qs[k][i]/math.Pi) {
			n++
		}
	}
	return n
}
