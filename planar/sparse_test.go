package planar_test

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/planar"
)

// sparseEvals returns, per matrix, the dense method and the sparse one of sys with its
// pattern, writing into fresh storage.
func sparseEvals(sys *planar.System, p dae.CheckPoint) map[string]struct {
	csr    dae.CSR
	dense  func(*mat.Dense)
	values func([]float64)
} {
	nq, nc := sys.Size()
	mc, gc, cc := dae.MassCSR(sys, nq), dae.ConstraintCSR(sys, nq, nc), dae.CouplingCSR(sys, nq)
	type ev = struct {
		csr    dae.CSR
		dense  func(*mat.Dense)
		values func([]float64)
	}
	return map[string]ev{
		"M": {mc, func(d *mat.Dense) { sys.Mass(d, p.T, p.Q) }, func(v []float64) { sys.MassValues(v, p.T, p.Q) }},
		"G": {gc, func(d *mat.Dense) { sys.ConstraintJacobian(d, p.T, p.Q) }, func(v []float64) { sys.ConstraintJacobianValues(v, p.T, p.Q) }},
		"(G a)_q": {gc, func(d *mat.Dense) { sys.ConstraintJacobianDerivative(d, p.T, p.Q, p.A) },
			func(v []float64) { sys.ConstraintJacobianDerivativeValues(v, p.T, p.Q, p.A) }},
		"(M a)_q": {cc, func(d *mat.Dense) { sys.MassDerivative(d, p.T, p.Q, p.A) }, func(v []float64) { sys.MassDerivativeValues(v, p.T, p.Q, p.A) }},
		"(G^T lambda)_q": {cc, func(d *mat.Dense) { sys.ConstraintForceDerivative(d, p.T, p.Q, p.Lambda) },
			func(v []float64) { sys.ConstraintForceDerivativeValues(v, p.T, p.Q, p.Lambda) }},
		"f_q": {cc, func(d *mat.Dense) { sys.ForceDerivativeQ(d, p.T, p.Q, p.V) }, func(v []float64) { sys.ForceDerivativeQValues(v, p.T, p.Q, p.V) }},
		"f_v": {cc, func(d *mat.Dense) { sys.ForceDerivativeV(d, p.T, p.Q, p.V) }, func(v []float64) { sys.ForceDerivativeVValues(v, p.T, p.Q, p.V) }},
	}
}

// TestSparseEvaluation: every element alone and all together (kitchenSink, whose custom
// force makes the coupling dense) write the same values into the sparse patterns as into
// the dense matrices, to the bit (both paths make the same additions in the same order),
// the patterns cover every nonzero (dae.CheckSparse), and the sparse methods do not
// allocate after the first call, which builds the patterns.
func TestSparseEvaluation(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	systems := map[string]*planar.System{"kitchen-sink": kitchenSink(t)}
	for name, beam := range flexCases() {
		sys, err := flexModel(beam).Assemble()
		if err != nil {
			t.Fatal(err)
		}
		systems["flexible "+name] = sys
	}
	for _, c := range elementCases(t) {
		m, g0, a1, a2, b1 := twoBodies()
		c.build(m, g0, a1, a2, b1)
		sys, err := m.Assemble()
		if err != nil {
			t.Fatal(err)
		}
		systems[c.name] = sys
	}
	for name, sys := range systems {
		nq, nc := sys.Size()
		p := randomPoint(r, nq, nc)
		if err := dae.CheckSparse(sys, p); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for m, e := range sparseEvals(sys, p) {
			if e.csr.NRows == 0 {
				continue // G of a model without joints
			}
			d := mat.NewDense(e.csr.NRows, nq, nil)
			e.dense(d)
			vals := make([]float64, e.csr.NNZ())
			e.values(vals)
			for i := range e.csr.NRows {
				for k, j := range e.csr.Row(i) {
					if got, want := vals[e.csr.RowStart[i]+k], d.At(i, j); got != want {
						t.Errorf("%s: %s[%d,%d] sparse %v, dense %v: want equal to the bit", name, m, i, j, got, want)
					}
				}
			}
			if n := testing.AllocsPerRun(10, func() { e.values(vals) }); n != 0 {
				t.Errorf("%s: sparse %s allocates %v times per call, want 0", name, m, n)
			}
		}
	}
}
