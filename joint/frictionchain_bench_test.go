package joint_test

import (
	"fmt"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
	"linkage/law"
)

// frictionChain is n planar rods (1 m, 1 kg) stretched along +x and released under
// gravity, each on a pin with joint friction (μ 0.3, pin radius 0.02 m, viscous 0.01
// N·m·s/rad, slip speed 0.05 rad/s): the pin's slack x and y slides are held at zero by
// the friction's hold rows, which carry its reaction. 3n coordinates, 2n constraints.
func frictionChain(n int) (*joint.System, integrate.State, error) {
	md := &joint.Model{Gravity: [3]float64{0, -9.81, 0}}
	rod := joint.Body{Mass: 1, COM: [3]float64{0.5, 0, 0},
		Inertia: [3][3]float64{{0.045, 0, 0}, {0, 1.0 / 12, 0}, {0, 0, 1.0 / 12}}}
	f, origin := joint.Ground, [3]float64{}
	for i := range n {
		name := fmt.Sprint("pin", i+1)
		f = md.Prismatic(name+".x", f, origin, [3]float64{1, 0, 0}, joint.Body{Name: name + ".x"})
		f = md.Prismatic(name+".y", f, [3]float64{}, [3]float64{0, 1, 0}, joint.Body{Name: name + ".y"})
		rod.Name = fmt.Sprint("bar", i+1)
		f = md.Revolute(name, f, [3]float64{}, [3]float64{0, 0, 1}, rod)
		md.Friction(name, f, law.Friction{Mu: 0.3, VReg: 0.05, Radius: 0.02, Viscous: 0.01},
			joint.Hold{Name: "x", Coord: f - 2, Weight: 1}, joint.Hold{Name: "y", Coord: f - 1, Weight: 1})
		origin = [3]float64{1, 0, 0}
	}
	sys, err := md.System()
	if err != nil {
		return nil, integrate.State{}, err
	}
	nq, nc := sys.Size()
	return sys, integrate.NewState(nq, nc), nil
}

// BenchmarkFrictionChainHHTStep: hht steps (RTol = ATol = 1e-4) on the planar chain with
// friction in every pin, on the joint route's Newton-Krylov path (the residual carries
// f_λ at the iterate's λ). Run:
//
//	go test -run X -bench FrictionChainHHTStep -benchtime 20x ./joint/
func BenchmarkFrictionChainHHTStep(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			sys, s, err := frictionChain(n)
			if err != nil {
				b.Fatal(err)
			}
			m := integrate.DefaultHHT()
			benchSteps(b, &m, sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
		})
	}
}

// denseFriction hides dae.MassSolver and dae.MassMultiplier from a joint system with
// friction, keeping its λ-dependent forces and energy invariant (multi-index's estimate).
type denseFriction struct {
	denseOnly
	dae.ReactionForce
	dae.EnergyInvariant
}

// benchFrictionPaths runs label/path/N=n for n = 10, 100, 1000: steps of newMethod's
// method on the friction chain of n pins, on its path through dae.MassSolver (named
// fast) and on the dense path (MassSolver and MassMultiplier hidden, f_λ kept), the start's
// multipliers sized for the methods that check them.
func benchFrictionPaths(b *testing.B, label, fast string, newMethod func() integrate.Method, ctl integrate.StepControl) {
	for _, n := range []int{10, 100, 1000} {
		for _, path := range []string{fast, "dense"} {
			b.Run(fmt.Sprintf("%s/%s/N=%d", label, path, n), func(b *testing.B) {
				sys, s, err := frictionChain(n)
				if err != nil {
					b.Fatal(err)
				}
				nq, nc := sys.Size()
				st := integrate.NewState(nq, nc)
				copy(st.Q, s.Q)
				var run dae.System = sys
				if path == "dense" {
					run = denseFriction{denseOnly{sys, sys, sys, sys}, sys, sys}
				}
				benchSteps(b, newMethod(), run, st, ctl, 5)
			})
		}
	}
}

// registered returns a constructor of the registry's method name.
func registered(b *testing.B, name string) func() integrate.Method {
	e, err := integrate.Lookup(name)
	if err != nil {
		b.Fatal(err)
	}
	return func() integrate.Method {
		m, _ := e.NewMethod("")
		return m
	}
}

// BenchmarkFrictionChainALIStep: ali3, ali1 (fixed h = 1 ms) and multi-index (RTol = ATol
// = 1e-4) steps on the planar chain with friction in every pin, on the augmented
// Lagrangian methods' Newton-Krylov path (f_λ pressed by λ̂ of eq. 17 at the iterate, its
// derivative through λ̂ by the linearized eq. 17 in every product), and on the dense path
// (addLambdaHat). N = 1000 of either needs the hold rows out of massSchur's Schur
// complement, or 3000² matrices. Run:
//
//	go test -run X -bench 'FrictionChainALIStep/.*/.*/N=(10|100)$' -benchtime 20x ./joint/
func BenchmarkFrictionChainALIStep(b *testing.B) {
	for _, method := range []string{"ali3", "ali1", "multi-index"} {
		ctl := integrate.StepControl{FixedH: 1e-3, RTol: 1e-4, ATol: 1e-4}
		if method == "multi-index" {
			ctl.FixedH = 0
		}
		benchFrictionPaths(b, method, "krylov", registered(b, method), ctl)
	}
}

