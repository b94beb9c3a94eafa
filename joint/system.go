package joint

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// System is a Model as the constrained equations of motion of seed 002 (eq. 16) in joint
// coordinates: Mass by the composite-rigid-body algorithm, Force by the recursive
// Newton-Euler algorithm, MassSolve (dae.MassSolver) by the articulated-body recursion,
// the cut joints and drives as g(t, q) = 0 with G from the recursive kinematics.
// Its work arrays are owned by the System: one System per goroutine.
type System struct {
	m     *Model
	w     *frames
	d     *idWork
	tau   []float64
	mass  []float64
	nc    int
	names []string // constraint names

	nt, nq     int         // tree coordinates, all coordinates (the flexible bodies' follow)
	flex       []flexState // flexible bodies (flex.go)
	flexRow    int         // first row of the flexible cuts
	coordNames []string    // the flexible bodies' coordinates

	motion  motionCache  // FrameMotion's own kinematics
	fac     [2]abaFactor // the articulated-body recursion's U and D at the last two solves' points
	facLast int          // the one used last
	el      elementWork  // the force elements' wrenches (forces.go)
	react   []sv         // the cut rows' loads summed over each subtree (reaction.go)
	tg      *tangentWork // the directional derivatives' work (tangent.go), at their first call
	fdw     []float64    // ForwardDynamics' f + b with flexible bodies (nq), at its first call

	cfac *complexFactor // ComplexStiffMassSolve's factorization (complexsolve.go), at its first call
}

var (
	_ dae.System                 = (*System)(nil)
	_ dae.MassSolver             = (*System)(nil)
	_ dae.LockedMassSolver       = (*System)(nil)
	_ dae.LoopJacobian           = (*System)(nil)
	_ dae.ConstraintForcer       = (*System)(nil)
	_ dae.MassMultiplier         = (*System)(nil)
	_ dae.ForwardDynamicsSolver  = (*System)(nil)
	_ dae.StiffMassSolver        = (*System)(nil)
	_ dae.DirectionalDerivatives = (*System)(nil)
	_ dae.Energy                 = (*System)(nil)
	_ dae.EnergyInvariant        = (*System)(nil)
	_ dae.Namer                  = (*System)(nil)

	_ dae.MassDerivative            = (*System)(nil)
	_ dae.ForceDerivative           = (*System)(nil)
	_ dae.ConstraintForceDerivative = (*System)(nil)
)

// System checks the model and returns its dae.System.
func (m *Model) System() (*System, error) {
	if m.err != nil {
		return nil, m.err
	}
	if len(m.prims) == 0 {
		return nil, fmt.Errorf("joint: model has no joints")
	}
	if err := m.planarElements(); err != nil {
		return nil, err
	}
	if err := m.checkFlex(); err != nil {
		return nil, err
	}
	n := len(m.prims)
	s := &System{m: m, w: newCachedFrames(n), d: newIDWork(n), tau: make([]float64, n), motion: newMotionCache(n), fac: [2]abaFactor{newABAFactor(n), newABAFactor(n)},
		el: newElementWork(n)}
	s.w.groups = m.jointGroups()
	s.w.sole = m.soleJoints(s.w.groups)
	for _, c := range m.cuts {
		for k := range c.dirs {
			s.names = append(s.names, fmt.Sprintf("%s[%d]", c.name, k))
		}
	}
	s.names = m.slideNames(s.names)
	axisRows := map[string]int{} // a cut joint's orientation rows are numbered on over its CutAxes calls
	for _, c := range m.axes {
		for range c.ub {
			s.names = append(s.names, fmt.Sprintf("%s.axis[%d]", c.name, axisRows[c.name]))
			axisRows[c.name]++
		}
	}
	s.names = m.camNames(s.names)
	s.names = m.diskNames(s.names)
	s.nt = n
	s.nq, _ = s.numberFlex(n, len(s.names))
	for _, d := range m.drives {
		s.names = append(s.names, d.name)
	}
	s.nc = len(s.names)
	return s, nil
}

// Coordinate returns the index of the coordinate named name (a joint name, or for
// composite joints name.z, name.x, name.y, name.1, name.2, name.tx, …), or −1.
func (m *Model) Coordinate(name string) int {
	for i, p := range m.prims {
		if p.name == name {
			return i
		}
	}
	return -1
}

