package joint_test

import (
	"fmt"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
)

// knifeChain3D is Chain3D with a knife edge at its tip (no velocity along (0, 1, 0.3) of
// the last rod's frame, so the row binds off the x-z plane) and the second rod's end held
// on the plane z = 0 by a cut joint: one holonomic and one Pfaffian row. The start is
// Chain3D's made consistent with both by dae.Initialize.
func knifeChain3D(b testing.TB, n int) (*joint.System, integrate.State) {
	md, tip := chain3DModel(n)
	md.Cut("hold", 2, [3]float64{chain3DRod, 0, 0}, joint.Ground, [3]float64{2 * chain3DRod, 0, 0}, [3]float64{0, 0, 1})
	md.KnifeEdge("blade", tip, [3]float64{chain3DRod, 0, 0}, [3]float64{0, 1, 0.3})
	sys, err := md.System()
	if err != nil {
		b.Fatal(err)
	}
	nq, _ := sys.Size()
	v := make([]float64, nq)
	v[md.Coordinate("ball1.z")] = chain3DRate
	c, err := dae.Initialize(dae.WithPfaffianRows(sys), 0, make([]float64, nq), v, nil)
	if err != nil {
		b.Fatal(err)
	}
	return sys, integrate.State{Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
}

// denseKnifeNewton hides the System's MassSolver and MassMultiplier and keeps its analytic
// derivatives and Pfaffian rows: genalpha then forms its dense Newton matrix.
type denseKnifeNewton struct {
	denseOnly
	dae.Nonholonomic
}

// BenchmarkKnifeChainGenAlphaStep measures an accepted step of genalpha in both forms
// (tolerance 1e-4, after 5 warm-up steps) on knifeChain3D of N rods: the Newton-Krylov
// path (the knife's Pfaffian row among massSchur's rows) against the dense Newton matrix
// (denseKnifeNewton, up to N = 100) in the same run.
func BenchmarkKnifeChainGenAlphaStep(b *testing.B) {
	for _, form := range []integrate.Formulation{integrate.Index3, integrate.StabilizedIndex2} {
		benchKnifeRoutes(b, fmt.Sprintf("form=%s/", form), func() integrate.Method {
			m := integrate.DefaultGenAlpha()
			m.Formulation = form
			return &m
		})
	}
}

// BenchmarkKnifeChainBDFStep is BenchmarkKnifeChainGenAlphaStep for bdf's ggl form (the
// knife's row among bdfMassPrecond's rows, its μ row μ = 0) and its Baumgarte forms (the
// row without a position weight).
func BenchmarkKnifeChainBDFStep(b *testing.B) {
	for _, form := range []integrate.Formulation{integrate.StabilizedIndex2, integrate.Index2Baumgarte, integrate.Baumgarte} {
		benchKnifeRoutes(b, fmt.Sprintf("form=%s/", form), func() integrate.Method { return &integrate.BDF{Formulation: form} })
	}
}

// BenchmarkKnifeChainHHTStep is BenchmarkKnifeChainGenAlphaStep for hht (the knife's row
// among massSchur's rows, its right side unscaled).
func BenchmarkKnifeChainHHTStep(b *testing.B) {
	benchKnifeRoutes(b, "", func() integrate.Method {
		m := integrate.DefaultHHT()
		return &m
	})
}

// BenchmarkKnifeChainLieGenAlphaStep is BenchmarkKnifeChainGenAlphaStep for lie-genalpha
// (index 3): on the joint route it runs as genalpha (krylovOnPlain), on the dense route
// its own iteration on ℝⁿ.
func BenchmarkKnifeChainLieGenAlphaStep(b *testing.B) {
	benchKnifeRoutes(b, "form=index3/", func() integrate.Method {
		m := integrate.DefaultLieGenAlpha()
		return &m
	})
}

// BenchmarkKnifeChainRadau5Step is BenchmarkKnifeChainGenAlphaStep for radau5's ggl form
// (the knife's row among radauKrylov's rows in its real and complex systems, μ = 0 for it).
func BenchmarkKnifeChainRadau5Step(b *testing.B) {
	benchKnifeRoutes(b, "form=ggl/", func() integrate.Method { return &integrate.Radau5{Formulation: integrate.StabilizedIndex2} })
}

// benchKnifeRoutes runs benchSteps of the method made by mk on knifeChain3D of 10, 100
// and 1000 rods on the Newton-Krylov path, and of 10 and 100 with the dense matrix.
func benchKnifeRoutes(b *testing.B, prefix string, mk func() integrate.Method) {
	for _, route := range []string{"joint", "joint-dense"} {
		for _, n := range []int{10, 100, 1000} {
			if route == "joint-dense" && n > 100 {
				continue
			}
			b.Run(fmt.Sprintf("%sroute=%s/N=%d", prefix, route, n), func(b *testing.B) {
				js, s := knifeChain3D(b, n)
				var sys dae.System = js
				if route == "joint-dense" {
					sys = denseKnifeNewton{denseOnly{js, js, js, js}, js}
				}
				benchSteps(b, mk(), sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
			})
		}
	}
}
