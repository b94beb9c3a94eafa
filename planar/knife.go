package planar

import (
	"fmt"
	"math"

	"linkage/assembly"
	"linkage/dae"

	"gonum.org/v1/gonum/mat"
)

// knife.go: the knife edge, a nonholonomic constraint in Pfaffian form (dae.Nonholonomic;
// seed 002, eq. 44). A blade fixed to a body at a marker slides on the ground plane along
// the marker's x axis and cannot slide across it: the velocity of the marker's point
// along the marker's y axis n = (−sin ψ, cos ψ), ψ = θ + φ, is zero,
//
//	A v = n·(ẋ, ẏ) + c₀ θ̇ = 0,    c₀ = s_x cos φ + s_y sin φ,
//
// with s the marker's point in the body frame (c₀ is n·(A'(θ) s), which does not depend
// on θ). b = 0, and with n' = ∂n/∂θ = (−cos ψ, −sin ψ)
//
//	∂(A v)/∂q = (0, 0, n'·(ẋ, ẏ)),   γ_A = −θ̇ n'·(ẋ, ẏ),   ∂(Aᵀμ)/∂θ = μ (n', 0).
//
// The Chaplygin sleigh is one body with one knife edge.

type knifeSpec struct {
	name   string
	marker MarkerID
}

type knifeData struct {
	name string
	col  int     // column of the body's x
	phi  float64 // the marker's angle φ
	c0   float64 // s_x cos φ + s_y sin φ
}

// AddKnifeEdge adds a knife edge at marker mk, on a moving rigid body: the marker's point
// may move along the marker's x axis (the blade) and turn about it, but not sideways,
// a nonholonomic constraint on the velocities (one Pfaffian row "name.n", see knife.go).
// Methods that cannot take velocity constraints refuse the system (dae.Nonholonomic).
func (m *Model) AddKnifeEdge(name string, mk MarkerID) {
	m.knives = append(m.knives, knifeSpec{name: name, marker: mk})
}

// assembleKnives builds the knife edges, reporting bad markers through ck.
func (m *Model) assembleKnives(s *System, ck *assembly.Checker, markerBody []int) {
	for k, ks := range m.knives {
		ck.Name("knife edge", ks.name, k+1)
		what := fmt.Sprintf("knife edge %q", ks.name)
		if !ck.Marker(what, int(ks.marker), markerBody) {
			continue
		}
		b := markerBody[ks.marker-1]
		if b == 0 {
			ck.Bad("%s: marker %d is on the ground; want a marker on a moving body", what, ks.marker)
			continue
		}
		if m.flexOf(b) != nil {
			ck.Bad("%s: marker %d is on a flexible body; knife edges take rigid bodies only", what, ks.marker)
			continue
		}
		mk := m.markers[ks.marker-1]
		s.knives = append(s.knives, knifeData{name: ks.name, col: s.bodies[b].col, phi: mk.Angle,
			c0: mk.Point[0]*math.Cos(mk.Angle) + mk.Point[1]*math.Sin(mk.Angle)})
	}
}

// NumPfaffian returns the number of knife edges (dae.Nonholonomic).
func (s *System) NumPfaffian() int { return len(s.knives) }

// PfaffianName names knife edge k's row "name.n" (dae.PfaffianNamer).
func (s *System) PfaffianName(k int) string { return s.knives[k].name + ".n" }

// normal returns n and n' = ∂n/∂θ of knife edge e at q.
func (e *knifeData) normal(q []float64) (n, dn Vec) {
	sn, cs := math.Sincos(q[e.col+2] + e.phi)
	return Vec{-sn, cs}, Vec{-cs, -sn}
}

// Pfaffian writes the knife edges' rows A and b = 0 (dae.Nonholonomic).
func (s *System) Pfaffian(A *mat.Dense, b []float64, _ float64, q []float64) {
	s.writePfaffian(assembly.Dense(A), b, q)
}

