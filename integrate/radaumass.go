package integrate

import "gonum.org/v1/gonum/mat"

// radauGeneral is Radau5 on K(t, y) y' = φ(t, y) with a full or state-dependent K
// (dae.ImplicitMass). The collocation conditions of Radau IIA at the stages (Hairer &
// Wanner 1996, IV.8 and VI.6) are
//
//	K(t₀ + c_i h, Y_i) Y'_i = φ(t₀ + c_i h, Y_i),   Y'_i = ((A⁻¹ ⊗ I) Z)_i / h,
//
// Y'_i the derivative of the collocation polynomial at the stage. For a constant K they
// are RADAU5's (A⁻¹ ⊗ K) Z = h Φ(Z). With W = (T⁻¹ ⊗ I) Z, A⁻¹ = T Λ T⁻¹ gives
// Y' = (T Λ ⊗ I) W / h, Λ = [γ 0 0; 0 α −β; 0 β α], so the residual of the stages is
//
//	R_i = φ(t₀ + c_i h, Y_i) − K(t₀ + c_i h, Y_i) Y'_i,
//
// and simplified Newton solves (Λ/h ⊗ K_J − I ⊗ J) ΔW = (T⁻¹ ⊗ I) R with one K_J and
//
//	J = ∂φ/∂y − ∂(K(t, y) y')/∂y   at (t₀, y₀, y'₀)
//
// for all stages: the derivative of R_i in Y_i is −(J) and in Z its K(Y_i)(A⁻¹)_ij/h part,
// with K(Y_i) frozen at K_J = K(t₀, y₀), which the transformation decouples into the
// real and complex systems of Radau5 with K_J in place of the diagonal. y'₀ is the
// derivative of the last step's collocation polynomial at its end (the user's y'₀ at the
// first step); K_J and J are kept together by Radau5's reuse rules, the residual always
// uses K at the stage. The error estimate is Radau5's with K(t₀, y₀) for the diagonal:
//
//	err = (γ/h K_J − J)⁻¹ [φ(t₀, y₀) + K(t₀, y₀)(d₁z₁ + d₂z₂ + d₃z₃)/h],
//
// the rows of φ(t₀, y₀) whose row of K is zero (the algebraic equations) left out as for a
// diagonal K. For a constant full K this is RADAU5 with a full mass matrix.
type radauGeneral struct {
	K0, KJ *mat.Dense // K(t₀, y₀) of the current step, and the K of the Newton matrices
	yp     []float64  // y'₀
	ypst   []float64  // Y'_i of a stage
	kyp    []float64  // K(Y_i) Y'_i
}

func newRadauMass(n int, yp0 []float64) *radauGeneral {
	g := &radauGeneral{K0: mat.NewDense(n, n, nil), KJ: mat.NewDense(n, n, nil),
		yp: make([]float64, n), ypst: make([]float64, n), kyp: make([]float64, n)}
	copy(g.yp, yp0)
	return g
}

// subtractMassTerm subtracts K(t, Y_j) Y'_j from φ at stage j (w.yt holds Y_j, w.wt the
// current W).
func (g *radauGeneral) subtractMassTerm(w *radauWork, j int, t float64) {
	k := &radauCoef
	h := w.hTry
	tj := k.t[j]
	for i := range w.n {
		w1, w2, w3 := w.wt[0][i], w.wt[1][i], w.wt[2][i]
		u1, u2, u3 := k.gamma*w1, k.alpha*w2-k.beta*w3, k.beta*w2+k.alpha*w3
		g.ypst[i] = (tj[0]*u1 + tj[1]*u2 + tj[2]*u3) / h
	}
	w.li.massMul(g.kyp, t, w.yt, g.ypst)
	for i, x := range g.kyp {
		w.ph[j][i] -= x
	}
}

// advance moves to the start of the next step after an accepted one of size h: K(t₀, y₀)
// at the new (t₀, y₀), and y'₀ from the collocation polynomial, whose derivative at the
// end of the step is (cont₁ + (1 − c₂)(cont₂ + (1 − c₁) cont₃))/h (see Interpolate).
func (g *radauGeneral) advance(w *radauWork, h float64) {
	k := &radauCoef
	for i := range w.n {
		g.yp[i] = (w.cont[1][i] + (1-k.c2)*(w.cont[2][i]+(1-k.c1)*w.cont[3][i])) / h
	}
	g.K0.Copy(w.li.massAt(w.cur.T, w.y0))
}

// massTimes writes K(t₀, y₀) x into dst: the diagonal, or the general K of the step start.
func (w *radauWork) massTimes(dst, x []float64) {
	if w.gk == nil {
		for i, k := range w.kdiag {
			dst[i] = k * x[i]
		}
		return
	}
	for i := range dst {
		var s float64
		for j, k := range w.gk.K0.RawRowView(i) {
			s += k * x[j]
		}
		dst[i] = s
	}
}

// differentialRow reports whether equation i has a derivative in it (K_ii ≠ 0, or a
// nonzero row of a general K at the start of the run).
func (w *radauWork) differentialRow(i int) bool {
	if w.li != nil {
		return w.li.diffRow[i]
	}
	return w.kdiag[i] != 0
}
