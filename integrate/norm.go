package integrate

import "math"

// WeightedRMS returns the weighted root-mean-square norm of the error vector e relative to
// the solution values y0 and y1 at both ends of the step (Hairer, Nørsett & Wanner 1993,
// II.4, eq. 4.11; seed 004 eq. 35 uses the same weights):
//
//	‖e‖ = sqrt( (1/n) Σ (e_i / (ATol + RTol·max(|y0_i|, |y1_i|)))² ).
//
// A NaN in e gives NaN, which every error test (e ≤ 1) rejects.
func WeightedRMS(e, y0, y1 []float64, rtol, atol float64) float64 {
	if len(e) == 0 {
		return 0
	}
	var s float64
	for i, x := range e {
		w := atol + rtol*math.Max(math.Abs(y0[i]), math.Abs(y1[i]))
		r := x / w
		s += r * r
	}
	return math.Sqrt(s / float64(len(e)))
}