// Size returns the number of joint coordinates and of cut-joint and drive equations.
func (s *System) Size() (nq, nc int) { return s.nq, s.nc }

// Mass writes the joint-space mass matrix by the composite-rigid-body algorithm.
func (s *System) Mass(dst *mat.Dense, t float64, q []float64) {
	n := len(s.m.prims)
	if s.mass == nil { // sized at the first call: the O(N) paths (MassSolve) never need n²
		s.mass = make([]float64, n*n)
	}
	s.m.kinematics(s.w, q, nil)
	s.m.compositeMass(s.w, s.mass)
	for i := 0; i < n; i++ {
		copy(dst.RawRowView(i), s.mass[i*n:(i+1)*n])
	}
	if len(s.flex) > 0 {
		s.clearFlex(dst)
		s.flexMass(dst, q)
	}
}

// Force writes f = τ_springs + Jᵀ W − b(q, v): joint springs and dampers and the force
// elements' wrenches (forces.go) minus the velocity-product and gravity terms of the
// recursive Newton-Euler algorithm (q” = 0).
func (s *System) Force(dst []float64, t float64, q, v []float64) {
	s.m.kinematics(s.w, q, v)
	s.m.inverseDynamics(s.w, dst, nil, true)
	for i := range s.m.prims {
		dst[i] = s.m.prims[i].jointForce(q[i], v[i]) - dst[i]
	}
	s.addElementForces(dst, t)
	s.flexForce(dst, q, v)
}

// MassSolve writes x = M(q)⁻¹ b by the articulated-body recursion at zero velocity and
// without gravity: O(N), M never formed (seed 002 Table 1).
func (s *System) MassSolve(x []float64, t float64, q, b []float64) {
	s.massSolve(x, q, b, nil, nil, 0)
	s.flexSolve(x, q, b)
}

// HeldCoordinate returns the coordinate a drive row holds (G's row e_iᵀ: the joint drives
// and friction's hold rows), or −1 for the cut joints' rows (dae.LockedMassSolver).
func (s *System) HeldCoordinate(k int) int {
	if d := k - (s.nc - len(s.m.drives)); d >= 0 && d < len(s.m.drives) {
		return s.m.drives[d].coord
	}
	return -1
}

// LockedMassSolve solves M(q) x = b with the tree coordinates where locked[i] prescribed
// (dae.LockedMassSolver): the articulated-body recursion at zero velocity and without
// gravity in which a locked joint passes its whole articulated inertia to its parent, and
// returns the force (M x)_i that holds it. O(N), M never formed.
func (s *System) LockedMassSolve(x []float64, t float64, q, b []float64, locked []bool) {
	s.massSolve(x, q, b, locked, nil, 0)
	s.flexSolve(x, q, b)
}

// MassMul writes dst = M(q) x by the recursive Newton-Euler algorithm with x as the joint
// accelerations, at zero velocity and without gravity: O(N), M never formed.
func (s *System) MassMul(dst []float64, t float64, q, x []float64) {
	s.m.kinematics(s.w, q, nil)
	s.m.inverseDynamics(s.w, dst, x, false)
	s.flexMul(dst, q, x)
}

// Accelerations writes the unconstrained accelerations a = M⁻¹ f(t, q, v) of the tree (cut
// joints and drives ignored) by one articulated-body pass.
func (s *System) Accelerations(a []float64, t float64, q, v []float64) {
	s.m.kinematics(s.w, q, v)
	for i := range s.m.prims {
		s.tau[i] = s.m.prims[i].jointForce(q[i], v[i])
	}
	s.addElementForces(s.tau, t)
	s.m.forwardDynamics(s.w, a, s.tau, nil, true)
	if len(s.flex) > 0 {
		s.flexForce(a, q, v)
		s.flexSolve(a, q, a)
	}
}

