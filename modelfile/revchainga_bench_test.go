package modelfile

import (
	"testing"

	"linkage/integrate"
)

// BenchmarkRevoluteChain3DGenAlpha is BenchmarkRevoluteChain3D's joint route with
// genalpha, Exudyn's own method, at its ρ∞ = 0.8 (index 3): Exudyn's 400-body model
// (examples/revolute-chain3d.yaml with N: 400) at Exudyn's fixed h = 1 ms over 0.1 s (100
// steps from rest). ms/step divides the run's time by its steps; f/step counts residual
// evaluations and GMRES products. Its work is deterministic, so instructions per step
// (callgrind on `(*GenAlpha).Step`, -benchtime 1x) compare trees. Run:
//
//	go test -run X -bench RevoluteChain3DGenAlpha -benchtime 3x ./modelfile/
func BenchmarkRevoluteChain3DGenAlpha(b *testing.B) {
	built := revoluteChainModel(b, "joint")
	p, err := integrate.GenAlphaFromRhoInf(0.8)
	if err != nil {
		b.Fatal(err)
	}
	const tEnd, h = 0.1, 1e-3
	var st integrate.Stats
	b.ReportAllocs()
	for b.Loop() {
		m := integrate.DefaultGenAlpha()
		m.Params = p
		sol, err := integrate.Solve(&m, "genalpha", built.Integrated, built.Start, tEnd,
			integrate.SolveOptions{Control: integrate.StepControl{FixedH: h}, Output: []float64{tEnd}})
		if err != nil {
			b.Fatal(err)
		}
		st = sol.Stats
	}
	reportPerStep(b, st)
}
