package dae_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/linalg"
)

// sparseLink is linkSys with the sparse evaluation path: its patterns follow from the
// links' terms, its values are gathered from the dense methods (the tests compare the two
// algebras of Initialize, not the evaluation).
type sparseLink struct{ *linkSys }

var _ dae.SparseEvaluator = sparseLink{}

func (s sparseLink) MassPattern() [][]int     { return nil }
func (s sparseLink) CouplingPattern() [][]int { return nil }

func (s sparseLink) ConstraintPattern() [][]int {
	rows := make([][]int, len(s.links))
	for k, L := range s.links {
		for _, tm := range L.terms {
			rows[k] = append(rows[k], 2*tm.pt, 2*tm.pt+1)
		}
		slices.Sort(rows[k])
		rows[k] = slices.Compact(rows[k])
	}
	return rows
}

func (s sparseLink) MassValues(dst []float64, t float64, q []float64) {
	nq, _ := s.Size()
	gather(dst, dae.MassCSR(s, nq), func(d *mat.Dense) { s.Mass(d, t, q) })
}

func (s sparseLink) ConstraintJacobianValues(dst []float64, t float64, q []float64) {
	nq, nc := s.Size()
	gather(dst, dae.ConstraintCSR(s, nq, nc), func(d *mat.Dense) { s.ConstraintJacobian(d, t, q) })
}

func (s sparseLink) coupling(dst []float64, fill func(*mat.Dense)) {
	nq, _ := s.Size()
	gather(dst, dae.CouplingCSR(s, nq), fill)
}

func (s sparseLink) MassDerivativeValues(dst []float64, t float64, q, a []float64) {
	s.coupling(dst, func(d *mat.Dense) { d.Zero() })
}

func (s sparseLink) ConstraintForceDerivativeValues(dst []float64, t float64, q, lambda []float64) {
	s.coupling(dst, func(d *mat.Dense) { s.ConstraintForceDerivative(d, t, q, lambda) })
}

func (s sparseLink) ForceDerivativeQValues(dst []float64, t float64, q, v []float64) {
	s.coupling(dst, func(d *mat.Dense) { d.Zero() })
}

func (s sparseLink) ForceDerivativeVValues(dst []float64, t float64, q, v []float64) {
	s.coupling(dst, func(d *mat.Dense) { d.Zero() })
}

// initCase is one call of Initialize from the tests of init_test.go.
type initCase struct {
	name  string
	sys   *linkSys
	t0    float64
	q, v  []float64
	keep  []int
	check func(t *testing.T, c dae.Consistent, err error)
	// ownPoint: the error quotes the point Newton reached, which depends on the dependent
	// coordinates chosen, so the two paths' messages differ in those numbers.
	ownPoint bool
}

