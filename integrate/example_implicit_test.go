package integrate_test

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/integrate"
)

// robertson is Robertson's chemical kinetics as a linearly implicit index-1 DAE (Hairer
// & Wanner 1996, VI.1 and VII.1): two rate equations and the conservation law in place
// of the third,
//
//	y₁' = −0.04 y₁ + 10⁴ y₂ y₃
//	y₂' = 0.04 y₁ − 10⁴ y₂ y₃ − 3·10⁷ y₂²
//	0   = y₁ + y₂ + y₃ − 1,
//
// so K = diag(1, 1, 0) and every variable has index 1. It gives no Jacobian: the
// integrators take finite differences of Rhs.
type robertson struct{}

func (robertson) Dim() int                   { return 3 }
func (robertson) MassDiagonal(dst []float64) { dst[0], dst[1], dst[2] = 1, 1, 0 }
func (robertson) Indices(dst []int)          { dst[0], dst[1], dst[2] = 1, 1, 1 }
func (robertson) Rhs(dst []float64, t float64, y []float64) {
	dst[0] = -0.04*y[0] + 1e4*y[1]*y[2]
	dst[1] = 0.04*y[0] - 1e4*y[1]*y[2] - 3e7*y[1]*y[1]
	dst[2] = y[0] + y[1] + y[2] - 1
}

// A linearly implicit system K y' = φ(t, y) that is not mechanics goes to radau5 or bdf
// through SolveImplicit, with a consistent y₀ and y'₀; the Solution's Q holds y.
func ExampleSolveImplicit() {
	y0 := []float64{1, 0, 0}
	yp0 := []float64{-0.04, 0.04, 0} // K y'₀ = φ(0, y₀)
	for _, name := range []string{"radau5", "bdf"} {
		e, _ := integrate.Lookup(name)
		opt := integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-8, ATol: 1e-10}, Output: []float64{40}}
		sol, err := integrate.SolveImplicit(e.New(), name, robertson{}, 0, y0, yp0, 40, opt)
		if err != nil {
			fmt.Println(err)
			return
		}
		y := sol.Final.Q
		fmt.Printf("%s: y(40) = %.5f %.4e %.5f\n", name, y[0], y[1], y[2]) // Hairer & Wanner: 0.7158271, 9.185535e-6, 0.2841637
	}
	e, _ := integrate.Lookup("hht")
	_, err := integrate.SolveImplicit(e.New(), "hht", robertson{}, 0, y0, yp0, 40, integrate.SolveOptions{})
	fmt.Println(err)
	// Output:
	// radau5: y(40) = 0.71583 9.1855e-06 0.28416
	// bdf: y(40) = 0.71583 9.1855e-06 0.28416
	// integrate: hht does not integrate a linearly implicit system K y' = φ(t, y) (dae.LinearlyImplicit); methods that do: radau5, bdf
}

// doublePendulum is the double pendulum in its two angles (unit masses and lengths,
// gravity g) written first order with its configuration-dependent mass matrix in K,
// y = (θ₁, θ₂, ω₁, ω₂):
//
//	θ' = ω,   M(θ) ω' = f(θ, ω),   M = [2  c; c  1],   c = cos(θ₁ − θ₂),
//	f = (−s ω₂² − 2g sin θ₁,  s ω₁² − g sin θ₂),   s = sin(θ₁ − θ₂),
//
// so K(y) = diag(I, M(θ)) is full and state-dependent (dae.ImplicitMass). It gives no
// derivatives: the integrators take differences of Rhs and of Mass.
type doublePendulum struct{ g float64 }

func (doublePendulum) Dim() int               { return 4 }
func (doublePendulum) MassDiagonal([]float64) {} // not called: K is Mass's
func (doublePendulum) Indices(dst []int)      { dst[0], dst[1], dst[2], dst[3] = 1, 1, 1, 1 }
func (doublePendulum) ConstantMass() bool     { return false }

func (doublePendulum) Mass(dst *mat.Dense, t float64, y []float64) {
	c := math.Cos(y[0] - y[1])
	dst.Zero()
	dst.Set(0, 0, 1)
	dst.Set(1, 1, 1)
	dst.Set(2, 2, 2)
	dst.Set(2, 3, c)
	dst.Set(3, 2, c)
	dst.Set(3, 3, 1)
}

func (p doublePendulum) Rhs(dst []float64, t float64, y []float64) {
	s := math.Sin(y[0] - y[1])
	dst[0], dst[1] = y[2], y[3]
	dst[2] = -s*y[3]*y[3] - 2*p.g*math.Sin(y[0])
	dst[3] = s*y[2]*y[2] - p.g*math.Sin(y[1])
}

// energy is T + V, conserved by the motion.
func (p doublePendulum) energy(y []float64) float64 {
	c := math.Cos(y[0] - y[1])
	return (2*y[2]*y[2]+y[3]*y[3]+2*c*y[2]*y[3])/2 - 2*p.g*math.Cos(y[0]) - p.g*math.Cos(y[1])
}

// A system K(t, y) y' = φ(t, y) whose K is full or depends on the state implements
// dae.ImplicitMass besides dae.LinearlyImplicit; radau5 and bdf take it through
// SolveImplicit. Here the double pendulum, released from θ = (π/2, 0) at rest, where
// M = diag(2, 1) and so y'₀ = (0, 0, −g, 0); its energy stays within 1e-6 of the start.
func ExampleSolveImplicit_stateDependentMass() {
	p := doublePendulum{g: 9.81}
	y0 := []float64{math.Pi / 2, 0, 0, 0}
	yp0 := []float64{0, 0, -p.g, 0}
	for _, name := range []string{"radau5", "bdf"} {
		e, _ := integrate.Lookup(name)
		opt := integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-9, ATol: 1e-9}, Output: []float64{2}}
		sol, err := integrate.SolveImplicit(e.New(), name, p, 0, y0, yp0, 2, opt)
		if err != nil {
			fmt.Println(err)
			return
		}
		y := sol.Final.Q
		drift := math.Abs(p.energy(y) - p.energy(y0))
		fmt.Printf("%s: θ(2) = %.4f %.4f, energy drift below 1e-6: %v\n", name, y[0], y[1], drift < 1e-6)
	}
	// Output:
	// radau5: θ(2) = 0.8297 -1.2130, energy drift below 1e-6: true
	// bdf: θ(2) = 0.8297 -1.2130, energy drift below 1e-6: true
}
