package joint

import (
	"math"

	"linkage/law"
)

// The force elements' values (forces.go): coordinates, wrenches, generalized forces,
// energy, power and readings at one state.

// dpoint is point p of frame f (world) and its change when the frame moves by twist tw.
func (w *frames) dpoint(f int, p vec3, tw sv) dvec {
	if f == Ground {
		return dvec{v: p}
	}
	r := w.x[f].add(w.R[f].mulv(p))
	return dvec{r, tw.ang().cross(r).add(tw.lin())}
}

// dturn is vector u of frame f in world axes and its change under twist tw.
func (w *frames) dturn(f int, u vec3, tw sv) dvec {
	if f == Ground {
		return dvec{v: u}
	}
	x := w.R[f].mulv(u)
	return dvec{x, tw.ang().cross(x)}
}

// velocity is V_f, zero at the ground.
func (w *frames) velocity(f int) sv {
	if f == Ground {
		return sv{}
	}
	return w.V[f]
}

// angle is φ_f of a planar tree: the sum of the revolute coordinates on f's path, each
// signed by its axis (±z).
func (s *System) angle(f int) float64 {
	var phi float64
	for j := f; j != Ground; j = s.m.prims[j].parent {
		if p := &s.m.prims[j]; !p.prismatic {
			phi += s.w.qpos[j] * p.axis[2]
		}
	}
	return phi
}

// gradient returns coordinate c of e and its wrench gradients G_a, G_b (ċ = G_a·V_a +
// G_b·V_b) at the kinematics in s.w, with their changes when frame a moves by twist da and
// frame b by db.
func (s *System) gradient(e *sdElement, da, db sv) (c float64, ga, gb dsv) {
	w := s.w
	switch e.kind {
	case coordLength, coordAlong:
		ra, rb := w.dpoint(e.a, e.pa, da), w.dpoint(e.b, e.pb, db)
		d := rb.sub(ra)
		var u dvec
		if e.kind == coordLength {
			l := dsqrt(d.dot(d))
			c, u = l.v, d.scale(dnum{v: 1}.div(l))
		} else {
			u = w.dturn(e.a, e.u[0], da)
			c = u.dot(d).v
			ra = rb // the gradient of u·d on frame a is the force −u at r_b
		}
		return c, djoin(ra.cross(u), u).scale(-1), djoin(rb.cross(u), u)
	case coordDots:
		for k := range e.w {
			x, y := w.dturn(e.a, e.u[k], da), w.dturn(e.b, e.v[k], db)
			c += e.w[k] * x.v.dot(y.v)
			ga = ga.add(djoin(x.cross(y), dvec{}).scale(e.w[k]))
		}
	case coordAngle:
		xa, ya, xb := w.dturn(e.a, e.u[0], da), w.dturn(e.a, e.u[1], da), w.dturn(e.b, e.v[0], db)
		Y, X := ya.dot(xb), xa.dot(xb)
		c = math.Atan2(Y.v, X.v)
		n := ya.cross(xb).scale(X).sub(xa.cross(xb).scale(Y)).scale(dnum{v: 1}.div(X.mul(X).add(Y.mul(Y))))
		ga = djoin(n, dvec{})
	case coordPlanar:
		c = s.angle(e.b) - s.angle(e.a) + e.off
		ga = dsv{v: sv{0, 0, -1}}
	}
	return c, ga, ga.scale(-1)
}

// load evaluates spring-damper e at t (kinematics with velocities in s.w): its coordinate,
// gradients and load.
func (s *System) load(e *sdElement, t float64, da, db sv) (c float64, ga, gb dsv, l law.SDLoad) {
	c, ga, gb = s.gradient(e, da, db)
	rate := ga.v.dot(s.w.velocity(e.a)) + gb.v.dot(s.w.velocity(e.b))
	return c, ga, gb, e.law.Load(t, c, rate)
}

