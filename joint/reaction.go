package joint

import "fmt"

// reaction.go: the reaction wrenches a joint transmits, read at an output sample.
//
// The backward pass of the recursive Newton-Euler algorithm (seed 002 Table 1) sums, over
// the subtree of frame i, the wrench each body needs for its motion, I A + V ×* I V, less
// the loads applied to it: gravity, the force elements' wrenches and the cut rows' −Gᵀλ.
// What is left is the wrench F_i that frame i's parent passes to the subtree through
// joint i: its constraint load and its generalized force s_i·F_i along the axis (a drive's
// λ, a joint spring, friction).

// Wrench is a load in world axes: a force and its moment about the world origin.
type Wrench struct {
	Moment, Force [3]float64
}

// About returns the moment of w about point p: n − p × f.
func (w Wrench) About(p [3]float64) [3]float64 {
	return vec3(w.Moment).sub(vec3(p).cross(w.Force))
}

func wrenchOf(x sv) Wrench { return Wrench{Moment: x.ang(), Force: x.lin()} }

// TransmittedWrenches writes into dst (length nq) the wrench F_i that the parent of frame i
// applies on the subtree of frame i through joint i at (t, q, v, a, λ), λ the multipliers
// of the cut joints' and drives' rows (reaction.go). The recursion is O(N + cut rows) and
// allocates nothing after its first call. It refuses a model with knife edges or rolling
// disks, whose Pfaffian loads it does not sum, or with friction on a cut joint (a load
// that acts on the coordinates, not as a wrench). Friction on tree joints acts inside the
// subtrees (between a joint's parent and child) and needs nothing here.
func (s *System) TransmittedWrenches(dst []Wrench, t float64, q, v, a, lambda []float64) error {
	if len(s.m.knives)+len(s.m.disks) > 0 {
		return fmt.Errorf("joint: transmitted wrenches: the model has knife edges or rolling disks, whose Pfaffian loads are not summed")
	}
	if len(s.m.flexCuts) > 0 {
		return fmt.Errorf("joint: transmitted wrenches: the model has joints on flexible bodies, whose beam-node loads are not summed")
	}
	for _, fr := range s.m.frictions {
		if fr.cut >= 0 {
			return fmt.Errorf("joint: transmitted wrenches: friction %q of a cut joint acts through its rows' reaction, a load not summed", fr.name)
		}
	}
	s.m.kinematics(s.w, q, v)
	s.m.inverseDynamics(s.w, s.tau, a, true) // w.F: the subtree sums of I A + V ×* I V − gravity
	s.m.innerForces(s.w)
	if len(s.m.sds)+len(s.m.loads) > 0 {
		s.frameWrenches(t) // s.el.W: the force elements' wrenches, summed over the subtree
	} else {
		clear(s.el.W)
	}
	W := s.frameCutLoads(lambda)
	for i := len(W) - 1; i >= 0; i-- {
		if p := s.m.prims[i].parent; p != Ground {
			W[p] = W[p].add(W[i])
		}
		dst[i] = wrenchOf(s.w.F[i].sub(s.el.W[i]).sub(W[i]))
	}
	return nil
}

// HasConstraintForce reports whether AddConstraintForce covers every row: not with
// rolling disks, knife edges or joints on flexible bodies, whose loads cutLoads does not
// sum (dae.ConstraintForcer).
func (s *System) HasConstraintForce() bool {
	return len(s.m.knives)+len(s.m.disks)+len(s.m.flexCuts) == 0
}

// AddConstraintForce adds G(q)ᵀλ to dst by one backward pass (dae.ConstraintForcer): the
// cut rows' loads −Gᵀλ (cutLoads) summed over each subtree, W_i, give −s_i·W_i on tree
// coordinate i, and each drive row its λ on its coordinate. O(N + rows), G never formed.
func (s *System) AddConstraintForce(dst []float64, _ float64, q, lambda []float64) {
	s.m.kinematics(s.w, q, nil)
	W := s.frameCutLoads(lambda)
	for i := len(W) - 1; i >= 0; i-- {
		dst[i] -= s.w.s[i].dot(W[i])
		if p := s.m.prims[i].parent; p != Ground {
			W[p] = W[p].add(W[i])
		}
	}
	k := s.nc - len(s.m.drives)
	for _, d := range s.m.drives {
		dst[d.coord] += lambda[k]
		k++
	}
}

