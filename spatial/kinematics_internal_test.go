package spatial

import (
	"math/rand/v2"
	"testing"

	"linkage/law"
)

// TestRowKinematicsSubsets: the constraint rows evaluated from the vectors they read
// (kinRows) and from their values only (kinValues, coord.value) give, bit for bit, what
// the full kinematics give (kin, eval): values, gradients and Hessians, for joints whose
// rows read every kind of coordinate (dots, the angle of a revolute motion, a length) at
// a random, non-normalized pose.
func TestRowKinematicsSubsets(t *testing.T) {
	m := NewModel()
	b := m.AddBody(Body{Name: "one", Mass: 2, Inertia: Diag(0.3, 0.2, 0.1)})
	c := m.AddBody(Body{Name: "two", Mass: 3, Inertia: Diag(0.2, 0.25, 0.05)})
	g0 := m.AddMarker(Marker{Body: Ground, Point: Vec3{0.2, -0.1, 0.05}, Axis: Vec3{0.1, 0.3, 1}})
	a1 := m.AddMarker(Marker{Body: b, Point: Vec3{0.5, 0.1, -0.2}, Axis: Vec3{0, 0.2, 1}})
	a2 := m.AddMarker(Marker{Body: b, Point: Vec3{-0.3, 0.2, 0.1}, Axis: Vec3{1, 1, 0}})
	b1 := m.AddMarker(Marker{Body: c, Point: Vec3{-0.4, -0.15, 0.3}, Axis: Vec3{0.5, -0.2, 1}})
	pin := m.AddRevolute("pin", g0, a1)
	m.AddMotion("spin", pin, law.Sine{Amplitude: 0.7, Omega: 3})
	m.AddSpherical("ball", a2, b1)
	m.AddUniversal("cross", a1, b1)
	m.AddDistance("rod", g0, b1, 0.9)
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	q := make([]float64, sys.nq)
	for i := range q {
		q[i] = 2*r.Float64() - 1
	}
	for i := range sys.rows {
		for j := range sys.rows[i].N {
			tm := &sys.rows[i].Terms[j]
			pr := &sys.pairs[tm.Pair]
			var kAll, kRows, kVal pairKin
			var eAll, eRows coordEval
			pr.kin(q, &kAll)
			pr.kinRows(q, &kRows)
			pr.kinValues(q, &kVal)
			eAll.eval(&tm.Coord, &kAll, true)
			eRows.eval(&tm.Coord, &kRows, true)
			if eRows != eAll {
				t.Errorf("row %d term %d: kinRows gives another value, gradient or Hessian than kin", i, j)
			}
			if v := tm.Coord.value(&kVal); v != eAll.val {
				t.Errorf("row %d term %d: value %v from kinValues, %v from eval", i, j, v, eAll.val)
			}
		}
	}
}
