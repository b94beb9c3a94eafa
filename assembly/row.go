package assembly

import (
	"math"

	"linkage/law"
)

// row.go: t ⇒ the time-dependent weights and drive of a constraint row. Every joint row of
// every route has the shape
//
//	g = Σ_k W_k(t) c_k(q) − c0 − F(t),
//
// a weighted sum of at most two scalar pair coordinates c_k (the route's kinematics) minus
// a constant and a drive. W_k = w_k and F = f(t) for ordinary rows, couplers and motions
// along a coordinate; a motion of an angle that a route writes through sin(β − f) = 0 puts
// the drive into the weights instead, W = (w cos f, −w sin f) and F = 0 (Trig). Hence
//
//	G = Σ W_k ∇c_k,   g_t = Σ W_k' c_k − F',
//	γ = −Σ W_k vᵀ∇²c_k v − 2 Σ W_k' ∇c_k·v − Σ W_k'' c_k + F'',
//	∂(Gᵀλ)/∂q = Σ_r λ_r Σ_k W_k ∇²c_k.

// WeightKind is how a row term's weight depends on time.
type WeightKind int

// The weights of a term: w, w cos f(t), −w sin f(t).
const (
	WeightConst WeightKind = iota
	WeightCos
	WeightNegSin
)

// Term is W·c with c coordinate Coord (of the route's kind C) of pair Pair.
type Term[C any] struct {
	Pair  int
	Coord C
	W     float64
	Kind  WeightKind // WeightConst unless the row is Trig
}

// Row is one scalar constraint of the shape above: Terms[:N], C0 and Drive (nil for a
// scleronomic row).
type Row[C any] struct {
	Terms [2]Term[C]
	N     int
	C0    float64
	Drive law.Func
	Trig  bool // the drive enters the weights, F = 0
}

// DrivenRows returns the indices of the rows with a Drive, in order: the only rows whose
// g_t can be nonzero. A route's ConstraintTimeDerivative clears g_t and visits these
// alone: on a chain of 10 000 bars without motions, reading every row's Drive field
// (rows of about a hundred bytes) streamed 2 MB per evaluation for nothing.
func DrivenRows[C any](rows []Row[C]) []int {
	var d []int
	for r := range rows {
		if rows[r].Drive != nil {
			d = append(d, r)
		}
	}
	return d
}

// Weights returns W_k, W_k', W_k″ of each term and F, F', F″ at t.
func (r *Row[C]) Weights(t float64) (w, dw, ddw [2]float64, F, dF, ddF float64) {
	var f, df, ddf float64
	if r.Drive != nil {
		f, df, ddf = r.Drive.Eval(t)
	}
	if !r.Trig {
		for k := range r.N {
			w[k] = r.Terms[k].W
		}
		return w, dw, ddw, f, df, ddf
	}
	sn, cs := math.Sincos(f)
	for k := range r.N {
		s := r.Terms[k].W
		switch r.Terms[k].Kind {
		case WeightCos:
			w[k], dw[k], ddw[k] = s*cs, -s*sn*df, s*(-cs*df*df-sn*ddf)
		case WeightNegSin:
			w[k], dw[k], ddw[k] = -s*sn, -s*cs*df, s*(sn*df*df-cs*ddf)
		default:
			w[k] = s
		}
	}
	return w, dw, ddw, 0, 0, 0
}
