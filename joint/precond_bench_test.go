package joint_test

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
)

// BenchmarkNewtonPreconditioner measures, on the 3D chain of N rods at its start, how many
// GMRES products hht's exact Newton matrix of eq. 12 (formed densely: CRBA M, the
// derivatives of derivatives.go) needs to reach the Newton-Krylov forcing term 1e-2 with
// candidate preconditioners P, each a part of J₁₁ = M/(1+α) + βh² K − γh f_v, K =
// (M a)_q − f_q (issue 21, a4 item 1): "M", the mass part integrate's massNewton applies;
// "M+diag", "M+blk3", M plus the diagonal, or the 3×3 diagonal blocks of the spherical
// joints, of βh² K − γh f_v (an armature-like term the articulated-body recursion could
// take); "M+K", "M+fv", M plus all of βh² K or of −γh f_v; "M+Kg", M plus βh² times the
// body-level geometric stiffness K_g = Σ Φ_mᵀ K_m Φ_m of dae.StiffMassSolver (each K_m
// clipped to its positive part, as StiffMassSolve takes it), formed densely from the
// frames' axes; "M+Kg-raw", the same unclipped; "M+Kg+br", M+Kg plus the 3×3 diagonal
// blocks of βh² (K − K_g) (the terms within a spherical joint that K_g leaves out: the
// turning of its Cardan axes). Each runs at the start (t=0: the chain nearly in free fall,
// little load) and at t=0.25 s of a dopri5 reference run (rtol 1e-8), where the rods pull
// on each other. prod-1e-2 is the number of products (a random right side, full GMRES
// without restarts; N = 1000 only for M, M+K and M+Kg at t = 0.25, h ≥ 3 ms); kg-miss is ‖K − K_g‖_F / ‖K‖_F (K_g unclipped), the part of K the
// body-level term does not hold. Run:
//
//	go test -run X -bench NewtonPreconditioner -benchtime 1x ./joint/
func BenchmarkNewtonPreconditioner(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		for _, t := range []float64{0, 0.25} {
			if n == 1000 && t == 0 {
				continue // N = 1000: dense LU of 3000 unknowns per case, only the loaded state
			}
			s := chainStateAt(b, n, t)
			for _, h := range []float64{1e-3, 3e-3, 1e-2} {
				for _, p := range []string{"M", "M+diag", "M+blk3", "M+K", "M+fv", "M+Kg", "M+Kg-raw", "M+Kg+br"} {
					if n == 1000 && (h == 1e-3 || (p != "M" && p != "M+K" && p != "M+Kg")) {
						continue
					}
					b.Run(fmt.Sprintf("N=%d/t=%g/h=%g/P=%s", n, t, h, p), func(b *testing.B) {
						J, P, miss := newtonParts(b, n, s, h, p)
						var its int
						for b.Loop() {
							its = preconditionedProducts(b, J, P, 1e-2)
						}
						b.ReportMetric(float64(its), "prod-1e-2")
						b.ReportMetric(miss, "kg-miss")
					})
				}
			}
		}
	}
}

// chainStateAt returns the state of the chain of n rods at t: its start, or a dopri5 run's
// (rtol = atol = 1e-8) from it.
func chainStateAt(b *testing.B, n int, t float64) integrate.State {
	sys, s, err := Chain3D(n)
	if err != nil {
		b.Fatal(err)
	}
	return stateAt(b, sys, s, t)
}

// stateAt returns the state of sys at t of a dopri5 run (rtol = atol = 1e-8) from s, or s
// at t = 0.
func stateAt(b testing.TB, sys dae.System, s integrate.State, t float64) integrate.State {
	if t == 0 {
		return s
	}
	e, err := integrate.Lookup("dopri5")
	if err != nil {
		b.Fatal(err)
	}
	m, err := e.NewMethod(integrate.Index1)
	if err != nil {
		b.Fatal(err)
	}
	if err := m.Init(sys, s, integrate.StepControl{RTol: 1e-8, ATol: 1e-8}); err != nil {
		b.Fatal(err)
	}
	for m.Current().T < t {
		if err := m.Step(t); err != nil {
			b.Fatal(err)
		}
	}
	return m.Current().Clone()
}

