package integrate_test

import (
	"math"
	"testing"

	"linkage/integrate"
	"linkage/problems"
)

// BenchmarkNewtonFill reports the size of the sparse Newton matrices on the large chains
// (issue 15): nonzeros of the matrix's pattern (nnz-A), of its LU factors after 20 warm-up
// steps and b.N more (nnz-LU), all factorizations (LU), and the full ones and those by pivot blocks
// (block-LU, linalg.SparseLU.UseBlocks; radau5: its real system's) among them, with the CPU-free
// wall time per step as a side figure. The patterns follow the System's declared
// MassPattern, ConstraintPattern and CouplingPattern.
//
//	go test -run X -bench NewtonFill -benchtime 1x ./integrate/
func BenchmarkNewtonFill(b *testing.B) {
	cases := []struct{ problem, method string }{
		{"chain-bars:100", "hht"}, {"chain-bars:100", "bdf"},
		{"chain-bars:1000", "hht"}, {"chain-bars:1000", "bdf"},
		{"chain3d:400", "hht"},
		{"chain3d:100", "genalpha"}, {"chain3d:100", "newmark"}, {"chain3d:100", "bdf"}, {"chain3d:100", "radau5"}, {"chain3d:100", "daealpha"},
		{"chain3d:400", "genalpha"}, {"chain3d:400", "newmark"}, {"chain3d:400", "bdf"}, {"chain3d:400", "radau5"}, {"chain3d:400", "daealpha"},
	}
	for _, c := range cases {
		b.Run(c.problem+"/"+c.method, func(b *testing.B) {
			p, err := problems.Get(c.problem)
			if err != nil {
				b.Fatal(err)
			}
			e, _ := integrate.Lookup(c.method)
			m := e.New()
			if err := m.Init(p.System, p.Start.Clone(), integrate.StepControl{RTol: 1e-4, ATol: 1e-4}); err != nil {
				b.Fatal(err)
			}
			for i := 0; i < 20+b.N; i++ {
				if i == 20 {
					b.ResetTimer()
				}
				if err := m.Step(math.Inf(1)); err != nil {
					b.Fatal(err)
				}
			}
			matrix, factors, fulls, blocks, ok := integrate.NewtonFill(m)
			if !ok {
				b.Fatalf("%s on %s: no sparse Newton factorization", c.method, c.problem)
			}
			b.ReportMetric(float64(matrix), "nnz-A")
			b.ReportMetric(float64(factors), "nnz-LU")
			b.ReportMetric(float64(fulls), "full-LU")
			b.ReportMetric(float64(m.Stats().Factorizations), "LU")
			b.ReportMetric(float64(blocks), "block-LU")
		})
	}
}
