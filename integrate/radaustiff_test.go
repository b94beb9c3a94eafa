package integrate

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// TestRadauSolveMassStiff: on a dae.StiffMassSolver system without constraint rows (the
// joint route's 3D chain of 4 rods at its start, loaded by gravity), radauKrylov.solveMass
// inverts, to rounding, the real preconditioner [γ/h·I −I 0; 0 γ/h·I −I; 0 0 M + K_g h²/γ²]
// (radauStiffWeights) and the complex one without K_g. The real one agrees with the mass
// part of γ/h K − J with the geometric stiffness in its place, [γ/h·I −I 0; 0 γ/h·I −I;
// K_g 0 M], on right sides whose q and v rows are zero (both reduce to (γ²/h² M + K_g) δq
// on δq), which the mass part alone misses by more than 1e-3. K_g is formed densely from
// StiffMassSolve at unit weight, ((M + K_g)⁻¹)⁻¹ − M, whose body matrices joint's
// TestStiffMassSolveMatchesDense checks against the dense sum; h = 0.2 s makes K_g h²/γ²
// a visible part of the a-block.
func TestRadauSolveMassStiff(t *testing.T) {
	sys, s := jointChain3D(t, 4, 0.02, 0)
	se, err := newSemiExplicit(sys, StabilizedIndex2, false)
	if err != nil {
		t.Fatal(err)
	}
	k := newRadauKrylov(se, false, false, &Stats{})
	if k == nil {
		t.Fatal("no Newton-Krylov systems")
	}
	n, nq := se.n, se.nq
	y := make([]float64, n)
	se.pack(y, &s)
	k.factor(0, y, nil)
	h := 0.2
	fr, ar, br := radauCoef.gamma/h, radauCoef.alpha/h, radauCoef.beta/h
	if err := k.decompose(nil, nil, fr, ar, br, 0); err != nil {
		t.Fatal(err)
	}
	if !k.kgOK || k.kr == 0 {
		t.Fatal("the real system takes no geometric stiffness")
	}
	M := mat.NewDense(nq, nq, nil)
	sys.Mass(M, 0, s.Q)
	Kg := denseGeometricStiffness(k.mn.schur.st, k.mn.schur.kg, s.Q, M)
	var Ma mat.Dense // the a-block M + K_g h²/γ²
	Ma.Scale(k.kr, Kg)
	Ma.Add(&Ma, M)
	b := knifeRight(2 * n)
	xr := append([]float64(nil), b[:n]...)
	k.solveMass(xr, nil, complex(fr, 0))
	checkInverse(t, "real", radauMassPart(&Ma, nil, n, fr, 0, true), xr, b[:n])

	ba := make([]float64, n) // only the a rows
	copy(ba[2*nq:], b[2*nq:3*nq])
	xa := append([]float64(nil), ba...)
	k.solveMass(xa, nil, complex(fr, 0))
	checkInverse(t, "real, a rows against K_g in the q columns", radauMassPart(M, Kg, n, fr, 0, true), xa, ba)
	if r := inverseResidual(radauMassPart(M, nil, n, fr, 0, true), xa, ba); r < 1e-3 {
		t.Errorf("the mass part without K_g leaves %.1e |b|: the test cannot tell K_g from M", r)
	}

	x := append([]float64(nil), b...)
	k.solveMass(x[:n], x[n:], complex(ar, br))
	checkInverse(t, "complex", radauMassPart(M, nil, n, ar, br, false), x, b)
}

// denseGeometricStiffness returns K_g = ((M + K_g)⁻¹)⁻¹ − M from st's StiffMassSolve at
// unit weight on the body matrices kg (no constraint rows).
func denseGeometricStiffness(st dae.StiffMassSolver, kg, q []float64, M *mat.Dense) *mat.Dense {
	nq := len(q)
	X := mat.NewDense(nq, nq, nil)
	e, x := make([]float64, nq), make([]float64, nq)
	for j := range nq {
		clear(e)
		e[j] = 1
		st.StiffMassSolve(x, 0, q, e, nil, kg, 1)
		X.SetCol(j, x)
	}
	var K mat.Dense
	if err := K.Inverse(X); err != nil {
		panic(err)
	}
	K.Sub(&K, M)
	return &K
}

// radauMassPart is the mass part of radau5's c K − J (c = cr + i ci, on (Re, Im) when
// !re) for a system without constraint rows, with K (nil: none) in the a-rows' q columns.
func radauMassPart(M, K *mat.Dense, n int, cr, ci float64, re bool) *mat.Dense {
	nq := n / 3
	a := mat.NewDense(2*n, 2*n, nil)
	for _, o := range []int{0, n} {
		for i := range 2 * nq {
			a.Set(o+i, o+i, cr)
			a.Set(o+i, o+nq+i, -1)
		}
		for i := range nq {
			for j := range nq {
				a.Set(o+2*nq+i, o+2*nq+j, M.At(i, j))
				if K != nil {
					a.Set(o+2*nq+i, o+j, K.At(i, j))
				}
			}
		}
	}
	for i := range 2 * nq {
		a.Set(i, n+i, -ci)
		a.Set(n+i, i, ci)
	}
	if re {
		return a.Slice(0, n, 0, n).(*mat.Dense)
	}
	return a
}

// inverseResidual returns max|a x − b| / max|b|.
func inverseResidual(a *mat.Dense, x, b []float64) float64 {
	r := make([]float64, len(b))
	mat.NewVecDense(len(r), r).MulVec(a, mat.NewVecDense(len(x), x))
	var worst, size float64
	for i := range r {
		worst = math.Max(worst, math.Abs(r[i]-b[i]))
		size = math.Max(size, math.Abs(b[i]))
	}
	return worst / size
}
