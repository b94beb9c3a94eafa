package integrate

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestRadauSolveMassStiff: with the geometric stiffness (Radau5.Stiffness both, radauStiff)
// radauKrylov.solveMass inverts the mass part of radau5's real and complex matrices c K − J
// with K_g δq in the a rows, M δa + K_g δq = r_a, to rounding on the open 3D chain: the
// dense matrix is the mass part (semiExplicit.approxJacobian) plus K_g, formed column by
// column from dae.StiffMassSolver's product, so the elimination's right side K_g w/c² and
// the complex articulated-body solve are checked against the matrix, not against
// themselves. Without the stiffness the same solves miss that matrix (the test sees K_g).
func TestRadauSolveMassStiff(t *testing.T) {
	const fr, ar, br = 40.0, 30.0, 25.0 // γ/h, α/h, β/h
	sys, s := jointChain3D(t, 4, 0.05, 10)
	se, err := newSemiExplicit(sys, StabilizedIndex2, false)
	if err != nil {
		t.Fatal(err)
	}
	dse, err := newSemiExplicit(sys, StabilizedIndex2, false)
	if err != nil {
		t.Fatal(err)
	}
	n, nq := se.n, se.nq
	y := make([]float64, n)
	se.pack(y, &s)
	for _, kind := range []RadauStiffness{RadauStiffnessBoth, RadauStiffnessNone} {
		k := newRadauKrylov(se, false, false, false, &Stats{})
		if k == nil {
			t.Fatal("no Newton-Krylov systems")
		}
		k.y0 = y
		if err := k.useStiffness(kind); err != nil {
			t.Fatal(err)
		}
		k.factor(0, y[:nq], nil)
		k.stiff.stiffen(se, 0, y)
		if err := k.decompose(nil, nil, fr, ar, br, 0); err != nil {
			t.Fatal(err)
		}
		if (k.stiff != nil) != (kind == RadauStiffnessBoth) {
			t.Fatalf("%s: stiffness on = %v", kind, k.stiff != nil)
		}
		// The dense mass part with K_g in the a rows' q columns (K_g of the stiffened run).
		J := mat.NewDense(n, n, nil)
		dse.approxJacobian(J, 0, y)
		if k.stiff == nil {
			k2 := newRadauKrylov(se, false, false, false, &Stats{})
			k2.y0 = y
			if err := k2.useStiffness(RadauStiffnessBoth); err != nil {
				t.Fatal(err)
			}
			k2.stiff.stiffen(se, 0, y)
			addStiffColumns(J, k2.stiff, se.ia(), nq)
		} else {
			addStiffColumns(J, k.stiff, se.ia(), nq)
		}
		cK := radauSystemMatrix(J, n, nq)
		b := knifeRight(2 * n)
		xr := append([]float64(nil), b[:n]...)
		k.solveMass(xr, nil, complex(fr, 0))
		x := append([]float64(nil), b...)
		k.solveMass(x[:n], x[n:], complex(ar, br))
		if kind == RadauStiffnessBoth {
			checkInverse(t, "real", cK(fr, 0, true), xr, b[:n])
			checkInverse(t, "complex", cK(ar, br, false), x, b)
			continue
		}
		// M alone: the residual against the stiffened matrix is far above rounding.
		r := make([]float64, 2*n)
		mat.NewVecDense(2*n, r).MulVec(cK(ar, br, false), mat.NewVecDense(2*n, x))
		var worst, size float64
		for i := range r {
			worst = max(worst, abs(r[i]-b[i]))
			size = max(size, abs(b[i]))
		}
		if worst < 1e-6*size {
			t.Errorf("none: M alone inverts the stiffened complex matrix to %.2g of |b|: the test would not see K_g", worst/size)
		}
	}
}

// addStiffColumns adds K_g (the body matrices in s.kg at s.q0) to J's a rows (from ia) in
// its q columns, −∂φ_a/∂q's part that radauStiff takes (J holds ∂φ/∂y, so it is subtracted).
func addStiffColumns(J *mat.Dense, s *radauStiff, ia, nq int) {
	e, col := make([]float64, nq), make([]float64, nq)
	for j := range nq {
		clear(e)
		clear(col)
		e[j] = 1
		s.st.AddGeometricStiffnessMul(col, s.t0, s.q0, e, s.kg, 1)
		for i, c := range col {
			J.Set(ia+i, j, J.At(ia+i, j)-c)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
