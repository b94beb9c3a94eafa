package integrate_test

import (
	"fmt"

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