// ForwardDynamics writes x = M(q)⁻¹ (f(t, q, v) + b) (dae.ForwardDynamicsSolver): the
// tree's by one articulated-body pass with the velocity-product and gravity terms (the
// joint springs' and force elements' loads and b as joint forces), as Accelerations; with
// flexible bodies, Force and MassSolve.
func (s *System) ForwardDynamics(x []float64, t float64, q, v, b []float64) {
	if len(s.flex) > 0 {
		if s.fdw == nil {
			s.fdw = make([]float64, s.nq)
		}
		s.Force(s.fdw, t, q, v)
		for i, bi := range b {
			s.fdw[i] += bi
		}
		s.MassSolve(x, t, q, s.fdw)
		return
	}
	s.m.kinematics(s.w, q, v)
	if s.m.springs {
		for i := range s.m.prims {
			s.tau[i] = s.m.prims[i].jointForce(q[i], v[i]) + b[i]
		}
	} else { // jointForce is ±0: tau = b (up to the sign of a zero)
		copy(s.tau, b[:len(s.m.prims)])
	}
	s.addElementForces(s.tau, t)
	s.m.forwardDynamics(s.w, x, s.tau, nil, true)
}

// Constraint writes the cut-joint closure conditions e·(r_a − r_b), the slide rows
// (R_a e)·(r_b − r_a) (CutSlide), the orientation rows (R_a u_a)·(R_b u_b) (CutAxes), and
// q_j − f(t).
func (s *System) Constraint(dst []float64, t float64, q []float64) {
	s.m.kinematics(s.w, q, nil)
	k := 0
	for _, c := range s.m.cuts {
		ra, _, _ := s.w.point(c.a, c.pa)
		rb, _, _ := s.w.point(c.b, c.pb)
		for _, e := range c.dirs {
			dst[k] = e.dot(ra.sub(rb))
			k++
		}
	}
	k = s.slideConstraint(dst, k)
	k = s.axisConstraint(dst, k)
	k = s.camConstraint(dst, k)
	s.diskConstraint(dst, k)
	s.flexConstraint(dst, q)
	k = s.nc - len(s.m.drives)
	for _, d := range s.m.drives {
		dst[k] = q[d.coord] - d.f(t)
		k++
	}
}

// ConstraintJacobian writes G: a cut joint's row holds, for each joint on the paths from
// the root to its two frames, the velocity its axis gives the point, e·(s_lin + s_ang × r).
func (s *System) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	s.LoopConstraintJacobian(dst, t, q)
	k := s.nc - len(s.m.drives)
	for _, d := range s.m.drives {
		dst.Set(k, d.coord, 1)
		k++
	}
}

// LoopConstraintJacobian writes the rows of G that no drive holds (the cut joints',
// cams', disks' and flexible cuts' rows, which come before the drives' rows) into dst,
// nc − len(drives) rows or more (dae.LoopJacobian): O(rows·N), the drives' unit rows left
// out.
func (s *System) LoopConstraintJacobian(dst *mat.Dense, _ float64, q []float64) {
	s.m.kinematics(s.w, q, nil)
	dst.Zero()
	k := 0
	for _, c := range s.m.cuts {
		ra, _, _ := s.w.point(c.a, c.pa)
		rb, _, _ := s.w.point(c.b, c.pb)
		for _, e := range c.dirs {
			row := dst.RawRowView(k)
			s.pathRow(row, c.a, ra, e, 1)
			s.pathRow(row, c.b, rb, e, -1)
			k++
		}
	}
	k = s.slideJacobian(dst, k)
	k = s.axisJacobian(dst, k)
	k = s.camJacobian(dst, k)
	s.diskJacobian(dst, k)
	s.flexJacobian(dst, q)
}

func (s *System) pathRow(row []float64, f int, r, e vec3, sign float64) {
	for j := f; j != Ground; j = s.m.prims[j].parent {
		sj := s.w.s[j]
		row[j] += sign * e.dot(sj.lin().add(sj.ang().cross(r)))
	}
}

// ConstraintTimeDerivative writes g_t: −f'(t) for drives, zero for cut joints.
func (s *System) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	for i := range dst {
		dst[i] = 0
	}
	k := s.nc - len(s.m.drives)
	for _, d := range s.m.drives {
		dst[k] = -d.f1(t)
		k++
	}
}

