package natural

import (
	"math"
	"math/cmplx"
)

// output.go: (q, v, a) ⇒ the body-coordinate view of each rigid element (centre of mass and
// angle, as package planar reports them);  (t, q, v, a, λ) ⇒ joint reactions.

// Pose returns the position of body b's centre of mass and the angle of its frame, from its
// basic points: r_G = C(0)(r_i, r_j) and θ = arg(e) − arg(s_j − s_i), in (−π, π] (package
// planar's θ is not wrapped: compare modulo 2π, or unwrap along a run).
func (s *System) Pose(b BodyID, q []float64) (pos Vec, angle float64) {
	if b == Ground {
		return Vec{}, 0
	}
	bd := &s.bodies[b]
	x := s.frames[b].values(q)
	l := pointMap(0, bd.zc)
	var p [8]float64
	copy(p[:], x[:])
	e := complex(x[2]-x[0], x[3]-x[1])
	th := cmplx.Phase(e / (cplx(bd.sj) - cplx(bd.si)))
	return l.apply(&p), th
}

// Velocity returns the velocity of body b's centre of mass and its angular velocity
// ω = e × e'/|e|².
func (s *System) Velocity(b BodyID, q, v []float64) (vel Vec, omega float64) {
	if b == Ground {
		return Vec{}, 0
	}
	e, ed, _ := s.edge(b, q, v, nil)
	return s.centre(b, v), cross(e, ed) / dot(e, e)
}

// Acceleration returns the acceleration of body b's centre of mass and its angular
// acceleration α = e × e”/|e|² − 2 (e·e')(e × e')/|e|⁴.
func (s *System) Acceleration(b BodyID, q, v, a []float64) (acc Vec, alpha float64) {
	if b == Ground {
		return Vec{}, 0
	}
	e, ed, edd := s.edge(b, q, v, a)
	ee := dot(e, e)
	return s.centre(b, a), cross(e, edd)/ee - 2*dot(e, ed)*cross(e, ed)/(ee*ee)
}

// centre returns C(0) applied to body b's slots of x (a position, velocity or acceleration;
// fixed slots of a velocity or acceleration are zero, so x is read as a rate there).
func (s *System) centre(b BodyID, x []float64) Vec {
	f := &s.frames[b]
	var p [8]float64
	r := f.rates(x)
	copy(p[:], r[:])
	l := pointMap(0, s.bodies[b].zc)
	return l.apply(&p)
}

// edge returns e = r_j − r_i of body b and its first two derivatives (a may be nil).
func (s *System) edge(b BodyID, q, v, a []float64) (e, ed, edd Vec) {
	f := &s.frames[b]
	x, xd := f.values(q), f.rates(v)
	e, ed = Vec{x[2] - x[0], x[3] - x[1]}, Vec{xd[2] - xd[0], xd[3] - xd[1]}
	if a != nil {
		xdd := f.rates(a)
		edd = Vec{xdd[2] - xdd[0], xdd[3] - xdd[1]}
	}
	return e, ed, edd
}

// Wrench is a force and a moment (counter-clockwise) about a stated point.
type Wrench struct {
	Force  Vec
	Torque float64
}

// Reaction is a joint's load on the bodies of its markers I and J (package planar's
// meaning): global axes with the moment about the marker's point, and the same forces in the
// axes of marker I.
type Reaction struct {
	OnI, OnJ           Wrench
	OnILocal, OnJLocal Wrench
}

// Reaction returns the load of joint j at the state (t, q, v, a, λ) (λ of the full system).
// A joint with rows (translational, distance, weld, point-on-line, motion) loads its bodies
// with −Σ λ_r ∇g_r. A revolute joint has no rows: its point is shared, and the load it
// carries is read from the equations of motion of the bodies on one side of it at that point,
//
//	ρ_b = M_b a_b − f_b + Σ_rows λ_r ∇_b g_r,
//
// the force the shared point applies on body b (at a point b holds beyond its two basic
// ones, through its link rows: −λ). When several revolute joints share one point the side is
// the set of bodies the joint separates.
func (s *System) Reaction(j JointID, t float64, q, v, a, lambda []float64) Reaction {
	jd := &s.joints[j-1]
	pr := &s.pairs[jd.pair]
	p := pr.values(q)
	var out Reaction
	if jd.kind == kindRevolute {
		F := s.revoluteForce(jd, t, q, v, a, lambda)
		out.OnJ.Force, out.OnI.Force = F, Vec{-F[0], -F[1]}
	} else {
		var gen [8]float64
		var e coordEval
		for r := jd.first; r < jd.first+jd.nrows; r++ {
			rw := &s.rows[r]
			w, _, _, _, _, _ := rw.Weights(t)
			for k := range rw.N {
				e.eval(rw.Terms[k].Coord, pr, &p, false)
				for c := range 8 {
					gen[c] -= lambda[r] * w[k] * e.grad[c]
				}
			}
		}
		out.OnI = slotWrench(gen[:4], p[:4], pr.rI.apply(&p))
		out.OnJ = slotWrench(gen[4:], p[4:], pr.rJ.apply(&p))
	}
	u := pr.uI.apply(&p)
	back := -math.Atan2(u[1], u[0])
	out.OnILocal = Wrench{Force: rotate(out.OnI.Force, back), Torque: out.OnI.Torque}
	out.OnJLocal = Wrench{Force: rotate(out.OnJ.Force, back), Torque: out.OnJ.Torque}
	return out
}

