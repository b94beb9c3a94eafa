package integrate

import (
	"math"
	"testing"

	"linkage/dae"
)

// dummyDirectional marks a radauKrylov as on exact products; its methods are not called.
type dummyDirectional struct{ dae.DirectionalDerivatives }

// diagKrylov is J = diag(d) with the identity as preconditioner (krylovSystem).
type diagKrylov struct{ d []float64 }

func (s diagKrylov) jacVec(dst, z []float64) {
	for i, d := range s.d {
		dst[i] = d * z[i]
	}
}

func (diagKrylov) precondition([]float64) {}

// TestGMRESRelativeResidual: gmres.rel is the preconditioned residual ‖P⁻¹(b − J x)‖/‖P⁻¹b‖
// of the returned x, recomputed, also for a solve that stops at its product cap short of
// its tolerance (radauKrylov.nearMiss reads it).
func TestGMRESRelativeResidual(t *testing.T) {
	const n = 40
	d := make([]float64, n)
	b := make([]float64, n)
	for i := range d {
		d[i] = 1 + float64(i) // eigenvalues 1 to 40: 20 products reach 1e-2, not 1e-12
		b[i] = 1 + 0.1*float64(i%7)
	}
	sys := diagKrylov{d}
	g := newGMRES(n)
	for _, tc := range []struct {
		rtol    float64
		reached bool
	}{{1e-2, true}, {1e-12, false}} {
		g.rtol = tc.rtol
		x := append([]float64(nil), b...)
		if ok := g.solve(sys, x); ok != tc.reached {
			t.Fatalf("rtol %g: reached %v, want %v", tc.rtol, ok, tc.reached)
		}
		r := make([]float64, n)
		sys.jacVec(r, x)
		for i := range r {
			r[i] = b[i] - r[i]
		}
		want := norm2(r) / norm2(b)
		if math.Abs(g.rel-want) > 1e-8*want+1e-14 {
			t.Errorf("rtol %g: rel %.6g, recomputed %.6g", tc.rtol, g.rel, want)
		}
		if tc.reached != (g.rel <= tc.rtol) {
			t.Errorf("rtol %g: rel %.3g against reached %v", tc.rtol, g.rel, tc.reached)
		}
	}
}

// TestRadauNearMiss pins the rule of radauKrylov.nearMiss: on exact products only, a
// missed solve's ρ at most radauNearMiss, and ρ/(1−ρ)·‖ΔW‖ ≤ FNEWT.
func TestRadauNearMiss(t *testing.T) {
	exact := &radauKrylov{dd: dummyDirectional{}}
	diff := &radauKrylov{}
	for _, tc := range []struct {
		k           *radauKrylov
		rho, dyno   float64
		want        bool
		description string
	}{
		{exact, 2.9e-3, 9.6e-6, true, "the 1000-rod chain's third increment (fnewt 4.6e-8)"},
		{exact, 2.9e-3, 1e-4, false, "increment too large for ρ"},
		{exact, 0.05, 1e-7, false, "ρ above radauNearMiss"},
		{diff, 2.9e-3, 9.6e-6, false, "difference products"},
	} {
		tc.k.missRel = tc.rho
		if got := tc.k.nearMiss(tc.dyno, 4.6e-8); got != tc.want {
			t.Errorf("%s: nearMiss = %v, want %v", tc.description, got, tc.want)
		}
	}
}
