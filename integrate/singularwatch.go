package integrate

import (
	"math"

	"linkage/linalg"
)

// singularWatch reports the singular positions an explicit method steps straight over
// (dopri5: no Newton iteration fails there, so the singular mode never starts). After
// every accepted step it takes one step of inverse iteration on the Schur complement
// S = G M⁻¹ Gᵀ with the saddle-point factorization [M Gᵀ; G 0] the method already holds
// at the new state (seed 002, eq. 17): the solve of [M Gᵀ; G 0](x, λ) = (0, y) gives
// λ = −S⁻¹ y, so μ = ‖y‖/‖λ‖ (y of unit norm) tracks from above the smallest eigenvalue of
// S, σ_min(G)² in the metric of M, at O(nnz) per step and no allocation. A passage starts
// when μ falls below watchDrop times its value at the start and ends when it rises back;
// it is reported at the accepted state where μ was least, with the rank and joints of
// failureContext.diagnoseSingular (the same test as the singular mode), if G has lost
// rank there. The first observation converges μ₀ with watchStartIters iterations.
type singularWatch struct {
	y, lam, x []float64 // nc, nc, nq
	mu0       float64   // μ at the first accepted step; 0 before it
	in        bool      // inside a passage: μ < watchDrop·μ₀
	muMin     float64
	min       State // the accepted state of least μ in the passage (T and Q)
	passages  []SingularPassage
}

// watchDrop is singularModeDrop squared: μ measures σ_min(G)², the singular mode's test
// the pivot ratio of G.
const watchDrop = singularModeDrop * singularModeDrop

// watchStartIters is the number of inverse iterations that converge μ₀ at the first step.
const watchStartIters = 30

func newSingularWatch(nq, nc int) singularWatch {
	return singularWatch{y: make([]float64, nc), lam: make([]float64, nc), x: make([]float64, nq), min: State{Q: make([]float64, nq)}}
}

// iterate takes one inverse iteration with kkt and returns μ.
func (s *singularWatch) iterate(kkt linalg.SaddlePoint) float64 {
	clear(s.x)
	copy(s.lam, s.y)
	kkt.Solve(s.x, s.lam)
	n := 0.0
	for _, v := range s.lam {
		n += v * v
	}
	n = math.Sqrt(n)
	if !(n > 0) || math.IsInf(n, 0) {
		return math.Inf(1) // S singular to rounding: nothing to iterate on
	}
	for i, v := range s.lam {
		s.y[i] = v / n
	}
	return 1 / n
}

// observe follows μ at the accepted state cur, kkt factorized there.
func (s *singularWatch) observe(kkt linalg.SaddlePoint, cur *State, fc *failureContext) {
	if len(s.y) == 0 {
		return
	}
	if s.mu0 == 0 {
		for i := range s.y {
			s.y[i] = 1 / math.Sqrt(float64(len(s.y)))
		}
		for range watchStartIters {
			s.mu0 = s.iterate(kkt)
		}
		return
	}
	mu := s.iterate(kkt)
	switch {
	case mu < watchDrop*s.mu0 && (!s.in || mu < s.muMin):
		s.in, s.muMin, s.min.T = true, mu, cur.T
		copy(s.min.Q, cur.Q)
	case s.in && mu >= watchDrop*s.mu0:
		s.in = false
		if p, ok := fc.diagnoseSingular(&s.min); ok {
			s.passages = append(s.passages, p)
		}
	}
}