// Gamma writes γ = −(G v)_q v − g_tt: minus the relative acceleration of the cut joint's
// points with q” = 0 (the velocity-product accelerations of the forward recursion), and
// f”(t) for drives.
func (s *System) Gamma(dst []float64, t float64, q, v []float64) {
	s.m.kinematics(s.w, q, v)
	s.velocityProductAccelerations()
	k := 0
	for _, c := range s.m.cuts {
		_, _, aa := s.w.point(c.a, c.pa)
		_, _, ab := s.w.point(c.b, c.pb)
		for _, e := range c.dirs {
			dst[k] = -e.dot(aa.sub(ab))
			k++
		}
	}
	k = s.slideGamma(dst, k)
	k = s.axisGamma(dst, k)
	k = s.camGamma(dst, k)
	s.diskGamma(dst, k, false)
	s.flexGamma(dst, q, v)
	k = s.nc - len(s.m.drives)
	for _, d := range s.m.drives {
		dst[k] = d.f2(t)
		k++
	}
}

// Energy returns T = ½ Σ Vᵢᵀ Iᵢ Vᵢ and V = −Σ mᵢ g·cᵢ + ½ Σ k (q − q0)² + the force
// elements' spring potentials.
func (s *System) Energy(t float64, q, v []float64) (kinetic, potential float64) {
	s.m.kinematics(s.w, q, v)
	g := vec3(s.m.Gravity)
	for i := range s.m.prims {
		p := &s.m.prims[i]
		spring := 0.5 * p.k * (q[i] - p.q0) * (q[i] - p.q0)
		if p.bare { // no mass, no inertia: its terms are zeros, which change no sum
			potential += spring
			continue
		}
		kinetic += 0.5 * s.w.V[i].dot(s.w.I[i].mulv(s.w.V[i]))
		c := s.w.x[i].add(s.w.R[i].mulv(p.body.COM))
		potential += -p.body.Mass*g.dot(c) + spring
	}
	fk, fp := s.flexEnergy(q, v)
	return kinetic + fk, potential + fp + s.elementEnergy()
}

// NonConservativePower returns P_nc = −Σ d q'², the power of the joint dampers, plus the
// force elements' dampers, actuators, springs without potential and loads.
func (s *System) NonConservativePower(t float64, q, v []float64) float64 {
	var p float64
	if len(s.m.sds)+len(s.m.loads) > 0 { // the elements' power reads the frames' motion
		s.m.kinematics(s.w, q, v)
		p = s.elementPower(t)
	}
	for i := range s.m.prims {
		p -= s.m.prims[i].d * v[i] * v[i]
	}
	return p
}

// Conservative reports whether NonConservativePower, DrivingPower and ReactionPower are
// zero at every state: no joint damper (d = 0 on every coordinate), no drive, no friction,
// no point force or torque, and every spring-damper element a spring with a potential and
// nothing else (assembly.Conservative). Keep it in step with them when a force element or
// constraint with power is added.
func (s *System) Conservative() bool {
	for i := range s.m.prims {
		if s.m.prims[i].d != 0 {
			return false
		}
	}
	for i := range s.m.sds {
		if !s.m.sds[i].law.Conservative() {
			return false
		}
	}
	return len(s.m.drives) == 0 && len(s.m.loads) == 0 && len(s.m.frictions) == 0
}

// DrivingPower returns P_driving = Σ λ_r g_t,r over the drives (cut joints are scleronomic).
func (s *System) DrivingPower(t float64, q, lambda []float64) float64 {
	var p float64
	k := s.nc - len(s.m.drives)
	for _, d := range s.m.drives {
		p -= lambda[k] * d.f1(t)
		k++
	}
	return p
}

// Position returns the world position of point p of frame f at q.
func (s *System) Position(q []float64, f int, p [3]float64) [3]float64 {
	s.m.kinematics(s.w, q, nil)
	r, _, _ := s.w.point(f, p)
	return r
}

// CoordinateName names coordinate i after its joint.
func (s *System) CoordinateName(i int) string {
	if i >= s.nt {
		return s.coordNames[i-s.nt]
	}
	return s.m.prims[i].name
}

// ConstraintName names constraint i after its cut joint (with the direction index) or drive.
func (s *System) ConstraintName(i int) string { return s.names[i] }

// FrameMotion is the motion of a point fixed in a frame: its world position, velocity and
// acceleration, and the frame's orientation, angular velocity and angular acceleration.
type FrameMotion struct {
	R             [3][3]float64
	Omega, Alpha  [3]float64
	Pos, Vel, Acc [3]float64
}

