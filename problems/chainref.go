package problems

import (
	"fmt"
	"math"
)

// The chain reference is computed by a route independent of the Cartesian DAE: the chain
// written in relative angle coordinates φ (φ₁ the angle of rod 1 from the −y axis, φ_i the
// angle of rod i relative to rod i−1), an ODE, integrated by the classical Runge-Kutta
// method with one Richardson extrapolation.
//
// With absolute angles α = Jφ (J the lower triangular matrix of ones, α_i = Σ_{j≤i} φ_j)
// and mass k at p_k = l Σ_{s≤k} (sin α_s, −cos α_s), the Lagrangian is
//
//	T = (m l²/2) Σ_{i,j} n_ij cos(α_i − α_j) α̇_i α̇_j,   U = −m g l Σ_i n_i cos α_i,
//
// n_ij = N − max(i,j), n_i = N − i (masses at or below rod i, 0-based). Since J is
// constant, the Lagrange equations in φ are Jᵀ times those in α:
//
//	(Jᵀ A J) φ̈ = −Jᵀ (c + ∇U),   A_ij = m l² n_ij cos(α_i − α_j),
//	c_i = m l² Σ_j n_ij sin(α_i − α_j) α̇_j²,   (∇U)_i = m g l n_i sin α_i.

// chainODE evaluates the relative-angle ODE; it owns its workspace.
type chainODE struct {
	c                   Chain
	alpha, dalpha, sinA []float64
	cosA, rhs           []float64
	m                   []float64 // N×N row-major: A, then Jᵀ A J, then its Cholesky factor
}

func newChainODE(c Chain) *chainODE {
	n := c.N
	return &chainODE{
		c: c, alpha: make([]float64, n), dalpha: make([]float64, n), sinA: make([]float64, n),
		cosA: make([]float64, n), rhs: make([]float64, n), m: make([]float64, n*n),
	}
}

// accel writes φ̈ for the state (φ, φ̇) into ddphi.
func (o *chainODE) accel(ddphi, phi, dphi []float64) {
	n := o.c.N
	ml2 := o.c.M * o.c.Length * o.c.Length
	var a, da float64
	for i := range n {
		a += phi[i]
		da += dphi[i]
		o.alpha[i], o.dalpha[i] = a, da
		o.sinA[i], o.cosA[i] = math.Sincos(a)
	}
	// A and the generalized forces c + ∇U in absolute angles.
	for i := range n {
		var ci float64
		for j := range n {
			nij := float64(n - max(i, j))
			// cos(α_i − α_j) and sin(α_i − α_j) by the addition theorems.
			cij := o.cosA[i]*o.cosA[j] + o.sinA[i]*o.sinA[j]
			sij := o.sinA[i]*o.cosA[j] - o.cosA[i]*o.sinA[j]
			o.m[i*n+j] = ml2 * nij * cij
			ci += ml2 * nij * sij * o.dalpha[j] * o.dalpha[j]
		}
		o.rhs[i] = -(ci + o.c.M*o.c.Grav*o.c.Length*float64(n-i)*o.sinA[i])
	}
	// Jᵀ A J and Jᵀ rhs are suffix sums: (Jᵀ A J)_pq = Σ_{i≥p, j≥q} A_ij.
	for i := n - 1; i >= 0; i-- {
		for j := n - 2; j >= 0; j-- {
			o.m[i*n+j] += o.m[i*n+j+1]
		}
	}
	for i := n - 2; i >= 0; i-- {
		for j := range n {
			o.m[i*n+j] += o.m[(i+1)*n+j]
		}
		o.rhs[i] += o.rhs[i+1]
	}
	// Jᵀ A J is symmetric positive definite (kinetic energy).
	copy(ddphi, o.rhs)
	choleskySolve(o.m, n, ddphi)
}

// rk4 integrates y = (φ, φ̇) from y0 over [0, tEnd] with the classical Runge-Kutta method
// in steps equal steps and returns the final y.
func (o *chainODE) rk4(y0 []float64, tEnd float64, steps int) []float64 {
	n := o.c.N
	return rk4(func(dst, y []float64) {
		copy(dst[:n], y[n:])
		o.accel(dst[n:], y[:n], y[n:])
	}, y0, tEnd, steps)
}

