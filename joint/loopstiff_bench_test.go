package joint_test

import (
	"fmt"
	"testing"

	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
)

// withoutLoopLoads is a joint system whose K_g leaves the cut rows' loads out (λ nil), the
// geometric stiffness as it was before them, without the gate that then kept it off.
type withoutLoopLoads struct{ *joint.System }

// GeometricStiffness is the System's with the multipliers dropped.
func (s withoutLoopLoads) GeometricStiffness(kg []float64, t float64, q, v, a, _ []float64) {
	s.System.GeometricStiffness(kg, t, q, v, a, nil)
}

// loopChainStart returns chain3DTipOnPlane of n rods at its start with consistent
// accelerations and multipliers (dae.Initialize, positions and velocities kept).
func loopChainStart(b *testing.B, n int) (*joint.System, integrate.State) {
	sys, s, err := chain3DTipOnPlane(n)
	if err != nil {
		b.Fatal(err)
	}
	nq, _ := sys.Size()
	keep := make([]int, nq)
	for i := range keep {
		keep[i] = i
	}
	c, err := dae.Initialize(sys, 0, s.Q, s.V, &dae.InitOptions{Keep: keep})
	if err != nil {
		b.Fatal(err)
	}
	return sys, integrate.State{T: 0, Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
}

// BenchmarkLoopChainStiffPrecond measures the implicit methods' Newton-Krylov corrector on
// the looped chain (chain3DTipOnPlane: N rods on spherical joints, the tip held in the
// plane z = 0 by a one-row cut joint) with the preconditioner's a-block c·M ("M", the
// system as massOnly) and c·M + k·K_g with the cut row's load −Gᵀλ at the iterate's λ
// ("M+Kg"; "M+Kg-noλ" without the load, withoutLoopLoads), from the start at tolerance 1e-4, 20 steps after 5 warm-up steps. prod/iter
// is the residual evaluations per Newton iteration less one (the GMRES products). Run:
//
//	go test -run X -bench LoopChainStiffPrecond -benchtime 20x ./joint/
func BenchmarkLoopChainStiffPrecond(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		for _, c := range []struct {
			method string
			form   integrate.Formulation
		}{{"hht", ""}, {"genalpha", ""}, {"bdf", integrate.StabilizedIndex2}, {"bdf", integrate.Index1}} {
			for _, p := range []string{"M", "M+Kg", "M+Kg-noλ"} {
				b.Run(fmt.Sprintf("method=%s/form=%s/N=%d/P=%s", c.method, c.form, n, p), func(b *testing.B) {
					sys, s := loopChainStart(b, n)
					var ds dae.System = sys
					switch p {
					case "M":
						ds = massOnly{sys, sys, sys, sys, sys, sys, sys, sys}
					case "M+Kg-noλ":
						ds = withoutLoopLoads{sys}
					}
					m := methodFor(b, c.method, c.form)
					benchSteps(b, m, ds, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4}, 5)
					st := m.Stats()
					b.ReportMetric(float64(st.FuncEvals-st.NewtonIters)/float64(st.NewtonIters), "prod/iter")
				})
			}
		}
	}
}
