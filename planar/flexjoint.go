package planar

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"linkage/assembly"
)

// flexjoint.go: (q, v) ⇒ the part of a revolute joint's rows that a beam node's elastic
// displacement adds. A marker at node i of a flexible body has the point
//
//	r = R + A(θ)(s + δ),   δ = (u_i, w_i) = Σ_k c_k e_{col_k} d_k   (d_k = (1, 0) or (0, 1)),
//
// so each row g_c = (r_J − r_I)_c of the joint gains σ (A δ)_c, σ = +1 on side J and −1 on
// side I, on top of its rigid term over the pair (kinematics.go, with the undeformed s).
// With ∂A/∂θ = A S and S² = −1,
//
//	∇: θ ↦ σ (A S δ)_c,   e_k ↦ σ c_k (A d_k)_c;   ∇²: θθ ↦ −σ (A δ)_c,   θe_k ↦ σ c_k (A S d_k)_c,
//	−vᵀ∇²v = σ θ̇² (A δ)_c − 2σ θ̇ (A S δ̇)_c   (its part of γ).
//
// Only revolute joints take such markers: the other joints and forces read the marker's
// axes or a distance, which would need the node's rotation (refused at assembly).

// offTerm is one coordinate of a node's displacement δ: c·e_col along axis dir (0: the
// frame's x, u; 1: its y, w).
type offTerm struct {
	col, dir int
	c        float64
}

// rowOffset is σ (A(θ) δ)_comp added to constraint row.
type rowOffset struct {
	row, comp, thcol int
	sigma            float64
	terms            []offTerm
}

// flexMarker is what a marker on a flexible body adds to the rigid marker at its node.
type flexMarker struct {
	thcol     int
	terms     []offTerm // δ; empty when the node is fixed in the frame
	slopeFree bool      // the node's rotation w′ is a coordinate: its axes turn with it
}

func axis(dir int) Vec {
	if dir == 0 {
		return Vec{1, 0}
	}
	return Vec{0, 1}
}

// delta returns δ in the frame from x (q or v).
func (o *rowOffset) delta(x []float64) Vec {
	var d Vec
	for _, t := range o.terms {
		d[t.dir] += t.c * x[t.col]
	}
	return d
}

// parts returns sin θ, cos θ, (A δ)_c and (A S δ)_c.
func (o *rowOffset) parts(q []float64) (sn, cs, ad, asd float64) {
	sn, cs = math.Sincos(q[o.thcol])
	d := o.delta(q)
	return sn, cs, rotateSC(d, sn, cs)[o.comp], rotateSC(perp(d), sn, cs)[o.comp]
}

// addOffsetsConstraint adds the offsets' values to g.
func (s *System) addOffsetsConstraint(dst, q []float64) {
	for i := range s.offsets {
		o := &s.offsets[i]
		_, _, ad, _ := o.parts(q)
		dst[o.row] += o.sigma * ad
	}
}

// addOffsetsJacobian adds the offsets' gradients to G.
func (s *System) addOffsetsJacobian(dst assembly.Target, q []float64) {
	for i := range s.offsets {
		o := &s.offsets[i]
		sn, cs, _, asd := o.parts(q)
		out := dst.Row(o.row)
		out.Add(o.thcol, o.sigma*asd)
		for _, t := range o.terms {
			out.Add(t.col, o.sigma*t.c*rotateSC(axis(t.dir), sn, cs)[o.comp])
		}
	}
}

// addOffsetsHessian adds Σ λ_r ∇²(offset of row r) to ∂(Gᵀλ)/∂q.
func (s *System) addOffsetsHessian(dst assembly.Target, q, lambda []float64) {
	for i := range s.offsets {
		o := &s.offsets[i]
		l := lambda[o.row] * o.sigma
		if l == 0 {
			continue
		}
		sn, cs, ad, _ := o.parts(q)
		dst.Add(o.thcol, o.thcol, -l*ad)
		for _, t := range o.terms {
			h := l * t.c * rotateSC(perp(axis(t.dir)), sn, cs)[o.comp]
			dst.Add(o.thcol, t.col, h)
			dst.Add(t.col, o.thcol, h)
		}
	}
}

// addOffsetsGamma adds σ θ̇² (A δ)_c − 2σ θ̇ (A S δ̇)_c to γ.
func (s *System) addOffsetsGamma(dst, q, v []float64) {
	for i := range s.offsets {
		o := &s.offsets[i]
		sn, cs, ad, _ := o.parts(q)
		w := v[o.thcol]
		asdd := rotateSC(perp(o.delta(v)), sn, cs)[o.comp]
		dst[o.row] += o.sigma * (w*w*ad - 2*w*asdd)
	}
}

// addOffsetsJacobianDerivative adds ∇²(offset) w to row r of ∂(G w)/∂q.
func (s *System) addOffsetsJacobianDerivative(dst assembly.Target, q, w []float64) {
	for i := range s.offsets {
		o := &s.offsets[i]
		sn, cs, ad, _ := o.parts(q)
		out := dst.Row(o.row)
		wth := w[o.thcol]
		out.Add(o.thcol, -(o.sigma * ad * wth))
		for _, t := range o.terms {
			h := o.sigma * t.c * rotateSC(perp(axis(t.dir)), sn, cs)[o.comp]
			out.Add(o.thcol, h*w[t.col])
			out.Add(t.col, h*wth)
		}
	}
}

// addOffsetsGammaDerivativeQ adds ∂γ/∂q of the offsets: θ ↦ σθ̇²(A S δ)_c + 2σθ̇(A δ̇)_c,
// e_k ↦ σθ̇² c_k (A d_k)_c.
func (s *System) addOffsetsGammaDerivativeQ(dst *mat.Dense, q, v []float64) {
	for i := range s.offsets {
		o := &s.offsets[i]
		sn, cs, _, asd := o.parts(q)
		out := dst.RawRowView(o.row)
		w := v[o.thcol]
		add := rotateSC(o.delta(v), sn, cs)[o.comp]
		out[o.thcol] += o.sigma * (w*w*asd + 2*w*add)
		for _, t := range o.terms {
			out[t.col] += o.sigma * w * w * t.c * rotateSC(axis(t.dir), sn, cs)[o.comp]
		}
	}
}

// markerDisplacement returns δ of marker mk read from x (q, v or a): its node's elastic
// displacement in the body frame, zero off moving beam nodes.
func (s *System) markerDisplacement(mk MarkerID, x []float64) Vec {
	var d Vec
	if fm := s.flexMarkerOf(mk); fm != nil {
		for _, t := range fm.terms {
			d[t.dir] += t.c * x[t.col]
		}
	}
	return d
}

// markerPoint returns the marker's point s + δ(q) in its body frame.
func (s *System) markerPoint(mk MarkerID, q []float64) Vec {
	d := s.markerDisplacement(mk, q)
	p := s.markers[mk-1].Point
	return Vec{p[0] + d[0], p[1] + d[1]}
}
