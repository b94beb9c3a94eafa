package joint_test

import (
	"fmt"
	"math"
	"testing"

	"linkage/cputime"
	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
	"linkage/spatial"
)

// Chain3D is examples/chain3d.yaml's chain in joint coordinates: n rods (0.5 m, 1 kg, a
// slender cylinder of radius 0.01 m) on spherical joints (Cardan angles), the first hung
// from the origin, stretched along +x and turning at 1 rad/s about the vertical (the first
// joint's z rate; the others' relative rates are zero). It returns the system and its
// consistent start.
func Chain3D(n int) (*joint.System, integrate.State, error) {
	md, _ := chain3DModel(n)
	sys, err := md.System()
	if err != nil {
		return nil, integrate.State{}, err
	}
	nq, _ := sys.Size()
	s := integrate.NewState(nq, 0)
	s.V[md.Coordinate("ball1.z")] = chain3DRate
	sys.Accelerations(s.A, 0, s.Q, s.V)
	return sys, s, nil
}

// chain3DRod is the length of Chain3D's rods, chain3DRate its start's turning rate.
const chain3DRod, chain3DRate = 0.5, 1.0

// chain3DModel builds Chain3D's model and returns it with the last rod's frame.
func chain3DModel(n int) (*joint.Model, int) { return chain3DModelOfRadius(n, 0.01) }

// chain3DModelOfRadius is chain3DModel with rods of radius r.
func chain3DModelOfRadius(n int, r float64) (*joint.Model, int) {
	return chain3DModelHungAt(n, r, [3]float64{})
}

// chain3DModelHungAt is chain3DModelOfRadius with the first rod hung from the point p.
func chain3DModelHungAt(n int, r float64, p [3]float64) (*joint.Model, int) {
	const l, m = chain3DRod, 1.0
	md := &joint.Model{Gravity: [3]float64{0, 0, -9.81}}
	rod := joint.Body{Mass: m, COM: [3]float64{l / 2, 0, 0},
		Inertia: [3][3]float64{{m * r * r / 2, 0, 0}, {0, m * l * l / 12, 0}, {0, 0, m * l * l / 12}}}
	f, origin := joint.Ground, p
	for i := range n {
		rod.Name = fmt.Sprint("rod", i+1)
		f = md.Spherical(fmt.Sprint("ball", i+1), f, origin, rod)
		origin = [3]float64{l, 0, 0}
	}
	return md, f
}

// bodyChain3D is the same chain in body coordinates (spatial route, Euler parameters).
func bodyChain3D(n int) (dae.System, integrate.State, error) {
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
	sys, err := md.Assemble()
	if err != nil {
		return nil, integrate.State{}, err
	}
	q0, v0 := sys.InitialGuess()
	c, err := dae.Initialize(sys, 0, q0, v0, nil)
	if err != nil {
		return nil, integrate.State{}, err
	}
	return sys, integrate.State{Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}, nil
}

// BenchmarkChainStep measures one rk4 step (h = 1e-3: four evaluations of eq. 17) on the
// chain of N rods in joint coordinates (articulated-body recursion through
// dae.MassSolver) and in body coordinates (spatial route: sparse KKT and the
// mass-orthogonal projections), after 10 warm-up steps. Run:
//
//	go test -run X -bench ChainStep -benchtime 200x ./joint/
func BenchmarkChainStep(b *testing.B) {
	for _, route := range []string{"joint", "body"} {
		for _, n := range []int{10, 100, 1000} {
			b.Run(fmt.Sprintf("route=%s/N=%d", route, n), func(b *testing.B) {
				sys, s := chainOnRoute(b, route, n)
				benchSteps(b, &integrate.RK4{}, sys, s, integrate.StepControl{FixedH: 1e-3}, 10)
			})
		}
	}
}

