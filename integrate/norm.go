package integrate

import (
	"math"

	"linkage/dae"
)

// WeightedRMS returns the weighted root-mean-square norm of the error vector e relative to
// the solution values y0 and y1 at both ends of the step (Hairer, Nørsett & Wanner 1993,
// II.4, eq. 4.11; seed 004 eq. 35 uses the same weights):
//
//	‖e‖ = sqrt( (1/n) Σ (e_i / (ATol + RTol·max(|y0_i|, |y1_i|)))² ).
//
// A NaN in e gives NaN, which every error test (e ≤ 1) rejects.
func WeightedRMS(e, y0, y1 []float64, rtol, atol float64) float64 {
	c := StepControl{RTol: rtol, ATol: atol}
	return c.weightedRMS(e, y0, y1, 0, 0)
}

// worstIndex returns the index of the largest of size(0), …, size(n−1), NaN and ±Inf
// counting as +Inf (the first of equals): the component a failure report names.
func worstIndex(n int, size func(i int) float64) int {
	bi, bv := 0, -1.0
	for i := range n {
		a := size(i)
		if math.IsNaN(a) || math.IsInf(a, 0) {
			a = math.Inf(1)
		}
		if a > bv {
			bi, bv = i, a
		}
	}
	return bi
}

// largest is worstIndex over |x_i|.
func largest(x []float64) int {
	return worstIndex(len(x), func(i int) float64 { return math.Abs(x[i]) })
}

// worstConstraint names the largest component of the position constraints g.
func worstConstraint(sys dae.System, g []float64) Residual {
	i := largest(g)
	return Residual{Block: "position constraint", Index: i, Value: g[i], Owner: dae.ConstraintName(sys, i)}
}

// weightedRMS is WeightedRMS with the absolute tolerance of each component from c.atolOf
// (per-coordinate ATolQ over the first blocks·nq components): with ATolQ nil it computes
// exactly WeightedRMS(e, y0, y1, c.RTol, c.ATol).
func (c *StepControl) weightedRMS(e, y0, y1 []float64, nq, blocks int) float64 {
	if len(e) == 0 {
		return 0
	}
	var s float64
	if c.ATolQ == nil { // weight's terms written out: one ATol, a loop without calls
		y0, y1 = y0[:len(e)], y1[:len(e)]
		for i, x := range e {
			r := x / (c.ATol + c.RTol*max(math.Abs(y0[i]), math.Abs(y1[i])))
			s += r * r
		}
		return math.Sqrt(s / float64(len(e)))
	}
	for i, x := range e {
		r := x / c.weight(i, y0, y1, nq, blocks)
		s += r * r
	}
	return math.Sqrt(s / float64(len(e)))
}

// weight is the weight denominator ATol_i + RTol·max(|y0_i|, |y1_i|) of component i. The
// builtin max (NaN and ±0 as math.Max) compiles inline, where math.Max is a call.
func (c *StepControl) weight(i int, y0, y1 []float64, nq, blocks int) float64 {
	return c.atolOf(i, nq, blocks) + c.RTol*max(math.Abs(y0[i]), math.Abs(y1[i]))
}

// worstWeighted is worstIndex over the terms of c.weightedRMS: the component a failure
// report names.
func (c *StepControl) worstWeighted(e, y0, y1 []float64, nq, blocks int) int {
	return worstIndex(len(e), func(i int) float64 { return math.Abs(e[i]) / c.weight(i, y0, y1, nq, blocks) })
}

// onManifold reports whether the constraint residual g satisfies g = 0 to rounding, for
// coordinates of magnitude up to qmax: max |g_i| ≤ 64 ε max(1, qmax). A projection whose
// corrections stop shrinking is accepted there. Near a singular position (G losing rank,
// seed 002 §2.3) the corrections of the simplified Newton iteration of eq. 89 are rounding
// noise amplified by 1/σ_min(G) and no longer decrease, although q already lies on g = 0.
func onManifold(g []float64, qmax float64) bool {
	tol := 64 * epsilon * math.Max(1, qmax)
	for _, x := range g {
		if !(math.Abs(x) <= tol) {
			return false
		}
	}
	return true
}

// maxAbs is max_i |x_i| (0 for an empty x).
func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// tenUlpFloor is the norm of an increment of 10 ulps of a unknown in the weights
// ATol + RTol|x|: ε(1+|x|)/(ATol + RTol|x|) ≤ ε/min(RTol, ATol). Below it the Newton
// monitor takes an increment for rounding, not for a lack of convergence.
func tenUlpFloor(rtol, atol float64) float64 { return 10 * 0x1p-52 / math.Min(rtol, atol) }