// frameCutLoads returns the cut rows' loads −Gᵀλ on each frame (cutLoads, the positions
// in s.w), in s.react.
func (s *System) frameCutLoads(lambda []float64) []sv { return s.cutPointLoads(nil, lambda) }

// AxisLoad returns the part of wrench F (TransmittedWrenches of frame i, whose positions
// it reads: call it after TransmittedWrenches at the same q)
// that joint i's coordinate takes: s_i·F times the wrench that does unit work on a unit
// rate of q_i, a moment about the axis for a revolute, a force along the axis through the
// frame's origin for a prismatic. F less it is the joint's constraint load.
func (s *System) AxisLoad(i int, F Wrench) Wrench {
	si := s.w.s[i]
	tau := si.dot(join(F.Moment, F.Force))
	if s.m.prims[i].prismatic {
		u := si.lin()
		return wrenchOf(join(s.w.x[i].cross(u), u).scale(tau))
	}
	return wrenchOf(join(si.ang(), vec3{}).scale(tau))
}

// CutLoad returns the load −Gᵀλ of cut joint name's rows (Cut, CutSlide, CutAxes, Cam) on
// frame f at (q, λ), and false when name has no such rows.
func (s *System) CutLoad(name string, f int, q, lambda []float64) (Wrench, bool) {
	s.m.kinematics(s.w, q, nil)
	var x sv
	found := false
	s.cutLoads(lambda, func(n string, g int, _ vec3, w sv) {
		if n == name {
			found = true
			if g == f {
				x = x.add(w)
			}
		}
	})
	return wrenchOf(x), found
}

// CamParameter returns the contact parameter u of cam name at q, the follower's polar
// angle from the cam's polar axis (cam.go), and false when there is no such cam.
func (s *System) CamParameter(name string, q []float64) (float64, bool) {
	s.m.kinematics(s.w, q, nil)
	for i := range s.m.cams {
		if s.m.cams[i].name == name {
			return s.camGeometry(&s.m.cams[i]).u, true
		}
	}
	return 0, false
}

// cutLoads calls add with every cut row's load −Gᵀλ on each of its frames (the positions
// in s.w), in the row order of Constraint: a point row e·(r_a − r_b) puts −λe at r_a and
// λe at r_b; a slide row the negatives of slideForceColumn's wrenches, an orientation row
// axisForceColumn's, a cam row camForceColumn's. r is the point the load's force acts at
// (the geometric stiffness levers it there, geomstiff.go); a pure couple has zero force
// and r = 0.
func (s *System) cutLoads(lambda []float64, add func(name string, f int, r vec3, x sv)) {
	k := 0
	point := func(name string, f int, r, force vec3) { add(name, f, r, join(r.cross(force), force)) }
	for _, c := range s.m.cuts {
		ra, _, _ := s.w.point(c.a, c.pa)
		rb, _, _ := s.w.point(c.b, c.pb)
		for _, e := range c.dirs {
			point(c.name, c.a, ra, e.scale(-lambda[k]))
			point(c.name, c.b, rb, e.scale(lambda[k]))
			k++
		}
	}
	for _, c := range s.m.slides {
		rb, _, _ := s.w.point(c.b, c.pb)
		for _, e := range c.dirs {
			u, _, _ := s.w.turned(c.a, e)
			point(c.name, c.b, rb, u.scale(-lambda[k]))
			point(c.name, c.a, rb, u.scale(lambda[k]))
			k++
		}
	}
	for _, c := range s.m.axes {
		u, _, _ := s.w.turned(c.a, c.ua)
		for _, ub := range c.ub {
			w, _, _ := s.w.turned(c.b, ub)
			n := u.cross(w).scale(lambda[k])
			add(c.name, c.a, vec3{}, join(n.scale(-1), vec3{}))
			add(c.name, c.b, vec3{}, join(n, vec3{}))
			k++
		}
	}
	for i := range s.m.cams {
		c := &s.m.cams[i]
		g := s.camGeometry(c)
		ra, _, _ := s.w.point(c.a, c.pa)
		rb, _, _ := s.w.point(c.b, c.pb)
		point(c.name, c.b, rb, g.n.scale(-lambda[k]))
		point(c.name, c.a, ra, g.n.scale(lambda[k]))
		add(c.name, c.a, vec3{}, join(zAxis.scale(-g.r1*lambda[k]), vec3{}))
		k++
	}
}
