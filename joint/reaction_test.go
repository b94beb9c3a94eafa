package joint

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestTransmittedWrenchesBalanceEachAxis: at random states, accelerations and multipliers,
// the wrench F_i a joint transmits (TransmittedWrenches) does along its axis what the
// equations of motion say the joint's coordinate takes, s_i·F_i = (M a − f + Gᵀλ)_i + the
// joint spring's force − the drives' λ on i (the drives act on q_i, not through the
// wrenches), to 1e-10 relative: on a 3D tree with every cut row kind but cams and every
// force element, on the slide tree and on the planar cam tree.
func TestTransmittedWrenchesBalanceEachAxis(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 51))
	trees := map[string]func() (*System, int, []float64, []float64){
		"random tree with elements": func() (*System, int, []float64, []float64) { return elementSystem(t, rng, randomTree(rng), true) },
		"slide tree":                func() (*System, int, []float64, []float64) { return slideTree(t, rng) },
		"cam tree":                  func() (*System, int, []float64, []float64) { return camTree(t, rng) },
	}
	for name, build := range trees {
		sys, nq, q, v := build()
		_, nc := sys.Size()
		a, lambda := make([]float64, nq), make([]float64, nc)
		for i := range a {
			a[i] = 2*rng.Float64() - 1
		}
		for i := range lambda {
			lambda[i] = 2*rng.Float64() - 1
		}
		want := axisLoads(sys, nq, q, v, a, lambda)
		F := make([]Wrench, nq)
		if err := sys.TransmittedWrenches(F, 0.3, q, v, a, lambda); err != nil {
			t.Fatal(err)
		}
		for i := range nq {
			got := sys.w.s[i].dot(join(F[i].Moment, F[i].Force))
			if math.Abs(got-want[i]) > 1e-10*(1+math.Abs(want[i])) {
				t.Errorf("%s: coordinate %s: s·F = %.12g, want %.12g", name, sys.CoordinateName(i), got, want[i])
			}
			// AxisLoad is the part along the axis: F less it does no work on q_i.
			if rest := sys.w.s[i].dot(join(vec3(F[i].Moment).sub(sys.AxisLoad(i, F[i]).Moment), vec3(F[i].Force).sub(sys.AxisLoad(i, F[i]).Force))); math.Abs(rest) > 1e-12*(1+math.Abs(want[i])) {
				t.Errorf("%s: coordinate %s: s·(F − AxisLoad) = %.3g, want 0", name, sys.CoordinateName(i), rest)
			}
		}
	}
}

// axisLoads is (M a − f + Gᵀλ)_i + the joint spring's force on i − the drives' λ on i at
// t = 0.3.
func axisLoads(sys *System, nq int, q, v, a, lambda []float64) []float64 {
	_, nc := sys.Size()
	M, G := mat.NewDense(nq, nq, nil), mat.NewDense(nc, nq, nil)
	sys.Mass(M, 0.3, q)
	sys.ConstraintJacobian(G, 0.3, q)
	f := make([]float64, nq)
	sys.Force(f, 0.3, q, v)
	var Ma, Gl mat.VecDense
	Ma.MulVec(M, mat.NewVecDense(nq, a))
	Gl.MulVec(G.T(), mat.NewVecDense(nc, lambda))
	out := make([]float64, nq)
	for i := range out {
		out[i] = Ma.AtVec(i) - f[i] + Gl.AtVec(i) + sys.m.prims[i].jointForce(q[i], v[i])
	}
	for k, d := range sys.m.drives {
		out[d.coord] -= lambda[nc-len(sys.m.drives)+k]
	}
	return out
}

// TestTransmittedWrenchesAllocateNothing: a sample's pass over the tree allocates nothing
// after its first call.
func TestTransmittedWrenchesAllocateNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 52))
	sys, nq, q, v := elementSystem(t, rng, randomTree(rng), true)
	_, nc := sys.Size()
	a, lambda, F := make([]float64, nq), make([]float64, nc), make([]Wrench, nq)
	if n := testing.AllocsPerRun(10, func() {
		q[0] += 1e-3
		if err := sys.TransmittedWrenches(F, 0, q, v, a, lambda); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("TransmittedWrenches: %g allocations, want 0", n)
	}
}
