package joint

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"linkage/assembly"
	"linkage/law"
)

// Force elements between frames of the tree (seed 002 §3.3 leaves them to the applied
// forces f of eq. 16). Every element acts on its frames a and b as wrenches W_a, W_b (world
// force vectors [n_O; f] at the world origin), whose generalized force is
//
//	Q_j = s_j·W   for every joint j on the path from the root to the frame,
//
// Jᵀ W through the recursion: the wrenches summed over subtrees and projected on the axes,
// O(elements + N). A spring-damper along a scalar
// coordinate c has ċ = G_a·V_a + G_b·V_b (G the wrench gradients of c) and W = −F G with
// F = spring(c − c_free) + damper(ċ) + act(t) (assembly.SpringDamper); a point force or a
// torque is its wrench. The derivatives are exact, ∂(JᵀW)/∂q = Jᵀ ∂W/∂q + (∂Jᵀ/∂q) W:
// turning joint k moves the frames of its subtree by the twist s_k, which changes W (its
// points, axes and velocities, by the forward-mode arithmetic of dual.go) and turns the
// axes s_j of the subtree; both are summed over the subtree in one sweep (sweepColumn), so
// a matrix costs O(N·(N + elements)) plus O(depth) per element with one frame outside the
// moved subtree.

// Marker is a point and three axes fixed in a frame, in frame coordinates (Ground: world).
type Marker struct {
	Frame   int
	Point   [3]float64
	X, Y, Z [3]float64
}

// SpringDamper is the law of a spring-damper-actuator along a scalar coordinate c: the
// tension F = Spring(c − Free) + Damper(c') + Actuator(t) with Spring = law.Linear{K} and
// Damper = law.Linear{C} when nil, and the generalized force Q = −F ∂c/∂q.
type SpringDamper struct {
	K, C, Free     float64
	Spring, Damper law.Force
	Actuator       law.Func // nil: none
}

// coordKind is the scalar coordinate of a spring-damper element.
type coordKind int

const (
	coordLength coordKind = iota // |r_b − r_a|
	coordAlong                   // (R_a u₀)·(r_b − r_a)
	coordDots                    // Σ w_k (R_a u_k)·(R_b v_k)
	coordAngle                   // atan2((R_a u₁)·(R_b v₀), (R_a u₀)·(R_b v₀))
	coordPlanar                  // φ_b − φ_a + off, φ the frame's angle about z
)

// sdElement is one scalar coordinate of a force element with its law.
type sdElement struct {
	name   string
	kind   coordKind
	a, b   int
	pa, pb vec3
	u, v   [2]vec3
	w      [2]float64
	off    float64
	law    assembly.SpringDamper[coordKind]
}

// loadElement is a point force at p of frame a, or a torque on frame a, whose component k
// is fn[k](t) along dir[k] (frame coordinates when turning, world axes otherwise).
type loadElement struct {
	name    string
	a       int
	p       vec3
	dir     [3]vec3
	fn      [3]law.Func
	turning bool
	torque  bool
}

// TSDA adds a translational spring-damper-actuator between the points of markers i and j:
// c = |r_j − r_i| (singular where the points meet), F pulling them together.
func (m *Model) TSDA(name string, i, j Marker, sd SpringDamper) {
	m.addSD(name, sdElement{kind: coordLength, a: i.Frame, b: j.Frame, pa: i.Point, pb: j.Point}, sd, i, j)
}

// RSDA adds a rotational spring-damper-actuator about marker i's z axis: c = β, the angle
// from x_i to x_j, atan2(y_i·x_j, x_i·x_j) in (−π, π] (as spatial.RSDA; the spring jumps
// where β wraps).
func (m *Model) RSDA(name string, i, j Marker, sd SpringDamper) {
	m.addSD(name, sdElement{kind: coordAngle, a: i.Frame, b: j.Frame, u: [2]vec3{unit(i.X), unit(i.Y)}, v: [2]vec3{unit(j.X)}}, sd, i, j)
}

// PlanarRSDA adds a rotational spring-damper-actuator between frames a and b of a planar
// tree (every revolute axis along z): c = φ_b − φ_a + offset, φ the frame's angle (the sum
// of the revolute coordinates on its path), not wrapped (as planar.RSDA).
func (m *Model) PlanarRSDA(name string, a, b int, offset float64, sd SpringDamper) {
	m.addSD(name, sdElement{kind: coordPlanar, a: a, b: b, off: offset}, sd, Marker{Frame: a}, Marker{Frame: b})
}

