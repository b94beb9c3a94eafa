package joint

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestGeometricStiffnessKnifePlanarExact: on a planar chain at rest under gravity with a
// knife edge on its last link (and, looped, the cut rows of TestGeometricStiffnessPlanarChainExact),
// K_g with the knife's multiplier μ after λ is the whole stiffness −f_q + (Gᵀλ)_q + (Aᵀμ)_q
// with the knife's force μ u held fixed in the world (knifePointLoads), the last by central
// differences of J_P(q)ᵀ μ u₀ (pathRow at u₀ = u(q)), to 1e-7 relative; and the knife's
// load changes K_g by more than 10 % of ‖K‖, so the test sees it.
func TestGeometricStiffnessKnifePlanarExact(t *testing.T) {
	const l, n = 0.4, 6
	for _, looped := range []bool{false, true} {
		md, links := planarStiffnessChain(n, l, looped, n-2)
		p, nb := vec3{0.08, 0, -0.7 * l}, vec3{1, 0, 0.5}
		md.KnifeEdge("blade", links[n-1], p, nb)
		sys, err := md.System()
		if err != nil {
			t.Fatal(err)
		}
		if !sys.HasPfaffianGeometricStiffness() {
			t.Fatal("HasPfaffianGeometricStiffness = false with a knife edge")
		}
		rng := rand.New(rand.NewPCG(11, 12))
		q := make([]float64, n)
		for i := range q {
			q[i] = rng.Float64() - 0.5
		}
		_, nc := sys.Size()
		lambda := make([]float64, nc+1) // λ, then the knife's μ (dae.WithPfaffianRows's order)
		for i := range lambda {
			lambda[i] = 10 * rng.NormFloat64()
		}
		lambda[nc] = 30 // the knife's μ: of the order of the gravity loads' levers
		mu := lambda[nc]
		zero := make([]float64, n)
		K, Fq := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
		sys.ForceDerivativeQ(Fq, 0, q, zero)
		K.Scale(-1, Fq)
		if looped {
			GTq := mat.NewDense(n, n, nil)
			sys.ConstraintForceDerivative(GTq, 0, q, lambda[:nc])
			K.Add(K, GTq)
		}
		// (J_P(q)ᵀ μ u₀)_q by central differences, u₀ the knife's direction at q.
		sys.m.kinematics(sys.w, q, nil)
		u0, _, _ := sys.w.turned(links[n-1], unit(nb))
		force := func(qq []float64) []float64 {
			sys.m.kinematics(sys.w, qq, nil)
			r, _, _ := sys.w.point(links[n-1], p)
			row := make([]float64, n)
			sys.pathRow(row, links[n-1], r, u0, mu)
			return row
		}
		const d = 1e-6
		qq := append([]float64(nil), q...)
		for j := range n {
			qq[j] = q[j] + d
			fp := force(qq)
			qq[j] = q[j] - d
			fm := force(qq)
			qq[j] = q[j]
			for i := range n {
				K.Set(i, j, K.At(i, j)+(fp[i]-fm[i])/(2*d))
			}
		}
		kg := make([]float64, sys.GeometricStiffnessLen())
		sys.GeometricStiffnessUnclipped(kg, q, zero, zero, lambda)
		Kd := sys.GeometricStiffnessDense(q, kg)
		var D mat.Dense
		D.Sub(K, Kd)
		if r := mat.Norm(&D, 2) / mat.Norm(K, 2); r > 1e-7 {
			t.Errorf("looped %v: ‖K − Σ Φᵀ K_m Φ‖ / ‖K‖ = %.3g, want ≤ 1e-7\nK  = %.4g\nKg = %.4g", looped, r, mat.Formatted(K), mat.Formatted(Kd))
		}
		lambda[nc] = 0
		sys.GeometricStiffnessUnclipped(kg, q, zero, zero, lambda)
		D.Sub(sys.GeometricStiffnessDense(q, kg), Kd)
		if r := mat.Norm(&D, 2) / mat.Norm(K, 2); r < 0.1 {
			t.Errorf("looped %v: the knife's load changes K_g by %.3g of ‖K‖ only: the test would not see it", looped, r)
		}
	}
}

// TestGeometricStiffnessKnifeAsCutRow: on a spherical chain at random (q, v, a), K_g with
// a knife edge's multiplier μ is K_g of the same chain with the knife replaced by a cut row
// to the ground along the knife's direction u(q) at its point, multiplier μ (the same world
// force −μ u at the same point, levered and summed over the subtrees as the cut rows'
// loads), to 1e-12: the 3D bookkeeping of knifePointLoads.
func TestGeometricStiffnessKnifeAsCutRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	p, nb := vec3{0.4, 0.02, 0}, vec3{0, 1, 0.3}
	for trial := range 4 {
		knifed := sphericalChain(5)
		tip := len(knifed.prims) - 1
		knifed.KnifeEdge("blade", tip, p, nb)
		ks, err := knifed.System()
		if err != nil {
			t.Fatal(err)
		}
		nq, _ := ks.Size()
		q, v := randomState(rng, nq)
		a := make([]float64, nq)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		mu := 10 * rng.NormFloat64()
		ks.m.kinematics(ks.w, q, nil)
		r, _, _ := ks.w.point(tip, p)
		u, _, _ := ks.w.turned(tip, unit(nb))
		cut := sphericalChain(5)
		cut.Cut("blade", tip, p, Ground, r, u)
		cs, err := cut.System()
		if err != nil {
			t.Fatal(err)
		}
		kk, kc := make([]float64, ks.GeometricStiffnessLen()), make([]float64, cs.GeometricStiffnessLen())
		ks.GeometricStiffnessUnclipped(kk, q, v, a, []float64{mu})
		cs.GeometricStiffnessUnclipped(kc, q, v, a, []float64{mu})
		var worst, size float64
		for i := range kk {
			worst = max(worst, math.Abs(kk[i]-kc[i]))
			size = max(size, math.Abs(kc[i]))
		}
		if worst > 1e-12*size {
			t.Errorf("trial %d: max |K_m(knife) − K_m(cut row)| = %.3g of %.3g", trial, worst, size)
		}
		ks.GeometricStiffnessUnclipped(kk, q, v, a, nil)
		var moved float64
		for i := range kk {
			moved = max(moved, math.Abs(kk[i]-kc[i]))
		}
		if moved < 1e-3*size {
			t.Errorf("trial %d: the knife's load moves K_m by %.3g of %.3g only: the test would not see it", trial, moved, size)
		}
	}
}
