package integrate

import (
	"math"
	"math/cmplx"
)

// Stability-limit detection for bdf's order selection (Hindmarsh 1995, "Avoiding BDF
// stability barriers in the MOL solution of advection-dominated problems", Appl. Numer.
// Math. 17: the idea; the estimate below is our own).
//
// At constant step h and order k a linear mode y' = λy of the corrector's equations is
// carried by a root r of the BDF-k characteristic equation Σ_{j=1..k} (1 − 1/r)^j / j = hλ:
// y_n ∝ rⁿ, so its backward differences are ∇ʲy_n = (1 − 1/r)ʲ y_n. Where that mode
// dominates the highest differences of the history, the scaled norms s_j = ‖φ_j‖ of
// orders j = k−1, k, k+1 (the new φ_{k−1}, φ_k and the correction e, which errorNorms
// already computes for the order choice) behave as c_j |r|ⁿ in time and as c |1 − 1/r|ʲ
// across orders. From the last bdfStaldSteps accepted steps at order k the detector
// estimates R = |r| (the per-step ratio of each s_j, which must agree over j) and
// d = |1 − 1/r| (the ratio s_{j+1}/s_j, which must agree over j), hence the root's angle
// θ from |1 − 1/r|² = 1 − 2cos θ/R + 1/R². A root near the unit circle (R ≥ bdfStaldR) is
// a mode that the error control holds neither growing nor decaying; it is held at the
// order's stability bound when the boundary locus hλ(e^{iθ}) of BDF-k, taken at the angle
// bdfStaldTheta·θ (the error control keeps the mode a little inside the stable side),
// lies in the left half-plane (Re hλ ≤ −bdfStaldRe): a slightly larger step would put a
// weakly damped oscillation (hλ near the imaginary axis) in BDF-k's region of
// instability. Order k−1, whose region is smaller there, is then chosen, and the order
// stays below k while h ≥ bdfStaldRelease × the step of the detection (the bound of order
// k for the mode found). Smooth solutions resolved by the steps give angles θ where the
// locus hugs the imaginary axis and are left alone. The chain of 10 000 bars at tol 1e-4
// sits at θ ≈ 0.75 with BDF5 (the locus crosses into Re hλ < 0 near θ = 0.8), the chain
// of 100 bars at θ ≈ 0.47.
const (
	bdfStaldSteps   = 5    // accepted steps at constant order in one estimate
	bdfStaldR       = 0.9  // smallest |r| counted as at the unit circle
	bdfStaldRe      = 0.01 // smallest −Re hλ of the locus point counted as left half-plane
	bdfStaldTheta   = 1.15 // the margin on the angle: the locus is taken at bdfStaldTheta·θ
	bdfStaldMinK    = 4    // the smallest order the detection lowers
	bdfStaldRelease = 0.5  // the order stays below the one lowered while h ≥ bdfStaldRelease × the step of the detection
	bdfStaldAgree   = 1.3  // largest ratio between the estimates over j of R and of d
)

// bdfStald holds the history of the stability-limit detection.
type bdfStald struct {
	s    [bdfStaldSteps][3]float64 // s[i] = ‖φ_{k−1}‖, ‖φ_k‖, ‖φ_{k+1}‖ of the i-th last step, oldest first
	n    int                       // steps in s at order k
	k    int                       // their order
	last [3]float64                // the norms of the last errorNorm (valid with k ≥ 3)
	on   bool                      // the detection is on
	hits int                       // orders lowered by the detection
	capK int                       // the order capK+1 was found at its stability bound …
	capH float64                   // … at step capH
}

// push records the accepted step's norms at order k; a change of order restarts.
func (d *bdfStald) push(k int) {
	if k < 3 || k != d.k {
		d.n, d.k = 0, k
	}
	if k < 3 {
		return
	}
	if d.n == bdfStaldSteps {
		copy(d.s[:], d.s[1:])
		d.n--
	}
	d.s[d.n] = d.last
	d.n++
}

// limited reports whether the history shows the order k held at its stability bound.
func (d *bdfStald) limited() bool {
	if !d.on || d.n < bdfStaldSteps || d.k < bdfStaldMinK {
		return false
	}
	m := bdfStaldSteps
	var lr [3]float64
	var ld [2]float64
	for j := range 3 {
		a, b := d.s[0][j], d.s[m-1][j]
		if !(a > 0 && b > 0) {
			return false
		}
		lr[j] = math.Log(b/a) / float64(m-1)
	}
	for i := range m {
		for j := range 2 {
			ld[j] += math.Log(d.s[i][j+1]/d.s[i][j]) / float64(m)
		}
	}
	lmax, lmin := math.Max(lr[0], math.Max(lr[1], lr[2])), math.Min(lr[0], math.Min(lr[1], lr[2]))
	agree := math.Log(bdfStaldAgree)
	if lmax-lmin > agree || math.Abs(ld[1]-ld[0]) > agree {
		return false
	}
	R := math.Exp((lr[0] + lr[1] + lr[2]) / 3)
	dd := math.Exp((ld[0] + ld[1]) / 2)
	c := (1 + 1/(R*R) - dd*dd) * R / 2
	re := math.NaN()
	if c >= -1 && c <= 1 {
		re = bdfLocusRe(d.k, bdfStaldTheta*math.Acos(c))
	}
	return R >= bdfStaldR && re <= -bdfStaldRe
}

// bdfLocusRe returns Re hλ of BDF-k's boundary locus at r = e^{iθ}:
// Σ_{j=1..k} (1 − e^{−iθ})^j / j.
func bdfLocusRe(k int, theta float64) float64 {
	z := 1 - cmplx.Exp(complex(0, -theta))
	var s, p complex128 = 0, 1
	for j := 1; j <= k; j++ {
		p *= z
		s += p / complex(float64(j), 0)
	}
	return real(s)
}

// lowered notes that order k was found at its stability bound at step h.
func (d *bdfStald) lowered(k int, h float64) {
	d.hits++
	d.capK, d.capH = k-1, h
}

// blocks reports whether raising the order to k at step h would return to an order found
// at its stability bound: that order's bound sits at about capH for the mode found, so
// the cap holds while h ≥ capH·bdfStaldRelease.
func (d *bdfStald) blocks(k int, h float64) bool {
	if d.capK == 0 || k <= d.capK {
		return false
	}
	if h < d.capH*bdfStaldRelease {
		d.capK = 0
		return false
	}
	return true
}
