package modelfile

import (
	"math"
	"math/rand/v2"
	"testing"

	"linkage/integrate"
	"linkage/joint"
	"linkage/spatial"
)

// TestJointPathsFollowQ: the path caches give, frame by frame on a branched tree, the
// angle and Euler parameters of the direct walk from the frame to the root (to rounding),
// sample after sample with q rewritten in place.
func TestJointPathsFollowQ(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	parent := []int{joint.Ground, 0, 1, 1, joint.Ground, 4, 3}
	turns := []bool{true, false, true, true, true, true, false}
	axis := make([]vec3, len(parent))
	for j := range axis {
		if turns[j] {
			a := vec3{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5}
			n := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2])
			axis[j] = vec3{a[0] / n, a[1] / n, a[2] / n}
		}
	}
	angles, quats := newAnglePaths(parent, turns), newQuatPaths(parent, axis)
	q := make([]float64, len(parent))
	c := &sample{s: &integrate.State{Q: q}}
	for range 3 {
		c.seq++
		for j := range q {
			q[j] = 4 * (rng.Float64() - 0.5)
		}
		for f := range parent {
			var th float64
			p := spatial.Identity()
			for j := f; j != joint.Ground; j = parent[j] {
				if turns[j] {
					th += q[j]
					p = spatial.QuatFromAxisAngle(spatial.Vec3(axis[j]), q[j]).Mul(p)
				}
			}
			if got := angles.at(f, c); math.Abs(got-th) > 1e-14 {
				t.Errorf("frame %d: angle %.17g, path sum %.17g", f, got, th)
			}
			got := quats.at(f, c)
			for k := range got {
				if math.Abs(got[k]-p[k]) > 1e-14 {
					t.Errorf("frame %d: Euler parameters %v, path product %v", f, got, p)
					break
				}
			}
		}
	}
	if angles.at(joint.Ground, c) != 0 || quats.at(joint.Ground, c) != spatial.Identity() {
		t.Error("the ground frame is not at rest")
	}
}
