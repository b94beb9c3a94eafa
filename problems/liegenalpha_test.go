package problems

import (
	"fmt"
	"math"
	"testing"

	"linkage/integrate"
)

func TestLieExplore(t *testing.T) {
	for _, top := range []HeavyTop{DefaultHeavyTop(), FastHeavyTop()} {
		sys := top.Lie()
		tEnd := 0.2
		ref := sys.LieReference(tEnd, 20000)
		for _, form := range []integrate.Formulation{integrate.Index3, integrate.StabilizedIndex2} {
			for _, n := range []int{200, 400, 800} {
				e, _ := integrate.Lookup("lie-genalpha")
				m0, err := e.NewLieMethod(form)
				m := m0.(*integrate.LieGenAlpha)
				m.Newton.Jacobian = integrate.JacobianEveryIteration
				if err != nil {
					t.Fatal(err)
				}
				s, _ := sys.Start()
				if err := m.InitLie(sys, s, integrate.StepControl{FixedH: tEnd / float64(n), RTol: 1e-10, ATol: 1e-10}); err != nil {
					t.Fatal(err)
				}
				for m.Current().T < tEnd {
					if err := m.Step(tEnd); err != nil {
						t.Fatal(err)
					}
				}
				c := m.Current()
				eq, ev := lieStateError(c, &ref)
				fmt.Printf("%v %s n=%d eq=%.3e ev=%.3e stats=%+v\n", top.Omega0, form, n, eq, ev, m.Stats())
			}
		}
	}
}

// lieStateError returns the max-norm errors of q (x and the quaternion, its sign fixed to
// the reference's) and of v.
func lieStateError(s, ref *integrate.State) (eq, ev float64) {
	sign := 1.0
	if s.Q[3]*ref.Q[3]+s.Q[4]*ref.Q[4]+s.Q[5]*ref.Q[5]+s.Q[6]*ref.Q[6] < 0 {
		sign = -1
	}
	for i := range 7 {
		x := s.Q[i]
		if i >= 3 {
			x *= sign
		}
		eq = math.Max(eq, math.Abs(x-ref.Q[i]))
	}
	for i := range 6 {
		ev = math.Max(ev, math.Abs(s.V[i]-ref.V[i]))
	}
	return eq, ev
}
