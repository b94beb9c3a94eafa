package spatial_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
	"linkage/problems"
	"linkage/spatial"
)

// BenchmarkEvaluations measures one evaluation of each System quantity on the spatial
// four-bar (21 coordinates, 23 rows): the per-Newton-iteration costs of the implicit
// methods. Run: go test -run X -bench Evaluations -benchtime 2000x ./spatial/
func BenchmarkEvaluations(b *testing.B) {
	t := &testing.T{}
	sys, _ := spatialFourBar(t)
	nq, nc := sys.Size()
	p := randomPoint(rand.New(rand.NewPCG(11, 12)), nq, nc)
	M := mat.NewDense(nq, nq, nil)
	G := mat.NewDense(nc, nq, nil)
	f := make([]float64, nq)
	g := make([]float64, nc)
	cases := []struct {
		name string
		fn   func()
	}{
		{"Mass", func() { sys.Mass(M, p.T, p.Q) }},
		{"Force", func() { sys.Force(f, p.T, p.Q, p.V) }},
		{"Constraint", func() { sys.Constraint(g, p.T, p.Q) }},
		{"ConstraintJacobian", func() { sys.ConstraintJacobian(G, p.T, p.Q) }},
		{"Gamma", func() { sys.Gamma(g, p.T, p.Q, p.V) }},
		{"ConstraintForceDerivative", func() { sys.ConstraintForceDerivative(M, p.T, p.Q, p.Lambda) }},
		{"ForceDerivativeQ", func() { sys.ForceDerivativeQ(M, p.T, p.Q, p.V) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.fn()
			}
		})
	}
}

// chain3D assembles examples/chain3d.yaml's chain: n rods (length 0.5 m, mass 1 kg, a
// slender cylinder of radius 0.01 m) on spherical joints, the first hung from the origin,
// along +x turning at 1 rad/s about the vertical.
func chain3D(n int) (*spatial.System, error) {
	const l, m, r, w = 0.5, 1.0, 0.01, 1.0
	md := spatial.NewModel()
	md.SetGravity(spatial.Vec3{0, 0, -9.81})
	prev := md.AddMarker(spatial.Marker{Name: "O", Body: spatial.Ground})
	for i := range n {
		x := (float64(i) + 0.5) * l
		b := md.AddBody(spatial.Body{Name: fmt.Sprint("rod", i+1), Mass: m, Inertia: spatial.Diag(m*r*r/2, m*l*l/12, m*l*l/12),
			Pos: spatial.Vec3{x, 0, 0}, Vel: spatial.Vec3{0, w * x, 0}, AngVel: spatial.Vec3{0, 0, w}})
		md.AddSpherical(fmt.Sprint("ball", i+1), prev, md.AddMarker(spatial.Marker{Body: b, Point: spatial.Vec3{-l / 2, 0, 0}}))
		prev = md.AddMarker(spatial.Marker{Body: b, Point: spatial.Vec3{l / 2, 0, 0}})
	}
	return md.Assemble()
}

// warmChain3D starts hht (tolerance 1e-4) on the chain of n rods from its consistent
// start and takes 20 steps, so that what follows times or checks the steady state.
func warmChain3D(tb testing.TB, n int) integrate.Method {
	sys, err := chain3D(n)
	if err != nil {
		tb.Fatal(err)
	}
	q0, v0 := sys.InitialGuess()
	c, err := dae.Initialize(sys, 0, q0, v0, nil)
	if err != nil {
		tb.Fatal(err)
	}
	m := integrate.DefaultHHT()
	start := integrate.State{Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
	if err := m.Init(sys, start, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
		tb.Fatal(err)
	}
	for range 20 {
		if err := m.Step(math.Inf(1)); err != nil {
			tb.Fatal(err)
		}
	}
	return &m
}

// BenchmarkChain3DStep measures an accepted step of hht (tolerance 1e-4) on the 400-rod
// chain of examples/chain3d.yaml (issue 15's target: ≤ 0.5 ms; Exudyn publishes 5.3 ms for
// its 400-body chain), after 20 warm-up steps. Run:
//
//	go test -run X -bench Chain3DStep -benchtime 100x -cpuprofile cpu.out ./spatial/
func BenchmarkChain3DStep(b *testing.B) {
	m := warmChain3D(b, 400)
	s0 := m.Stats()
	b.ReportAllocs()
	for b.Loop() {
		if err := m.Step(math.Inf(1)); err != nil {
			b.Fatal(err)
		}
	}
	s := m.Stats()
	steps := float64(s.Steps - s0.Steps)
	b.ReportMetric(float64(s.NewtonIters-s0.NewtonIters)/steps, "newton/step")
	b.ReportMetric(float64(s.Jacobians-s0.Jacobians)/steps, "jacobians/step")
	b.ReportMetric(float64(s.NewtonFailures-s0.NewtonFailures)/steps, "failures/step")
}

// BenchmarkLieChainStep is the cost of one fixed step (h = 1e-3, lie-genalpha index 3) of
// the N-rod chain on the Lie group, through spatial.LieSystem (adapter: the
// Euler-parameter System's dense matrices mapped by E) and through problems.LieChain3D
// (hand: the same equations written on the group), from the same state (rods along +x at
// rest), 200 steps per run:
//
//	go test ./spatial/ -run X -bench LieChainStep -benchtime 200x -count 2
func BenchmarkLieChainStep(b *testing.B) {
	for _, n := range []int{2, 5, 10, 20} {
		hand, err := problems.NewLieChain3D(n)
		if err != nil {
			b.Fatal(err)
		}
		sys, err := chain3D(n)
		if err != nil {
			b.Fatal(err)
		}
		adapter := newLie(b, sys, nil)
		for _, c := range []struct {
			name string
			sys  dae.LieSystem
		}{{"adapter", adapter}, {"hand", hand}} {
			b.Run(fmt.Sprintf("%s/N=%d", c.name, n), func(b *testing.B) {
				m := integrate.DefaultLieGenAlpha()
				if err := m.InitLie(c.sys, hand.Start(), integrate.StepControl{FixedH: 1e-3, RTol: 1e-6, ATol: 1e-6}); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := m.Step(math.Inf(1)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
