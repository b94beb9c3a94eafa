package joint

import "gonum.org/v1/gonum/mat"

// The force elements' derivatives (forces.go): a column k of ∂(JᵀW)/∂q or ∂(JᵀW)/∂v from
// the change of the wrenches when joint k moves (or speeds up) its subtree, summed over the
// subtree in one sweep.

// moved returns the twist of frame f and the change of its velocity V_f when joint k
// (axis sk, parent velocity Vl; s.d.inSub its subtree) turns by one unit:
// δV_f = s_k × (V_f − V_λ) inside the subtree, zero outside.
func (s *System) moved(f int, sk, Vl sv) (tw, dV sv) {
	if f == Ground || !s.d.inSub[f] {
		return sv{}, sv{}
	}
	return sk, crossM(sk, s.w.V[f].sub(Vl))
}

// elementColumnQ adds column k of ∂Q/∂q of the force elements at t to dst, s.d.inSub
// marking the subtree of k, s.w holding the kinematics at (q, v) and s.el.W the wrenches
// (frameWrenches).
func (s *System) elementColumnQ(dst *mat.Dense, t float64, k int) {
	if len(s.m.sds)+len(s.m.loads) == 0 {
		return
	}
	sk := s.w.s[k]
	Vl, _ := s.m.parentMotion(s.w, k)
	s.clearColumn(k)
	for i := range s.m.sds {
		e := &s.m.sds[i]
		da, dVa := s.moved(e.a, sk, Vl)
		db, dVb := s.moved(e.b, sk, Vl)
		if da == (sv{}) && db == (sv{}) {
			continue
		}
		_, ga, gb, l := s.load(e, t, da, db)
		Va, Vb := s.w.velocity(e.a), s.w.velocity(e.b)
		dc := ga.v.dot(da) + gb.v.dot(db)
		drate := ga.d.dot(Va) + ga.v.dot(dVa) + gb.d.dot(Vb) + gb.v.dot(dVb)
		F, dF := l.Force(), l.Ks*dc+l.Kd*drate
		s.changed(dst, k, e.a, ga.d.scale(-F).sub(ga.v.scale(dF)))
		s.changed(dst, k, e.b, gb.d.scale(-F).sub(gb.v.scale(dF)))
	}
	for i := range s.m.loads {
		e := &s.m.loads[i]
		if tw, _ := s.moved(e.a, sk, Vl); tw != (sv{}) {
			s.changed(dst, k, e.a, s.wrench(e, t, tw).d)
		}
	}
	s.sweepColumn(dst, k, true)
}

// elementColumnV adds column k of ∂Q/∂v of the spring-dampers at t to dst: their frames in
// the subtree of k gain the velocity s_k, which changes ċ and the damper's force.
func (s *System) elementColumnV(dst *mat.Dense, t float64, k int) {
	if len(s.m.sds) == 0 {
		return
	}
	sk := s.w.s[k]
	s.clearColumn(k)
	for i := range s.m.sds {
		e := &s.m.sds[i]
		dVa, _ := s.moved(e.a, sk, sv{})
		dVb, _ := s.moved(e.b, sk, sv{})
		if dVa == (sv{}) && dVb == (sv{}) {
			continue
		}
		_, ga, gb, l := s.load(e, t, sv{}, sv{})
		dF := l.Kd * (ga.v.dot(dVa) + gb.v.dot(dVb))
		s.changed(dst, k, e.a, ga.v.scale(-dF))
		s.changed(dst, k, e.b, gb.v.scale(-dF))
	}
	s.sweepColumn(dst, k, false)
}

// clearColumn zeroes s.el.dW on the subtree of k.
func (s *System) clearColumn(k int) {
	for i := k; i < len(s.el.dW); i++ {
		if s.d.inSub[i] {
			s.el.dW[i] = sv{}
		}
	}
}

// changed records the change dW of a wrench on frame f for column k: in s.el.dW when f is
// in the subtree of k (sweepColumn sums it), else directly along f's path, none of whose
// axes turn with joint k.
func (s *System) changed(dst *mat.Dense, k, f int, dW sv) {
	switch {
	case f == Ground:
	case s.d.inSub[f]:
		s.el.dW[f] = s.el.dW[f].add(dW)
	default:
		s.wrenchColumn(dst, k, f, sv{}, dW)
	}
}

// sweepColumn adds to column k of dst the changes s.el.dW summed from the subtree's leaves
// to k and projected on the axes, s_j·ΣdW, on the subtree and on k's ancestors; turned
// adds (s_k × s_j)·W_j, the turning of the subtree's axes under the wrenches they carry.
func (s *System) sweepColumn(dst *mat.Dense, k int, turned bool) {
	dW, sk := s.el.dW, s.w.s[k]
	for i := len(dW) - 1; i >= k; i-- {
		if !s.d.inSub[i] {
			continue
		}
		x := s.w.s[i].dot(dW[i])
		if turned {
			x += crossM(sk, s.w.s[i]).dot(s.el.W[i])
		}
		dst.Set(i, k, dst.At(i, k)+x)
		if p := s.m.prims[i].parent; p != Ground && s.d.inSub[p] {
			dW[p] = dW[p].add(dW[i])
		}
	}
	for j := s.m.prims[k].parent; j != Ground; j = s.m.prims[j].parent {
		dst.Set(j, k, dst.At(j, k)+s.w.s[j].dot(dW[k]))
	}
}
