package modelfile

import (
	"slices"

	"linkage/joint"
	"linkage/spatial"
)

// The output channels of models in joint coordinates read a body's angle (2D) or Euler
// parameters (3D) as a sum or product over the coordinates on its frame's path from the
// root. Read body by body that is O(N·depth) per output sample, O(N²) on a chain; the
// path caches below make one O(N) pass per q (parents precede children) and then answer
// each body in O(1).

// anglePaths holds, at one q, the angle of every planar frame: the sum of the revolute
// coordinates on its path.
type anglePaths struct {
	parent []int
	turns  []bool
	q, th  []float64
	valid  bool
}

func newAnglePaths(parent []int, turns []bool) *anglePaths {
	return &anglePaths{parent: parent, turns: turns, q: make([]float64, len(parent)), th: make([]float64, len(parent))}
}

// at returns the angle of frame f (zero at the ground) at q.
func (p *anglePaths) at(f int, q []float64) float64 {
	if f == joint.Ground {
		return 0
	}
	if !p.valid || !slices.Equal(q, p.q) {
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
		copy(p.q, q)
		p.valid = true
	}
	return p.th[f]
}

// quatPaths holds, at one q, the rotation of every 3D frame as Euler parameters: the
// product of the rotations of the coordinates on its path, root first (seed 002 eq. 46),
// continuous in q.
type quatPaths struct {
	parent []int
	axis   []vec3
	q      []float64
	p      []spatial.Quat
	valid  bool
}

func newQuatPaths(parent []int, axis []vec3) *quatPaths {
	return &quatPaths{parent: parent, axis: axis, q: make([]float64, len(parent)), p: make([]spatial.Quat, len(parent))}
}

// at returns the rotation of frame f (the identity at the ground) at q.
func (p *quatPaths) at(f int, q []float64) spatial.Quat {
	if f == joint.Ground {
		return spatial.Identity()
	}
	if !p.valid || !slices.Equal(q, p.q) {
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
		copy(p.q, q)
		p.valid = true
	}
	return p.p[f]
}