// FrameMotion returns the motion of point p of frame f at (q, v, a) by the forward
// recursion of seed 002 (eqs. 46-50) with A_i = A_parent + s_i q”_i + V_i × s_i q'_i;
// a nil a reads as zero accelerations. Frame Ground is the world frame at rest.
// An output sample reads many frames at one state, so the O(N) recursion runs once per
// (q, v, a) in work arrays of its own (motionCache) and each further read costs O(1) and
// the comparison of the state.
func (s *System) FrameMotion(q, v, a []float64, f int, p [3]float64) FrameMotion {
	if f == Ground {
		return FrameMotion{R: identity3(), Pos: p}
	}
	c := &s.motion
	if v == nil && a == nil { // positions only: no velocity recursion
		if !c.w.valid || !equal(q, c.w.qpos) {
			if !c.w.positionsFrom(s.w, q) {
				s.m.positions(c.w, q)
				copy(c.w.qpos, q)
			}
			c.w.valid, c.moving = true, false
			c.gen++
		}
		w := c.w
		return FrameMotion{R: w.R[f], Pos: w.x[f].add(w.R[f].mulv(p))}
	}
	s.Motion(q, v, a)
	return c.read(f, p)
}

// Motion makes FrameMotion's work arrays hold the motion at (q, v, a) (nil: zero), by one
// O(N) recursion unless they already do, and returns the generation of the motion held:
// MotionOf reads its frames at O(1), with no comparison of the state, until FrameMotion or
// Motion computes another. An output sample reads every frame at one state this way.
func (s *System) Motion(q, v, a []float64) uint64 {
	c := &s.motion
	if !c.holds(q, v, a) {
		if !c.w.valid || !equal(q, c.w.qpos) {
			c.w.positionsFrom(s.w, q)
		}
		s.m.kinematics(c.w, q, v)
		for i := range s.m.prims {
			A := c.w.c[i]
			if a != nil {
				A = A.add(c.w.s[i].scale(a[i]))
			}
			if par := s.m.prims[i].parent; par != Ground {
				A = A.add(c.w.A[par])
			}
			c.w.A[i] = A
		}
		c.keep(v, a)
		c.gen++
	}
	return c.gen
}

// MotionOf returns FrameMotion of point p of frame f in the motion of generation gen
// (Motion), and false if the work arrays hold another motion by now.
func (s *System) MotionOf(gen uint64, f int, p [3]float64) (FrameMotion, bool) {
	if gen != s.motion.gen || !s.motion.moving {
		return FrameMotion{}, false
	}
	if f == Ground {
		return FrameMotion{R: identity3(), Pos: p}, true
	}
	return s.motion.read(f, p), true
}

// read is FrameMotion of point p of frame f from the motion held.
func (c *motionCache) read(f int, p [3]float64) FrameMotion {
	r, vel, acc := c.w.point(f, p)
	return FrameMotion{R: c.w.R[f], Omega: c.w.V[f].ang(), Alpha: c.w.A[f].ang(), Pos: r, Vel: vel, Acc: acc}
}

// motionCache is FrameMotion's kinematics and the velocities and accelerations it was
// computed at (positions: w.qpos); moving is false until it holds a velocity recursion;
// gen counts the recursions (Motion, MotionOf).
type motionCache struct {
	gen        uint64
	w          *frames
	v, a       []float64
	hasV, hasA bool
	moving     bool
}

func newMotionCache(n int) motionCache {
	return motionCache{w: newFrames(n), v: make([]float64, n), a: make([]float64, n)}
}

// holds reports whether the cache holds the motion at (q, v, a).
func (c *motionCache) holds(q, v, a []float64) bool {
	same := func(x, kept []float64, has bool) bool {
		if x == nil {
			return !has
		}
		return has && equal(x, kept)
	}
	return c.moving && c.w.valid && equal(q, c.w.qpos) && same(v, c.v, c.hasV) && same(a, c.a, c.hasA)
}

// keep records the v and a of the motion just computed.
func (c *motionCache) keep(v, a []float64) {
	c.hasV, c.hasA, c.moving = v != nil, a != nil, true
	if v != nil {
		copy(c.v, v)
	}
	if a != nil {
		copy(c.a, a)
	}
}