// TestChainStepAllocatesNothing: an rk4 step on the joint route allocates nothing.
func TestChainStepAllocatesNothing(t *testing.T) {
	sys, s, err := Chain3D(20)
	if err != nil {
		t.Fatal(err)
	}
	m := &integrate.RK4{}
	if err := m.Init(sys, s, integrate.StepControl{FixedH: 1e-3}); err != nil {
		t.Fatal(err)
	}
	if err := m.Step(math.Inf(1)); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(20, func() {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("rk4 step on the joint route: %g allocations, want 0", a)
	}
}

// BenchmarkChainRun measures whole dopri5 runs at tolerance 1e-4 on the joint-coordinate
// chains of PEERS.md's Simbody table (25 rods for 2 s, 100 and 400 rods for 0.5 s). Run:
//
//	go test -run X -bench ChainRun -benchtime 3x ./joint/
func BenchmarkChainRun(b *testing.B) {
	for _, c := range []struct {
		n    int
		tEnd float64
	}{{25, 2}, {100, 0.5}, {400, 0.5}} {
		b.Run(fmt.Sprintf("N=%d", c.n), func(b *testing.B) {
			sys, s, err := Chain3D(c.n)
			if err != nil {
				b.Fatal(err)
			}
			var steps int
			for b.Loop() {
				sol, err := integrate.Solve(&integrate.DOPRI5{}, "dopri5", sys, s, c.tEnd,
					integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, Output: []float64{c.tEnd}})
				if err != nil {
					b.Fatal(err)
				}
				steps = sol.Stats.Steps
			}
			b.ReportMetric(float64(steps), "steps")
		})
	}
}

// BenchmarkChainImplicitStep measures an accepted hht, genalpha (index3, si2), bdf (ggl) or radau5 (ggl) step (tolerance 1e-4,
// after 5 warm-up steps) on the 3D chain of N rods: on the joint route, whose Newton
// increments come from GMRES on residual differences preconditioned by the mass part
// [M/(1+α) Gᵀ; G 0] (C M for genalpha, c_j² M after eliminating q' and v' for bdf, c² M
// with c = γ/h and (α+iβ)/h for radau5's real and complex systems) through the articulated-body recursion
// (integrate's massNewton: no nq×nq matrix); on the joint route with the dense Newton matrix (MassSolve hidden: CRBA M, the
// analytic derivatives of derivatives.go, dense LU; N ≤ 100); and on the body route
// (spatial, Euler parameters, sparse KKT). cpu-ms/step is the process CPU time per step,
// steady on a loaded machine where ns/op is not; h-ms the mean step in milliseconds. Run:
//
//	go test -run X -bench ChainImplicitStep -benchtime 20x ./joint/
func BenchmarkChainImplicitStep(b *testing.B) {
	for _, method := range []string{"hht", "genalpha", "genalpha-si2", "bdf", "radau5"} {
		for _, route := range []string{"joint", "joint-dense", "body"} {
			for _, n := range []int{10, 100, 1000} {
				if route == "joint-dense" && n > 100 {
					continue
				}
				b.Run(fmt.Sprintf("method=%s/route=%s/N=%d", method, route, n), func(b *testing.B) {
					benchImplicit(b, method, route, n)
				})
			}
		}
	}
}