// wrench is the wrench of load e on its frame at t and its change under twist tw.
func (s *System) wrench(e *loadElement, t float64, tw sv) dsv {
	var x dvec
	for k, f := range e.fn {
		if f == nil {
			continue
		}
		v, _, _ := f.Eval(t)
		d := dvec{v: e.dir[k]}
		if e.turning {
			d = s.w.dturn(e.a, e.dir[k], tw)
		}
		x = x.add(d.scale(dnum{v: v}))
	}
	if e.torque {
		return djoin(x, dvec{})
	}
	return djoin(s.w.dpoint(e.a, e.p, tw).cross(x), x)
}

// elementWork holds the force elements' wrenches on each frame summed over its subtree
// (W[j]: everything joint j carries) and a derivative column's changes of them (dW).
type elementWork struct {
	W, dW []sv
}

func newElementWork(n int) elementWork { return elementWork{W: make([]sv, n), dW: make([]sv, n)} }

// frameWrenches fills s.el.W at t (kinematics at (q, v) in s.w): every element's wrenches
// on its frames, then summed from the leaves to the root, O(elements + N).
func (s *System) frameWrenches(t float64) {
	W := s.el.W
	clear(W)
	add := func(f int, x sv) {
		if f != Ground {
			W[f] = W[f].add(x)
		}
	}
	for i := range s.m.sds {
		e := &s.m.sds[i]
		_, ga, gb, l := s.load(e, t, sv{}, sv{})
		F := l.Force()
		add(e.a, ga.v.scale(-F))
		add(e.b, gb.v.scale(-F))
	}
	for i := range s.m.loads {
		e := &s.m.loads[i]
		add(e.a, s.wrench(e, t, sv{}).v)
	}
	for i := len(W) - 1; i >= 0; i-- {
		if p := s.m.prims[i].parent; p != Ground {
			W[p] = W[p].add(W[i])
		}
	}
}

// addElementForces adds the generalized forces Q_j = s_j·W_j of the force elements at t to
// dst, with the kinematics at (q, v) in s.w.
func (s *System) addElementForces(dst []float64, t float64) {
	if len(s.m.sds)+len(s.m.loads) == 0 {
		return
	}
	s.frameWrenches(t)
	for j, W := range s.el.W {
		dst[j] += s.w.s[j].dot(W)
	}
}

// elementEnergy returns the springs' potential (the laws with a closed-form integral).
func (s *System) elementEnergy() float64 {
	var V float64
	for i := range s.m.sds {
		e := &s.m.sds[i]
		if e.law.HasPotential() {
			c, _, _ := s.gradient(e, sv{}, sv{})
			V += e.law.Energy(c)
		}
	}
	return V
}

// elementPower returns the non-conservative power of the force elements at t: dampers,
// actuators and springs without potential, and the loads' W·V.
func (s *System) elementPower(t float64) float64 {
	var P float64
	for i := range s.m.sds {
		_, _, _, l := s.load(&s.m.sds[i], t, sv{}, sv{})
		P += s.m.sds[i].law.Power(&l)
	}
	for i := range s.m.loads {
		e := &s.m.loads[i]
		P += s.wrench(e, t, sv{}).v.dot(s.w.velocity(e.a))
	}
	return P
}

// SpringDamperReadings returns the readings of force element name at (t, q, v), written
// into dst (grown if short): one per scalar coordinate, in the order of the Model method
// that added it (a TSDA's length, an RSDA's angle, a bushing's translations then
// rotations); ok is false when name has no spring-damper.
func (s *System) SpringDamperReadings(dst []law.SDReading, name string, t float64, q, v []float64) (out []law.SDReading, ok bool) {
	s.m.kinematics(s.w, q, v)
	dst = dst[:0]
	for i := range s.m.sds {
		if e := &s.m.sds[i]; e.name == name {
			c, _, _, l := s.load(e, t, sv{}, sv{})
			dst = append(dst, e.law.Reading(c, &l))
		}
	}
	return dst, len(dst) > 0
}
