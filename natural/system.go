package natural

import (
	"linkage/assembly"
	"linkage/dae"
	"linkage/law"
)

// System is an assembled natural-coordinate model: the equations of motion of seed 002,
// eq. 16, in the coordinates q = (x, y of every basic point that is not fixed), with a
// constant mass matrix and analytic g, G, g_t, γ and derivatives. It is built by
// Model.Assemble and does not change afterwards; its evaluations retain nothing, do not
// allocate and are safe for concurrent use.
type System struct {
	nq, nc            int
	bodies            []bodyData // index 0 is the ground; the frame of body k is frames[k]
	frames            []frame    // bodies, then one per point a body holds beyond its two basic ones
	points            []pointData
	pairs             []pairRef
	rows              []row
	driven            []int // the rows with a motion (assembly.DrivenRows)
	rowPair           []int // the pair of each row (its terms share it)
	joints            []jointData
	sds               []springDamper
	sdRange           map[string][2]int // force element name ⇒ its sds[from:to] (SpringDamperReadings)
	pointForces       []pointForce
	torques           []torqueElem
	gravity           Vec
	assembly.Matrices // M, G and the coupling matrices, dense and sparse
	assembly.Catalog  // names (dae.Namer, Bodies, Joints, Forces)

	pattern     assembly.Pattern
	massPattern [][]int
	coupling    [][]int
}

var (
	_ dae.System                             = (*System)(nil)
	_ dae.ConstantMass                       = (*System)(nil)
	_ dae.MassDerivative                     = (*System)(nil)
	_ dae.ConstraintForceDerivative          = (*System)(nil)
	_ dae.ForceDerivative                    = (*System)(nil)
	_ dae.Namer                              = (*System)(nil)
	_ dae.Sparsity                           = (*System)(nil)
	_ dae.Energy                             = (*System)(nil)
	_ dae.EnergyInvariant                    = (*System)(nil) // seed 001, eqs. 11-12 (energy.go)
	_ dae.SparseEvaluator                    = (*System)(nil)
	_ dae.SparseConstraintJacobianDerivative = (*System)(nil) // second.go
	_ assembly.PowerSource                   = (*System)(nil)
)

// frame is a rigid element's two basic points r_i, r_j (slots 0-1 and 2-3): the columns of
// q, or −1 and the fixed value of a point on the ground.
type frame struct {
	col   [4]int
	fixed [4]float64
}

// values returns the frame's four slot values at q.
func (f *frame) values(q []float64) (p [4]float64) {
	for k, c := range f.col {
		if c >= 0 {
			p[k] = q[c]
		} else {
			p[k] = f.fixed[k]
		}
	}
	return p
}

// rates returns the frame's slot velocities (zero on fixed slots).
func (f *frame) rates(v []float64) (p [4]float64) {
	for k, c := range f.col {
		if c >= 0 {
			p[k] = v[c]
		}
	}
	return p
}

// bodyData is a rigid element: its basic points at si, sj in the body frame (L apart), the
// complex coordinate zc of the centre of mass (pointMap), and its constant 4×4 mass matrix
// over the slots (García de Jalón & Bayo 1994, ch. 3).
type bodyData struct {
	Body
	si, sj Vec
	L      float64
	zc     complex128
	mass   [4][4]float64
	basic  [2]int // the basic points (indices into points)
	rigid  int    // the row |r_j − r_i| = L, −1 for the ground
}

// pointData is a point: its columns (x at col, y at col+1), or fixed on the ground.
type pointData struct {
	name    string
	col     int // −1: fixed
	fixed   Vec
	body    BodyID // the body whose guess places it
	local   Vec    // and its position in that body's frame
	members []member
}

// member is a body holding a point at local position s, as a basic point (slot 0 or 1) or
// through the link rows starting at row link (slot −1).
type member struct {
	body BodyID
	s    Vec
	slot int
	link int
}

// term and row: assembly's row g = Σ W_k c_k − c0 − F(t) over coordinates of a pair.
type (
	term = assembly.Term[coord]
	row  = assembly.Row[coord]
)

type jointData struct {
	name         string
	kind         jointKind
	first, nrows int
	pair         int    // the markers' pair (for a motion, the driven joint's)
	point        int    // revolute: the shared point
	bi, bj       BodyID // revolute: the bodies of markers I and J
	coord        coord  // the joint coordinate of translational and point-on-line joints
	angle        bool   // the joint coordinate is an angle (revolute)
}

type springDamper = assembly.SpringDamper[coord]

type pointForce struct {
	pair   int // (body, body) with the marker on side A
	fx, fy law.Func
	global bool
}

type torqueElem struct {
	body BodyID
	tau  law.Func
}

// Size returns nq (two per point that is not fixed) and nc.
func (s *System) Size() (nq, nc int) { return s.nq, s.nc }

// ConstantMass reports true: in natural coordinates M depends on neither t nor q.
func (s *System) ConstantMass() bool { return true }

// WriteMass writes M = Σ_b E_bᵀ M_b E_b, the elements' constant 4×4 blocks at the columns of
// their basic points (a point shared by several elements sums their blocks).
func (s *System) WriteMass(dst assembly.Target, _ float64, _ []float64) {
	dst.Zero()
	for k := 1; k < len(s.bodies); k++ {
		f := &s.frames[k]
		m := &s.bodies[k].mass
		for a, ca := range f.col {
			if ca < 0 {
				continue
			}
			for b, cb := range f.col {
				if cb >= 0 {
					dst.Add(ca, cb, m[a][b])
				}
			}
		}
	}
}

// WriteMassDerivative writes ∂(M a)/∂q = 0.
func (s *System) WriteMassDerivative(dst assembly.Target, _ float64, _, _ []float64) { dst.Zero() }

// InitialGuess returns new slices with every point placed by the guess of the body that
// holds it first: r = Pos + A(Angle) s, r' = Vel + AngVel·R A(Angle) s.
func (s *System) InitialGuess() (q0, v0 []float64) {
	q0 = make([]float64, s.nq)
	v0 = make([]float64, s.nq)
	for _, p := range s.points {
		if p.col < 0 {
			continue
		}
		b := &s.bodies[p.body].Body
		a := rotate(p.local, b.Angle)
		q0[p.col], q0[p.col+1] = b.Pos[0]+a[0], b.Pos[1]+a[1]
		v0[p.col], v0[p.col+1] = b.Vel[0]-b.AngVel*a[1], b.Vel[1]+b.AngVel*a[0]
	}
	return q0, v0
}

// DOF returns nq − rank(G) at the consistent state c.
func (s *System) DOF(c dae.Consistent) int { return s.nq - (s.nc - len(c.Redundant)) }

// BodyByName returns the identifier of the named body.
func (s *System) BodyByName(name string) (BodyID, bool) {
	k, ok := s.BodyIndex(name)
	return BodyID(k), ok
}

// JointByName returns the identifier of the named joint or motion.
func (s *System) JointByName(name string) (JointID, bool) {
	if k, ok := s.JointIndex(name); ok {
		return JointID(k + 1), true
	}
	return 0, false
}
