package problems_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
)

// pendulum is a point mass m on a massless rod of length l, in Cartesian coordinates
// q = (x, y) with the constraint g = (x² + y² − l²)/2 = 0, under gravity −g_y ŷ: the
// smallest dae.System written by hand.
type pendulum struct{ m, l, gy float64 }

func (p pendulum) Size() (nq, nc int) { return 2, 1 }

func (p pendulum) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Zero()
	dst.Set(0, 0, p.m)
	dst.Set(1, 1, p.m)
}

func (p pendulum) Force(dst []float64, t float64, q, v []float64) {
	dst[0], dst[1] = 0, -p.m*p.gy
}

func (p pendulum) Constraint(dst []float64, t float64, q []float64) {
	dst[0] = (q[0]*q[0] + q[1]*q[1] - p.l*p.l) / 2
}

func (p pendulum) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, q[0]) // G = ∂g/∂q
	dst.Set(0, 1, q[1])
}

func (p pendulum) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	dst[0] = 0 // scleronomic
}

func (p pendulum) Gamma(dst []float64, t float64, q, v []float64) {
	dst[0] = -(v[0]*v[0] + v[1]*v[1]) // γ = −(G v)_q v
}

// A custom system, made consistent by dae.Initialize and solved by a method picked by name
// from the registry (as `linkage methods` lists them), its results read from the Solution:
// the pendulum released at rest from horizontal, at 0.5 s and 1 s. (The rod force λ l
// checks out: at y = −0.92037, v² = 2 g·0.92037 = 18.058 and m v²/l − m g y = 27.087 N.)
func Example_customSystem() {
	sys := pendulum{m: 1, l: 1, gy: 9.81}
	start, err := dae.Initialize(sys, 0, []float64{1, 0}, []float64{0, 0}, &dae.InitOptions{Keep: []int{0}})
	if err != nil {
		fmt.Println(err)
		return
	}
	entry, err := integrate.Lookup("radau5")
	if err != nil {
		fmt.Println(err)
		return
	}
	method, err := entry.NewMethod("") // the method's first formulation
	if err != nil {
		fmt.Println(err)
		return
	}
	st := integrate.State{T: 0, Q: start.Q, V: start.V, A: start.A, Lambda: start.Lambda}
	sol, err := integrate.Solve(method, entry.Name, sys, st, 1, integrate.SolveOptions{
		Control:    integrate.StepControl{RTol: 1e-8, ATol: 1e-8},
		OutputStep: 0.5,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, t := range sol.T {
		fmt.Printf("t=%.1f  x=%+.5f  y=%+.5f  rod force %.3f N\n", t, sol.Q[i][0], sol.Q[i][1], sol.Lambda[i][0])
	}
	fmt.Printf("steps > 10: %v, max |g| < 1e-8: %v\n", sol.Stats.Steps > 10, sol.MaxResidual.Pos < 1e-8)
	// Output:
	// t=0.0  x=+1.00000  y=+0.00000  rod force 0.000 N
	// t=0.5  x=+0.39105  y=-0.92037  rod force 27.087 N
	// t=1.0  x=-0.98629  y=-0.16501  rod force 4.856 N
	// steps > 10: true, max |g| < 1e-8: true
}