// BenchmarkChainBDFFormStep is BenchmarkChainImplicitStep's joint-route case for bdf in
// each of its forms (ggl, the default, for comparison), all on the Newton-Krylov path
// (integrate's bdfMassPrecond with the form's constraint weights). Run:
//
//	go test -run X -bench ChainBDFFormStep -benchtime 20x ./joint/
func BenchmarkChainBDFFormStep(b *testing.B) {
	for _, form := range []integrate.Formulation{integrate.StabilizedIndex2, integrate.Index2,
		integrate.Index2Baumgarte, integrate.Index3, integrate.Index1, integrate.Baumgarte} {
		for _, n := range []int{10, 100, 1000} {
			b.Run(fmt.Sprintf("form=%s/N=%d", form, n), func(b *testing.B) {
				sys, s, err := Chain3D(n)
				if err != nil {
					b.Fatal(err)
				}
				bdf := integrate.DefaultBDF()
				bdf.Formulation = form
				benchSteps(b, &bdf, sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
			})
		}
	}
}

// benchImplicit is one case of BenchmarkChainImplicitStep.
func benchImplicit(b *testing.B, method, route string, n int) {
	var sys dae.System
	var s integrate.State
	var err error
	switch route {
	case "joint", "joint-dense":
		var js *joint.System
		js, s, err = Chain3D(n)
		sys = js
		if route == "joint-dense" {
			sys = denseOnly{js, js, js, js}
		}
	default:
		sys, s, err = bodyChain3D(n)
	}
	if err != nil {
		b.Fatal(err)
	}
	var m integrate.Method
	switch method {
	case "hht":
		hht := integrate.DefaultHHT()
		m = &hht
	case "bdf":
		bdf := integrate.DefaultBDF()
		m = &bdf
	case "radau5":
		m = &integrate.Radau5{}
	case "genalpha-si2":
		ga := integrate.DefaultGenAlpha()
		ga.Formulation, ga.Name = integrate.StabilizedIndex2, "genalpha-si2"
		m = &ga
	default:
		ga := integrate.DefaultGenAlpha()
		m = &ga
	}
	benchSteps(b, m, sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
}

// denseOnly hides dae.MassSolver and dae.MassMultiplier from a joint system, keeping its
// analytic derivatives: the implicit methods then form their dense Newton matrices.
type denseOnly struct {
	dae.System
	dae.MassDerivative
	dae.ForceDerivative
	dae.ConstraintForceDerivative
}

// benchSteps times the steps of m on sys after warm steps, and reports Jacobians, Newton
// iterations, attempts refused by the error test and abandoned by the Newton iteration
// (not converged, singular, non-finite) per accepted step.
func benchSteps(b *testing.B, m integrate.Method, sys dae.System, s integrate.State, ctl integrate.StepControl, warm int) {
	if err := m.Init(sys, s, ctl); err != nil {
		b.Fatal(err)
	}
	for range warm {
		if err := m.Step(math.Inf(1)); err != nil {
			b.Fatal(err)
		}
	}
	s0, t0 := m.Stats(), m.Current().T
	b.ReportAllocs()
	c0 := cputime.Process()
	for b.Loop() {
		if err := m.Step(math.Inf(1)); err != nil {
			b.Fatal(err)
		}
	}
	cpu := cputime.Process() - c0
	st := m.Stats()
	steps := float64(st.Steps - s0.Steps)
	b.ReportMetric(float64(cpu.Microseconds())/1e3/steps, "cpu-ms/step")
	b.ReportMetric((m.Current().T-t0)/steps*1e3, "h-ms")
	b.ReportMetric(float64(st.FuncEvals-s0.FuncEvals)/steps, "fevals/step")
	b.ReportMetric(float64(st.Jacobians-s0.Jacobians)/steps, "jacobians/step")
	b.ReportMetric(float64(st.NewtonIters-s0.NewtonIters)/steps, "newton/step")
	b.ReportMetric(float64(st.Rejected-s0.Rejected)/steps, "rejected/step")
	fails := func(s integrate.Stats) int { return s.NewtonFailures + s.Singular + s.NonFinite }
	b.ReportMetric(float64(fails(st)-fails(s0))/steps, "nfail/step")
}

// BenchmarkTransmittedWrenches: the reaction pass an output sample runs (every tree
// joint's transmitted wrench) on the spherical chain, against one Force evaluation at the
// same state (the recursive Newton-Euler pass it extends): both O(N).
func BenchmarkTransmittedWrenches(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		sys, s, err := Chain3D(n)
		if err != nil {
			b.Fatal(err)
		}
		nq, _ := sys.Size()
		b.Run(fmt.Sprintf("pass=wrenches/N=%d", n), func(b *testing.B) {
			w := make([]joint.Wrench, nq)
			b.ReportAllocs()
			for b.Loop() {
				s.Q[0] += 1e-12 // new positions: the kinematics cache does not hide the work
				if err := sys.TransmittedWrenches(w, 0, s.Q, s.V, s.A, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("pass=force/N=%d", n), func(b *testing.B) {
			f := make([]float64, nq)
			b.ReportAllocs()
			for b.Loop() {
				s.Q[0] += 1e-12
				sys.Force(f, 0, s.Q, s.V)
			}
		})
	}
}

// stepAllocs takes warm steps of m (initialized), then returns the allocations of one
// more step, averaged over 10 (testing.AllocsPerRun).
func stepAllocs(t testing.TB, m integrate.Method, warm int) float64 {
	t.Helper()
	step := func() {
		if err := m.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}
	for range warm {
		step()
	}
	return testing.AllocsPerRun(10, step)
}
