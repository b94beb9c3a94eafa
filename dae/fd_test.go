package dae_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/dae"
)

// orbitPendulum is a point mass on a rod of length L whose pivot runs on the ellipse
// p(t) = (a sin ωt, b cos ωt), so that g, G and g_t all depend on t (G_t ≠ 0, g_tt ≠ 0).
// With d = q − p:
//
//	g = (d·d − L²)/2,   G = dᵀ,   g_t = −d·p',   γ = −(v − p')·(v − p') + d·p''.
type orbitPendulum struct {
	a, b, omega, L float64
	kin            *dae.KinematicsFD // nil: the hand-derived g_t and γ
}

func (p *orbitPendulum) pivot(t float64) (x, dx, ddx [2]float64) {
	s, c := math.Sincos(p.omega * t)
	w := p.omega
	return [2]float64{p.a * s, p.b * c}, [2]float64{p.a * w * c, -p.b * w * s}, [2]float64{-p.a * w * w * s, -p.b * w * w * c}
}

func (p *orbitPendulum) Size() (int, int) { return 2, 1 }
func (p *orbitPendulum) Mass(dst *mat.Dense, t float64, q []float64) {
	dst.Set(0, 0, 1)
	dst.Set(0, 1, 0)
	dst.Set(1, 0, 0)
	dst.Set(1, 1, 1)
}
func (p *orbitPendulum) Force(dst []float64, t float64, q, v []float64) { dst[0], dst[1] = 0, -9.81 }
func (p *orbitPendulum) Constraint(dst []float64, t float64, q []float64) {
	x, _, _ := p.pivot(t)
	d0, d1 := q[0]-x[0], q[1]-x[1]
	dst[0] = (d0*d0 + d1*d1 - p.L*p.L) / 2
}
func (p *orbitPendulum) ConstraintJacobian(dst *mat.Dense, t float64, q []float64) {
	x, _, _ := p.pivot(t)
	dst.Set(0, 0, q[0]-x[0])
	dst.Set(0, 1, q[1]-x[1])
}
func (p *orbitPendulum) ConstraintTimeDerivative(dst []float64, t float64, q []float64) {
	if p.kin != nil {
		p.kin.TimeDerivative(dst, p, t, q)
		return
	}
	x, dx, _ := p.pivot(t)
	dst[0] = -((q[0]-x[0])*dx[0] + (q[1]-x[1])*dx[1])
}
func (p *orbitPendulum) Gamma(dst []float64, t float64, q, v []float64) {
	if p.kin != nil {
		p.kin.Gamma(dst, p, t, q, v)
		return
	}
	x, dx, ddx := p.pivot(t)
	r0, r1 := v[0]-dx[0], v[1]-dx[1]
	dst[0] = -(r0*r0 + r1*r1) + (q[0]-x[0])*ddx[0] + (q[1]-x[1])*ddx[1]
}

// TestKinematicsFD compares g_t and γ of KinematicsFD with the hand-derived ones of
// orbitPendulum and of toy at several states, both with the hand-derived g_t inside γ and
// with g_t itself by TimeDerivative. Bounds from the error analysis in KinematicsFD's doc:
// measured g_t within 3e-10 (truncation at t = 2.5, where the step grows with |t|; asserted 1e-9),
// γ within 1e-9 (asserted 1e-6, the size a second-order difference would miss),
// relative to max(1, |value|).
func TestKinematicsFD(t *testing.T) {
	kin := dae.NewKinematicsFD(2, 2)
	hand := &orbitPendulum{a: 0.3, b: 0.2, omega: 5, L: 1}
	fd := &orbitPendulum{a: 0.3, b: 0.2, omega: 5, L: 1, kin: dae.NewKinematicsFD(2, 1)}
	var worstGt, worstGamma float64
	gap := func(a, b float64) float64 { return math.Abs(a-b) / math.Max(1, math.Abs(a)) }
	for k, s := range []struct{ t, q0, q1, v0, v1 float64 }{
		{0, 0.5, -0.6, 1, 2}, {0.37, -0.8, 0.3, -3, 0.5}, {2.5, 1.2, -0.1, 0.2, -4}, {-1.1, 0.05, 0.9, 7, 1},
	} {
		q, v := []float64{s.q0, s.q1}, []float64{s.v0, s.v1}
		for _, c := range []struct {
			name    string
			want    dae.System
			withFD  dae.System
			fdGtOwn bool // the FD system's g_t is KinematicsFD's (else its hand-derived one)
		}{
			{"orbit pendulum", hand, fd, true},
			{"toy", toy{}, toy{}, false},
		} {
			_, nc := c.want.Size()
			a, b := make([]float64, nc), make([]float64, nc)
			c.want.ConstraintTimeDerivative(a, s.t, q)
			kin.TimeDerivative(b, c.withFD, s.t, q)
			for i := range nc {
				worstGt = math.Max(worstGt, gap(a[i], b[i]))
			}
			c.want.Gamma(a, s.t, q, v)
			if c.fdGtOwn {
				c.withFD.Gamma(b, s.t, q, v)
			} else {
				kin.Gamma(b, c.withFD, s.t, q, v)
			}
			for i := range nc {
				if g := gap(a[i], b[i]); !(g <= 1e-6) {
					t.Errorf("%s, state %d: γ[%d] hand %.12g, FD %.12g, gap %.2g > 1e-6", c.name, k, i, a[i], b[i], g)
				}
				worstGamma = math.Max(worstGamma, gap(a[i], b[i]))
			}
		}
	}
	t.Logf("worst relative gap: g_t %.2g, γ %.2g", worstGt, worstGamma)
	if !(worstGt <= 1e-9) {
		t.Errorf("g_t: worst relative gap %.2g > 1e-9", worstGt)
	}
	b := make([]float64, 1)
	q, v := []float64{0.5, -0.6}, []float64{1, 2}
	if n := testing.AllocsPerRun(10, func() { fd.Gamma(b, 0.3, q, v) }); n != 0 {
		t.Errorf("KinematicsFD.Gamma allocates %v times per call, want 0", n)
	}
}
