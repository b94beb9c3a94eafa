package iftomm

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"math"
	"strconv"
	"strings"
)

//go:embed data/*.txt
var data embed.FS

// Reference is the time history of one point: P[k] is its position at T[k].
type Reference struct {
	Source string // where the numbers come from, for the report
	T      []float64
	P      [][]float64
}

// libraryReference reads data/NAME: the library's reference solution, rows "t x y" after
// '#' comment lines (whose first gives the provenance).
func libraryReference(name string) (*Reference, error) {
	raw, err := data.ReadFile("data/" + name)
	if err != nil {
		return nil, err
	}
	ref := &Reference{Source: "library reference " + name}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("iftomm: %s:%d: %d columns; want t, x, y", name, line, len(f))
		}
		var v [3]float64
		for i, s := range f {
			if v[i], err = strconv.ParseFloat(s, 64); err != nil {
				return nil, fmt.Errorf("iftomm: %s:%d: %v", name, line, err)
			}
		}
		ref.T = append(ref.T, v[0])
		ref.P = append(ref.P, []float64{v[1], v[2]})
	}
	return ref, nil
}

// FourBarB0 is a reference for the point B0 of the N four-bar (A02) of any N, from its
// one-degree-of-freedom motion: on the physical branch every crank keeps the angle θ of
// the first and every coupler translates, so T = ½ θ'² m L² ((N+1)/3 + N) and
// V = m g L sin θ ((N+1)/2 + N), whence
//
//	θ'' = −(g/L) κ cos θ,  κ = ((N+1)/2 + N) / ((N+1)/3 + N),  θ(0) = π/2, θ'(0) = −v0/L,
//
// and B0 = L (cos θ, sin θ). It is integrated by the classical Runge-Kutta method with
// 2000 steps per output interval dt (h ≤ 2.5e-5 s for dt = 0.05: a global error far
// below 1e-9 m) and sampled at k·dt up to tEnd. For N = 40 it agrees with the library's
// ADAMS reference within 4.1e-6 m over 20 s (TestFourBarB0MatchesLibrary): the data's six
// digits.
func FourBarB0(n int, l, g, v0, tEnd, dt float64) *Reference {
	kappa := (float64(n+1)/2 + float64(n)) / (float64(n+1)/3 + float64(n))
	acc := func(th float64) float64 { return -g / l * kappa * math.Cos(th) }
	const sub = 2000
	h := dt / sub
	th, w := math.Pi/2, -v0/l
	ref := &Reference{Source: fmt.Sprintf("one-degree-of-freedom equation of the N = %d four-bar (FourBarB0)", n)}
	steps := int(math.Round(tEnd / dt))
	for k := 0; ; k++ {
		ref.T = append(ref.T, float64(k)*dt)
		ref.P = append(ref.P, []float64{l * math.Cos(th), l * math.Sin(th)})
		if k == steps {
			return ref
		}
		for range sub { // θ' = w, w' = acc(θ)
			k1t, k1w := w, acc(th)
			k2t, k2w := w+h/2*k1w, acc(th+h/2*k1t)
			k3t, k3w := w+h/2*k2w, acc(th+h/2*k2t)
			k4t, k4w := w+h*k3w, acc(th+h*k3t)
			th += h / 6 * (k1t + 2*k2t + 2*k3t + k4t)
			w += h / 6 * (k1w + 2*k2w + 2*k3w + k4w)
		}
	}
}

// until returns the part of r up to time tEnd.
func (r *Reference) until(tEnd float64) *Reference {
	n := 0
	for n < len(r.T) && r.T[n] <= tEnd*(1+1e-12) {
		n++
	}
	return &Reference{Source: r.Source, T: r.T[:n], P: r.P[:n]}
}

// maxError is the largest component of the distance between the samples (t, p) of a run
// and r, over the times of r: max_k max_i |p_i(t_k) − r_i(t_k)|, in m, and the time where
// it is reached. The run's output grid must contain r's times (the output step divides
// the reference interval); a time of r the run did not reach is an error.
func (r *Reference) maxError(t []float64, p [][]float64) (worst, at float64, err error) {
	e, err := r.errors(t, p)
	for k, ek := range e {
		if !(ek <= worst) {
			worst, at = ek, r.T[k]
		}
	}
	return worst, at, err
}

// BranchJump is the error, m, above which a run whose error was within Tolerance at the
// reference time before has left the reference's branch of the motion: ten times the
// library's bound reached within one reference interval. A method that keeps to the
// branch drifts in phase far slower (hht at tol 1e-8 on A02, the largest drift measured,
// gains under 2e-4 m per 0.05 s); radau5 index2 at tol 1e-8 jumps from 4.3e-7 m at 1.20 s to
// 5.8e-2 m at 1.25 s, through A02's second singular position (BENCHMARKS.md).
const BranchJump = 10 * Tolerance

// branchLeft returns the interval (from, to] of r's times over which the run's error
// jumped above BranchJump and above ten times its largest value at the reference times
// before (at least Tolerance), the first such, and whether there is one: the run went on
// along another branch of the motion after a singular position. The error of a run that
// keeps to the branch but drifts in phase oscillates with the motion under an envelope
// that grows slowly (small where the compared point turns), so a small sample before a
// large one is no jump: on A01 over 2000 s every core method at tol 1e-6 and 1e-8 had
// one within Tolerance before one above BranchJump, at 32 to 1062 s, long after its error
// had first passed Tolerance.
func (r *Reference) branchLeft(t []float64, p [][]float64) (from, to float64, ok bool) {
	e, _ := r.errors(t, p)
	most := Tolerance
	for k := 1; k < len(e); k++ {
		most = math.Max(most, e[k-1])
		if e[k] > BranchJump && e[k] > 10*most {
			return r.T[k-1], r.T[k], true
		}
	}
	return 0, 0, false
}

// errors returns max_i |p_i(t_k) − r_i(t_k)| at r's times t_k, up to the first time the
// run has no sample at (then with an error).
func (r *Reference) errors(t []float64, p [][]float64) ([]float64, error) {
	var out []float64
	j := 0
	for k, tk := range r.T {
		for j < len(t) && t[j] < tk-1e-9*math.Max(1, tk) {
			j++
		}
		if j == len(t) || math.Abs(t[j]-tk) > 1e-9*math.Max(1, tk) {
			return out, fmt.Errorf("iftomm: the run has no sample at the reference time t = %g", tk)
		}
		e := 0.0
		for i, ri := range r.P[k] {
			if d := math.Abs(p[i][j] - ri); !(d <= e) {
				e = d
			}
		}
		out = append(out, e)
	}
	return out, nil
}
