package integrate

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// mixedDAE is a linearly implicit DAE with variables of index 1 and 2 and a closed-form
// solution, y = (u, z, p, w), K = diag(1, 0, 1, 0):
//
//	u' = −u + z,   0 = z − sin t,   p' = w,   0 = p − sin t,
//
// so z = sin t (index 1), p = sin t, w = cos t (index 2) and, from u(0) = 0,
// u = (sin t − cos t + e^(−t))/2.
type mixedDAE struct{}

func (mixedDAE) Dim() int { return 4 }
func (mixedDAE) MassDiagonal(dst []float64) {
	dst[0], dst[1], dst[2], dst[3] = 1, 0, 1, 0
}
func (mixedDAE) Indices(dst []int) { dst[0], dst[1], dst[2], dst[3] = 1, 1, 1, 2 }
func (mixedDAE) Rhs(dst []float64, t float64, y []float64) {
	s := math.Sin(t)
	dst[0] = -y[0] + y[1]
	dst[1] = y[1] - s
	dst[2] = y[3]
	dst[3] = y[2] - s
}

func mixedExact(t float64) []float64 {
	return []float64{(math.Sin(t) - math.Cos(t) + math.Exp(-t)) / 2, math.Sin(t), math.Sin(t), math.Cos(t)}
}

// mixedDAEJac adds the analytic ∂φ/∂y.
type mixedDAEJac struct{ mixedDAE }

func (mixedDAEJac) RhsJacobian(dst *mat.Dense, t float64, y []float64) {
	dst.Zero()
	dst.Set(0, 0, -1)
	dst.Set(0, 1, 1)
	dst.Set(1, 1, 1)
	dst.Set(2, 3, 1)
	dst.Set(3, 2, 1)
}

// TestImplicitMixed solves mixedDAE with radau5 and bdf at tol 1e-8 from its exact
// consistent start and checks every variable at t = 1 against the closed form (the index-2
// w to 1e-5, a bound 1000·tol, the others to 1e-6: global errors of an error-controlled run
// are a small multiple of tol, index-2 variables are measured with weight h), that the
// finite-difference and analytic ∂φ/∂y give the same run (steps equal, y within 1e-8),
// and that a step allocates nothing after warm-up.
func TestImplicitMixed(t *testing.T) {
	y0 := mixedExact(0)
	yp0 := []float64{-y0[0] + y0[1], 0, y0[3], 0}
	ctl := StepControl{RTol: 1e-8, ATol: 1e-8}
	for _, name := range []string{"radau5", "bdf"} {
		e, _ := Lookup(name)
		var final [2][]float64
		var steps [2]int
		for k, sys := range []dae.LinearlyImplicit{mixedDAE{}, mixedDAEJac{}} {
			m := e.New().(ImplicitMethod)
			err := m.InitImplicit(sys, 0, y0, yp0, ctl)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for m.Current().T < 1 {
				if err := m.Step(1); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
			final[k], steps[k] = append([]float64(nil), m.Current().Q...), m.Stats().Steps
			if k == 0 {
				if m.Stats().FDEvals == 0 {
					t.Errorf("%s: FDEvals = 0 without an analytic Jacobian", name)
				}
			} else if m.Stats().FDEvals != 0 {
				t.Errorf("%s: FDEvals = %d with the analytic Jacobian", name, m.Stats().FDEvals)
			}
		}
		exact := mixedExact(1)
		for i, bound := range []float64{1e-6, 1e-6, 1e-6, 1e-5} {
			if d := math.Abs(final[0][i] - exact[i]); !(d <= bound) {
				t.Errorf("%s: y[%d](1) = %.12g, exact %.12g, error %.2g > %g", name, i, final[0][i], exact[i], d, bound)
			}
			if d := math.Abs(final[0][i] - final[1][i]); !(d <= 1e-8) {
				t.Errorf("%s: y[%d](1): FD Jacobian %.12g, analytic %.12g", name, i, final[0][i], final[1][i])
			}
		}
		if steps[0] != steps[1] {
			t.Errorf("%s: %d steps with the FD Jacobian, %d with the analytic one", name, steps[0], steps[1])
		}
		t.Logf("%s: %d steps, error %.2g %.2g %.2g %.2g", name, steps[0],
			final[0][0]-exact[0], final[0][1]-exact[1], final[0][2]-exact[2], final[0][3]-exact[3])

		m := e.New().(ImplicitMethod)
		if err := m.InitImplicit(mixedDAE{}, 0, y0, yp0, ctl); err != nil {
			t.Fatal(err)
		}
		for range 5 {
			_ = m.Step(math.Inf(1))
		}
		if n := testing.AllocsPerRun(20, func() { _ = m.Step(math.Inf(1)) }); n != 0 {
			t.Errorf("%s: Step on a linearly implicit system allocates %v times per call after warm-up, want 0", name, n)
		}
	}
}

// TestImplicitEntries: exactly the methods whose entry says Implicit implement
// ImplicitMethod, so `linkage methods` tells the truth.
func TestImplicitEntries(t *testing.T) {
	for _, e := range Methods() {
		_, ok := e.New().(ImplicitMethod)
		if ok != e.Implicit {
			t.Errorf("%s: Entry.Implicit = %v, implements ImplicitMethod: %v", e.Name, e.Implicit, ok)
		}
	}
}
