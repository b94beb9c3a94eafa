package integrate

import (
	"fmt"
	"math"

	"linkage/dae"
)

// localPeakRatio is the largest weighted component of an accepted step's error estimate
// (in units of tol; the RMS over all components is at most 1) above which a method warns
// that tol did not bound the local error of single components (errorPeak.warnings).
const localPeakRatio = 10

// errorPeak watches the largest weighted component of the accepted steps' error
// estimates over a run, for the methods whose step test bounds the weighted RMS of the
// estimate over n components (hht, genalpha, bdf, radau5): that test lets a single
// component reach √n × tol, and on a long chain the error concentrates in the few joint
// angles at a front travelling along it (BENCHMARKS.md, "hht's tolerance on the joint
// route's long chains"). A method embeds it, calls observe for each component of an
// accepted estimate (error control only) and reports warnings from ControlWarnings. With
// n ≤ localPeakRatio² = 100 components no component can pass the ratio, so small systems
// never warn.
type errorPeak struct {
	peak    float64 // the largest |e_i|/d_i so far (units of tol)
	peakIdx int     // its component
	peakT   float64 // the end of its step
}

// observe records component i of the accepted estimate of the step ending at t, x with
// weight denominator d (the test divides x by d), when it passes the run's peak.
// Compared as |x| > peak·d: one division per new peak, not per component.
func (p *errorPeak) observe(i int, x, d, t float64) {
	if math.Abs(x) > p.peak*d {
		p.peak, p.peakIdx, p.peakT = math.Abs(x)/d, i, t
	}
}

// warnings returns one warning when the peak passed localPeakRatio in a run with error
// control (not fixed), else nil: method names the method, name the peak's component, n
// the number of components the step test's RMS runs over and what says what they are
// ("coordinates"), test where that test is defined.
func (p *errorPeak) warnings(fixed bool, method, name string, n int, what, test string) []string {
	if fixed || !(p.peak > localPeakRatio) {
		return nil
	}
	return []string{fmt.Sprintf("%s: the local error estimate of %s in the step to t = %.6g was %.3g × tol, while its weighted RMS over all %d %s passed the step test: "+
		"tol bounds that RMS (%s), and here the error concentrates in a few coordinates, which may end far less accurate than tol suggests. "+
		"Check against a run at a much tighter tol (--estimate-error)", method, name, p.peakT, p.peak, n, what, test)}
}

// qvName names component i of y = (q, v, …) of a system with nq coordinates: a
// coordinate, or the velocity of one.
func qvName(sys dae.System, nq, i int) string {
	if i < nq {
		return dae.CoordinateName(sys, i)
	}
	return "the velocity of " + dae.CoordinateName(sys, i-nq)
}
