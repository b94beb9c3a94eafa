package dae

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// FirstOrder is the optional capability of nd first-order differential states X coupled to
// the mechanics, such as controller or hydraulic states (seed 004, eq. 8a). Seed 004 writes
// them implicitly, d(X', X, q, q', …) = 0, and assumes ∂d/∂X' nonsingular; a FirstOrder
// system gives the explicit form that assumption yields, and the force the states add:
//
//	X' = F(t, q, v, X),
//	M(t,q) a = f(t,q,v) + f_X(t,q,v,X) − G(t,q)ᵀ λ.
//
// The applied force is System.Force plus StateForce, so the mechanical part of a system is
// unchanged by the capability; an integrator that does not integrate X must refuse a
// system with StateSize() > 0 (see StateSize), because it would drop f_X.
type FirstOrder interface {
	// StateSize returns nd, the number of first-order states.
	StateSize() int
	// StateRate writes X' = F(t, q, v, X) into dst (length nd).
	StateRate(dst []float64, t float64, q, v, x []float64)
	// StateForce writes the generalized force f_X(t, q, v, X) that the states add to
	// System.Force into dst (length nq).
	StateForce(dst []float64, t float64, q, v, x []float64)
}

// FirstOrderDerivative is the optional analytic form of the derivatives of a FirstOrder
// system, the blocks d_q, d_q', d_X of the iteration matrix of seed 004, eq. 12 (third
// row) and the force's dependence on X (first row, column of X').
type FirstOrderDerivative interface {
	// StateRateDerivative writes ∂F/∂q and ∂F/∂v (nd×nq) and ∂F/∂X (nd×nd).
	StateRateDerivative(dq, dv, dx *mat.Dense, t float64, q, v, x []float64)
	// StateForceDerivative writes ∂f_X/∂q and ∂f_X/∂v (nq×nq) and ∂f_X/∂X (nq×nd).
	StateForceDerivative(dq, dv, dx *mat.Dense, t float64, q, v, x []float64)
}

// StateSize returns the number of first-order states of sys: FirstOrder.StateSize, or 0
// when sys does not implement FirstOrder.
func StateSize(sys System) int {
	if fo, ok := sys.(FirstOrder); ok {
		return fo.StateSize()
	}
	return 0
}

// FirstOrderDerivatives answers the derivatives of a FirstOrder system, analytically when it
// implements FirstOrderDerivative and by central finite differences otherwise. It owns its
// workspace (one per goroutine) and does not allocate after NewFirstOrderDerivatives.
type FirstOrderDerivatives struct {
	fo         FirstOrder
	an         FirstOrderDerivative
	nq, nd     int
	qp, vp, xp []float64
	rp, rm     []float64 // F at ±δ (nd)
	fp, fm     []float64 // f_X at ±δ (nq)
	// Evals counts evaluations of F or f_X spent on finite differences.
	Evals int
}

// NewFirstOrderDerivatives returns the derivative provider of sys, which must implement
// FirstOrder (a programming error otherwise: it panics).
func NewFirstOrderDerivatives(sys System) *FirstOrderDerivatives {
	fo, ok := sys.(FirstOrder)
	if !ok {
		panic(fmt.Sprintf("dae: NewFirstOrderDerivatives: %T does not implement FirstOrder", sys))
	}
	nq, _ := sys.Size()
	nd := fo.StateSize()
	d := &FirstOrderDerivatives{fo: fo, nq: nq, nd: nd,
		qp: make([]float64, nq), vp: make([]float64, nq), xp: make([]float64, nd),
		rp: make([]float64, nd), rm: make([]float64, nd), fp: make([]float64, nq), fm: make([]float64, nq)}
	d.an, _ = sys.(FirstOrderDerivative)
	return d
}

// Analytic reports whether the derivatives come from the system (else finite differences).
func (d *FirstOrderDerivatives) Analytic() bool { return d.an != nil }

// StateRateDerivative writes ∂F/∂q, ∂F/∂v (nd×nq) and ∂F/∂X (nd×nd).
func (d *FirstOrderDerivatives) StateRateDerivative(dq, dv, dx *mat.Dense, t float64, q, v, x []float64) {
	if d.an != nil {
		d.an.StateRateDerivative(dq, dv, dx, t, q, v, x)
		return
	}
	d.central(dq, dv, dx, t, q, v, x, d.rp, d.rm, d.fo.StateRate)
}

