package joint

import (
	"fmt"

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
// F = spring(c − c_free) + damper(ċ) + act(t) (law.SpringDamper); a point force or a
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
	law    law.SpringDamper
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
	e.law = law.NewSpringDamper(sd.Free, sd.Spring, sd.Damper, sd.K, sd.C, sd.Actuator)
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