func initCases() []initCase {
	rng := rand.New(rand.NewPCG(15, 15))
	pend := pendulum()
	qp := perturb(rng, []float64{math.Sin(0.3), -math.Cos(0.3)}, 1e-2)
	vp := perturb(rng, []float64{0, 0}, 1)
	ch, qc := chain(6)
	vc := perturb(rng, make([]float64, 12), 1)
	qcp := perturb(rng, qc, 1e-2)
	fb, q4 := fourBar(2)
	v4 := perturb(rng, make([]float64, 4), 1)
	q4p := perturb(rng, q4, 1e-2)
	third, _ := fourBar(2)
	third.links[3] = link{name: "third-crank", terms: []term{{0, 0.5}, {1, 0.5}}, s0: [2]float64{1, 0}, l: 1}
	long, _ := fourBar(2.1)
	long.links[3].name = "coupler-long"
	elbow := &linkSys{mass: []float64{0, 1}, grav: 9.81, pts: []string{"elbow", "hand"},
		links: []link{ground("upper", 0, [2]float64{}, 1), rod("lower", 1, 0, 1)}}
	qe := []float64{math.Sin(0.4), -math.Cos(0.4), math.Sin(0.4) + math.Sin(1.1), -math.Cos(0.4) - math.Cos(1.1)}
	bob := pendulum()
	bob.mass[0] = 0
	wantRedundant := func(rows ...int) func(*testing.T, dae.Consistent, error) {
		return func(t *testing.T, c dae.Consistent, err error) {
			if err == nil && !slices.Equal(c.Redundant, rows) {
				t.Errorf("redundant rows %v, want %v", c.Redundant, rows)
			}
		}
	}
	wantError := func(subs ...string) func(*testing.T, dae.Consistent, error) {
		return func(t *testing.T, c dae.Consistent, err error) {
			if err == nil {
				t.Fatalf("no error, want one containing %q", subs)
			}
			for _, s := range subs {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
		}
	}
	return []initCase{
		{name: "pendulum", sys: pend, q: qp, v: vp},
		{name: "pendulum-keep-y", sys: pend, q: qp, v: vp, keep: []int{1}},
		{name: "chain-consistent", sys: ch, t0: chainT0, q: qc, v: vc},
		{name: "chain-perturbed", sys: ch, t0: 0.3, q: qcp, v: vc},
		{name: "chain-keep", sys: ch, t0: 0.3, q: qcp, v: vc, keep: []int{1, 4, 7}},
		{name: "four-bar-duplicated", sys: fb, q: q4p, v: v4, check: wantRedundant(3)},
		{name: "third-crank-consistent", sys: third, q: q4, v: v4, check: wantRedundant(3)},
		{name: "third-crank-perturbed", sys: third, q: q4p, v: v4, check: wantError("have rank 3 < 4"), ownPoint: true},
		{name: "inconsistent", sys: long, q: q4p, v: make([]float64, 4), check: wantError("inconsistent", "coupler-long = -0.205 where coupler hold")},
		{name: "guess-too-far", sys: pend, q: []float64{2, 0.1}, v: []float64{0, 0}, keep: []int{0}, check: wantError("guess too far", "rod = 1.5")},
		{name: "zero-gradient", sys: pend, q: []float64{0, 0}, v: []float64{0, 0}, check: wantError("rod = -0.5 cannot be satisfied")},
		{name: "massless-elbow", sys: elbow, q: qe, v: []float64{0.1, 0.2, -0.3, 0.5}},
		{name: "massless-bob", sys: bob, q: []float64{0.3, -0.95}, v: []float64{0, 0},
			check: func(t *testing.T, _ dae.Consistent, err error) {
				if !errors.Is(err, linalg.ErrSingular) || !strings.Contains(err.Error(), "not positive definite on ker G") {
					t.Errorf("error %v, want the singular eq. 17 wrapping linalg.ErrSingular", err)
				}
			}},
		{name: "unconstrained", sys: &linkSys{mass: []float64{2}, grav: 9.81, pts: []string{"ball"}}, q: []float64{1, 2}, v: []float64{3, 4}},
		{name: "overdetermined-keep", sys: pend, q: []float64{0.5, -0.5}, v: []float64{0, 0}, keep: []int{0, 1},
			check: wantError("over-determined Keep", "bob.x would move from 0.5 to 0.866025")},
	}
}

// TestInitializeSparseMatchesDense runs the scenarios of init_test.go through both
// algebras (InitDense on linkSys, InitSparse on its sparse wrapper): the same errors, word
// for word; the same redundant rows; and, where both choose the same dependent
// coordinates, the same state to rounding (1e-12 relative: the two paths factorize the same
// matrices by different pivot sequences). Where the choices differ (a guess off the
// constraints reaches another consistent position) the sparse result must be consistent
// by itself.
func TestInitializeSparseMatchesDense(t *testing.T) {
	for _, tc := range initCases() {
		t.Run(tc.name, func(t *testing.T) {
			cd, errD := dae.Initialize(tc.sys, tc.t0, tc.q, tc.v, &dae.InitOptions{Keep: tc.keep, Factorization: dae.InitDense})
			cs, errS := dae.Initialize(sparseLink{tc.sys}, tc.t0, tc.q, tc.v, &dae.InitOptions{Keep: tc.keep, Factorization: dae.InitSparse})
			if tc.check != nil {
				tc.check(t, cd, errD)
				tc.check(t, cs, errS)
			}
			if (errD == nil) != (errS == nil) || errD != nil && errD.Error() != errS.Error() && !tc.ownPoint {
				t.Fatalf("dense error %v, sparse error %v", errD, errS)
			}
			if errD != nil {
				return
			}
			if !slices.Equal(cd.Redundant, cs.Redundant) {
				t.Errorf("redundant rows: dense %v, sparse %v", cd.Redundant, cs.Redundant)
			}
			if !slices.Equal(cd.Dependent, cs.Dependent) {
				t.Logf("dependent coordinates: dense %v, sparse %v", cd.Dependent, cs.Dependent)
				checkConsistent(t, tc.sys, tc.t0, tc.q, tc.v, cs)
				return
			}
			for _, x := range []struct {
				name string
				d, s []float64
			}{{"q", cd.Q, cs.Q}, {"v", cd.V, cs.V}, {"a", cd.A, cs.A}, {"lambda", cd.Lambda, cs.Lambda}} {
				scale := 1.0
				for _, e := range x.d {
					scale = math.Max(scale, math.Abs(e))
				}
				for i := range x.d {
					if math.Abs(x.d[i]-x.s[i]) > 1e-12*scale {
						t.Errorf("%s[%d]: dense %.17g, sparse %.17g", x.name, i, x.d[i], x.s[i])
					}
				}
			}
		})
	}
}

// TestInitializeFactorizationOption: InitSparse needs a SparseEvaluator, and an unknown
// value is an error naming the field.
func TestInitializeFactorizationOption(t *testing.T) {
	q, v := []float64{0.3, -0.95}, []float64{0, 0}
	_, err := dae.Initialize(pendulum(), 0, q, v, &dae.InitOptions{Factorization: dae.InitSparse})
	if err == nil || !strings.Contains(err.Error(), "InitSparse") || !strings.Contains(err.Error(), "SparseEvaluator") {
		t.Errorf("InitSparse on a dense system: error %v, want one naming InitSparse and SparseEvaluator", err)
	}
	_, err = dae.Initialize(pendulum(), 0, q, v, &dae.InitOptions{Factorization: 7})
	if err == nil || !strings.Contains(err.Error(), "Factorization = 7") {
		t.Errorf("Factorization = 7: error %v, want one naming the value", err)
	}
}
