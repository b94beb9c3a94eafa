package planar

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/assembly"
	"linkage/dae"
	"linkage/law"
)

// revoluteMix returns a model with every case the revolute plan meets: a chain of bars
// pinned to the ground at its start (body I the ground) and at its end (body J the
// ground), a pin whose body I comes after its body J in q, a motion on a pin (its row is
// generic, the pin's rows stay in the plan), a translational joint and a distance between
// the pins (generic rows between planned ones), and a body left free.
func revoluteMix(t *testing.T, n int) (*System, int) {
	m := NewModel()
	m.SetGravity(Vec{0, -9.81})
	g0 := m.AddMarker(Marker{Name: "O", Body: Ground})
	prev := g0
	var bodies []BodyID
	pins := 0
	for i := range n {
		b := m.AddBody(Body{Name: fmt.Sprintf("bar%d", i+1), Mass: 1, Inertia: 0.1, Pos: Vec{float64(i) + 0.5, 0}})
		bodies = append(bodies, b)
		a := m.AddMarker(Marker{Body: b, Point: Vec{-0.5, 0.1}})
		var p JointID
		if i == 3 {
			p = m.AddRevolute(fmt.Sprintf("pin%d", i+1), a, prev) // body I after body J
		} else {
			p = m.AddRevolute(fmt.Sprintf("pin%d", i+1), prev, a)
		}
		pins++
		if i == 2 {
			m.AddMotion("drive", p, law.Sine{Amplitude: 0.3, Omega: 2})
		}
		prev = m.AddMarker(Marker{Body: b, Point: Vec{0.5, -0.05}})
	}
	end := m.AddMarker(Marker{Body: Ground, Point: Vec{float64(n), 0}})
	m.AddRevolute("end", prev, end)
	pins++
	s1 := m.AddBody(Body{Name: "slider", Mass: 1, Inertia: 0.1, Pos: Vec{0, -1}})
	m.AddTranslational("slide", m.AddMarker(Marker{Body: bodies[1]}), m.AddMarker(Marker{Body: s1}))
	m.AddDistance("rod", m.AddMarker(Marker{Body: bodies[4], Point: Vec{0.2, 0}}), m.AddMarker(Marker{Body: s1, Point: Vec{0.1, 0}}), 1.5)
	m.AddBody(Body{Name: "free", Mass: 1, Inertia: 0.1})
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	return sys, pins
}

// TestRevoluteRowsPlan: the revolute plan (revrows.go) covers every revolute joint's rows
// and writes g, G, γ, ∂(G v)/∂q and ∂(Gᵀλ)/∂q with the same bits as the generic loop
// (Constraint, gamma without the plan, and the dense matrices, which take no positions), at
// random states with some angles, rates and multipliers exactly zero (the branches that
// leave exact zeros out).
func TestRevoluteRowsPlan(t *testing.T) {
	sys, pins := revoluteMix(t, 8)
	if got := len(sys.revolutePlan().joints); got != pins {
		t.Fatalf("the plan holds %d joints, want the %d revolute joints", got, pins)
	}
	packed := 0
	for _, j := range sys.revolutePlan().joints {
		if j.packed >= 0 {
			packed++
		}
	}
	if packed == 0 || packed == pins {
		t.Fatalf("%d of %d joints packed, want both kinds", packed, pins)
	}
	nq, nc := sys.Size()
	gc, cc := dae.ConstraintCSR(sys, nq, nc), dae.CouplingCSR(sys, nq)
	same := func(what string, got, want float64) {
		t.Helper()
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("%s: plan %v, generic %v: want the same bits", what, got, want)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 20 {
		u := func(n int) []float64 {
			x := make([]float64, n)
			for i := range x {
				x[i] = 2*r.Float64() - 1
			}
			return x
		}
		p := dae.CheckPoint{T: 0.37, Q: u(nq), V: u(nq), Lambda: u(nc)}
		for i := range nq {
			if r.IntN(4) == 0 {
				p.Q[i] = 0
			}
			if r.IntN(4) == 0 {
				p.V[i] = 0
			}
		}
		for i := range nc {
			if r.IntN(4) == 0 {
				p.Lambda[i] = 0
			}
		}
		g, gFast, gamma, gammaFast := make([]float64, nc), make([]float64, nc), make([]float64, nc), make([]float64, nc)
		sys.Constraint(g, p.T, p.Q)
		sys.gamma(gamma, p.T, p.Q, p.V, nil) // generic
		gammaPlan := make([]float64, nc)
		sys.Gamma(gammaPlan, p.T, p.Q, p.V)
		for i := range nc {
			same(fmt.Sprintf("trial %d Gamma[%d]", trial, i), gammaPlan[i], gamma[i])
		}
		G := mat.NewDense(nc, nq, nil)
		sys.ConstraintJacobian(G, p.T, p.Q)
		Gw := mat.NewDense(nc, nq, nil)
		sys.ConstraintJacobianDerivative(Gw, p.T, p.Q, p.V)
		H := mat.NewDense(nq, nq, nil)
		sys.ConstraintForceDerivative(H, p.T, p.Q, p.Lambda)

		gv, hv, lookup := make([]float64, gc.NNZ()), make([]float64, cc.NNZ()), make([]float64, gc.NNZ())
		sys.WriteConstraintJacobian(assembly.Sparse(&gc, lookup), p.T, p.Q) // generic, by look-ups
		check := func(pass string) {
			for i := range nc {
				same(fmt.Sprintf("trial %d %s g[%d]", trial, pass, i), gFast[i], g[i])
				for k, j := range gc.Row(i) {
					same(fmt.Sprintf("trial %d %s G[%d,%d]", trial, pass, i, j), gv[gc.RowStart[i]+k], G.At(i, j))
					same(fmt.Sprintf("trial %d %s G[%d,%d] by look-ups", trial, pass, i, j), lookup[gc.RowStart[i]+k], G.At(i, j))
				}
			}
		}
		sys.ConstraintWithJacobianValues(gFast, gv, p.T, p.Q)
		check("g with G")
		clear(gFast)
		sys.ConstraintJacobianGammaValues(gFast, gv, gammaFast, p.T, p.Q, p.V)
		check("g, G and gamma")
		for i := range nc {
			same(fmt.Sprintf("trial %d gamma[%d]", trial, i), gammaFast[i], gamma[i])
		}
		sys.ConstraintJacobianDerivativeValues(gv, p.T, p.Q, p.V)
		for i := range nc {
			for k, j := range gc.Row(i) {
				same(fmt.Sprintf("trial %d (G v)_q[%d,%d]", trial, i, j), gv[gc.RowStart[i]+k], Gw.At(i, j))
			}
		}
		sys.ConstraintForceDerivativeValues(hv, p.T, p.Q, p.Lambda)
		for i := range nq {
			for k, j := range cc.Row(i) {
				same(fmt.Sprintf("trial %d (G^T lambda)_q[%d,%d]", trial, i, j), hv[cc.RowStart[i]+k], H.At(i, j))
			}
		}
	}
}
