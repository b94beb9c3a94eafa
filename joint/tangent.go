package joint

// Exact directional derivatives of the recursion (dae.DirectionalDerivatives): the
// recursive Newton-Euler algorithm of seed 002 Table 1 in forward mode. Every frame's pose
// moves by the twist η_i = η_λ + s_i δq_i (λ the parent; world axes at the world origin,
// as every spatial quantity here), which turns what is fixed in frame i by η_i × (motions)
// or η_i ×* (forces), and the joint axis, fixed in the parent, by δs_i = η_λ × s_i. Then
//
//	δV_i = δV_λ + δs_i q'_i + s_i δq'_i
//	δc_i = δV_i × s_i q'_i + V_i × (δs_i q'_i + s_i δq'_i)
//	δA_i = δA_λ + δc_i + δs_i q''_i + s_i δq''_i
//	δ(I_i x) = η_i ×* (I_i x) + I_i (δx − η_i × x)
//	δF_i = δ(I_i A_i) + δV_i ×* (I_i V_i) + V_i ×* δ(I_i V_i) − δf_g,i
//	δτ_i = δs_i·F_i + s_i·δF_i           (F_i, δF_i summed over the subtree of i)
//
// and the force elements' and cut rows' wrenches change with the twists and velocities of
// their frames (the dual numbers of dual.go). One pass each way: O(N), the cost of one
// residual evaluation, and no increment to choose: the products are exact to rounding
// where differences of the residual lose √ε·cond(M) along the slender rods' spins.

// tangentWork holds one directional derivative's per-frame quantities.
type tangentWork struct {
	eta, ds, dV, A, dA, F, dF, W, dW []sv
}

func (s *System) tangent() *tangentWork {
	if s.tg == nil {
		n := len(s.m.prims)
		v := func() []sv { return make([]sv, n) }
		s.tg = &tangentWork{eta: v(), ds: v(), dV: v(), A: v(), dA: v(), F: v(), dF: v(), W: v(), dW: v()}
	}
	return s.tg
}

// HasDirectionalDerivatives reports whether the directional derivatives cover the model
// (dae.DirectionalDerivatives): trees with joint springs and dampers, spring-dampers,
// point forces and torques, point cut joints (Cut) and drives; not flexible bodies, slide,
// orientation or cam cuts, rolling disks, knife edges or friction, whose terms they do
// not differentiate.
func (s *System) HasDirectionalDerivatives() bool {
	m := s.m
	return len(m.flex)+len(m.flexCuts)+len(m.slides)+len(m.axes)+len(m.cams)+len(m.disks)+
		len(m.knives)+len(m.frictions) == 0
}

// twists fills η, δs and (with v and dv) δV along (δq, δv), the kinematics in s.w.
func (s *System) twists(tg *tangentWork, dq, v, dv []float64) {
	w := s.w
	for i := range s.m.prims {
		var etaP, dVp sv
		if p := s.m.prims[i].parent; p != Ground {
			etaP, dVp = tg.eta[p], tg.dV[p]
		}
		si := w.s[i]
		ds := crossM(etaP, si)
		tg.eta[i] = etaP.add(si.scale(dq[i]))
		tg.ds[i] = ds
		if dv != nil {
			tg.dV[i] = dVp.add(ds.scale(v[i])).add(si.scale(dv[i]))
		}
	}
}

// frameTwist returns η and δV of frame f (zero at the ground).
func (tg *tangentWork) frameTwist(f int) (eta, dV sv) {
	if f == Ground {
		return sv{}, sv{}
	}
	return tg.eta[f], tg.dV[f]
}