// PfaffianValues writes A on PfaffianPattern and b = 0 (dae.SparseNonholonomic).
func (s *System) PfaffianValues(dst, b []float64, _ float64, q []float64) {
	s.writePfaffian(assembly.Sparse(&s.knifeCSR, dst), b, q)
}

func (s *System) writePfaffian(dst assembly.Target, b []float64, q []float64) {
	dst.Zero()
	clear(b)
	for k := range s.knives {
		e := &s.knives[k]
		n, _ := e.normal(q)
		dst.Add(k, e.col, n[0])
		dst.Add(k, e.col+1, n[1])
		dst.Add(k, e.col+2, e.c0)
	}
}

// PfaffianGamma writes γ_A = −θ̇ n'·(ẋ, ẏ) (dae.Nonholonomic).
func (s *System) PfaffianGamma(dst []float64, _ float64, q, v []float64) {
	for k := range s.knives {
		e := &s.knives[k]
		_, dn := e.normal(q)
		dst[k] = -v[e.col+2] * (dn[0]*v[e.col] + dn[1]*v[e.col+1])
	}
}

// PfaffianRateDerivative writes ∂(A v)/∂q, nonzero in θ only (dae.Nonholonomic).
func (s *System) PfaffianRateDerivative(dst *mat.Dense, _ float64, q, v []float64) {
	s.writePfaffianRate(assembly.Dense(dst), q, v)
}

// PfaffianRateDerivativeValues writes ∂(A v)/∂q on PfaffianPattern (dae.SparseNonholonomic).
func (s *System) PfaffianRateDerivativeValues(dst []float64, _ float64, q, v []float64) {
	s.writePfaffianRate(assembly.Sparse(&s.knifeCSR, dst), q, v)
}

func (s *System) writePfaffianRate(dst assembly.Target, q, v []float64) {
	dst.Zero()
	for k := range s.knives {
		e := &s.knives[k]
		_, dn := e.normal(q)
		dst.Add(k, e.col+2, dn[0]*v[e.col]+dn[1]*v[e.col+1])
	}
}

// PfaffianForceDerivative writes ∂(Aᵀμ)/∂q, nonzero in the θ column (dae.Nonholonomic).
func (s *System) PfaffianForceDerivative(dst *mat.Dense, _ float64, q, mu []float64) {
	s.writePfaffianForce(assembly.Dense(dst), q, mu)
}

// PfaffianForceDerivativeValues writes ∂(Aᵀμ)/∂q on the coupling pattern, which holds
// each body's own columns (dae.SparseNonholonomic).
func (s *System) PfaffianForceDerivativeValues(dst []float64, _ float64, q, mu []float64) {
	c, _ := s.Patterns()
	s.writePfaffianForce(assembly.Sparse(c, dst), q, mu)
}

func (s *System) writePfaffianForce(dst assembly.Target, q, mu []float64) {
	dst.Zero()
	for k := range s.knives {
		e := &s.knives[k]
		_, dn := e.normal(q)
		dst.Add(e.col, e.col+2, mu[k]*dn[0])
		dst.Add(e.col+1, e.col+2, mu[k]*dn[1])
	}
}

// PfaffianPattern returns the columns of each knife edge's row: its body's x, y and θ,
// which hold A and ∂(A v)/∂q (dae.SparseNonholonomic). The slices are shared.
func (s *System) PfaffianPattern() [][]int { return s.knifeRows }

// buildKnifePattern fixes PfaffianPattern and its CSR after assembly.
func (s *System) buildKnifePattern() {
	s.knifeRows = make([][]int, len(s.knives))
	for k, e := range s.knives {
		s.knifeRows[k] = []int{e.col, e.col + 1, e.col + 2}
	}
	s.knifeCSR = dae.NewCSR(s.knifeRows, len(s.knives), s.nq, false)
}

var (
	_ dae.Nonholonomic       = (*System)(nil)
	_ dae.SparseNonholonomic = (*System)(nil)
	_ dae.PfaffianNamer      = (*System)(nil)
)
