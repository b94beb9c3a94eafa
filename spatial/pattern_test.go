package spatial_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
	"linkage/spatial"
)

// TestSparsityPatternsCover: at random states every nonzero of M, ∂(M a)/∂q, ∂f/∂q, ∂f/∂v
// and ∂(Gᵀλ)/∂q lies in the declared patterns (dae.Sparsity), for every element kind (the
// entries off the pattern are exactly 0), and the sparse path writes the dense values
// there (dae.CheckSparse); with a custom force the coupling is nil (dense); rows are
// strictly increasing.
func TestSparsityPatternsCover(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, c := range elementCases() {
		m, g0, a1, a2, b1 := twoBodies()
		c.build(m, g0, a1, a2, b1)
		sys, err := m.Assemble()
		if err != nil {
			t.Fatal(err)
		}
		nq, nc := sys.Size()
		mass, coupling := sys.MassPattern(), sys.CouplingPattern()
		if len(mass) != nq {
			t.Fatalf("%s: mass pattern has %d rows, want %d", c.name, len(mass), nq)
		}
		if c.name == "custom" {
			if coupling != nil {
				t.Errorf("custom: coupling %v, want nil (dense)", coupling)
			}
			coupling = nil
		} else if len(coupling) != nq {
			t.Fatalf("%s: coupling has %d rows, want %d", c.name, len(coupling), nq)
		}
		for i := range nq {
			for _, row := range [][]int{mass[i], safeRow(coupling, i)} {
				if !slices.IsSorted(row) || len(slices.Compact(slices.Clone(row))) != len(row) {
					t.Errorf("%s: row %d = %v not strictly increasing", c.name, i, row)
				}
			}
		}
		D := mat.NewDense(nq, nq, nil)
		for range 3 {
			p := randomPoint(r, nq, nc)
			check := func(name string, pat [][]int) {
				for i := range nq {
					for j := range nq {
						if D.At(i, j) != 0 && !slices.Contains(pat[i], j) {
							t.Errorf("%s: %s[%d,%d] = %g outside the pattern %v", c.name, name, i, j, D.At(i, j), pat[i])
						}
					}
				}
			}
			if err := dae.CheckSparse(sys, p); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			sys.Mass(D, p.T, p.Q)
			check("M", mass)
			if coupling == nil {
				continue
			}
			for name, eval := range map[string]func(){
				"d(M a)/dq":   func() { sys.MassDerivative(D, p.T, p.Q, p.A) },
				"df/dq":       func() { sys.ForceDerivativeQ(D, p.T, p.Q, p.V) },
				"df/dv":       func() { sys.ForceDerivativeV(D, p.T, p.Q, p.V) },
				"d(G^T l)/dq": func() { sys.ConstraintForceDerivative(D, p.T, p.Q, p.Lambda) },
			} {
				eval()
				check(name, coupling)
			}
		}
	}
}

func safeRow(p [][]int, i int) []int {
	if p == nil {
		return nil
	}
	return p[i]
}

// TestCouplingPatternFreeBody: a body joined to nothing and a body on a spherical joint to
// the ground (rows d·e_k, curved in p only) hold each x with itself and the 4×4 block of p
// (∂(M a)/∂q, the gyroscopic terms) and nothing else; the mass pattern is the diagonal for
// x and the 4×4 block for p.
func TestCouplingPatternFreeBody(t *testing.T) {
	m := spatial.NewModel()
	a := m.AddBody(spatial.Body{Name: "a", Mass: 1, Inertia: spatial.Diag(0.1, 0.1, 0.1)})
	m.AddBody(spatial.Body{Name: "c", Mass: 1, Inertia: spatial.Diag(0.1, 0.1, 0.1)})
	m.AddSpherical("root", m.AddMarker(spatial.Marker{Body: spatial.Ground}), m.AddMarker(spatial.Marker{Body: a}))
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	cp, mp := sys.CouplingPattern(), sys.MassPattern()
	own := func(i int) []int {
		if c := i / 7 * 7; i-c >= 3 {
			return []int{c + 3, c + 4, c + 5, c + 6}
		}
		return []int{i}
	}
	for i := range 14 {
		if want := own(i); !slices.Equal(cp[i], want) {
			t.Errorf("coupling row %d: %v, want %v", i, cp[i], want)
		}
	}
	if !slices.Equal(mp[1], []int{1}) || !slices.Equal(mp[4], []int{3, 4, 5, 6}) {
		t.Errorf("mass pattern rows 1, 4: %v, %v", mp[1], mp[4])
	}
}