// InverseDynamicsDirection writes δR = (M a − f)_q δq − f_v δv + M δa, the directional
// derivative of the inverse-dynamics residual R = M(q) a − f(t, q, v) (dae.DirectionalDerivatives):
// the Newton-Euler recursion and the force elements in forward mode, O(N).
func (s *System) InverseDynamicsDirection(dst []float64, t float64, q, v, a, dq, dv, da []float64) {
	s.m.kinematics(s.w, q, v)
	tg, w, m := s.tangent(), s.w, s.m
	s.twists(tg, dq, v, dv)
	g := vec3(m.Gravity)
	for i := range m.prims {
		var Ap, dAp sv
		if p := m.prims[i].parent; p != Ground {
			Ap, dAp = tg.A[p], tg.dA[p]
		}
		si, ds, eta, V, dV := w.s[i], tg.ds[i], tg.eta[i], w.V[i], tg.dV[i]
		sq := si.scale(v[i])
		dsq := ds.scale(v[i]).add(si.scale(dv[i]))
		dc := crossM(dV, sq).add(crossM(V, dsq))
		A := Ap.add(w.c[i]).add(si.scale(a[i]))
		dA := dAp.add(dc).add(ds.scale(a[i])).add(si.scale(da[i]))
		tg.A[i], tg.dA[i] = A, dA
		if w.bare[i] {
			tg.F[i], tg.dF[i] = sv{}, sv{}
			continue
		}
		I := &w.I[i]
		h, IA := I.mulv(V), I.mulv(A)
		dh := crossF(eta, h).add(I.mulv(dV.sub(crossM(eta, V))))
		dIA := crossF(eta, IA).add(I.mulv(dA.sub(crossM(eta, A))))
		F := IA.add(crossF(V, h)).sub(w.fx[i])
		dF := dIA.add(crossF(dV, h)).add(crossF(V, dh))
		if b := &m.prims[i].body; b.Mass != 0 {
			c := w.x[i].add(w.R[i].mulv(b.COM))
			dcm := eta.ang().cross(c).add(eta.lin())
			dF = dF.sub(join(dcm.cross(g.scale(b.Mass)), vec3{}))
		}
		tg.F[i], tg.dF[i] = F, dF
	}
	for i := len(m.prims) - 1; i >= 0; i-- {
		p := &m.prims[i]
		dst[i] = tg.ds[i].dot(tg.F[i]) + w.s[i].dot(tg.dF[i]) + p.k*dq[i] + p.d*dv[i]
		if p.parent != Ground {
			tg.F[p.parent] = tg.F[p.parent].add(tg.F[i])
			tg.dF[p.parent] = tg.dF[p.parent].add(tg.dF[i])
		}
	}
	s.elementDirection(dst, t)
}

// elementDirection subtracts from dst the change of the force elements' generalized
// forces Q_j = s_j·W_j along the twists and velocity changes in s.tg (kinematics at
// (q, v) in s.w).
func (s *System) elementDirection(dst []float64, t float64) {
	if len(s.m.sds)+len(s.m.loads) == 0 {
		return
	}
	s.frameWrenches(t)
	tg, w := s.tg, s.w
	dW := tg.dW
	clear(dW)
	add := func(f int, x sv) {
		if f != Ground {
			dW[f] = dW[f].add(x)
		}
	}
	for i := range s.m.sds {
		e := &s.m.sds[i]
		ea, dVa := tg.frameTwist(e.a)
		eb, dVb := tg.frameTwist(e.b)
		_, ga, gb, l := s.load(e, t, ea, eb)
		Va, Vb := w.velocity(e.a), w.velocity(e.b)
		dc := ga.v.dot(ea) + gb.v.dot(eb)
		drate := ga.d.dot(Va) + ga.v.dot(dVa) + gb.d.dot(Vb) + gb.v.dot(dVb)
		F, dF := l.Force(), l.Ks*dc+l.Kd*drate
		add(e.a, ga.d.scale(-F).sub(ga.v.scale(dF)))
		add(e.b, gb.d.scale(-F).sub(gb.v.scale(dF)))
	}
	for i := range s.m.loads {
		e := &s.m.loads[i]
		ea, _ := tg.frameTwist(e.a)
		add(e.a, s.wrench(e, t, ea).d)
	}
	for i := len(dW) - 1; i >= 0; i-- {
		dst[i] -= tg.ds[i].dot(s.el.W[i]) + w.s[i].dot(dW[i])
		if p := s.m.prims[i].parent; p != Ground {
			dW[p] = dW[p].add(dW[i])
		}
	}
}