// BenchmarkFrictionChainDAEAlphaStep: daealpha index2 and index1-proj steps (RTol = ATol
// = 1e-4) on the planar chain with friction in every pin, on the Newton-Krylov corrector
// (the residual presses f_λ with the iterate's multipliers) and on the dense path. Run:
//
//	go test -run X -bench 'FrictionChainDAEAlphaStep/.*/.*/N=(10|100)$' -benchtime 20x ./joint/
func BenchmarkFrictionChainDAEAlphaStep(b *testing.B) {
	for _, form := range []integrate.Formulation{integrate.Index2, integrate.Index1Projected} {
		benchFrictionPaths(b, string(form), "krylov", func() integrate.Method {
			m := integrate.DefaultDAEAlpha()
			m.Formulation = form
			return &m
		}, integrate.StepControl{RTol: 1e-4, ATol: 1e-4})
	}
}

// BenchmarkFrictionChainGCPStep: gcp-newmark (RTol = ATol = 1e-4) and gcp-abm (fixed h =
// 1 ms) steps on the planar chain with friction in every pin, on their mass-solve paths
// (Ψ with f_λ pressed by λ of eq. 38; eq. 39 as eq. 17 with f_λ) and on the dense path. Run:
//
//	go test -run X -bench 'FrictionChainGCPStep/.*/.*/N=(10|100)$' -benchtime 20x ./joint/
func BenchmarkFrictionChainGCPStep(b *testing.B) {
	for _, method := range []string{"gcp-newmark", "gcp-abm"} {
		ctl := integrate.StepControl{RTol: 1e-4, ATol: 1e-4}
		if method == "gcp-abm" {
			ctl = integrate.StepControl{FixedH: 1e-3}
		}
		benchFrictionPaths(b, method, "mass", registered(b, method), ctl)
	}
}

// BenchmarkFrictionChainGenAlphaDense: genalpha (index3) on the 100-pin friction chain
// with its dense Newton matrix with ∂f_λ (denseFriction), where BenchmarkFrictionChainGenAlphaStep
// runs the Newton-Krylov path. Run:
//
//	go test -run X -bench 'FrictionChainGenAlphaDense' -benchtime 20x ./joint/
func BenchmarkFrictionChainGenAlphaDense(b *testing.B) {
	sys, s, err := frictionChain(100)
	if err != nil {
		b.Fatal(err)
	}
	m := integrate.DefaultGenAlpha()
	benchSteps(b, &m, denseFriction{denseOnly{sys, sys, sys, sys}, sys, sys}, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
}

// BenchmarkFrictionChainGenAlphaStep: genalpha (index3, si2), newmark (si2, index3) and
// lie-genalpha (index3, si2; genalpha's run on a joint System) steps (RTol = ATol = 1e-4)
// on the planar chain with friction in every pin: above massNewtonDenseMax (200)
// coordinates on the joint route's Newton-Krylov path (the residuals of eqs. 69/94 carry
// f_λ at the iterate's λ), below it on the dense matrix with ∂f_λ. Run:
//
//	go test -run X -bench 'FrictionChainGenAlphaStep/.*/N=(10|100)$' -benchtime 20x ./joint/
//	go test -run X -bench 'FrictionChainGenAlphaStep/genalpha-index3/N=1000' -benchtime 3x ./joint/
func BenchmarkFrictionChainGenAlphaStep(b *testing.B) {
	for _, c := range []struct {
		method string
		form   integrate.Formulation
	}{
		{"genalpha", integrate.Index3}, {"genalpha-si2", integrate.StabilizedIndex2},
		{"newmark", integrate.StabilizedIndex2}, {"newmark", integrate.Index3},
		{"lie-genalpha", integrate.Index3}, {"lie-genalpha", integrate.StabilizedIndex2},
	} {
		for _, n := range []int{10, 100, 1000} {
			b.Run(fmt.Sprintf("%s-%s/N=%d", c.method, c.form, n), func(b *testing.B) {
				sys, s, err := frictionChain(n)
				if err != nil {
					b.Fatal(err)
				}
				e, err := integrate.Lookup(c.method)
				if err != nil {
					b.Fatal(err)
				}
				m, err := e.NewMethod(c.form)
				if err != nil {
					b.Fatal(err)
				}
				benchSteps(b, m, sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
			})
		}
	}
}

// BenchmarkFrictionChainFirstOrderStep: bdf (ggl) and radau5 (ggl) steps (RTol = ATol =
// 1e-4) on the planar chain with friction in every pin: the dense Newton matrix with ∂f_λ
// at N = 10 (30 coordinates, below massNewtonDenseMax), the Newton-Krylov path above (the
// residual carries f_λ at the iterate's λ). Run:
//
//	go test -run X -bench FrictionChainFirstOrderStep -benchtime 20x ./joint/
func BenchmarkFrictionChainFirstOrderStep(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		for _, method := range []string{"bdf", "radau5"} {
			b.Run(fmt.Sprintf("%s/N=%d", method, n), func(b *testing.B) {
				sys, s, err := frictionChain(n)
				if err != nil {
					b.Fatal(err)
				}
				e, err := integrate.Lookup(method)
				if err != nil {
					b.Fatal(err)
				}
				m, err := e.NewMethod(integrate.StabilizedIndex2)
				if err != nil {
					b.Fatal(err)
				}
				benchSteps(b, m, sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
			})
		}
	}
}
