package joint_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/integrate"
)

// BenchmarkNewtonVelocityTerms asks which terms of hht's exact J₁₁ = M/(1+α) + βh² K − γh f_v
// (K = (M a)_q − f_q) the joint route's preconditioner M/(1+α) + βh² K_g misses on the
// spinning 3D chain (Chain3D, turning at 1 rad/s about the vertical, as examples/chain3d.yaml),
// at states of a dopri5 run within the span of BenchmarkChain3DHHTRun (t ≤ 0.15 s) and at
// h near that run's steps: the products of full GMRES to the forcing term 1e-2 (as
// newtonParts and preconditionedProducts, dense and throwaway) with P = "M+Kg" (the present
// preconditioner), "M+Kg+C" (plus the whole velocity term C = −γh f_v), "M+K" (the whole
// stiffness, no C), "J" (the exact matrix: 1), and M+Kg plus body-local forms of C that the
// articulated-body recursion could take as added body inertia: "+gyro" (γh Σ Φ_mᵀ G_m Φ_m,
// G_m = ∂(ω × J_c ω)/∂ω about the centre of mass), "+B6" (γh Σ J_mᵀ B_m J_m, B_m =
// ∂(V ×* I V)/∂V the spatial bias force's derivative), "sym" their symmetric parts.
// c-miss is ‖C − C_P‖_F / ‖C‖_F for the C part C_P that P holds; c/k is ‖C‖_F / ‖βh² K‖_F.
// Run:
//
//	go test -run X -bench NewtonVelocityTerms -benchtime 1x ./joint/
func BenchmarkNewtonVelocityTerms(b *testing.B) {
	for _, n := range []int{10, 20, 100} {
		for _, t := range []float64{0.05, 0.15} {
			s := chainStateAt(b, n, t)
			for _, h := range []float64{3.3e-3, 1e-2} {
				for _, p := range []string{"M+Kg", "M+Kg+C", "M+K", "J", "M+Kg+gyro", "M+Kg+gyrosym", "M+Kg+B6", "M+Kg+B6sym", "M+Kg+blk3C"} {
					b.Run(fmt.Sprintf("N=%d/t=%g/h=%g/P=%s", n, t, h, p), func(b *testing.B) {
						J, P, miss, ck := newtonVelParts(b, n, s, h, p)
						reportPreconditioned(b, J, P)
						b.ReportMetric(miss, "c-miss")
						b.ReportMetric(ck, "c/k")
					})
				}
			}
		}
	}
}

// newtonVelParts returns hht's J₁₁ on the chain of n rods at s, the preconditioner named p
// (BenchmarkNewtonVelocityTerms), ‖C − C_P‖_F / ‖C‖_F and ‖C‖_F / ‖βh² K‖_F.
func newtonVelParts(b *testing.B, n int, s integrate.State, h float64, p string) (J, P *mat.Dense, miss, ck float64) {
	sys, _, err := Chain3D(n)
	if err != nil {
		b.Fatal(err)
	}
	nq, _ := sys.Size()
	M, K, C, J, beta, gamma := hhtNewtonTerms(sys, s, h)
	Kg := geometricStiffnessDense(b, sys, s, beta*h*h, true)
	P = mat.NewDense(nq, nq, nil)
	P.Add(M, Kg)
	CP := mat.NewDense(nq, nq, nil)
	switch p {
	case "M+Kg+C":
		CP.Copy(C)
	case "M+K":
		P.Add(M, K)
	case "J":
		P.Copy(J)
		CP.Copy(C)
	case "M+Kg+gyro", "M+Kg+gyrosym", "M+Kg+B6", "M+Kg+B6sym":
		B := sys.VelocityBlocksDense(s.Q, s.V, p == "M+Kg+B6" || p == "M+Kg+B6sym", p == "M+Kg+gyrosym" || p == "M+Kg+B6sym")
		CP.Scale(gamma*h, B)
	case "M+Kg+blk3C":
		for i := range nq {
			for j := range nq {
				if i/3 == j/3 {
					CP.Set(i, j, C.At(i, j))
				}
			}
		}
	}
	if p != "J" {
		P.Add(P, CP)
	}
	R := mat.NewDense(nq, nq, nil)
	R.Sub(C, CP)
	return J, P, mat.Norm(R, 2) / mat.Norm(C, 2), mat.Norm(C, 2) / mat.Norm(K, 2)
}