// StateForceDerivative writes ∂f_X/∂q, ∂f_X/∂v (nq×nq) and ∂f_X/∂X (nq×nd).
func (d *FirstOrderDerivatives) StateForceDerivative(dq, dv, dx *mat.Dense, t float64, q, v, x []float64) {
	if d.an != nil {
		d.an.StateForceDerivative(dq, dv, dx, t, q, v, x)
		return
	}
	d.central(dq, dv, dx, t, q, v, x, d.fp, d.fm, d.fo.StateForce)
}

// central differentiates fn with respect to q, v and X by central differences with the
// step of Derivatives (Nocedal & Wright 2006, eq. 8.8). The method value fn does not
// allocate: it is bound once per call from an interface already held.
func (d *FirstOrderDerivatives) central(dq, dv, dx *mat.Dense, t float64, q, v, x, p, m []float64,
	fn func(dst []float64, t float64, q, v, x []float64)) {
	copy(d.qp, q)
	copy(d.vp, v)
	copy(d.xp, x)
	col := func(dst *mat.Dense, j int, h float64) {
		for i := range p {
			dst.Set(i, j, (p[i]-m[i])/(2*h))
		}
	}
	for j := range d.nq {
		h := FDStep(q[j])
		d.qp[j] = q[j] + h
		fn(p, t, d.qp, v, x)
		d.qp[j] = q[j] - h
		fn(m, t, d.qp, v, x)
		d.qp[j] = q[j]
		col(dq, j, h)
		h = FDStep(v[j])
		d.vp[j] = v[j] + h
		fn(p, t, q, d.vp, x)
		d.vp[j] = v[j] - h
		fn(m, t, q, d.vp, x)
		d.vp[j] = v[j]
		col(dv, j, h)
	}
	for j := range d.nd {
		h := FDStep(x[j])
		d.xp[j] = x[j] + h
		fn(p, t, q, v, d.xp)
		d.xp[j] = x[j] - h
		fn(m, t, q, v, d.xp)
		d.xp[j] = x[j]
		col(dx, j, h)
	}
	d.Evals += 4*d.nq + 2*d.nd
}

// plainFirstOrder hides FirstOrderDerivative so that FirstOrderDerivatives falls back to
// finite differences.
type plainFirstOrder struct {
	plain
	FirstOrder
}

// CheckFirstOrder compares the analytic derivatives of a system implementing
// FirstOrderDerivative with central finite differences at (p, x), as Check does for the
// mechanical capabilities, and returns an error naming the worst entry when a relative gap
// exceeds tol. A system without FirstOrderDerivative has nothing to check.
func CheckFirstOrder(sys System, p CheckPoint, x []float64, tol float64) ([]Mismatch, error) {
	an, ok := sys.(FirstOrderDerivative)
	if _, fo := sys.(FirstOrder); !ok || !fo {
		return nil, nil
	}
	fd := NewFirstOrderDerivatives(plainFirstOrder{plain{sys}, sys.(FirstOrder)})
	nq, _ := sys.Size()
	nd := fd.nd
	type blk struct {
		name string
		a, b *mat.Dense
	}
	rq := []blk{{"dF/dq", mat.NewDense(nd, nq, nil), mat.NewDense(nd, nq, nil)},
		{"dF/dv", mat.NewDense(nd, nq, nil), mat.NewDense(nd, nq, nil)},
		{"dF/dX", mat.NewDense(nd, nd, nil), mat.NewDense(nd, nd, nil)}}
	fq := []blk{{"df_X/dq", mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)},
		{"df_X/dv", mat.NewDense(nq, nq, nil), mat.NewDense(nq, nq, nil)},
		{"df_X/dX", mat.NewDense(nq, nd, nil), mat.NewDense(nq, nd, nil)}}
	an.StateRateDerivative(rq[0].a, rq[1].a, rq[2].a, p.T, p.Q, p.V, x)
	fd.StateRateDerivative(rq[0].b, rq[1].b, rq[2].b, p.T, p.Q, p.V, x)
	an.StateForceDerivative(fq[0].a, fq[1].a, fq[2].a, p.T, p.Q, p.V, x)
	fd.StateForceDerivative(fq[0].b, fq[1].b, fq[2].b, p.T, p.Q, p.V, x)
	var out []Mismatch
	worst := -1
	for _, b := range append(rq, fq...) {
		out = append(out, compare(b.name, b.a, b.b))
		if m := out[len(out)-1]; m.Gap > tol && (worst < 0 || m.Gap > out[worst].Gap) {
			worst = len(out) - 1
		}
	}
	if worst >= 0 {
		return out, fmt.Errorf("dae: first-order derivative check failed at t=%g: %v (tolerance %g)", p.T, out[worst], tol)
	}
	return out, nil
}
