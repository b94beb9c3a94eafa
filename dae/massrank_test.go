package dae

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// pointMassSystem is a planar body (x, y, θ) with mass 1 and rotational inertia j, whose
// point at distance d from its centre of mass along its x axis is pinned to the origin:
// g = (x + d cos θ, y + d sin θ). With j = 0 it is a point mass: M is singular, but on the
// null space of G (rotation about the pin) M is positive definite iff d ≠ 0.
type pointMassSystem struct{ j, d float64 }

func (s pointMassSystem) Size() (int, int) { return 3, 2 }
func (s pointMassSystem) Mass(dst *mat.Dense, _ float64, _ []float64) {
	dst.Zero()
	dst.Set(0, 0, 1)
	dst.Set(1, 1, 1)
	dst.Set(2, 2, s.j)
}
func (s pointMassSystem) Force(dst []float64, _ float64, _, _ []float64) { clear(dst) }
func (s pointMassSystem) Constraint(dst []float64, _ float64, q []float64) {
	dst[0] = q[0] + s.d*math.Cos(q[2])
	dst[1] = q[1] + s.d*math.Sin(q[2])
}
func (s pointMassSystem) ConstraintJacobian(dst *mat.Dense, _ float64, q []float64) {
	dst.Zero()
	dst.Set(0, 0, 1)
	dst.Set(1, 1, 1)
	dst.Set(0, 2, -s.d*math.Sin(q[2]))
	dst.Set(1, 2, s.d*math.Cos(q[2]))
}
func (s pointMassSystem) ConstraintTimeDerivative(dst []float64, _ float64, _ []float64) { clear(dst) }
func (s pointMassSystem) Gamma(dst []float64, _ float64, _, _ []float64)                 { clear(dst) }

// TestMassOnNullSpace: seed 002 Lemma 1 on a pinned body: a point mass pinned away from
// its centre of mass (the IFToMM A01 pendulum) passes; pinned at its centre of mass, its
// rotation is free and without inertia, and the null vector found is that rotation; a
// body with inertia passes either way.
func TestMassOnNullSpace(t *testing.T) {
	q := []float64{-1, 0, 0.3}
	for _, c := range []struct {
		name     string
		sys      pointMassSystem
		singular bool
	}{
		{"point mass pinned 1 m away", pointMassSystem{j: 0, d: 1}, false},
		{"point mass pinned at its centre", pointMassSystem{j: 0, d: 0}, true},
		{"rigid body pinned at its centre", pointMassSystem{j: 0.1, d: 0}, false},
	} {
		v := MassOnNullSpace(c.sys, 0, q)
		if got := v != nil; got != c.singular {
			t.Errorf("%s: singular = %v, want %v", c.name, got, c.singular)
			continue
		}
		// The free motion is the rotation alone: |v_θ| = 1 to roundoff.
		if v != nil && math.Abs(math.Abs(v[2])-1) > 1e-12 {
			t.Errorf("%s: null vector %v, want ±(0, 0, 1)", c.name, v)
		}
	}
}

// TestCombinationRowsAll: the rows found with one factorization for all dependent rows
// are those combinationRows finds for each: on a G whose rows 3 and 5 are combinations
// of rows {0, 1} and {2, 4}.
func TestCombinationRowsAll(t *testing.T) {
	G := mat.NewDense(6, 7, []float64{
		1, 2, 0, 0, 0, 0, 1,
		0, 1, 3, 0, 0, 0, 0,
		0, 0, 0, 1, 0, 2, 0,
		2, 5, 3, 0, 0, 0, 2, // 2·row 0 + row 1
		0, 0, 0, 0, 1, 1, 0,
		0, 0, 0, 2, -1, 3, 0, // 2·row 2 − row 4
	})
	rows, deps := []int{0, 1, 2, 4}, []int{3, 5}
	all := combinationRowsAll(G, rows, deps)
	for k, w := range deps {
		if one := combinationRows(G, rows, w); !slices.Equal(all[k], one) {
			t.Errorf("row %d: %v with one factorization, %v alone", w, all[k], one)
		}
	}
	if !slices.Equal(all[0], []int{0, 1}) || !slices.Equal(all[1], []int{2, 4}) {
		t.Errorf("involved rows %v; want [[0 1] [2 4]]", all)
	}
}
