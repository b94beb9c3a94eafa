package dae_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// sparseToy gives toy the sparse evaluation path by gathering its dense matrices onto
// declared patterns; coupling is the declared coupling pattern and skew, when set, adds
// 0.1 to the first sparse value of ∂f/∂v (a sparse path that disagrees with the dense one).
type sparseToy struct {
	toy
	coupling [][]int
	skew     bool
}

func (s sparseToy) MassPattern() [][]int       { return [][]int{{0, 1}, {0, 1}} }
func (s sparseToy) ConstraintPattern() [][]int { return [][]int{{0, 1}, {0, 1}} }
func (s sparseToy) CouplingPattern() [][]int   { return s.coupling }
func (s sparseToy) CoordinateName(i int) string {
	return []string{"cart.x", "pole.theta"}[i]
}
func (s sparseToy) ConstraintName(i int) string { return []string{"track.y", "clock.c"}[i] }

// gather writes the dense matrix written by fill onto pattern p's value array.
func gather(dst []float64, p dae.CSR, fill func(*mat.Dense)) {
	d := mat.NewDense(p.NRows, p.NCols, nil)
	fill(d)
	for i := range p.NRows {
		for k, j := range p.Row(i) {
			dst[p.RowStart[i]+k] = d.At(i, j)
		}
	}
}

func (s sparseToy) MassValues(dst []float64, t float64, q []float64) {
	gather(dst, dae.MassCSR(s, 2), func(d *mat.Dense) { s.Mass(d, t, q) })
}
func (s sparseToy) ConstraintJacobianValues(dst []float64, t float64, q []float64) {
	gather(dst, dae.ConstraintCSR(s, 2, 2), func(d *mat.Dense) { s.ConstraintJacobian(d, t, q) })
}
func (s sparseToy) MassDerivativeValues(dst []float64, t float64, q, a []float64) {
	gather(dst, dae.CouplingCSR(s, 2), func(d *mat.Dense) { s.MassDerivative(d, t, q, a) })
}
func (s sparseToy) ConstraintForceDerivativeValues(dst []float64, t float64, q, lambda []float64) {
	gather(dst, dae.CouplingCSR(s, 2), func(d *mat.Dense) { s.ConstraintForceDerivative(d, t, q, lambda) })
}
func (s sparseToy) ForceDerivativeQValues(dst []float64, t float64, q, v []float64) {
	gather(dst, dae.CouplingCSR(s, 2), func(d *mat.Dense) { s.ForceDerivativeQ(d, t, q, v) })
}
func (s sparseToy) ForceDerivativeVValues(dst []float64, t float64, q, v []float64) {
	gather(dst, dae.CouplingCSR(s, 2), func(d *mat.Dense) { s.ForceDerivativeV(d, t, q, v) })
	if s.skew {
		dst[0] += 0.1
	}
}

