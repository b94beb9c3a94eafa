package integrate

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// Index2Projected is the index-2 formulation (seed 002, eq. 79) followed after every
// accepted step by the projections of positions onto g = 0 (eq. 89) and of velocities onto
// G v + g_t = 0 (eq. 91).
const Index2Projected Formulation = "index2-proj"

// HEDOP5 integrates the index-2 formulation of seed 002, eq. 79,
//
//	q' = v,   M(t,q) v' = f(t,q,v) − G(t,q)ᵀ λ,   0 = G(t,q) v + g_t(t,q),
//
// by the half-explicit Runge-Kutta method of seed 002, Remark 9 (eqs. 81a-f) on the
// Dormand-Prince tableau extended to ŝ = 7 stages: HEDOP5 of Arnold (1998), "Half-explicit
// Runge-Kutta methods with explicit stages for differential-algebraic systems of index 2",
// BIT 38, 415-438. The first stage is explicit (eq. 81a): it is the last stage of the
// previous step (V̇₁ = v̇ₙ, Λ₁ = λₙ, FSAL). Stage i = 2…7 takes Qᵢ, Vᵢ explicitly (eq. 81d)
// and solves the linear system (81e)
//
//	[M(Qᵢ) G(Qᵢ)ᵀ; G(Q_{i+1}) 0](V̇ᵢ, Λᵢ) = (f(Qᵢ,Vᵢ), −(G(Q_{i+1}) Ṽ_{i+1} + g_t)/(h a_{i+1,i})),
//
// Ṽ_{i+1} = vₙ + h Σ_{j<i} a_{i+1,j} V̇ⱼ, so that V_{i+1} satisfies the velocity
// constraint at Q_{i+1} and t + c_{i+1}h. Rows 1-7 of a are DOPRI5's (row 7 = b, so
// q_{n+1} = Q₇, v_{n+1} = V₇ satisfy G v + g_t = 0); the extra row 8 (c₈ = 19/20, see
// hedA8) places the constraint of stage 7, which gives λ_{n+1} = Λ₇ (d = e₇ in eq. 81f)
// and v̇_{n+1} = V̇₇. A direct half-explicit use of the 6-stage DOPRI5 tableau without the
// extra stage loses order (Brasey & Hairer 1993, SINUM 30); the curvature term γ of the
// index-1 form is not needed by the stages.
//
// Orders measured in hedop5_test.go with fixed steps: q and v converge with order 5 in
// both formulations. λ = Λ₇ (Index2) is of order 4: its local error is about
// 1.7h⁴ + 280h⁵ on the test pendulum, so fixed-step ratios read ≈ 5 for h ≥ 1/64 and fall
// toward 4 below; its rounding error grows like ε/(h·|a₈₇|) (a₈₇ ≈ −0.043) and dominates
// below h ≈ 1e-3. With Index2Projected λ comes from eq. 17 at the projected state and
// converges with order 5. The registry entry gives the orders of the default,
// Index2Projected.
//
// Formulation Index2Projected (the default) projects q and v after every accepted step as
// DOPRI5 does (eqs. 89, 91, simplified Newton with the KKT matrix of stage 7) and takes v̇
// and λ at the projected state from eq. 17. Index2 leaves q_{n+1} as computed: ‖g‖ drifts
// linearly in t (seed 002, eq. 86), while G v + g_t = 0 holds at every step end.
//
// Error control, step-size controller, starting step, dense output and failure handling
// are DOPRI5's (dopri5.go, shared code): the estimate is ‖h Σ (bᵢ − b̂ᵢ) kᵢ‖ over (q, v)
// with DOPRI5's embedded b̂ on kᵢ = (Vᵢ, V̇ᵢ) (λ uncontrolled). The dense output is
// DOPRI5's continuous extension of q and v, with a and λ from eq. 17 at the interpolated
// point (so γ is evaluated there, in the starting-step trial and in the projection); fed
// with half-explicit stages it is of order 5 in q but only 4 in v (measured).
//
// Counters as DOPRI5: FuncEvals counts stage evaluations (M, f, G at Qᵢ and G, g_t at
// Q_{i+1}; one factorization each): 1 in Init (eq. 17 for λ₀, v̇₀), 1 for the starting
// step, 6 per attempt, 1 per projected step, 1 per interior Interpolate.
//
// Current's λ is Λ₇ (Index2) or from eq. 17 at the projected state (Index2Projected).
type HEDOP5 struct {
	// Formulation is Index2Projected or Index2; the zero value means Index2Projected.
	Formulation

	w         *dopri5Work // sized by Init
	*accepted             // Current, Previous, Stats (method.go)
}

