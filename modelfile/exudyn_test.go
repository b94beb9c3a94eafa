package modelfile

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exudynChainResult is the value Exudyn's test suite keeps for its 400-body performance
// model (perf3DRigidBodies.py, PerformanceTestsReferenceSolution in its
// TestModels/runPerformanceTests data: 5.307943301446709): the sum of the absolute values
// of the last body's displacement from its start and of its Tait-Bryan angles (R = R_x(a)
// R_y(b) R_z(c)) at t = 1, from Exudyn's generalized-α (ρ∞ = 0.8) at h = 1 ms on Euler
// parameters.
const exudynChainResult = 5.307943301446709

// TestRevoluteChainMatchesExudyn: examples/revolute-chain3d.yaml with N = 400 is Exudyn's
// model: hht at Exudyn's h = 1 ms on the joint route gives its test value to 1e-6
// relative (5.3e-6). Measured (2026-11-27): hht here 5.3079436337, hht at tol 1e-8 (1806
// steps) 5.3079427972, so Exudyn's value is 5.0e-7 and this run 8.4e-7 from the tight one,
// each its method's error at h = 1 ms; the bound is 4 × their sum. A brick 5 % thicker
// (d = 0.105) moves the sum by 1.5e-4, 30 × the bound.
func TestRevoluteChainMatchesExudyn(t *testing.T) {
	src := revoluteChain400(t, "joint")
	b := "b400"
	outputs := `  outputs: ["` + strings.Join([]string{b + ".x", b + ".y", b + ".z", b + ".p0", b + ".p1", b + ".p2", b + ".p3"}, `", "`) + `"]`
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "  outputs:") {
			lines[i] = outputs
		}
	}
	doc, err := Parse("revolute-chain3d.yaml", []byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	built, err := Build(doc)
	if err != nil {
		t.Fatal(err)
	}
	r := runExample(t, built, RunOptions{Method: "hht", H: 1e-3, TEnd: 1})
	at := func(name string, k int) float64 { c := r.Channel(name); return c[(k+len(c))%len(c)] }
	sum := 0.0
	for _, c := range []string{".x", ".y", ".z"} {
		sum += math.Abs(at(b+c, -1) - at(b+c, 0))
	}
	w, x, y, z := at(b+".p0", -1), at(b+".p1", -1), at(b+".p2", -1), at(b+".p3", -1)
	r02, r12, r22 := 2*(x*z+w*y), 2*(y*z-w*x), 1-2*(x*x+y*y) // rotation matrix entries
	r00, r01 := 1-2*(y*y+z*z), 2*(x*y-w*z)
	sum += math.Abs(math.Atan2(-r12, r22)) + math.Abs(math.Asin(r02)) + math.Abs(math.Atan2(-r01, r00))
	if d := math.Abs(sum - exudynChainResult); !(d <= 1e-6*exudynChainResult) {
		t.Errorf("Σ|Δx| + Σ|Tait-Bryan angles| of b400 at t = 1: %.10f, Exudyn %.10f (|Δ| = %.2g, want ≤ 5.3e-6, 1e-6 relative)", sum, exudynChainResult, d)
	}
}

// revoluteChain400 returns examples/revolute-chain3d.yaml as Exudyn's 400-body model:
// N: 400, on the route coordinates (joint or body).
func revoluteChain400(tb testing.TB, coordinates string) string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "examples", "revolute-chain3d.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	src := strings.Replace(string(data), "  N: 20\n", "  N: 400\n", 1)
	return strings.Replace(src, "\ngravity:", "\ncoordinates: "+coordinates+"\ngravity:", 1)
}