// rk4 integrates the autonomous ODE y' = rate(y) from y0 over [0, tEnd] with the classical
// Runge-Kutta method in steps equal steps and returns the final y.
func rk4(rate func(dst, y []float64), y0 []float64, tEnd float64, steps int) []float64 {
	h := tEnd / float64(steps)
	y := append([]float64(nil), y0...)
	var k [4][]float64
	for i := range k {
		k[i] = make([]float64, len(y))
	}
	tmp := make([]float64, len(y))
	// Compensated (Kahan) summation of the increments: over 16000 steps the rounding of
	// y += Δy in O(10) positions would otherwise reach 1e-13, above the truncation error.
	comp := make([]float64, len(y))
	for range steps {
		rate(k[0], y)
		for i := range tmp {
			tmp[i] = y[i] + h/2*k[0][i]
		}
		rate(k[1], tmp)
		for i := range tmp {
			tmp[i] = y[i] + h/2*k[1][i]
		}
		rate(k[2], tmp)
		for i := range tmp {
			tmp[i] = y[i] + h*k[2][i]
		}
		rate(k[3], tmp)
		for i := range y {
			d := h/6*(k[0][i]+2*k[1][i]+2*k[2][i]+k[3][i]) - comp[i]
			s := y[i] + d
			comp[i] = (s - y[i]) - d
			y[i] = s
		}
	}
	return y
}

// richardson returns the extrapolation y_{h/2} + (y_{h/2} − y_h)/(2⁴ − 1) of RK4 results
// at steps h and h/2 (order 4).
func richardson(yh, yh2 []float64) []float64 {
	out := make([]float64, len(yh))
	for i := range out {
		out[i] = yh2[i] + (yh2[i]-yh[i])/15
	}
	return out
}

// cartesian converts the angle state y = (φ, φ̇) to Cartesian q, v, a and λ: positions and
// their derivatives by differentiating p_k = l Σ_{s≤k} (sin α_s, −cos α_s), and the rod
// forces λ from Newton's law for each mass, from the free end up:
//
//	m a_k = f_k − d_k λ_k + d_{k+1} λ_{k+1},   d_k = p_k − p_{k−1}   (seed 002, eqs. 7a-d).
//
// λ_k is the projection on d_k; the residual normal to d_k vanishes only if the angle ODE
// and the DAE describe the same motion, which the tests check.
func (o *chainODE) cartesian(y []float64) (q, v, a, lambda []float64) {
	n := o.c.N
	ddphi := make([]float64, n)
	o.accel(ddphi, y[:n], y[n:]) // also leaves α, α̇, sin α, cos α of y in o
	q, v, a, lambda = make([]float64, 2*n), make([]float64, 2*n), make([]float64, 2*n), make([]float64, n)
	l := o.c.Length
	var x, yy, vx, vy, ax, ay, dda float64
	for s := range n {
		dda += ddphi[s]
		da := o.dalpha[s]
		sn, cs := o.sinA[s], o.cosA[s]
		x += l * sn
		yy -= l * cs
		vx += l * cs * da
		vy += l * sn * da
		ax += l * (cs*dda - sn*da*da)
		ay += l * (sn*dda + cs*da*da)
		q[2*s], q[2*s+1] = x, yy
		v[2*s], v[2*s+1] = vx, vy
		a[2*s], a[2*s+1] = ax, ay
	}
	m, g := o.c.M, o.c.Grav
	for k := n - 1; k >= 0; k-- {
		fx, fy := m*a[2*k], m*a[2*k+1]+m*g // m a_k − f_k
		if k < n-1 {
			dx, dy := rel(q, k+1)
			fx -= dx * lambda[k+1]
			fy -= dy * lambda[k+1]
		}
		dx, dy := rel(q, k)
		lambda[k] = -(fx*dx + fy*dy) / (dx*dx + dy*dy)
	}
	return q, v, a, lambda
}

// reference computes the chain reference at tEnd from the initial angles of chainProblem:
// RK4 at steps, 2·steps and 4·steps, Richardson extrapolation of the two finer runs, and as
// error estimate the largest difference in q and v to the extrapolation of the two coarser
// runs (an upper estimate: it is dominated by the coarser extrapolation's error).
func (c Chain) reference(tEnd float64, steps int) Reference {
	o := newChainODE(c)
	y0 := make([]float64, 2*c.N)
	y0[0] = chainAlpha0
	if c.N > 1 {
		y0[1] = -chainAlpha0 // rod 2 hangs vertically: α₂ = φ₁ + φ₂ = 0
	}
	y1 := o.rk4(y0, tEnd, steps)
	y2 := o.rk4(y0, tEnd, 2*steps)
	y4 := o.rk4(y0, tEnd, 4*steps)
	coarse, fine := richardson(y1, y2), richardson(y2, y4)
	q0, v0, _, _ := o.cartesian(coarse)
	q, v, a, lambda := o.cartesian(fine)
	var est float64
	for i := range q {
		est = math.Max(est, math.Max(math.Abs(q[i]-q0[i]), math.Abs(v[i]-v0[i])))
	}
	return Reference{
		T: tEnd, Q: q, V: v, A: a, Lambda: lambda,
		Source: fmt.Sprintf("chain in relative angle coordinates (ODE from the Lagrangian), classical RK4 with %d and %d steps and Richardson extrapolation, "+
			"converted to Cartesian q, v, a and rod forces λ; estimated error in q, v %.1e (difference to the extrapolation from %d and %d steps)",
			2*steps, 4*steps, est, steps, 2*steps),
	}
}
