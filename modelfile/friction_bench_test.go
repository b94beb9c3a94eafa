package modelfile

import (
	"path/filepath"
	"testing"

	"linkage/integrate"
)

// BenchmarkFrictionStiffChain: one run (t_end = 1, tol 1e-4 and 1e-6) of hht and bdf on
// the stiff chain of 20 bars without and with pin friction in every joint
// (examples/stiff-chain.yaml, stiff-chain-friction.yaml; BENCHMARKS.md, "Cost of joint
// friction"), both on the sparse evaluation path; ms/step divides the run's time by its
// accepted steps.
func BenchmarkFrictionStiffChain(b *testing.B) {
	for _, method := range []string{"hht", "bdf"} {
		for _, tol := range []float64{1e-4, 1e-6} {
			for _, model := range []string{"stiff-chain", "stiff-chain-friction"} {
				b.Run(method+"/"+model+"/tol="+[...]string{"1e-4", "1e-6"}[map[float64]int{1e-4: 0, 1e-6: 1}[tol]], func(b *testing.B) {
					doc, err := Load(filepath.Join("..", "examples", model+".yaml"))
					if err != nil {
						b.Fatal(err)
					}
					built, err := Build(doc)
					if err != nil {
						b.Fatal(err)
					}
					e, err := integrate.Lookup(method)
					if err != nil {
						b.Fatal(err)
					}
					var steps int
					b.ReportAllocs()
					for b.Loop() {
						sol, err := integrate.Solve(e.New(), method, built.Integrated, built.Start, 1,
							integrate.SolveOptions{Control: integrate.StepControl{RTol: tol, ATol: tol}, Output: []float64{1}})
						if err != nil {
							b.Fatal(err)
						}
						steps = sol.Stats.Steps
					}
					b.ReportMetric(float64(steps), "steps")
					b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(steps), "ms/step")
				})
			}
		}
	}
}

// BenchmarkFrictionEvaluations: the evaluations joint friction adds to a step of the
// stiff chain with friction (20 pins), beside the force evaluation it joins: f_λ once per
// residual, its derivative values once per Newton matrix.
func BenchmarkFrictionEvaluations(b *testing.B) {
	doc, err := Load(filepath.Join("..", "examples", "stiff-chain-friction.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	built, err := Build(doc)
	if err != nil {
		b.Fatal(err)
	}
	sys, s := built.System, built.Start
	nq, _ := sys.Size()
	f := make([]float64, nq)
	lambda := append([]float64(nil), s.Lambda...)
	v := append([]float64(nil), s.V...)
	for i := range v {
		v[i] = 0.1 * float64(i%3+1) // sliding pins
	}
	coup, g := sys.Patterns()
	vq, vv, vl := make([]float64, coup.NNZ()), make([]float64, coup.NNZ()), make([]float64, g.NNZ())
	for _, c := range []struct {
		name string
		eval func()
	}{
		{"Force", func() { sys.Force(f, s.T, s.Q, v) }},
		{"AddReactionForce", func() { sys.AddReactionForce(f, s.T, s.Q, v, lambda) }},
		{"ForceDerivativeVValues", func() { sys.ForceDerivativeVValues(vv, s.T, s.Q, v) }},
		{"ReactionForceDerivativeValues", func() { sys.ReactionForceDerivativeValues(vq, vv, vl, s.T, s.Q, v, lambda) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.eval()
			}
		})
	}
}