// hedop5Entry: DOPRI5's code (dopri5Work) with the half-explicit stages of eq. 81 on the
// index-2 forms, so its order 5 (of the default, Index2Projected), error control and forces
// that depend on λ (each stage solves eq. 81e with f_λ(Qᵢ, Vᵢ, Λᵢ) by Newton on Λᵢ,
// reactionaccel.go, on the stage's unsymmetric KKT factorization). Its stages integrate q
// and v only, so Init refuses first-order states and nonholonomic constraints.
var hedop5Entry = func() Entry {
	e := dopri5Entry.variant("hedop5",
		"HEDOP5 half-explicit Runge-Kutta 5(4) on the index-2 form (Arnold 1998)",
		"79, 81a-f (Remark 9); projection 89, 91",
		func() Method { return &HEDOP5{} }).in(nil, Index2Projected, Index2)
	e.States, e.Nonholonomic = false, nil
	return e
}()

// mdop5Entry registers the index-1 half-explicit method of seed 002, Remark 10 (eq. 85),
// MDOP5 of MEXX (Lubich et al. 1992, 1995): its stages Qᵢ, Vᵢ are explicit (85a) and each
// solves the KKT system (85b) at Qᵢ for V̇ᵢ, Λᵢ, which is the right side of eq. 84 at the
// stage; the method is therefore DOPRI5 on eq. 84, and with MEXX's projection of q and v
// after every step (eqs. 89, 91) DOPRI5 with Index1Projected. The entry runs that code.
var mdop5Entry = dopri5Entry.variant("mdop5",
	"MDOP5 (MEXX): half-explicit Dormand-Prince on the index-1 form with projection",
	"84, 85a-c (Remark 10); projection 89, 91",
	func() Method { return &DOPRI5{name: "mdop5"} })

// hedA8 is row 8 of the HEDOP5 coefficients, a₈ⱼ (j = 1…7) with c₈ = 19/20: the point
// where stage 7 imposes the velocity constraint. Rows 1-7 are DOPRI5's (dp5A). Source:
// Arnold (1998), BIT 38; the rationals as listed in the HEDOP5 configuration of
// DeniseTumiotto/lie_group_integration_methods (crmS3R3/test). Σⱼ a₈ⱼ = c₈ and the order
// of the method are checked in hedop5_test.go.
var hedA8 = [7]float64{
	-18611506045861.0 / 19738176307200, 59332529.0 / 14479296, -2509441598627.0 / 893904224850,
	2763523204159.0 / 3289696051200, -41262869588913.0 / 116235927142400,
	46310205821.0 / 287848404480, -3280.0 / 75413,
}

const hedC8 = 19.0 / 20

// hedop5Stages is the workspace of the half-explicit stages; the rest of a run lives in
// the shared dopri5Work.
type hedop5Stages struct {
	w   *dopri5Work
	Gn  *mat.Dense // G(Q_{i+1}); swapped with w.G after each stage
	gn  []float64  // G(Q_{i+1}) as values on the sparse evaluation path (swapped likewise)
	qn  []float64  // nq: Q_{i+1}
	vt  []float64  // nq: Ṽ_{i+1} = vₙ + h Σ_{j<i} a_{i+1,j} V̇ⱼ
	lam []float64  // nc: Λᵢ of stages 2-6
}

