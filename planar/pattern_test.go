package planar_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/planar"
)

// TestPatternCoversG: at random poses every nonzero of G lies in the pattern recorded at
// assembly, for every element kind; a joint to the ground touches only its body's three
// columns.
func TestPatternCoversG(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range elementCases(t) {
		m, g0, a1, a2, b1 := twoBodies()
		c.build(m, g0, a1, a2, b1)
		sys, err := m.Assemble()
		if err != nil {
			t.Fatal(err)
		}
		nq, nc := sys.Size()
		pat := sys.Pattern()
		if len(pat.GRows) != nc {
			t.Fatalf("%s: pattern has %d rows, want nc = %d", c.name, len(pat.GRows), nc)
		}
		G := mat.NewDense(max(nc, 1), nq, nil)
		for range 3 {
			p := randomPoint(r, nq, nc)
			if nc == 0 {
				continue
			}
			sys.ConstraintJacobian(G, p.T, p.Q)
			for i := range nc {
				for j := range nq {
					if G.At(i, j) != 0 && !slices.Contains(pat.GRows[i], j) {
						t.Errorf("%s: G[%d,%d] = %g outside the pattern %v", c.name, i, j, G.At(i, j), pat.GRows[i])
					}
				}
			}
		}
	}
	m := planar.NewModel()
	b := m.AddBody(planar.Body{Name: "link", Mass: 1, Inertia: 0.1})
	m.AddBody(planar.Body{Name: "other", Mass: 1, Inertia: 0.1})
	g := m.AddMarker(planar.Marker{Name: "pivot", Body: planar.Ground})
	e := m.AddMarker(planar.Marker{Name: "end", Body: b, Point: planar.Vec{-0.5, 0}})
	m.AddRevolute("pin", g, e)
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	if p := sys.Pattern(); p.NNZ != 6 || !slices.Equal(p.GRows[0], []int{0, 1, 2}) {
		t.Errorf("pin to ground: pattern %v (nnz %d), want rows [0 1 2] twice", p.GRows, p.NNZ)
	}
}