// newtonParts returns hht's J₁₁ (DefaultHHTAlpha, β = (1−α)²/4, γ = (1−2α)/2) on the chain of
// n rods at the state s, the preconditioner named p, and ‖K − K_g‖_F / ‖K‖_F.
func newtonParts(b *testing.B, n int, s integrate.State, h float64, p string) (J, P *mat.Dense, miss float64) {
	sys, _, err := Chain3D(n)
	if err != nil {
		b.Fatal(err)
	}
	nq, _ := sys.Size()
	M, K, C, J, beta, _ := hhtNewtonTerms(sys, s, h)
	R := mat.NewDense(nq, nq, nil)
	R.Sub(J, M)
	P = mat.DenseCopyOf(M)
	add := func(src *mat.Dense, keep func(i, j int) bool) {
		for i := range nq {
			for j := range nq {
				if keep(i, j) {
					P.Set(i, j, P.At(i, j)+src.At(i, j))
				}
			}
		}
	}
	all := func(i, j int) bool { return true }
	switch p {
	case "M+diag":
		add(R, func(i, j int) bool { return i == j })
	case "M+blk3":
		add(R, func(i, j int) bool { return i/3 == j/3 })
	case "M+K":
		add(K, all)
	case "M+fv":
		add(C, all)
	}
	Kg := geometricStiffnessDense(b, sys, s, beta*h*h, p != "M+Kg-raw")
	if p == "M+Kg" || p == "M+Kg-raw" || p == "M+Kg+br" {
		P.Add(P, Kg)
	}
	if p == "M+Kg+br" {
		R.Sub(K, Kg)
		add(R, func(i, j int) bool { return i/3 == j/3 })
	}
	raw := geometricStiffnessDense(b, sys, s, beta*h*h, false)
	R.Sub(K, raw)
	return J, P, mat.Norm(R, 2) / mat.Norm(K, 2)
}

// hhtNewtonTerms forms hht's J₁₁ = M/(1+α) + βh² K − γh f_v on sys at the state s densely
// (DefaultHHTAlpha, β = (1−α)²/4, γ = (1−2α)/2, K = (M a)_q − f_q), returning its terms
// M/(1+α), βh² K, C = −γh f_v, their sum J, and β and γ.
func hhtNewtonTerms(sys *joint.System, s integrate.State, h float64) (M, K, C, J *mat.Dense, beta, gamma float64) {
	nq, _ := sys.Size()
	al := integrate.DefaultHHTAlpha
	beta, gamma = (1-al)*(1-al)/4, (1-2*al)/2
	M, Ma, Fq, Fv := mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)
	sys.Mass(M, 0, s.Q)
	sys.MassDerivative(Ma, 0, s.Q, s.A)
	sys.ForceDerivativeQ(Fq, 0, s.Q, s.V)
	sys.ForceDerivativeV(Fv, 0, s.Q, s.V)
	M.Scale(1/(1+al), M)
	K, C = mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)
	K.Sub(Ma, Fq)
	K.Scale(beta*h*h, K)
	C.Scale(-gamma*h, Fv)
	J = mat.NewDense(nq, nq, nil)
	J.Add(M, K)
	J.Add(J, C)
	return M, K, C, J, beta, gamma
}

// geometricStiffnessDense returns k K_g, K_g = Σ Φ_mᵀ K_m Φ_m at the state s (K_m clipped to
// its positive part with clip, as StiffMassSolve takes them; TestStiffMassSolveMatchesDense
// checks that the recursion solves with M + k K_g).
func geometricStiffnessDense(b *testing.B, sys *joint.System, s integrate.State, k float64, clip bool) *mat.Dense {
	kg := make([]float64, sys.GeometricStiffnessLen())
	if clip {
		sys.GeometricStiffness(kg, 0, s.Q, s.V, s.A, nil)
	} else {
		sys.GeometricStiffnessUnclipped(kg, s.Q, s.V, s.A, nil)
	}
	K := sys.GeometricStiffnessDense(s.Q, kg)
	K.Scale(k, K)
	return K
}

// preconditionedProducts runs full left-preconditioned GMRES on J x = b (b random) and
// returns the number of products J z until ‖P⁻¹(b − J x)‖ ≤ rtol ‖P⁻¹b‖
// (preconditionedResiduals).
func preconditionedProducts(b *testing.B, J, P *mat.Dense, rtol float64) int {
	its, _ := preconditionedResiduals(b, J, P, rtol)
	return its
}

// BenchmarkChainImplicitGrowth measures hht, genalpha and bdf on the joint route's chain
// (as BenchmarkChainImplicitStep, tolerance 1e-4) with the default growth bound
// StepControl.MaxGrow = 5 and with 1.5. On the long chains hht's Newton iteration fails
// at about 4 × its accepted steps, exact matrix or not (BENCHMARKS.md, issue 21 session 7),
// so growing h by 5 after each accepted step buys a failed attempt per step. Run:
//
//	go test -run X -bench ChainImplicitGrowth -benchtime 40x ./joint/
func BenchmarkChainImplicitGrowth(b *testing.B) {
	for _, method := range []string{"hht", "genalpha", "bdf"} {
		for _, grow := range []float64{5, 1.5} {
			for _, n := range []int{100, 1000} {
				b.Run(fmt.Sprintf("method=%s/maxgrow=%g/N=%d", method, grow, n), func(b *testing.B) {
					sys, s, err := Chain3D(n)
					if err != nil {
						b.Fatal(err)
					}
					benchSteps(b, implicitMethod(method), sys, s, integrate.StepControl{RTol: 1e-4, ATol: 1e-4, MaxGrow: grow}, 5)
				})
			}
		}
	}
}

// implicitMethod returns the default hht, genalpha or bdf.
func implicitMethod(name string) integrate.Method {
	switch name {
	case "hht":
		m := integrate.DefaultHHT()
		return &m
	case "bdf":
		m := integrate.DefaultBDF()
		return &m
	}
	m := integrate.DefaultGenAlpha()
	return &m
}