// Init resolves the formulation, checks start as DOPRI5.Init does (‖g‖∞, ‖G v + g_t‖∞ ≤
// ATol), takes v̇₀ and λ₀ from eq. 17 (start.A and start.Lambda are not used) and sizes
// the workspace.
func (m *HEDOP5) Init(sys dae.System, start State, ctl StepControl) error {
	form, err := hedop5Entry.formulation(m.Formulation)
	if err != nil {
		return err
	}
	if err := refuseNonholonomic("hedop5", sys); err != nil {
		return err
	}
	if nd := dae.StateSize(sys); nd > 0 {
		// Its half-explicit stages integrate q, v only and would drop the state force f_X:
		// refuse rather than be wrong.
		return fmt.Errorf("integrate: hedop5: the system has %d first-order states (dae.FirstOrder), which this method does not integrate; use dopri5 or hht", nd)
	}
	w, err := newDopri5Work("hedop5", form, sys, start, ctl, true)
	if err != nil {
		return err
	}
	nq, nc := w.nq, w.nc
	s := &hedop5Stages{w: w, qn: make([]float64, nq), vt: make([]float64, nq), lam: make([]float64, nc)}
	switch {
	case w.sp != nil:
		s.gn = make([]float64, len(w.sp.G))
	case nc > 0:
		s.Gn = mat.NewDense(nc, nq, nil)
	}
	w.half = s
	// The stages factorize [M Gᵀ; C 0] with C = G at the next stage point: unsymmetric,
	// so LU (sparse for large systems with patterns) throughout, with M itself.
	if w.rec != nil {
		w.rec = nil
		w.M = mat.NewDense(w.nq, w.nq, nil)
	}
	if w.sp != nil {
		w.asym = newSparseAsymKKTValues(sys, w.sp)
	} else {
		w.asym = newAsymKKT(sys)
	}
	w.kkt = w.asym
	w.solver = w.asym
	m.w, m.accepted = w, &w.accepted
	return nil
}

// Step takes one accepted step toward tEnd (never past it). On failure it returns a
// *StepError and leaves Current, Previous and the dense output untouched.
func (m *HEDOP5) Step(tEnd float64) error {
	mustInit(m.w != nil, "hedop5")
	return m.w.step(tEnd)
}

// Interpolate writes into dst the dense output at t in [Previous().T, Current().T]: q and
// v from DOPRI5's continuous extension, a and λ from eq. 17 at the interpolated state (NaN
// when its KKT matrix is singular). It panics when t lies outside the last step.
func (m *HEDOP5) Interpolate(dst *State, t float64) { m.w.interpolate(dst, t) }

// InterpolateKinematics writes into dst the q, v (and X) of Interpolate at t without
// solving eq. 17 there: dst.A and dst.Lambda are NaN (KinematicInterpolator).
func (m *HEDOP5) InterpolateKinematics(dst *State, t float64) { m.w.interpolateKinematics(dst, t) }

