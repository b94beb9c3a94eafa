package joint_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"linkage/integrate"
	"linkage/joint"
)

// BenchmarkResidualNoise measures the rounding noise of the joint route's dynamic rows on
// the 3D chain (issue 21 item 4: what sets the increment of the Newton-Krylov difference
// products): by the third and fourth differences of each function along q + kτd (k = 0..4,
// τ = 1e-9, d_i = ±(1 + |q_i|) of fixed pseudo-random signs; Moré and Wild's ECnoise, the
// k-th difference scaled by k!/√(2k)!), RMS over the rows:
//
//	f-rel/ε     noise of f(q, v) (Force) over RMS |f|, in units of ε = 2⁻⁵²
//	Ma-rel/ε    noise of M(q) a (MassMul, a the state's accelerations) over RMS |M a|
//	r-µNm       noise of r = M(q) a − f(q, v), the dynamic rows (µN m), f-Nm RMS |f|
//	acc-x/y/z-n noise of M(q)⁻¹ r (MassSolve: the dynamic rows as the preconditioner
//	            maps them into accelerations), RMS over the joints' x, y, z Cardan rows
//	            (nrad/s²)
//	acc4-n      the same from the fourth difference (all rows): ≈ the third's when the
//	            differences see noise only
//
// from the start (t0=0) and from a dopri5 run's state at t = 0.25 s, with the chain hung
// from the origin or from (x0, 0, 0) (the world-origin moments of the joint loads grow with
// |r|). Run:
//
//	go test -run X -bench ResidualNoise -benchtime 1x ./joint/
func BenchmarkResidualNoise(b *testing.B) {
	for _, c := range []struct {
		n  int
		t0 float64
		p  [3]float64
	}{{10, 0, [3]float64{}}, {10, 0, [3]float64{500, 0, 0}}, {100, 0, [3]float64{}}, {100, 0, [3]float64{500, 0, 0}},
		{100, 0.25, [3]float64{}}, {100, 0.25, [3]float64{450, 0, 0}}, {100, 0.25, [3]float64{0, 450, 0}},
		{100, 0.25, [3]float64{0, 0, 450}}, {1000, 0, [3]float64{}}, {1000, 0.25, [3]float64{}}} {
		b.Run(fmt.Sprintf("N=%d/t0=%g/p=%g,%g,%g", c.n, c.t0, c.p[0], c.p[1], c.p[2]), func(b *testing.B) {
			md, _ := chain3DModelHungAt(c.n, 0.01, c.p)
			sys, s := startedChain(b, md)
			s = stateAt(b, sys, s, c.t0)
			for b.Loop() {
				reportNoise(b, sys, s)
			}
		})
	}
}

// reportNoise reports BenchmarkResidualNoise's metrics for sys at s.
func reportNoise(b *testing.B, sys *joint.System, s integrate.State) {
	n := len(s.Q)
	force := func(dst, q []float64) { sys.Force(dst, 0, q, s.V) }
	massMul := func(dst, q []float64) { sys.MassMul(dst, 0, q, s.A) }
	f := make([]float64, n)
	residual := func(dst, q []float64) {
		sys.MassMul(dst, 0, q, s.A)
		sys.Force(f, 0, q, s.V)
		for i := range dst {
			dst[i] -= f[i]
		}
	}
	r := make([]float64, n)
	acc := func(dst, q []float64) {
		residual(r, q)
		sys.MassSolve(dst, 0, q, r)
	}
	nf, _ := differenceNoise(force, s.Q)
	nm, _ := differenceNoise(massMul, s.Q)
	nr, _ := differenceNoise(residual, s.Q)
	na, na4 := differenceNoise(acc, s.Q)
	force(f, s.Q)
	fm := rms(f)
	massMul(r, s.Q)
	const eps = 0x1p-52
	b.ReportMetric(rms(nf)/fm/eps, "f-rel/ε")
	b.ReportMetric(rms(nm)/rms(r)/eps, "Ma-rel/ε")
	b.ReportMetric(rms(nr)*1e6, "r-µNm")
	b.ReportMetric(fm, "f-Nm")
	for _, axis := range []string{"x", "y", "z"} {
		var part []float64
		for i, x := range na {
			if strings.HasSuffix(sys.CoordinateName(i), "."+axis) {
				part = append(part, x)
			}
		}
		b.ReportMetric(rms(part)*1e9, "acc-"+axis+"-n")
	}
	b.ReportMetric(rms(na4)*1e9, "acc4-n")
}

// differenceNoise returns the noise of fn per row from its third and fourth differences
// along q + kτd (ECnoise's estimate k!|Δᵏ|/√(2k)!, one sample per row).
func differenceNoise(fn func(dst, q []float64), q []float64) (third, fourth []float64) {
	const tau = 1e-9
	n := len(q)
	vals := make([][]float64, 5)
	qk := make([]float64, n)
	for k := range vals {
		for i, x := range q {
			sign := 1.0
			if (uint32(i)*2654435761)>>31 != 0 {
				sign = -1
			}
			qk[i] = x + float64(k)*tau*(1+math.Abs(x))*sign
		}
		vals[k] = make([]float64, n)
		fn(vals[k], qk)
	}
	third, fourth = make([]float64, n), make([]float64, n)
	for i := range n {
		d3 := vals[3][i] - 3*vals[2][i] + 3*vals[1][i] - vals[0][i]
		d4 := vals[4][i] - 4*vals[3][i] + 6*vals[2][i] - 4*vals[1][i] + vals[0][i]
		third[i] = d3 / math.Sqrt(20)
		fourth[i] = d4 / math.Sqrt(70)
	}
	return third, fourth
}

// rms returns the root mean square of x.
func rms(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s / float64(max(len(x), 1)))
}