// Bushing adds a linear bushing on the pose of marker j relative to marker i (as
// spatial.Bushing): the translations (e_k)·(r_j − r_i) along i's axes e_k and the small
// rotations θ_x = (z_i·y_j − y_i·z_j)/2, θ_y = (x_i·z_j − z_i·x_j)/2, θ_z = (y_i·x_j −
// x_i·y_j)/2, each with stiffness and damping k, c (translations) and kRot, cRot.
func (m *Model) Bushing(name string, i, j Marker, k, c, kRot, cRot [3]float64) {
	ei := [3]vec3{unit(i.X), unit(i.Y), unit(i.Z)}
	ej := [3]vec3{unit(j.X), unit(j.Y), unit(j.Z)}
	for n := range 3 {
		m.addSD(name, sdElement{kind: coordAlong, a: i.Frame, b: j.Frame, pa: i.Point, pb: j.Point, u: [2]vec3{ei[n]}},
			SpringDamper{K: k[n], C: c[n]}, i, j)
	}
	for n := range 3 {
		p, r := (n+2)%3, (n+1)%3 // θ_n = (e_p,i·e_r,j − e_r,i·e_p,j)/2
		m.addSD(name, sdElement{kind: coordDots, a: i.Frame, b: j.Frame, u: [2]vec3{ei[p], ei[r]}, v: [2]vec3{ej[r], ej[p]},
			w: [2]float64{0.5, -0.5}}, SpringDamper{K: kRot[n], C: cRot[n]}, i, j)
	}
}

// PlanarBushing adds a linear bushing on the pose of marker j in marker i's axes of a planar
// tree (as planar.Bushing): x_i·(r_j − r_i), y_i·(r_j − r_i) and the angle φ_j − φ_i +
// offset, with stiffness k and damping c along x, y and the angle.
func (m *Model) PlanarBushing(name string, i, j Marker, offset float64, k, c [3]float64) {
	for n, e := range []vec3{unit(i.X), unit(i.Y)} {
		m.addSD(name, sdElement{kind: coordAlong, a: i.Frame, b: j.Frame, pa: i.Point, pb: j.Point, u: [2]vec3{e}},
			SpringDamper{K: k[n], C: c[n]}, i, j)
	}
	m.addSD(name, sdElement{kind: coordPlanar, a: i.Frame, b: j.Frame, off: offset}, SpringDamper{K: k[2], C: c[2]}, i, j)
}

// PointForce adds the force Σ_k f[k](t) e_k at marker i's point: e_k its axes X, Y, Z
// turning with its frame when turning, the world axes otherwise.
func (m *Model) PointForce(name string, i Marker, f [3]law.Func, turning bool) {
	m.addLoad(loadElement{name: name, a: i.Frame, p: i.Point, fn: f, turning: turning}, i)
}

// Torque adds the moment Σ_k n[k](t) e_k on marker i's frame, e_k as for PointForce.
func (m *Model) Torque(name string, i Marker, n [3]law.Func, turning bool) {
	m.addLoad(loadElement{name: name, a: i.Frame, fn: n, turning: turning, torque: true}, i)
}

func (m *Model) addSD(name string, e sdElement, sd SpringDamper, i, j Marker) {
	if !m.elementFrames(name, i.Frame, j.Frame) {
		return
	}
	e.name = name
	e.law = assembly.NewSpringDamper(0, e.kind, sd.Free, sd.Spring, sd.Damper, sd.K, sd.C, sd.Actuator)
	m.sds = append(m.sds, e)
}

func (m *Model) addLoad(e loadElement, i Marker) {
	if !m.elementFrames(e.name, i.Frame, i.Frame) {
		return
	}
	e.dir = [3]vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	if e.turning {
		e.dir = [3]vec3{unit(i.X), unit(i.Y), unit(i.Z)}
	}
	m.loads = append(m.loads, e)
}

// elementFrames reports whether force element name's frames exist, recording the error if
// not.
func (m *Model) elementFrames(name string, a, b int) bool {
	for _, f := range []int{a, b} {
		if f < Ground || f >= len(m.prims) {
			m.fail(fmt.Errorf("joint: force element %q: frame %d does not exist (%d frames; Ground is %d)", name, f, len(m.prims), Ground))
			return false
		}
	}
	return true
}

// planarElements refuses planar angles (PlanarRSDA, PlanarBushing) on a tree with a
// revolute axis off z, where φ is no angle.
func (m *Model) planarElements() error {
	for _, e := range m.sds {
		if e.kind != coordPlanar {
			continue
		}
		for _, p := range m.prims {
			if !p.prismatic && (p.axis[0] != 0 || p.axis[1] != 0) {
				return fmt.Errorf("joint: force element %q measures a planar angle, but joint %q turns about %v, not z", e.name, p.name, p.axis)
			}
		}
	}
	return nil
}

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
		c = datan2(Y, X).v
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
func (s *System) load(e *sdElement, t float64, da, db sv) (c float64, ga, gb dsv, l assembly.SDLoad) {
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

// SpringDamperReadings returns the readings of force element name at (t, q, v), written
// into dst (grown if short): one per scalar coordinate, in the order of the Model method
// that added it (a TSDA's length, an RSDA's angle, a bushing's translations then
// rotations); ok is false when name has no spring-damper.
func (s *System) SpringDamperReadings(dst []assembly.SDReading, name string, t float64, q, v []float64) (out []assembly.SDReading, ok bool) {
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
