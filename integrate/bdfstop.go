package integrate

import "math"

// bdfLooseStop is the factor on Newton.Tol of bdfStop's second test: an iterate whose
// estimated error θ/(1−θ)·‖Δ‖ is below bdfLooseStop·Tol, but not below Tol, is accepted
// when the constraint rows of the residual at it are below Tol in q's (or v's, a's)
// weights (bdfWork.constraintNorm).
const bdfLooseStop = 10

// bdfStop is bdf's Newton stop: newtonMonitor's (θ/(1−θ)·‖Δ‖ ≤ Tol, seed 004 eq. 46) and,
// where the iterate's constraint residual can be measured (the first-order form of a
// dae.System on the direct solve, adaptive steps), an earlier stop: an increment with
// θ/(1−θ)·‖Δ‖ ≤ bdfLooseStop·Tol leaves the verdict to the residual at the new iterate,
// which the next iteration evaluates anyway: when its constraint rows are below Tol
// (constraintNorm) the iterate is accepted without the increment, else the iteration goes
// on from that residual, as it would have. The constraint rows are what the loose stop
// alone spoils: Newton.Tol = 0.01 as the only test cut the 10 000-bar chain's work by
// 15 % but let |g|, |G v| and the nonholonomic rows grow 10× (BENCHMARKS.md, "bdf's
// Newton counts per step at 10 000 bars"); the dynamic rows' error of 1 % of the
// tolerance is far below the error the step's estimate controls. Divergence is judged as
// by newtonMonitor with Tol: the second test only stops earlier.
type bdfStop struct {
	mon *newtonMonitor
	// loose is bdfLooseStop·Tol, 0 when the second test is off.
	loose float64
	// pending: the last increment passed the loose test (after a measured rate), so the
	// residual at the new iterate may end the attempt.
	pending bool
}

func (s *bdfStop) start() {
	s.mon.start()
	s.pending = false
}

func (s *bdfStop) update(norm float64) newtonStatus {
	st := s.mon.update(norm)
	s.pending = st == newtonContinue && s.loose > 0 && s.mon.iter > 1 && s.mon.eta*norm <= s.loose
	return st
}

func (s *bdfStop) rate() float64 { return s.mon.rate() }

// acceptsResidual is bdfStop's residual test (residualJudge): after an increment that
// passed the loose test, the iterate is converged when the constraint rows of its residual
// are below Newton.Tol.
func (w *bdfWork) acceptsResidual() bool {
	return w.stop.pending && w.constraintNorm() <= w.nw.s.Tol
}

// constraintNorm measures the constraint rows of the residual at the iterate by the
// smallest error of the variables they constrain that explains them: for a row c_r of
// G x = c (x = q for g and index3's rows, v for the velocity rows of index2, GGL and
// index2-baumgarte, a for index1's and baumgarte's), the least ‖W x‖₂ with G_r x = c_r is
// |c_r|/‖W⁻¹G_rᵀ‖₂, W = diag(ewt_i h^(index_i−1)) the Newton norm's weights. It returns the
// RMS over the rows (GGL: both sets, μ's rows of Pfaffian constraints left out), so that
// Newton.Tol bounds it as it bounds the Newton norm's RMS over y. O(nnz(G)), with G of the
// last residual, i.e. at the iterate.
func (w *bdfWork) constraintNorm() float64 {
	se := w.se
	nq, nc := w.nq, w.nc
	if nc == 0 {
		return 0
	}
	off := nq // G v + g_t
	switch se.form {
	case Index3:
		off = 0
	case Index1, Baumgarte:
		off = 2 * nq
	}
	sum := w.rowsSum(w.res[3*nq:3*nq+nc], off)
	rows := nc
	if se.hasMu {
		sum += w.rowsSum(w.res[3*nq+nc:3*nq+nc+se.ncH], 0)
		rows += se.ncH
	}
	return math.Sqrt(sum / float64(rows))
}

// rowsSum returns Σ_r c_r²/‖W⁻¹G_rᵀ‖₂² over the first len(c) rows of G, W the weights of
// the block of y at off (constraintNorm).
func (w *bdfWork) rowsSum(c []float64, off int) float64 {
	ewt, scal := w.ewt[off:off+w.nq], w.scal[off:off+w.nq]
	var sum float64
	sp := w.se.sp
	for r, cr := range c {
		var den float64
		if sp != nil {
			lo, hi := sp.con.RowStart[r], sp.con.RowStart[r+1]
			g := sp.G[lo:hi]
			for t, j := range sp.con.Cols[lo:hi] {
				x := g[t] / (ewt[j] * scal[j])
				den += x * x
			}
		} else {
			for j, gj := range w.se.G.RawRowView(r) {
				x := gj / (ewt[j] * scal[j])
				den += x * x
			}
		}
		switch {
		case den > 0:
			sum += cr * cr / den
		case cr != 0:
			return math.Inf(1) // a residual in a row that reads no variable of the block
		}
	}
	return sum
}
