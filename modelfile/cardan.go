package modelfile

import (
	"fmt"
	"math"

	"linkage/integrate"
)

// cardanNear is how close to ±90° (degrees) a middle Cardan angle must be at the last
// accepted state of a failed run for the failure to be put down to the Cardan singularity:
// runs that only pass near it succeed (the fast heavy top passes within 0.8° at tol 1e-8,
// the swinging rod of TestJoint3NearCardanSingularity within 2.2°), and the failures
// measured on it stop within 0.1° (TestJoint3CardanSingularityNamed).
const cardanNear = 1.0

// cardanJoint is a spherical tree joint (or a free body's rotation) of the 3D joint
// route: what it is, by name, and the index of its middle Cardan angle among the joint coordinates.
type cardanJoint struct {
	what string // `joint "ball"`, `free body "rod"`
	mid  int
}

// cardanError returns err with the Cardan singularity named when the run failed with a
// joint's middle angle within cardanNear of ±90° at the last accepted state st: the mass
// matrix of the joint route is singular there (package joint), which a failure's own
// message (a non-finite acceleration, a step size collapsing) does not say.
func (jb *Joint3Built) cardanError(file string, st *integrate.State, err error) error {
	if st == nil {
		return err
	}
	worst, gap := -1, cardanNear
	for k, c := range jb.cardan {
		if d := 90 - math.Abs(st.Q[c.mid])*180/math.Pi; math.Abs(d) < gap {
			worst, gap = k, math.Abs(d)
		}
	}
	if worst < 0 {
		return err
	}
	c := jb.cardan[worst]
	return fmt.Errorf("%s: %s: Cardan singularity at t = %.6g s (its middle angle %s = %.4g°, %.2g° from ±90°, "+
		"where the joint route's mass matrix is singular); use the body route (coordinates: body, or rotations: lie-group): %w",
		file, c.what, st.T, jb.System.CoordinateName(c.mid), st.Q[c.mid]*180/math.Pi, gap, err)
}
