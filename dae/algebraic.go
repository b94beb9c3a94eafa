package dae

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Algebraic is the optional capability of algebraic variables besides λ: index-1 unknowns
// s such as a contact point's curve parameter, determined by equations c(t, q, s) = 0 with
// ∂c/∂s nonsingular (issue 16, item 3). A system carries them as generalized coordinates
// with no inertia, q = (q_mech, s), and their equations among its constraints, so that
//
//	M = [M_mech 0; 0 0],   M a = f − Gᵀλ,   0 = g(t, q_mech, s).
//
// The row of s in M a = f − Gᵀλ reads 0 = f_s − (∂g/∂s)ᵀλ: with f_s = 0 the constraint force
// does no work along s, which for a contact parameter is the condition that the contact
// force be normal to the curve. The saddle-point matrix [M Gᵀ; G 0] stays regular exactly
// when M is positive definite on the null space of G (seed 002, Lemma 1), which for s is
// the index-1 condition, so every method that solves that system — all registered ones —
// integrates s as it integrates a point mass's coordinates, with no change to its Newton
// matrix: s, s' and s″ are smooth because s(t, q) is (implicit function theorem).
//
// The capability only declares which coordinates are algebraic, so that CheckAlgebraic
// can verify the declaration before a run and errors can name them.
type Algebraic interface {
	// AlgebraicCoordinates returns the indices of the algebraic variables in q.
	AlgebraicCoordinates() []int
}

// CheckAlgebraic verifies the algebraic variables a system declares (Algebraic) at (t, q):
// each index is a coordinate, its row and column of M are zero, and the saddle-point
// matrix [M Gᵀ; G 0] is regular (G of full rank and M positive definite on its null space),
// i.e. the constraints determine s (∂c/∂s nonsingular) and, with it, a and λ. It returns nil for a system without the
// capability; otherwise an error naming the coordinates at fault. It allocates: a check
// made once, before a run.
func CheckAlgebraic(sys System, t float64, q []float64) error {
	al, ok := sys.(Algebraic)
	if !ok {
		return nil
	}
	nq, _ := sys.Size()
	M := mat.NewDense(nq, nq, nil)
	sys.Mass(M, t, q)
	for _, i := range al.AlgebraicCoordinates() {
		if i < 0 || i >= nq {
			return fmt.Errorf("dae: algebraic variable index %d outside the %d coordinates", i, nq)
		}
		for j := range nq {
			if M.At(i, j) != 0 || M.At(j, i) != 0 {
				return fmt.Errorf("dae: algebraic variable %s has mass M[%d,%d] = %g, M[%d,%d] = %g; want its row and column of M zero",
					CoordinateName(sys, i), i, j, M.At(i, j), j, i, M.At(j, i))
			}
		}
	}
	v := SaddleNullVector(sys, t, q)
	if v == nil {
		return nil
	}
	var at []string
	for i, x := range v {
		switch {
		case math.Abs(x) <= 0.1:
		case i < nq:
			at = append(at, CoordinateName(sys, i))
		default:
			at = append(at, ConstraintName(sys, i-nq))
		}
	}
	var alg []string
	for _, i := range al.AlgebraicCoordinates() {
		alg = append(alg, CoordinateName(sys, i))
	}
	return fmt.Errorf("dae: at t = %g the saddle-point matrix [M Gᵀ; G 0] is singular, so the constraints do not determine the algebraic variables %s (∂c/∂s singular; seed 002, Lemma 1); its null vector involves %s",
		t, strings.Join(alg, ", "), strings.Join(at, ", "))
}

// SaddleNullVector returns nil when the saddle-point matrix [M Gᵀ; G 0] at (t, q) has its
// smallest singular value above MassRankTol times its largest (a and λ are determined), and
// otherwise its unit null vector (a, λ), of length nq + nc, whose large components name the
// coordinates and constraints at fault. It allocates dense (nq+nc)² storage: a check made
// once, before a run.
func SaddleNullVector(sys System, t float64, q []float64) []float64 {
	nq, nc := sys.Size()
	n := nq + nc
	K := mat.NewDense(n, n, nil)
	sys.Mass(K.Slice(0, nq, 0, nq).(*mat.Dense), t, q)
	if nc > 0 {
		G := K.Slice(nq, n, 0, nq).(*mat.Dense)
		sys.ConstraintJacobian(G, t, q)
		K.Slice(0, nq, nq, n).(*mat.Dense).Copy(G.T())
	}
	return nullVector(K)
}
