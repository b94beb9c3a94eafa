package joint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGroupsMatchPrimitives: the recursions with composite joints as multi-degree-of-freedom
// joints (multidof.go: spherical 3, universal 2, free 6) give the primitive recursion's
// M⁻¹ f (Accelerations), M⁻¹ b and (M + k K_g)⁻¹ b (MassSolve, StiffMassSolve, the second
// solve at a point from the kept factors), M x (MassMul), the Newton-Euler terms (Force)
// and the transmitted wrenches to 1e-10 relative on random trees and states, and the same
// directional derivatives of M⁻¹ f and of M x − f (central differences of both paths, step
// 1e-6, to 1e-7 relative). Their analytic derivatives are TestDirectionalDerivatives'.
func TestGroupsMatchPrimitives(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 400))
	for trial := 0; trial < 6; trial++ {
		m := randomTree(rng)
		grouped, err := m.System()
		if err != nil {
			t.Fatal(err)
		}
		prim, err := m.System()
		if err != nil {
			t.Fatal(err)
		}
		prim.UsePrimitives()
		if got, want := grouped.Groups(), []int{1, 1, 3, 2, 6, 1}; !slices.Equal(got, want) {
			t.Fatalf("joint sizes %v, want %v", got, want)
		}
		nq, nc := grouped.Size()
		q, v := randomState(rng, nq)
		b, x := randomState(rng, nq)
		a, _ := randomState(rng, nq)
		lam, _ := randomState(rng, nc)
		dq, dv := randomState(rng, nq)
		kg := make([]float64, grouped.GeometricStiffnessLen())
		grouped.GeometricStiffness(kg, 0, q, v, a, lam)
		check := func(what string, f func(s *System, dst []float64, q, v []float64)) {
			t.Helper()
			got, want := make([]float64, nq), make([]float64, nq)
			f(grouped, got, q, v)
			f(prim, want, q, v)
			agree(t, fmt.Sprintf("trial %d: %s", trial, what), got, want, 1e-10)
		}
		check("M⁻¹ f", func(s *System, dst, q, v []float64) { s.Accelerations(dst, 0, q, v) })
		for rep := range 2 { // the second solve at the point reuses the factors
			check(fmt.Sprintf("M⁻¹ b (solve %d)", rep), func(s *System, dst, q, _ []float64) { s.MassSolve(dst, 0, q, b) })
			check(fmt.Sprintf("(M + k K_g)⁻¹ b (solve %d)", rep), func(s *System, dst, q, _ []float64) {
				s.StiffMassSolve(dst, 0, q, b, nil, kg, 0.7)
			})
		}
		check("M x", func(s *System, dst, q, _ []float64) { s.MassMul(dst, 0, q, x) })
		check("f", func(s *System, dst, q, v []float64) { s.Force(dst, 0, q, v) })
		check("transmitted wrenches", func(s *System, dst, q, v []float64) {
			w := make([]Wrench, nq)
			if err := s.TransmittedWrenches(w, 0, q, v, a, lam); err != nil {
				t.Fatal(err)
			}
			for i := range w {
				dst[i] = w[i].Force[0] + 2*w[i].Force[1] + 3*w[i].Force[2] + 4*w[i].Moment[0] + 5*w[i].Moment[1] + 6*w[i].Moment[2]
			}
		})
		const h = 1e-6
		direction := func(f func(s *System, dst, q, v []float64)) func(s *System, dst, q, v []float64) {
			return func(s *System, dst, q, v []float64) {
				p, n := make([]float64, nq), make([]float64, nq)
				qp, vp, qn, vn := make([]float64, nq), make([]float64, nq), make([]float64, nq), make([]float64, nq)
				for i := range q {
					qp[i], vp[i] = q[i]+h*dq[i], v[i]+h*dv[i]
					qn[i], vn[i] = q[i]-h*dq[i], v[i]-h*dv[i]
				}
				f(s, p, qp, vp)
				f(s, n, qn, vn)
				for i := range dst {
					dst[i] = (p[i] - n[i]) / (2 * h)
				}
			}
		}
		compare := func(what string, f func(s *System, dst, q, v []float64)) {
			got, want := make([]float64, nq), make([]float64, nq)
			f(grouped, got, q, v)
			f(prim, want, q, v)
			agree(t, fmt.Sprintf("trial %d: %s", trial, what), got, want, 1e-7)
		}
		compare("δ(M⁻¹ f)", direction(func(s *System, dst, q, v []float64) { s.Accelerations(dst, 0, q, v) }))
		compare("δ(M x − f)", direction(func(s *System, dst, q, v []float64) {
			f := make([]float64, nq)
			s.MassMul(dst, 0, q, x)
			s.Force(f, 0, q, v)
			for i := range dst {
				dst[i] -= f[i]
			}
		}))
	}
}

// agree fails unless got and want agree to tol relative to max(1, ‖want‖∞).
func agree(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	scale := 1.0
	for _, w := range want {
		scale = math.Max(scale, math.Abs(w))
	}
	for i := range got {
		if d := math.Abs(got[i] - want[i]); !(d <= tol*scale) {
			t.Errorf("%s: [%d] = %.15g, the primitive recursion gives %.15g (|Δ|/scale %.1e)", what, i, got[i], want[i], d/scale)
		}
	}
}