// stages computes the stages 2…7 of an attempt of size h from (t, qₙ, vₙ) (eqs. 81c-e):
// k[i−1] = (Vᵢ, V̇ᵢ), y₁ = (Q₇, V₇), Λ₇ in w.lam7. k[0] = (vₙ, v̇ₙ) is stage 1 (eq. 81a).
// It returns ErrNonFinite or linalg.ErrSingular when a stage fails.
func (s *hedop5Stages) stages(t, h float64) error {
	w := s.w
	nq, sys := w.nq, w.sys
	copy(w.y0[:nq], w.cur.Q)
	copy(w.y0[nq:], w.cur.V)
	for st := 1; st < 7; st++ { // st = i − 1
		y := w.ytmp
		lam := s.lam
		if st == 6 {
			y, lam = w.y1, w.lam7
		}
		// (Qᵢ, Vᵢ) = (qₙ, vₙ) + h Σ_{j<i} a_{ij} (Vⱼ, V̇ⱼ)   (eqs. 81c, 81d)
		copy(y, w.y0)
		for j := range st {
			if a := dp5A[st][j]; a != 0 {
				ha := h * a
				for i, x := range w.k[j] {
					y[i] += ha * x
				}
			}
		}
		next, cNext := hedA8[:], hedC8 // row i+1 of a
		if st < 6 {
			next, cNext = dp5A[st+1][:], dp5C[st+1]
		}
		// Q_{i+1} = qₙ + h Σ_{j≤i} a_{i+1,j} Vⱼ,  Ṽ_{i+1} = vₙ + h Σ_{j<i} a_{i+1,j} V̇ⱼ
		copy(s.qn, w.y0[:nq])
		copy(s.vt, w.y0[nq:])
		for j := 0; j <= st; j++ {
			a := next[j]
			if a == 0 {
				continue
			}
			ha := h * a
			vj := y[nq:] // Vᵢ for j = i
			if j < st {
				vj = w.k[j][:nq]
				for i, x := range w.k[j][nq:] {
					s.vt[i] += ha * x
				}
			}
			for i, x := range vj {
				s.qn[i] += ha * x
			}
		}
		ti, tn := t+dp5C[st]*h, t+cNext*h
		k := w.k[st]
		copy(k[:nq], y[nq:])
		acc := k[nq:]
		if w.sp != nil {
			if err := s.sparseStage(st, ti, tn, h*next[st], y, acc, lam); err != nil {
				return err
			}
			continue
		}
		sys.Mass(w.M, ti, y[:nq])
		sys.Force(acc, ti, y[:nq], y[nq:])
		if w.nc > 0 {
			if st == 1 { // later stages inherit G(Qᵢ) from the previous one
				sys.ConstraintJacobian(w.G, ti, y[:nq])
			}
			sys.ConstraintJacobian(s.Gn, tn, s.qn)
			sys.ConstraintTimeDerivative(w.gt, tn, s.qn)
			// right side of eq. 81e: −(G(Q_{i+1}) Ṽ_{i+1} + g_t)/(h a_{i+1,i})
			scale := -1 / (h * next[st])
			for r := range lam {
				sum := w.gt[r]
				for c, g := range s.Gn.RawRowView(r) {
					sum += g * s.vt[c]
				}
				lam[r] = scale * sum
			}
		}
		w.stats.FuncEvals++
		if err := w.factorizeKKT(s.Gn); err != nil {
			return err
		}
		if err := w.accel(ti, y[:nq], y[nq:], acc, lam); err != nil {
			return err
		}
		if w.nc > 0 {
			w.G, s.Gn = s.Gn, w.G
		}
	}
	return nil
}

// sparseStage is the evaluation and solve of stage st (eq. 81e) on the sparse evaluation
// path: M(Qᵢ), G(Qᵢ) and G(Q_{i+1}) as pattern values, the same sums as the dense stage.
func (s *hedop5Stages) sparseStage(st int, ti, tn, ha float64, y, acc, lam []float64) error {
	w := s.w
	nq, sys, sp := w.nq, w.sys, w.sp
	sp.evalM(ti, y[:nq])
	sys.Force(acc, ti, y[:nq], y[nq:])
	if w.nc > 0 {
		if st == 1 { // later stages inherit G(Qᵢ) from the previous one
			sp.evalG(ti, y[:nq])
		}
		sp.se.ConstraintJacobianValues(s.gn, tn, s.qn)
		sys.ConstraintTimeDerivative(w.gt, tn, s.qn)
		// right side of eq. 81e: −(G(Q_{i+1}) Ṽ_{i+1} + g_t)/(h a_{i+1,i})
		scale := -1 / ha
		for r := range lam {
			sum := w.gt[r]
			lo := sp.con.RowStart[r]
			for t, c := range sp.con.Row(r) {
				sum += s.gn[lo+t] * s.vt[c]
			}
			lam[r] = scale * sum
		}
	}
	w.stats.FuncEvals++
	w.stats.Factorizations++
	if err := w.asym.(*sparseAsymKKT).factorValues(sp.M, sp.G, s.gn); err != nil {
		w.lad.worst = Residual{Block: "KKT matrix"}
		if !allFinite(sp.M) || !allFinite(sp.G) || !allFinite(s.gn) {
			w.lad.worst = Residual{Block: "mass matrix or constraint Jacobian", Value: math.NaN()}
			return ErrNonFinite
		}
		return err
	}
	if err := w.accel(ti, y[:nq], y[nq:], acc, lam); err != nil {
		return err
	}
	if w.nc > 0 {
		s.gn = sp.swapG(s.gn)
	}
	return nil
}