// ConstraintForceDirection writes δ(Gᵀλ) = (Gᵀλ)_q δq + Gᵀδλ (dae.DirectionalDerivatives):
// each point cut row puts the force λe at r_a and −λe at r_b, whose wrenches change with
// the points' motion and with δλ, summed over the subtrees and projected on the turning
// axes; a drive row adds δλ on its coordinate. O(N + rows).
func (s *System) ConstraintForceDirection(dst []float64, _ float64, q, lambda, dq, dlambda []float64) {
	s.m.kinematics(s.w, q, nil)
	tg, w := s.tangent(), s.w
	s.twists(tg, dq, nil, nil)
	W, dW := tg.W, tg.dW
	clear(W)
	clear(dW)
	point := func(f int, p, e vec3, l, dl float64) {
		if f == Ground {
			return
		}
		r := w.dpoint(f, p, tg.eta[f])
		F, dF := e.scale(l), e.scale(dl)
		W[f] = W[f].add(join(r.v.cross(F), F))
		dW[f] = dW[f].add(join(r.d.cross(F).add(r.v.cross(dF)), dF))
	}
	k := 0
	for _, c := range s.m.cuts {
		for _, e := range c.dirs {
			point(c.a, c.pa, e, lambda[k], dlambda[k])
			point(c.b, c.pb, e, -lambda[k], -dlambda[k])
			k++
		}
	}
	for i := len(W) - 1; i >= 0; i-- {
		dst[i] = tg.ds[i].dot(W[i]) + w.s[i].dot(dW[i])
		if p := s.m.prims[i].parent; p != Ground {
			W[p] = W[p].add(W[i])
			dW[p] = dW[p].add(dW[i])
		}
	}
	k = s.nc - len(s.m.drives)
	for _, d := range s.m.drives {
		dst[d.coord] += dlambda[k]
		k++
	}
}

// ConstraintDirection writes δg = G δq into dg and δc = (G v + g_t)_q δq + G δv into dc
// (either nil: skipped; dae.DirectionalDerivatives): a point cut row e·(r_a − r_b) moves
// with its points' twists, its velocity row e·(v_a − v_b) with their velocity changes
// δv_p = δV_lin + δV_ang × r + ω × δr; a drive row reads δq and δv of its coordinate.
func (s *System) ConstraintDirection(dg, dc []float64, _ float64, q, v, dq, dv []float64) {
	if dc == nil {
		v, dv = nil, nil
	}
	s.m.kinematics(s.w, q, v)
	tg, w := s.tangent(), s.w
	s.twists(tg, dq, v, dv)
	motion := func(f int, p vec3) (dr, dvp vec3) {
		if f == Ground {
			return vec3{}, vec3{}
		}
		r := w.dpoint(f, p, tg.eta[f])
		if dc != nil {
			V, dV := w.V[f], tg.dV[f]
			dvp = dV.lin().add(dV.ang().cross(r.v)).add(V.ang().cross(r.d))
		}
		return r.d, dvp
	}
	k := 0
	for _, c := range s.m.cuts {
		dra, dva := motion(c.a, c.pa)
		drb, dvb := motion(c.b, c.pb)
		for _, e := range c.dirs {
			if dg != nil {
				dg[k] = e.dot(dra.sub(drb))
			}
			if dc != nil {
				dc[k] = e.dot(dva.sub(dvb))
			}
			k++
		}
	}
	k = s.nc - len(s.m.drives)
	for _, d := range s.m.drives {
		if dg != nil {
			dg[k] = dq[d.coord]
		}
		if dc != nil {
			dc[k] = dv[d.coord]
		}
		k++
	}
}
