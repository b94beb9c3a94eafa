package modelfile

import (
	"testing"

	"linkage/integrate"
)

// BenchmarkRevoluteChain3D: Exudyn's 400-body performance model (examples/revolute-chain3d.yaml
// with N: 400; Exudyn publishes 5.3 ms per step with its generalized-α at h = 1 ms) with hht
// at Exudyn's fixed h = 1 ms over 0.1 s (100 steps from rest), on the joint route (400
// joint coordinates) and the body route (2800 coordinates, 2400 constraint rows). ms/step
// divides the run's time by its steps; f/step counts residual evaluations and GMRES
// products.
func BenchmarkRevoluteChain3D(b *testing.B) {
	for _, route := range []string{"joint", "body"} {
		b.Run("coordinates="+route, func(b *testing.B) {
			built := revoluteChainModel(b, route)
			const tEnd, h = 0.1, 1e-3
			var st integrate.Stats
			b.ReportAllocs()
			for b.Loop() {
				m := integrate.DefaultHHT()
				sol, err := integrate.Solve(&m, "hht", built.Integrated, built.Start, tEnd,
					integrate.SolveOptions{Control: integrate.StepControl{FixedH: h}, Output: []float64{tEnd}})
				if err != nil {
					b.Fatal(err)
				}
				st = sol.Stats
			}
			reportPerStep(b, st)
		})
	}
}

// revoluteChainModel builds Exudyn's 400-body model (revoluteChain400) on the route
// coordinates.
func revoluteChainModel(b *testing.B, coordinates string) *Built {
	b.Helper()
	doc, err := Parse("revolute-chain3d.yaml", []byte(revoluteChain400(b, coordinates)))
	if err != nil {
		b.Fatal(err)
	}
	built, err := Build(doc)
	if err != nil {
		b.Fatal(err)
	}
	return built
}

// reportPerStep reports a run's time (ms/step: the benchmark's time over its iterations,
// each a run of st.Steps steps), residual evaluations with the GMRES products (f/step),
// Newton iterations and factorizations per step.
func reportPerStep(b *testing.B, st integrate.Stats) {
	steps := float64(st.Steps)
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N)/steps, "ms/step")
	b.ReportMetric(float64(st.FuncEvals)/steps, "f/step")
	b.ReportMetric(float64(st.NewtonIters)/steps, "newton/step")
	b.ReportMetric(float64(st.Factorizations)/steps, "fact/step")
}
