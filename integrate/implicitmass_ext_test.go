package integrate_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/integrate"
)

// pendulumSystem is doublePendulum as the equations of motion M(θ) θ” = f(θ, θ')
// without constraints (a dae.System with nc = 0): the route every mechanism takes.
type pendulumSystem struct{ doublePendulum }

func (pendulumSystem) Size() (int, int) { return 2, 0 }
func (p pendulumSystem) Mass(dst *mat.Dense, t float64, q []float64) {
	c := math.Cos(q[0] - q[1])
	dst.Set(0, 0, 2)
	dst.Set(0, 1, c)
	dst.Set(1, 0, c)
	dst.Set(1, 1, 1)
}
func (p pendulumSystem) Force(dst []float64, t float64, q, v []float64) {
	var y, phi [4]float64
	copy(y[:2], q)
	copy(y[2:], v)
	p.Rhs(phi[:], t, y[:])
	copy(dst, phi[2:])
}
func (pendulumSystem) Constraint([]float64, float64, []float64)               {}
func (pendulumSystem) ConstraintJacobian(*mat.Dense, float64, []float64)      {}
func (pendulumSystem) ConstraintTimeDerivative([]float64, float64, []float64) {}
func (pendulumSystem) Gamma([]float64, float64, []float64, []float64)         {}

// TestImplicitMassMatchesMechanics: the double pendulum written as K(y) y' = φ with its
// configuration-dependent mass matrix in K (dae.ImplicitMass, derivatives by differences)
// and as the dae.System M(θ) θ” = f end at the same angles and rates at t = 3: radau5
// and bdf on the linearly implicit form at tol 1e-10 against radau5 on the System at
// 1e-12, within 1e-6 (100 times the looser tolerance: the double pendulum from θ₁ = π/2
// is mildly chaotic), and the energy of the implicit runs (|E| = 9.81) stays within the
// same 1e-6 of the start (measured 1e-8 with radau5, 1.5e-7 with bdf, the order-5 BDF
// taking about three times radau5's steps).
func TestImplicitMassMatchesMechanics(t *testing.T) {
	p := doublePendulum{g: 9.81}
	const tEnd = 3
	y0 := []float64{math.Pi / 2, 0, 0, 0}
	yp0 := []float64{0, 0, -p.g, 0}
	start := integrate.State{Q: y0[:2:2], V: []float64{0, 0}, A: []float64{-p.g, 0}, Lambda: []float64{}}
	ref, err := integrate.Solve(&integrate.Radau5{}, "radau5", pendulumSystem{p}, start, tEnd,
		integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-12, ATol: 1e-12}, Output: []float64{tEnd}})
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]float64(nil), ref.Final.Q...), ref.Final.V...)
	for _, name := range []string{"radau5", "bdf"} {
		e, _ := integrate.Lookup(name)
		sol, err := integrate.SolveImplicit(e.New(), name, p, 0, y0, yp0, tEnd,
			integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-10, ATol: 1e-10}, Output: []float64{tEnd}})
		if err != nil {
			t.Fatal(err)
		}
		y := sol.Final.Q
		for i := range want {
			if d := math.Abs(y[i] - want[i]); !(d <= 1e-6) {
				t.Errorf("%s: y[%d](%g) = %.10g, the M θ'' = f route gives %.10g (gap %.2g > 1e-6)", name, i, float64(tEnd), y[i], want[i], d)
			}
		}
		if d := math.Abs(p.energy(y) - p.energy(y0)); !(d <= 1e-6) {
			t.Errorf("%s: energy drift %.2g, want ≤ 1e-6", name, d)
		}
		t.Logf("%s: %d steps, gap to the System route %.2g %.2g %.2g %.2g, energy drift %.2g", name, sol.Stats.Steps,
			y[0]-want[0], y[1]-want[1], y[2]-want[2], y[3]-want[3], p.energy(y)-p.energy(y0))
	}
}