// BenchmarkNewtonVelocityTermsStale is BenchmarkNewtonVelocityTerms as hht's Newton-Krylov
// corrector meets it: the preconditioner factored at an earlier state s_F (age earlier: the
// 400-rod run refactors every 7.7 steps, about 26 ms) and the residual's dynamic rows scaled
// by M(q_F) M(q)⁻¹ (massNewton.scaleRows, hhtWork.scaledRows), so GMRES solves with
// M_F M⁻¹ J(q) and P(s_F). P as BenchmarkNewtonVelocityTerms ("J": the exact J at s_F).
// Run:
//
//	go test -run X -bench NewtonVelocityTermsStale -benchtime 1x ./joint/
func BenchmarkNewtonVelocityTermsStale(b *testing.B) {
	for _, n := range []int{100, 400} {
		const t, h = 0.15, 3.3e-3
		s := chainStateAt(b, n, t)
		for _, age := range []float64{0, 0.026} {
			sF := s
			if age > 0 {
				sF = chainStateAt(b, n, t-age)
			}
			for _, p := range []string{"M+Kg", "M+Kg+C", "M+K", "J", "M+Kg+B6"} {
				b.Run(fmt.Sprintf("N=%d/age=%g/P=%s", n, age, p), func(b *testing.B) {
					J, _, _, _ := newtonVelParts(b, n, s, h, "J")
					_, P, _, _ := newtonVelParts(b, n, sF, h, p)
					if age > 0 {
						sys, _, err := Chain3D(n)
						if err != nil {
							b.Fatal(err)
						}
						nq, _ := sys.Size()
						M, MF := mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)
						sys.Mass(M, 0, s.Q)
						sys.Mass(MF, 0, sF.Q)
						var lu mat.LU
						lu.Factorize(M)
						X := mat.NewDense(nq, nq, nil)
						if err := lu.SolveTo(X, false, J); err != nil {
							b.Fatal(err)
						}
						J.Mul(MF, X)
					}
					reportPreconditioned(b, J, P)
				})
			}
		}
	}
}

// preconditionedResiduals runs full left-preconditioned GMRES on J x = b (b random) until
// ‖P⁻¹(b − J x)‖ ≤ rtol ‖P⁻¹b‖ and returns the number of products J z and the relative
// preconditioned residuals ‖P⁻¹(b − J x_k)‖ / ‖P⁻¹b‖ after k = 1 and 2 products (0 once
// reached), a finer measure than the count when the counts are 1 or 2.
func preconditionedResiduals(b *testing.B, J, P *mat.Dense, rtol float64) (int, []float64) {
	n, _ := J.Dims()
	var lu mat.LU
	lu.Factorize(P)
	A := mat.NewDense(n, n, nil)
	if err := lu.SolveTo(A, false, J); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	r := mat.NewVecDense(n, nil)
	for i := range n {
		r.SetVec(i, rng.NormFloat64())
	}
	beta := r.Norm(2)
	V := []*mat.VecDense{mat.NewVecDense(n, nil)}
	V[0].ScaleVec(1/beta, r)
	H := mat.NewDense(n+1, n, nil)
	g := make([]float64, n+1)
	g[0] = beta
	cs, sn := make([]float64, n), make([]float64, n)
	rel := make([]float64, 2)
	for j := range n {
		w := mat.NewVecDense(n, nil)
		w.MulVec(A, V[j])
		for i := 0; i <= j; i++ {
			hij := mat.Dot(w, V[i])
			H.Set(i, j, hij)
			w.AddScaledVec(w, -hij, V[i])
		}
		hn := w.Norm(2)
		for i := range j {
			x, y := H.At(i, j), H.At(i+1, j)
			H.Set(i, j, cs[i]*x+sn[i]*y)
			H.Set(i+1, j, -sn[i]*x+cs[i]*y)
		}
		rr := math.Hypot(H.At(j, j), hn)
		cs[j], sn[j] = H.At(j, j)/rr, hn/rr
		g[j+1], g[j] = -sn[j]*g[j], cs[j]*g[j]
		if j < 2 {
			rel[j] = math.Abs(g[j+1]) / beta
		}
		if math.Abs(g[j+1]) <= rtol*beta || hn == 0 {
			return j + 1, rel
		}
		w.ScaleVec(1/hn, w)
		V = append(V, w)
	}
	return n, rel
}

// reportPreconditioned runs full GMRES on J with preconditioner P to the forcing term 1e-2
// and reports its products and the relative residuals after the first two.
func reportPreconditioned(b *testing.B, J, P *mat.Dense) {
	var its int
	var rel []float64
	for b.Loop() {
		its, rel = preconditionedResiduals(b, J, P, 1e-2)
	}
	b.ReportMetric(float64(its), "prod-1e-2")
	b.ReportMetric(rel[0], "rel1")
	b.ReportMetric(rel[1], "rel2")
}
