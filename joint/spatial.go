package joint

import "math"

// vec3 is a 3-vector and mat3 a 3×3 matrix stored by rows.
type (
	vec3 [3]float64
	mat3 [3][3]float64
	// sv is a spatial vector at the world origin: motion [ω; v_O] or force [n_O; f].
	sv [6]float64
	// inertia6 is a symmetric 6×6 spatial inertia at the world origin (eq. 48 of seed 002
	// in Plücker form): [J_O  m c̃; m c̃ᵀ  m 1].
	inertia6 [6][6]float64
)

func (a vec3) add(b vec3) vec3      { return vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a vec3) sub(b vec3) vec3      { return vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a vec3) scale(s float64) vec3 { return vec3{s * a[0], s * a[1], s * a[2]} }
func (a vec3) dot(b vec3) float64   { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a vec3) cross(b vec3) vec3 {
	return vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func (m mat3) mulv(v vec3) vec3 {
	return vec3{
		m[0][0]*v[0] + m[0][1]*v[1] + m[0][2]*v[2],
		m[1][0]*v[0] + m[1][1]*v[1] + m[1][2]*v[2],
		m[2][0]*v[0] + m[2][1]*v[1] + m[2][2]*v[2],
	}
}

func (m mat3) mul(n mat3) mat3 {
	var r mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = m[i][0]*n[0][j] + m[i][1]*n[1][j] + m[i][2]*n[2][j]
		}
	}
	return r
}

func (m mat3) transpose() mat3 {
	var r mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = m[j][i]
		}
	}
	return r
}

func identity3() mat3 { return mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} }

// axisRotation is Rodrigues' formula: the rotation by angle about the unit vector u.
func axisRotation(u vec3, angle float64) mat3 {
	s, c := math.Sincos(angle)
	k := 1 - c
	return mat3{
		{c + k*u[0]*u[0], k*u[0]*u[1] - s*u[2], k*u[0]*u[2] + s*u[1]},
		{k*u[1]*u[0] + s*u[2], c + k*u[1]*u[1], k*u[1]*u[2] - s*u[0]},
		{k*u[2]*u[0] - s*u[1], k*u[2]*u[1] + s*u[0], c + k*u[2]*u[2]},
	}
}

func (a sv) ang() vec3 { return vec3{a[0], a[1], a[2]} }
func (a sv) lin() vec3 { return vec3{a[3], a[4], a[5]} }

func join(ang, lin vec3) sv { return sv{ang[0], ang[1], ang[2], lin[0], lin[1], lin[2]} }

func (a sv) add(b sv) sv {
	for i := range a {
		a[i] += b[i]
	}
	return a
}

func (a sv) sub(b sv) sv {
	for i := range a {
		a[i] -= b[i]
	}
	return a
}

func (a sv) scale(s float64) sv {
	for i := range a {
		a[i] *= s
	}
	return a
}

func (a sv) dot(b sv) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// crossM is the motion cross product V × m = [ω×m_ω; ω×m_v + v×m_ω], written out by
// components (the hot loop of the velocity recursion).
func crossM(V, m sv) sv {
	return sv{
		V[1]*m[2] - V[2]*m[1],
		V[2]*m[0] - V[0]*m[2],
		V[0]*m[1] - V[1]*m[0],
		(V[1]*m[5] - V[2]*m[4]) + (V[4]*m[2] - V[5]*m[1]),
		(V[2]*m[3] - V[0]*m[5]) + (V[5]*m[0] - V[3]*m[2]),
		(V[0]*m[4] - V[1]*m[3]) + (V[3]*m[1] - V[4]*m[0]),
	}
}

// crossF is the force cross product V ×* f = [ω×n + v×f; ω×f], written out by components.
func crossF(V, f sv) sv {
	return sv{
		(V[1]*f[2] - V[2]*f[1]) + (V[4]*f[5] - V[5]*f[4]),
		(V[2]*f[0] - V[0]*f[2]) + (V[5]*f[3] - V[3]*f[5]),
		(V[0]*f[1] - V[1]*f[0]) + (V[3]*f[4] - V[4]*f[3]),
		V[1]*f[5] - V[2]*f[4],
		V[2]*f[3] - V[0]*f[5],
		V[0]*f[4] - V[1]*f[3],
	}
}

func (I *inertia6) mulv(x sv) sv {
	var r sv
	for i := 0; i < 6; i++ {
		var s float64
		for j := 0; j < 6; j++ {
			s += I[i][j] * x[j]
		}
		r[i] = s
	}
	return r
}

func (I *inertia6) addTo(J *inertia6) {
	for i := range I {
		for j := range I[i] {
			J[i][j] += I[i][j]
		}
	}
}

// rigidInertia is the spatial inertia at the world origin of a body of mass m whose centre
// of mass is at c with central inertia tensor Jc, both in world coordinates.
func rigidInertia(m float64, c vec3, Jc mat3) inertia6 {
	var I inertia6
	// J_O = J_c + m (cᵀc 1 − c cᵀ), the parallel-axis theorem.
	cc := c.dot(c)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			I[i][j] = Jc[i][j] - m*c[i]*c[j]
		}
		I[i][i] += m * cc
		I[i+3][i+3] = m
	}
	// m c̃ in the upper right block, its transpose in the lower left.
	cx := mat3{{0, -c[2], c[1]}, {c[2], 0, -c[0]}, {-c[1], c[0], 0}}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			I[i][j+3] = m * cx[i][j]
			I[j+3][i] = m * cx[i][j]
		}
	}
	return I
}
