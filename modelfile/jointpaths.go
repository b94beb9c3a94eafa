package modelfile

import (
	"linkage/joint"
	"linkage/spatial"
)

// The output channels of models in joint coordinates read a body's angle (2D) or Euler
// parameters (3D) as a sum or product over the coordinates on its frame's path from the
// root, and its position and rates from the forward recursion. Read body by body that is
// O(N·depth) or O(N) per read, O(N²) per output sample on a chain; the readers below make
// one O(N) pass per sample (the recorder numbers them: sample.seq; parents precede
// children) and then answer each body in O(1).

// anglePaths holds, at one q, the angle of every planar frame: the sum of the revolute
// coordinates on its path.
type anglePaths struct {
	parent []int
	turns  []bool
	th     []float64
	seq    int // the sample th was made at
	valid  bool
}

func newAnglePaths(parent []int, turns []bool) *anglePaths {
	return &anglePaths{parent: parent, turns: turns, th: make([]float64, len(parent))}
}

// at returns the angle of frame f (zero at the ground) at sample c.
func (p *anglePaths) at(f int, c *sample) float64 {
	if f == joint.Ground {
		return 0
	}
	if !p.valid || p.seq != c.seq {
		q := c.s.Q
		for j, par := range p.parent {
			var th float64
			if par != joint.Ground {
				th = p.th[par]
			}
			if p.turns[j] {
				th += q[j]
			}
			p.th[j] = th
		}
		p.seq, p.valid = c.seq, true
	}
	return p.th[f]
}

// quatPaths holds, at one q, the rotation of every 3D frame as Euler parameters: the
// product of the rotations of the coordinates on its path, root first (seed 002 eq. 46),
// continuous in q.
type quatPaths struct {
	parent []int
	axis   []vec3
	p      []spatial.Quat
	seq    int // the sample p was made at
	valid  bool
}

func newQuatPaths(parent []int, axis []vec3) *quatPaths {
	return &quatPaths{parent: parent, axis: axis, p: make([]spatial.Quat, len(parent))}
}

// at returns the rotation of frame f (the identity at the ground) at sample c.
func (p *quatPaths) at(f int, c *sample) spatial.Quat {
	if f == joint.Ground {
		return spatial.Identity()
	}
	if !p.valid || p.seq != c.seq {
		q := c.s.Q
		for j, par := range p.parent {
			r := spatial.Identity()
			if par != joint.Ground {
				r = p.p[par]
			}
			if a := p.axis[j]; a != (vec3{}) {
				r = r.Mul(spatial.QuatFromAxisAngle(spatial.Vec3(a), q[j]))
			}
			p.p[j] = r
		}
		p.seq, p.valid = c.seq, true
	}
	return p.p[f]
}

// sampleMotion reads the motion of points of tree frames at a sample: one recursion per
// sample at its (q, v, a) (joint.System.Motion), then O(1) reads (MotionOf), again a
// recursion if something else used the System's motion arrays in between. Positions,
// velocities and rates do not depend on a, so every channel reads the same recursion.
// The last point read is kept: a body's channels x, y, z (vx, …) read the same point in
// a row.
type sampleMotion struct {
	sys    *JointMechanism
	seq    int
	gen    uint64
	primed bool
	last   struct {
		f  int
		p  [3]float64
		fm joint.FrameMotion
		ok bool // f, p and fm are of sample seq
	}
}

// at returns the motion of point p of frame f at sample c.
func (r *sampleMotion) at(c *sample, f int, p [3]float64) joint.FrameMotion {
	if !r.primed || r.seq != c.seq {
		r.gen, r.seq, r.primed = r.sys.Motion(c.s.Q, c.s.V, c.s.A), c.seq, true
		r.last.ok = false
	}
	if l := &r.last; l.ok && l.f == f && l.p == p {
		return l.fm
	}
	fm, ok := r.sys.MotionOf(r.gen, f, p)
	if !ok {
		r.gen = r.sys.Motion(c.s.Q, c.s.V, c.s.A)
		fm, _ = r.sys.MotionOf(r.gen, f, p)
	}
	r.last.f, r.last.p, r.last.fm, r.last.ok = f, p, fm, true
	return fm
}