// slotWrench returns the resultant of the forces f at the two basic points x and their
// moment about point o.
func slotWrench(f, x []float64, o Vec) Wrench {
	var w Wrench
	for k := range 2 {
		F := Vec{f[2*k], f[2*k+1]}
		w.Force[0] += F[0]
		w.Force[1] += F[1]
		w.Torque += cross(Vec{x[2*k] - o[0], x[2*k+1] - o[1]}, F)
	}
	return w
}

// revoluteForce returns the force revolute jd applies on the body of its marker J: the sum
// of the point's forces on the bodies the joint separates from marker I's side (or minus
// that of I's side when J's side holds the ground).
func (s *System) revoluteForce(jd *jointData, t float64, q, v, a, lambda []float64) Vec {
	var buf [16]BodyID // the bodies at one point: on the stack unless more than 16
	side, ground := s.side(jd, jd.bj, buf[:0])
	sign := 1.0
	if ground {
		side, ground = s.side(jd, jd.bi, buf[:0])
		sign = -1
	}
	if ground { // both sides reach the ground: the pin closes a loop, its load is not determined
		return Vec{math.NaN(), math.NaN()}
	}
	var F Vec
	for _, b := range side {
		f := s.pointLoad(b, jd.point, t, q, v, a, lambda)
		F[0] += sign * f[0]
		F[1] += sign * f[1]
	}
	return F
}

// side returns the bodies at jd's point reachable from body start through the other
// revolute joints at that point (appended to seen), and whether the ground is among them.
func (s *System) side(jd *jointData, start BodyID, seen []BodyID) ([]BodyID, bool) {
	seen = append(seen, start)
	for k := 0; k < len(seen); k++ {
		for i := range s.joints {
			o := &s.joints[i]
			if o == jd || o.kind != kindRevolute || o.point != jd.point {
				continue
			}
			for _, pair := range [][2]BodyID{{o.bi, o.bj}, {o.bj, o.bi}} {
				if pair[0] == seen[k] && !containsBody(seen, pair[1]) {
					seen = append(seen, pair[1])
				}
			}
		}
	}
	return seen, containsBody(seen, Ground)
}

func containsBody(list []BodyID, b BodyID) bool {
	for _, x := range list {
		if x == b {
			return true
		}
	}
	return false
}

// pointLoad returns the force point pi applies on body b (see Reaction).
func (s *System) pointLoad(b BodyID, pi int, t float64, q, v, a, lambda []float64) Vec {
	for _, mb := range s.points[pi].members {
		if mb.body != b {
			continue
		}
		if mb.slot < 0 {
			return Vec{-lambda[mb.link], -lambda[mb.link+1]}
		}
		rho := s.bodyResidual(b, t, q, v, a, lambda)
		return Vec{rho[2*mb.slot], rho[2*mb.slot+1]}
	}
	return Vec{}
}

// bodyResidual returns ρ_b = M_b a_b − f_b + Σ_rows λ_r ∇_b g_r over body b's four slots: the
// forces the points it shares apply on it at its basic points.
func (s *System) bodyResidual(b BodyID, t float64, q, v, a, lambda []float64) (rho [4]float64) {
	bd := &s.bodies[b]
	ab := s.frames[b].rates(a)
	g := s.gravityLoad(int(b))
	for r := range 4 {
		for c := range 4 {
			rho[r] += bd.mass[r][c] * ab[c]
		}
		rho[r] -= g[r]
	}
	side := func(pr *pairRef, scale float64, grad []float64) {
		if pr.fa == int(b) {
			for c := range 4 {
				rho[c] += scale * grad[c]
			}
		}
		if pr.fb == int(b) {
			for c := range 4 {
				rho[c] += scale * grad[4+c]
			}
		}
	}
	var e coordEval
	for r := range s.rows {
		pr := &s.pairs[s.rowPair[r]]
		if lambda[r] == 0 || pr.fa != int(b) && pr.fb != int(b) {
			continue
		}
		rw := &s.rows[r]
		p := pr.values(q)
		w, _, _, _, _, _ := rw.Weights(t)
		for k := range rw.N {
			e.eval(rw.Terms[k].Coord, pr, &p, false)
			side(pr, lambda[r]*w[k], e.grad[:])
		}
	}
	var st sdState
	for i := range s.sds {
		sd := &s.sds[i]
		pr := &s.pairs[sd.Pair]
		if pr.fa != int(b) && pr.fb != int(b) {
			continue
		}
		s.evalSD(sd, t, q, v, &st, false)
		side(pr, st.load.Force(), st.e.grad[:])
	}
	for i := range s.pointForces {
		F, pr, _ := s.pointForces[i].load(s, t, q)
		for r := range 2 {
			side(pr, -F[r], pr.rI[r][:])
		}
	}
	for i := range s.torques {
		tq := &s.torques[i]
		if tq.body != b {
			continue
		}
		sc, re := s.torqueLoad(tq, t, q)
		rho[0] += sc * re[0]
		rho[1] += sc * re[1]
		rho[2] -= sc * re[0]
		rho[3] -= sc * re[1]
	}
	return rho
}