// hidePatterns forwards a System and its analytic first derivatives but not dae.Sparsity,
// so that the integrators take their dense path on the same equations.
type hidePatterns struct {
	dae.System
	s *spatial.System
}

func (h hidePatterns) MassDerivative(dst *mat.Dense, t float64, q, a []float64) {
	h.s.MassDerivative(dst, t, q, a)
}
func (h hidePatterns) ForceDerivativeQ(dst *mat.Dense, t float64, q, v []float64) {
	h.s.ForceDerivativeQ(dst, t, q, v)
}
func (h hidePatterns) ForceDerivativeV(dst *mat.Dense, t float64, q, v []float64) {
	h.s.ForceDerivativeV(dst, t, q, v)
}
func (h hidePatterns) ConstraintForceDerivative(dst *mat.Dense, t float64, q, l []float64) {
	h.s.ConstraintForceDerivative(dst, t, q, l)
}

// TestSparsePathsChain3D: a chain of 8 bodies on spherical joints (56 coordinates, 32
// constraints, Euler parameters: M singular on the p directions, positive definite on
// ker G) runs on the sparse solvers (SparseKKT for dopri5, SparseLU for hht) and gives the
// dense run's steps and state to rounding.
func TestSparsePathsChain3D(t *testing.T) {
	m := spatial.NewModel()
	m.SetGravity(spatial.Vec3{0, 0, -9.81})
	prev := m.AddMarker(spatial.Marker{Body: spatial.Ground})
	for i := range 8 {
		b := m.AddBody(spatial.Body{Name: fmt.Sprint("b", i), Mass: 1, Inertia: spatial.Diag(0.01, 0.02, 0.02),
			Pos: spatial.Vec3{0.25 + 0.5*float64(i), 0, 0}})
		m.AddSpherical(fmt.Sprint("s", i), prev, m.AddMarker(spatial.Marker{Body: b, Point: spatial.Vec3{-0.25, 0, 0}}))
		prev = m.AddMarker(spatial.Marker{Body: b, Point: spatial.Vec3{0.25, 0, 0}})
	}
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	q0, v0 := sys.InitialGuess()
	red, start, _ := startReduced(t, sys, q0, v0, nil)
	if red != dae.System(sys) {
		t.Fatal("unexpected redundant constraints")
	}
	for _, name := range []string{"dopri5", "hht"} {
		var sols [2]*integrate.Solution
		for k, s := range []dae.System{sys, hidePatterns{System: sys, s: sys}} {
			sol, err := integrate.Solve(method(t, name), name, s, start.Clone(), 0.5,
				integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-6, ATol: 1e-6}, Output: []float64{0.5}})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sols[k] = sol
		}
		var d float64
		for i := range sols[0].Final.Q {
			d = math.Max(d, math.Abs(sols[0].Final.Q[i]-sols[1].Final.Q[i]))
		}
		t.Logf("%s: %d and %d steps, max difference %.2g", name, sols[0].Stats.Steps, sols[1].Stats.Steps, d)
		if sols[0].Stats.Steps != sols[1].Stats.Steps || d > 1e-10 {
			t.Errorf("%s: sparse %d steps, dense %d, states differ by %.3g; want the same run to rounding",
				name, sols[0].Stats.Steps, sols[1].Stats.Steps, d)
		}
	}
}
