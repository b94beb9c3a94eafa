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

// TestCouplingPatternCovers: at random poses every nonzero of ∂f/∂q, ∂f/∂v and ∂(Gᵀλ)/∂q
// lies in CouplingPattern, for every element kind; with a custom force the pattern is nil
// (dense), and rows are strictly increasing.
func TestCouplingPatternCovers(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, c := range elementCases(t) {
		m, g0, a1, a2, b1 := twoBodies()
		c.build(m, g0, a1, a2, b1)
		sys, err := m.Assemble()
		if err != nil {
			t.Fatal(err)
		}
		nq, nc := sys.Size()
		pat := sys.CouplingPattern()
		if c.name == "custom" {
			if pat != nil {
				t.Errorf("custom: pattern %v, want nil (dense)", pat)
			}
			continue
		}
		if len(pat) != nq {
			t.Fatalf("%s: %d rows, want %d", c.name, len(pat), nq)
		}
		for i, row := range pat {
			if !slices.IsSorted(row) || len(slices.Compact(slices.Clone(row))) != len(row) {
				t.Errorf("%s: row %d = %v not strictly increasing", c.name, i, row)
			}
		}
		D := mat.NewDense(nq, nq, nil)
		for range 3 {
			p := randomPoint(r, nq, nc)
			for name, eval := range map[string]func(){
				"df/dq":       func() { sys.ForceDerivativeQ(D, p.T, p.Q, p.V) },
				"df/dv":       func() { sys.ForceDerivativeV(D, p.T, p.Q, p.V) },
				"d(G^T l)/dq": func() { sys.ConstraintForceDerivative(D, p.T, p.Q, p.Lambda) },
			} {
				eval()
				for i := range nq {
					for j := range nq {
						if D.At(i, j) != 0 && !slices.Contains(pat[i], j) {
							t.Errorf("%s: %s[%d,%d] = %g outside the pattern %v", c.name, name, i, j, D.At(i, j), pat[i])
						}
					}
				}
			}
		}
	}
}

// TestCouplingPatternChain: the coupling pattern holds exactly the structural entries of
// its elements. In a chain ground–a–b on revolute joints under gravity, whose rows d_x, d_y
// curve in θ alone, every row of a and b is its diagonal; the translational joint b–c (rows
// n_I·d and the angle) couples θ_b with all six coordinates of the pair and θ_c with
// itself.
func TestCouplingPatternChain(t *testing.T) {
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	a := m.AddBody(planar.Body{Name: "a", Mass: 1, Inertia: 0.1})
	b := m.AddBody(planar.Body{Name: "b", Mass: 1, Inertia: 0.1, Pos: planar.Vec{1, 0}})
	c := m.AddBody(planar.Body{Name: "c", Mass: 1, Inertia: 0.1, Pos: planar.Vec{2, 0}})
	m.AddRevolute("root", m.AddMarker(planar.Marker{Body: planar.Ground}), m.AddMarker(planar.Marker{Body: a}))
	m.AddRevolute("pin", m.AddMarker(planar.Marker{Body: a, Point: planar.Vec{0.5, 0}}),
		m.AddMarker(planar.Marker{Body: b, Point: planar.Vec{-0.5, 0}}))
	m.AddTranslational("slide", m.AddMarker(planar.Marker{Body: b}), m.AddMarker(planar.Marker{Body: c}))
	sys, err := m.Assemble()
	if err != nil {
		t.Fatal(err)
	}
	pat := sys.CouplingPattern()
	want := [][]int{{0}, {1}, {2}, {3, 5}, {4, 5}, {3, 4, 5, 6, 7, 8}, {5, 6}, {5, 7}, {5, 8}}
	for i := range want {
		if !slices.Equal(pat[i], want[i]) {
			t.Errorf("row %d: %v, want %v", i, pat[i], want[i])
		}
	}
}
