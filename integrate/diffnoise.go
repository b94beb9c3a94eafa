package integrate

import "math"

// diffNoise sets the increment σ of the forward differences J z ≈ (φ(y + σz) − φ(y))/σ of
// a Newton-Krylov corrector (gmres.go) from the measured noise of φ. A difference errs by
// the truncation σ‖φ”‖‖z‖²/2 plus the noise of two evaluations over σ; with the point
// moved by s = σ‖z‖ and φ varying on the scale S of y (curvature ~1/S in the units of the
// increments), the two balance at
//
//	s = √(ν S),
//
// ν the noise of φ in those units, the usual s = √ε S when ν = ε S (Kelley 2003, sec.
// 3.2.1; Moré and Wild 2012). On the joint route's chains ν is far above ε S: the dynamic
// rows carry the rounding of the joint loads (2.5e6 N m at the base of the 1000-rod
// chain), multiplied by the preconditioner's M⁻¹ along the rods' spins (5e-5 kg m²), so
// √ε S put the products into that noise (BENCHMARKS.md, "The increment of the
// Newton-Krylov difference products").
//
// ν is measured, not modelled (measure): the third difference of φ along y + kτS d (k =
// 0..3, d of fixed pseudo-random signs, τ = diffNoiseTau) cancels φ's smooth part to
// O(τ³) and leaves its rounding, √20 times one evaluation's for independent errors
// (Moré and Wild 2011, ECnoise); the preconditioner maps it into the units of the
// increments, where GMRES compares the products. Two steps τ and 100τ check that it is
// noise. It is measured at a solver's first solve and again every diffNoiseEvery solves,
// as the loads change along a run (after diffNoiseRetry solves when the two steps
// disagreed above the rounding level).
type diffNoise struct {
	level float64 // ν: the preconditioned noise, in the norm of the increments
	tau   float64 // > 0 while measuring: the increments are τ S
	last  float64 // the last increment returned
	rms   bool    // the caller's norms are root mean squares (n components)
	scale float64 // S of the last increment
	wait  int     // solves until the next measurement (due)
}

// diffNoiseTau is the step of the third difference relative to the scale S: far above the
// ulps of y (the evaluations round differently) and far below S (the cubic term vanishes).
const diffNoiseTau = 1e-9

// diffNoiseEvery is the number of solves after which the noise is measured again: its
// diffNoiseProducts evaluations then cost about 0.1 product per solve (every 16 solves
// added 0.4-0.65 to bdf's 1.9-2.5 products per iteration on the 100-rod chain; the noise
// follows the loads, which change over many steps).
const diffNoiseEvery = 64

// diffNoiseRetry is the number of solves after which a measurement whose two steps
// disagreed above the rounding level is repeated (hht's first solve on the chain's start:
// ν ∝ τ there, measured once, then noise).
const diffNoiseRetry = 8

// increment returns σ for a product along z of norm zn about a point of scale S (1 + ‖y‖,
// or the caller's larger qScale; perturb): s = max(√ε S, √(ν S)), σ = s/zn. A nil d gives
// the rounding-only rule √ε S/zn.
func (d *diffNoise) increment(scale, zn float64) float64 {
	r := math.Sqrt(epsilon)
	if d != nil {
		if d.tau > 0 {
			r = d.tau
		} else {
			r = math.Max(r, math.Sqrt(d.level/scale))
		}
	}
	sigma := r * scale / zn
	if d != nil {
		d.last, d.scale = sigma, scale
	}
	return sigma
}

// due reports whether solver's next solve measures the noise, and counts the solve.
func (d *diffNoise) due() bool {
	if d == nil {
		return false
	}
	if d.wait > 0 {
		d.wait--
		return false
	}
	return true
}

// measure sets ν from the third differences at two steps τ and diffNoiseSpread·τ
// (thirdDifference): rounding gives the same ν at both, while a difference that grows with
// the step is not noise (a term of the product that is no difference of φ, or φ's own
// cubic term), and leaves ν = 0, the rounding-only rule (measured: ali1's products on the
// closed 70-rod chain, ν ∝ τ from 1e-11 to 1e-8). z, acc and tmp (n each) are work.
func (d *diffNoise) measure(sys krylovSystem, z, acc, tmp []float64) {
	near := d.thirdDifference(sys, diffNoiseTau, z, acc, tmp)
	far := d.thirdDifference(sys, diffNoiseSpread*diffNoiseTau, z, acc, tmp)
	d.level, d.wait = 0, diffNoiseEvery-1
	switch {
	case far < diffNoiseAgree*near:
		d.level = math.Max(near, far)
	case near > diffNoiseAgree*epsilon*d.scale: // not noise, not rounding: try again soon
		d.wait = diffNoiseRetry - 1
	}
}

// diffNoiseSpread is the ratio of measure's two steps, diffNoiseAgree the largest ratio of
// their estimates that counts as one noise level: the sampling scatter of one sample
// of tens to thousands of rows is below 2 (TestDiffNoiseBalancesNoiseAndCurvature: the
// larger of the two 1.28 × the true level), a difference growing like τ gives 100.
const diffNoiseSpread, diffNoiseAgree = 100, 4

// diffNoiseProducts is the number of products one measurement takes.
const diffNoiseProducts = 6

// thirdDifference returns the noise of the products in the norm of the increments from
// three products of sys at the increments τS, 2τS, 3τS along a direction of fixed
// pseudo-random signs: each product times its σ is φ(y + σd) − φ(y) plus terms linear in
// σ, which the third difference removes; it is scaled by 1/√20 (one evaluation's noise
// for independent errors) and preconditioned. A non-finite result gives 0 (the solve's
// own products report the non-finite residual).
func (d *diffNoise) thirdDifference(sys krylovSystem, tau float64, z, acc, tmp []float64) float64 {
	for i := range z {
		z[i] = roundingSign(i)
	}
	clear(acc)
	for k, c := range [3]float64{3, -3, 1} { // Δ³φ = φ₃ − 3φ₂ + 3φ₁ − φ₀, φ₀ cancelled
		d.tau = float64(k+1) * tau
		sys.jacVec(tmp, z)
		for i, x := range tmp {
			acc[i] += c * d.last * x
		}
	}
	d.tau = 0
	s := 1 / math.Sqrt(20)
	for i := range acc {
		acc[i] *= s
	}
	sys.precondition(acc)
	level := norm2(acc)
	if d.rms {
		level /= math.Sqrt(float64(len(acc)))
	}
	if !isFinite(level) {
		return 0
	}
	return level
}