// TestCheckSparse: a sparse path that gathers the dense matrices onto patterns covering
// them passes; a coupling pattern that leaves out entry (1, 0), nonzero in ∂(M a)/∂q and
// ∂f/∂q at toyPoint, is reported (first in ∂(M a)/∂q) as a *PatternError outside the
// pattern naming the entry's coordinates; a sparse value 0.1 off the dense one is reported
// with both values; and dae.Check reports the same error, so every derivative test of a
// SparseEvaluator also checks its patterns.
func TestCheckSparse(t *testing.T) {
	full := [][]int{{0, 1}, {0, 1}}
	if err := dae.CheckSparse(sparseToy{toy: toy{}, coupling: full}, toyPoint); err != nil {
		t.Fatalf("covering patterns: %v", err)
	}
	if err := dae.CheckSparse(sparseToy{toy: toy{}}, toyPoint); err != nil {
		t.Fatalf("nil (dense) coupling: %v", err)
	}

	missing := sparseToy{toy: toy{}, coupling: [][]int{{0, 1}, {1}}}
	err := dae.CheckSparse(missing, toyPoint)
	var pe *dae.PatternError
	if !errors.As(err, &pe) || !pe.OutsidePattern || pe.Row != 1 || pe.Col != 0 {
		t.Fatalf("pattern missing (1, 0): got %v, want a *PatternError outside the pattern at [1,0]", err)
	}
	for _, want := range []string{"d(M a)/dq[1,0]", "row pole.theta", "column cart.x", "outside the declared pattern"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if _, err := dae.Check(missing, toyPoint, 1e-6); !errors.As(err, &pe) || !pe.OutsidePattern {
		t.Errorf("dae.Check on the bad pattern: %v, want the *PatternError", err)
	}

	err = dae.CheckSparse(sparseToy{toy: toy{}, coupling: full, skew: true}, toyPoint)
	if !errors.As(err, &pe) || pe.OutsidePattern || pe.Quantity != "df/dv" || pe.Sparse != pe.Dense+0.1 {
		t.Fatalf("skewed sparse df/dv: got %v, want a value mismatch in df/dv", err)
	}

	if err := dae.CheckSparse(toy{}, toyPoint); err == nil || !strings.Contains(err.Error(), "does not implement SparseEvaluator") {
		t.Errorf("a dense-only system: %v, want an error saying it is not a SparseEvaluator", err)
	}
}

// TestCSR: the diagonal is added where a mass or coupling row lacks it, Find locates
// listed entries and returns −1 off the pattern, and a nil pattern is dense.
func TestCSR(t *testing.T) {
	p := dae.NewCSR([][]int{{1, 3}, {}, {0, 2}}, 3, 4, true)
	if got := p.Cols; len(got) != 6 || got[0] != 0 || got[1] != 1 || got[2] != 3 || got[3] != 1 {
		t.Errorf("cols %v, want [0 1 3 1 0 2]", got)
	}
	if p.Find(0, 3) != 2 || p.Find(2, 2) != 5 || p.Find(1, 0) != -1 || p.Find(2, 1) != -1 {
		t.Errorf("Find: (0,3)→%d (2,2)→%d (1,0)→%d (2,1)→%d, want 2 5 -1 -1",
			p.Find(0, 3), p.Find(2, 2), p.Find(1, 0), p.Find(2, 1))
	}
	if d := dae.NewCSR(nil, 2, 3, false); d.NNZ() != 6 {
		t.Errorf("nil rows: NNZ %d, want 6 (dense)", d.NNZ())
	}
}

// secondToy gives sparseToy the constraint second derivatives on G's pattern, written by
// hand: ∂(G w)/∂q = [∇²g0 w; ∇²g1 w] with ∇²g0 = [2q1 2q0; 2q0 −sin q1], ∇²g1 = [0 0; 0 −6q1],
// and G_t = 0 (g_t depends on t alone). bug "dGw" or "Gt" adds 0.1 to one value.
type secondToy struct {
	sparseToy
	bug string
}

func (s secondToy) ConstraintJacobianDerivativeValues(dst []float64, t float64, q, w []float64) {
	dst[0] = 2*q[1]*w[0] + 2*q[0]*w[1]
	dst[1] = 2*q[0]*w[0] - math.Sin(q[1])*w[1]
	dst[2] = 0
	dst[3] = -6 * q[1] * w[1]
	if s.bug == "dGw" {
		dst[1] += 0.1
	}
}

func (s secondToy) ConstraintJacobianTimeDerivativeValues(dst []float64, t float64, q []float64) {
	clear(dst)
	if s.bug == "Gt" {
		dst[2] += 0.1
	}
}

// TestCheckSparseSecond: dae.CheckSparse compares a SparseConstraintJacobianDerivative's
// ∂(G w)/∂q and G_t with central differences (toy has no dense second derivatives): the
// hand-written values pass, and a value 0.1 off in either is reported by quantity and by
// the constraint and coordinate owning the entry.
func TestCheckSparseSecond(t *testing.T) {
	base := sparseToy{toy: toy{}, coupling: [][]int{{0, 1}, {0, 1}}}
	var _ dae.SparseConstraintJacobianDerivative = secondToy{}
	if err := dae.CheckSparse(secondToy{sparseToy: base}, toyPoint); err != nil {
		t.Fatalf("hand-written second derivatives: %v", err)
	}
	for _, c := range []struct{ bug, quantity, row, col string }{
		{"dGw", "d(G w)/dq", "track.y", "pole.theta"},
		{"Gt", "G_t", "clock.c", "cart.x"},
	} {
		err := dae.CheckSparse(secondToy{sparseToy: base, bug: c.bug}, toyPoint)
		var pe *dae.PatternError
		if !errors.As(err, &pe) || pe.Quantity != c.quantity || pe.RowName != c.row || pe.ColName != c.col {
			t.Errorf("bug %s: got %v, want a mismatch in %s at row %s, column %s", c.bug, err, c.quantity, c.row, c.col)
		}
	}
}

// passToy gives sparseToy g and G in one pass, from its own methods; bug "g" or "G" adds
// 1e-15 relative to one entry (a pass that is not the same computation).
type passToy struct {
	sparseToy
	bug string
}

func (s passToy) ConstraintWithJacobianValues(g, G []float64, t float64, q []float64) {
	s.Constraint(g, t, q)
	s.ConstraintJacobianValues(G, t, q)
	switch s.bug {
	case "g":
		g[1] *= 1 + 1e-15
	case "G":
		G[2] *= 1 + 1e-15
	}
}

// TestCheckSparseConstraintPass: dae.CheckSparse requires a SparseConstraintWithJacobian's
// g and G to equal Constraint's and ConstraintJacobianValues' to the bit, and names the
// constraint of an entry that differs.
func TestCheckSparseConstraintPass(t *testing.T) {
	base := sparseToy{toy: toy{}, coupling: [][]int{{0, 1}, {0, 1}}}
	var _ dae.SparseConstraintWithJacobian = passToy{}
	if err := dae.CheckSparse(passToy{sparseToy: base}, toyPoint); err != nil {
		t.Fatalf("the same computation: %v", err)
	}
	err := dae.CheckSparse(passToy{sparseToy: base, bug: "g"}, toyPoint)
	if err == nil || !strings.Contains(err.Error(), "g[1] (clock.c)") {
		t.Errorf("g off by one rounding: %v, want an error naming g[1] (clock.c)", err)
	}
	var pe *dae.PatternError
	err = dae.CheckSparse(passToy{sparseToy: base, bug: "G"}, toyPoint)
	if !errors.As(err, &pe) || pe.Quantity != "G (with g)" || pe.RowName != "clock.c" || pe.ColName != "cart.x" {
		t.Errorf("G off by one rounding: %v, want a mismatch in G (with g) at clock.c, cart.x", err)
	}
}

// gammaToy gives passToy γ in the same pass, from its own Gamma; bug "γ" adds 1e-15
// relative to one entry.
type gammaToy struct {
	passToy
	gbug string
}

func (s gammaToy) ConstraintJacobianGammaValues(g, G, gamma []float64, t float64, q, v []float64) {
	s.ConstraintWithJacobianValues(g, G, t, q)
	s.Gamma(gamma, t, q, v)
	if s.gbug == "γ" {
		gamma[0] *= 1 + 1e-15
	}
}

// TestCheckSparseGammaPass: dae.CheckSparse requires a SparseConstraintJacobianGamma's g,
// G and γ to equal Constraint's, ConstraintJacobianValues' and Gamma's to the bit, and
// names the constraint of a γ that differs.
func TestCheckSparseGammaPass(t *testing.T) {
	base := passToy{sparseToy: sparseToy{toy: toy{}, coupling: [][]int{{0, 1}, {0, 1}}}}
	var _ dae.SparseConstraintJacobianGamma = gammaToy{}
	if err := dae.CheckSparse(gammaToy{passToy: base}, toyPoint); err != nil {
		t.Fatalf("the same computation: %v", err)
	}
	err := dae.CheckSparse(gammaToy{passToy: base, gbug: "γ"}, toyPoint)
	if err == nil || !strings.Contains(err.Error(), "ConstraintJacobianGammaValues: g[0], γ[0] (track.y)") {
		t.Errorf("γ off by one rounding: %v, want an error naming γ[0] (track.y)", err)
	}
}
