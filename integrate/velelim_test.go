package integrate_test

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"linkage/integrate"
	"linkage/problems"
)

// TestEliminatedAccelerations: bdf's sparse Newton system solved with the accelerations
// eliminated (δa = c δv + b_v from the rows v' = a, velelim.go) and then the velocities
// (from the rows q' = v, GGL's q' = v − Gᵀμ) agrees with the full
// system's solve on (q, v, a, λ[, μ]) by linalg.SparseLU, at random states, multipliers
// and right-hand sides of the planar bar chain and the 3D chain (Euler parameters), in
// every formulation (the acceleration forms put a's columns in the constraint rows too),
// at a BDF-sized c and a small one: its backward error in the full matrix is at rounding
// level (≤ 1e-14, as the full solve's), and the two solutions differ by no more than two
// backward-stable solves may, κ∞(ω_full + ω_elim), nor 1e-12 relative when that bound is
// smaller. Measured: 1e-15 to 2e-14 on the bar chain, up to 2.1e-12 on the 3D chain at
// κ∞ = 2.5e8 (ggl, c = 2000).
func TestEliminatedAccelerations(t *testing.T) {
	for _, name := range []string{"chain-bars:20", "chain3d:6"} {
		p, err := problems.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range []integrate.Formulation{integrate.StabilizedIndex2, integrate.Index3, integrate.Index2,
			integrate.Index1, integrate.Baumgarte, integrate.Index2Baumgarte} {
			for seed, c := range []float64{2000, 3} {
				fill := nearStart(rand.New(rand.NewPCG(uint64(seed), 5)), p.Start.Q)
				full, red, omegaFull, omegaRed, kappa, ok := integrate.SemiExplicitSolves(p.System, form, c, 0.3, fill)
				if !ok {
					t.Fatalf("%s %s: not on the sparse path", name, form)
				}
				var gap, scale float64
				for i := range full {
					gap, scale = math.Max(gap, math.Abs(full[i]-red[i])), math.Max(scale, math.Abs(full[i]))
				}
				// Two backward-stable solves differ by at most κ(ω₁ + ω₂) relative.
				bound := math.Max(1e-12, kappa*(omegaFull+omegaRed))
				if gap > bound*scale || omegaRed > 1e-14 || math.IsNaN(gap) {
					t.Errorf("%s %s c = %g: eliminated solve differs from the full one by %.3g relative (κ∞ %.3g, backward errors %.3g full, %.3g eliminated); want ≤ %.3g and a backward error ≤ 1e-14",
						name, form, c, gap/scale, kappa, omegaFull, omegaRed, bound)
				}
				if testing.Verbose() {
					t.Logf("%s %s c = %g: gap %.3g relative, κ∞ %.3g, ω %.3g full, %.3g eliminated", name, form, c, gap/scale, kappa, omegaFull, omegaRed)
				}
			}
		}
	}
}

// TestEliminatedAccelerationsComplex: radau5's complex system ((α+iβ)/h) K − J solved with
// the accelerations eliminated (velelim.go on complex128) agrees with the full complex
// solve by linalg.ComplexSparseLU to 1e-12 relative on the planar bar chain, and its
// backward error in the full matrix is at rounding level (≤ 1e-14) on the bar chain and
// the 3D chain, in radau5's formulations (ggl, index3, index2).
func TestEliminatedAccelerationsComplex(t *testing.T) {
	for _, name := range []string{"chain-bars:20", "chain3d:6"} {
		p, err := problems.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range []integrate.Formulation{integrate.StabilizedIndex2, integrate.Index3, integrate.Index2} {
			fill := nearStart(rand.New(rand.NewPCG(7, 8)), p.Start.Q)
			full, red, omega, ok := integrate.SemiExplicitComplexSolves(p.System, form, 400, 300, 0.3, fill)
			if !ok {
				t.Fatalf("%s %s: not on the sparse path", name, form)
			}
			var gap, scale float64
			for i := range full {
				gap, scale = math.Max(gap, cmplx.Abs(full[i]-red[i])), math.Max(scale, cmplx.Abs(full[i]))
			}
			t.Logf("%s %s: gap %.3g relative, backward error %.3g", name, form, gap/scale, omega)
			if omega > 1e-14 || math.IsNaN(gap) || (name == "chain-bars:20" && gap > 1e-12*scale) {
				t.Errorf("%s %s: eliminated complex solve differs from the full one by %.3g relative, backward error %.3g; want a backward error ≤ 1e-14 (and ≤ 1e-12 relative on the bar chain)",
					name, form, gap/scale, omega)
			}
		}
	}
}

// nearStart returns vectors of length n whose first len(q) entries are q perturbed by
// 0.05 N(0, 1) each (unit Euler parameters stay near unit) and the rest N(0, 1).
func nearStart(r *rand.Rand, q []float64) func(n int) []float64 {
	return func(n int) []float64 {
		y := make([]float64, n)
		for i := range y {
			y[i] = r.NormFloat64()
			if i < len(q) {
				y[i] = q[i] + 0.05*y[i]
			}
		}
		return y
	}
}
