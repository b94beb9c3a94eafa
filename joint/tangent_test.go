package joint

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// tangentModels returns models the directional derivatives cover: randomTree (every joint
// kind, a branch, joint springs, a spherical cut joint, a drive) without its orientation
// rows, with and without withElements' force elements, and planarTree with its planar
// elements, closed by a point cut joint.
func tangentModels(rng *rand.Rand) map[string]*Model {
	bare := randomTree(rng)
	bare.axes = nil
	full := randomTree(rng)
	full.axes = nil
	withElements(rng, full)
	planar := planarTree(rng)
	planar.Cut("close", planar.Coordinate("c"), [3]float64{0.4, 0.1}, planar.Coordinate("d"), [3]float64{0.2, -0.3},
		[3]float64{1, 0, 0}, [3]float64{0, 1, 0})
	return map[string]*Model{"tree": bare, "tree+elements": full, "planar": planar}
}

// TestDirectionalDerivatives: δR of R = M a − f, δ(Gᵀλ), G δq and δ(G v + g_t) along
// random directions at random states are the central differences of MassMul − Force,
// AddConstraintForce, Constraint and ConstraintJacobian·v + ConstraintTimeDerivative
// (step 1e-6, relative 1e-7), and the three calls allocate nothing after warm-up.
func TestDirectionalDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	for name, m := range tangentModels(rng) {
		sys, err := m.System()
		if err != nil {
			t.Fatal(err)
		}
		if !sys.HasDirectionalDerivatives() {
			t.Fatalf("%s: not covered", name)
		}
		nq, nc := sys.Size()
		for trial := 0; trial < 3; trial++ {
			q, v := randomState(rng, nq)
			a, _ := randomState(rng, nq)
			dq, dv := randomState(rng, nq)
			da, _ := randomState(rng, nq)
			lam, dlam := randomState(rng, nc)
			tm := 0.3 + rng.Float64()
			const h = 1e-6
			at := func(s float64, x, d []float64) []float64 {
				y := make([]float64, len(x))
				for i := range x {
					y[i] = x[i] + s*d[i]
				}
				return y
			}
			diff := func(f func(s float64) []float64) []float64 {
				p, n := f(h), f(-h)
				for i := range p {
					p[i] = (p[i] - n[i]) / (2 * h)
				}
				return p
			}
			want := diff(func(s float64) []float64 {
				qs, vs, as := at(s, q, dq), at(s, v, dv), at(s, a, da)
				r, f := make([]float64, nq), make([]float64, nq)
				sys.MassMul(r, tm, qs, as)
				sys.Force(f, tm, qs, vs)
				for i := range r {
					r[i] -= f[i]
				}
				return r
			})
			got := make([]float64, nq)
			sys.InverseDynamicsDirection(got, tm, q, v, a, dq, dv, da)
			compareTangent(t, name+" δR", got, want)

			want = diff(func(s float64) []float64 {
				r := make([]float64, nq)
				sys.AddConstraintForce(r, tm, at(s, q, dq), at(s, lam, dlam))
				return r
			})
			sys.ConstraintForceDirection(got, tm, q, lam, dq, dlam)
			compareTangent(t, name+" δ(Gᵀλ)", got, want)

			wantG := diff(func(s float64) []float64 {
				g := make([]float64, nc)
				sys.Constraint(g, tm, at(s, q, dq))
				return g
			})
			wantC := diff(func(s float64) []float64 {
				qs, vs := at(s, q, dq), at(s, v, dv)
				G := mat.NewDense(nc, nq, nil)
				sys.ConstraintJacobian(G, tm, qs)
				c := make([]float64, nc)
				sys.ConstraintTimeDerivative(c, tm, qs)
				for k := range c {
					c[k] += mat.Dot(G.RowView(k), mat.NewVecDense(nq, vs))
				}
				return c
			})
			dg, dc := make([]float64, nc), make([]float64, nc)
			sys.ConstraintDirection(dg, dc, tm, q, v, dq, dv)
			compareTangent(t, name+" G δq", dg, wantG)
			compareTangent(t, name+" δ(G v + g_t)", dc, wantC)

			allocs := testing.AllocsPerRun(5, func() {
				sys.InverseDynamicsDirection(got, tm, q, v, a, dq, dv, da)
				sys.ConstraintForceDirection(got, tm, q, lam, dq, dlam)
				sys.ConstraintDirection(dg, dc, tm, q, v, dq, dv)
			})
			if allocs != 0 {
				t.Errorf("%s: %g allocations per call, want 0", name, allocs)
			}
		}
	}
}

// compareTangent fails when got and want differ by more than 1e-7 of want's largest entry.
func compareTangent(t *testing.T, what string, got, want []float64) {
	t.Helper()
	scale := 1e-3
	for _, w := range want {
		scale = math.Max(scale, math.Abs(w))
	}
	for i := range got {
		if d := math.Abs(got[i] - want[i]); d > 1e-7*scale || math.IsNaN(got[i]) {
			t.Errorf("%s[%d] = %.12g, differences %.12g (gap %.3g of %.3g)", what, i, got[i], want[i], d, scale)
		}
	}
}

// TestDirectionalDerivativesRefused: a model with terms they do not differentiate (the
// orientation rows of a cut joint) reports no directional derivatives.
func TestDirectionalDerivativesRefused(t *testing.T) {
	sys, err := randomTree(rand.New(rand.NewPCG(1, 1))).System()
	if err != nil {
		t.Fatal(err)
	}
	if sys.HasDirectionalDerivatives() {
		t.Error("randomTree with CutAxes reports directional derivatives")
	}
}
