package joint

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestComplexStiffMassSolveMatchesDense: ComplexStiffMassSolve gives the solution of the
// dense complex symmetric (M + k Σ Φᵀ K_m Φ) x = b (composite-rigid-body M, the K_m
// GeometricStiffness writes, k complex) to 1e-10, solved as the real 2n×2n system
// [A −B; B A](Re x, Im x) = (Re b, Im b), on random states of randomTree (every joint
// kind, a branch, the cut rows' random loads in K_g) and of a spherical chain (composite
// joints, which the complex recursion takes primitive by primitive), for k of radau5's
// phase, h²(α − iβ)²/|α+iβ|⁴ up to a scale, and of others; a real k gives StiffMassSolve's
// solution; a second solve at the same point reuses the factorization and allocates
// nothing.
func TestComplexStiffMassSolveMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ks := []complex128{-0.0078 - 0.060i, 0.3 - 1.7i, -2 + 0.5i, 0.8}
	for trial := range 6 {
		sys, nq, q, v := randomTreeOrChain(t, rng, trial)
		a := make([]float64, nq)
		sys.Accelerations(a, 0, q, v)
		kg := make([]float64, sys.GeometricStiffnessLen())
		sys.GeometricStiffness(kg, 0, q, v, a, randomMultipliers(sys, rng))
		P := mat.NewDense(nq, nq, nil)
		sys.Mass(P, 0, q)
		sys.m.kinematics(sys.w, q, nil)
		K := stiffnessDense(sys, kg)
		scale := mat.Norm(P, 2) / mat.Norm(K, 2) // K's size beside M's: k K matters
		br, bi := make([]float64, nq), make([]float64, nq)
		for i := range br {
			br[i], bi[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		for _, k0 := range ks {
			k := k0 * complex(scale, 0)
			xr, xi := make([]float64, nq), make([]float64, nq)
			sys.ComplexStiffMassSolve(xr, xi, 0, q, br, bi, kg, k)
			A := mat.NewDense(2*nq, 2*nq, nil)
			for i := range nq {
				for j := range nq {
					re := P.At(i, j) + real(k)*K.At(i, j)
					im := imag(k) * K.At(i, j)
					A.Set(i, j, re)
					A.Set(nq+i, nq+j, re)
					A.Set(i, nq+j, -im)
					A.Set(nq+i, j, im)
				}
			}
			var want mat.VecDense
			if err := want.SolveVec(A, mat.NewVecDense(2*nq, append(append([]float64(nil), br...), bi...))); err != nil {
				t.Fatal(err)
			}
			// Normwise: the forward error against the dense solve, and the backward error
			// ‖A x − b‖ / (‖A‖‖x‖ + ‖b‖) (the spherical chain's A has condition ~5e5).
			x2 := mat.NewVecDense(2*nq, append(append([]float64(nil), xr...), xi...))
			var ferr, wmax float64
			for i := range 2 * nq {
				ferr = math.Max(ferr, math.Abs(x2.AtVec(i)-want.AtVec(i)))
				wmax = math.Max(wmax, math.Abs(want.AtVec(i)))
			}
			if ferr > 1e-10*wmax {
				t.Errorf("trial %d, k = %v: |x − x_dense| = %.3g against |x_dense| = %.3g", trial, k, ferr, wmax)
			}
			var r mat.VecDense
			r.MulVec(A, x2)
			var rmax, bmax float64
			for i := range nq {
				rmax = math.Max(rmax, math.Max(math.Abs(r.AtVec(i)-br[i]), math.Abs(r.AtVec(nq+i)-bi[i])))
				bmax = math.Max(bmax, math.Max(math.Abs(br[i]), math.Abs(bi[i])))
			}
			if be := rmax / (mat.Norm(A, math.Inf(1))*mat.Norm(x2, math.Inf(1)) + bmax); be > 1e-14 {
				t.Errorf("trial %d, k = %v: backward error %.3g", trial, k, be)
			}
			if imag(k) == 0 {
				x := make([]float64, nq)
				sys.StiffMassSolve(x, 0, q, br, nil, kg, real(k))
				sys.ComplexStiffMassSolve(xr, xi, 0, q, br, make([]float64, nq), kg, k)
				for i := range x {
					if d := math.Abs(xr[i] - x[i]); d > 1e-10*math.Max(1, math.Abs(x[i])) || xi[i] != 0 {
						t.Errorf("trial %d, real k: x[%d] = %.15g%+.3gi, StiffMassSolve %.15g", trial, i, xr[i], xi[i], x[i])
					}
				}
			}
			if allocs := testing.AllocsPerRun(5, func() { sys.ComplexStiffMassSolve(xr, xi, 0, q, br, bi, kg, k) }); allocs != 0 {
				t.Errorf("trial %d: ComplexStiffMassSolve allocates %v times", trial, allocs)
			}
		}
	}
}

// TestSpinFreeGeometricStiffness: SpinFreeGeometricStiffness is GeometricStiffness with
// each slender body's K_m projected off its spin axis: on a chain of rods (spin inertia
// 5e-5 against 0.02 kg m²) every rod's matrix annihilates the rod's axis in the world
// frame, R e_x, and equals (1 − ââᵀ) K_m (1 − ââᵀ) of GeometricStiffness's K_m, which
// does not annihilate it (the rods are bent and loaded); on sphericalChain's rods of
// spin inertia 1e-4 with a body of equal moments in the middle that body keeps its K_m.
func TestSpinFreeGeometricStiffness(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	md := sphericalChain(4)
	md.prims[4*3-4].body.Inertia = [3][3]float64{{0.1, 0, 0}, {0, 0.1, 0}, {0, 0, 0.1}} // a ball: no spin axis
	sys, err := md.System()
	if err != nil {
		t.Fatal(err)
	}
	nq, _ := sys.Size()
	q, v := randomState(rng, nq)
	a := make([]float64, nq)
	sys.Accelerations(a, 0, q, v)
	kg, kf := make([]float64, sys.GeometricStiffnessLen()), make([]float64, sys.GeometricStiffnessLen())
	sys.GeometricStiffness(kg, 0, q, v, a, nil)
	sys.SpinFreeGeometricStiffness(kf, 0, q, v, a, nil)
	sys.m.kinematics(sys.w, q, nil)
	rods := 0
	for i := range sys.m.prims {
		if sys.w.bare[i] {
			continue
		}
		K, F := mat3ByRows(kg[kgSize*i:]), mat3ByRows(kf[kgSize*i:])
		if md.prims[i].body.Inertia[0][0] == 0.1 {
			if K != F {
				t.Errorf("frame %d (no slender axis): K_m changed", i)
			}
			continue
		}
		rods++
		u := sys.w.R[i].mulv(vec3{1, 0, 0})
		if n := K.mulv(u); math.Sqrt(n.dot(n)) < 1e-6 {
			t.Errorf("frame %d: K_m â = %v: the test would not see the projection", i, n)
		}
		var want mat3
		for r := range 3 {
			for c := range 3 {
				for e := range 3 {
					for f := range 3 {
						pre := -u[r] * u[e]
						if r == e {
							pre++
						}
						post := -u[f] * u[c]
						if f == c {
							post++
						}
						want[r][c] += pre * K[e][f] * post
					}
				}
			}
		}
		for r := range 3 {
			for c := range 3 {
				if d := math.Abs(F[r][c] - want[r][c]); d > 1e-12*(1+math.Abs(want[r][c])) || math.Abs(F[r][c]-F[c][r]) > 1e-12 {
					t.Errorf("frame %d: projected K_m[%d][%d] = %g, want %g", i, r, c, F[r][c], want[r][c])
				}
			}
			if n := F.mulv(u); math.Sqrt(n.dot(n)) > 1e-12 {
				t.Errorf("frame %d: projected K_m â = %v, want 0", i, n)
			}
		}
	}
	if rods != 3 {
		t.Errorf("%d slender rods checked, want 3", rods)
	}
}
