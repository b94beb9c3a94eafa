package problems

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"linkage/dae"
	"linkage/integrate"
)

// Problem is a benchmark: a dae.System (seed 002, eq. 16) with consistent initial values,
// a time span and a reference solution.
//
// The System of a Problem keeps no scratch: its evaluations are read-only and allocation
// free, so one Problem may be shared by several goroutines.
type Problem struct {
	Name, Title string // registry name ("andrews") and one line
	// Source says where equations, data and reference come from (paper, test set,
	// equation numbers).
	Source string
	System dae.System
	T0     float64
	TEnd   float64
	// Start is consistent at position, velocity and acceleration level: g = 0,
	// G v + g_t = 0 and (a, λ) solve seed 002, eq. 17, at T0.
	Start integrate.State
	Ref   Reference
	Tol   float64 // a sensible default tolerance (RTol = ATol) for `linkage solve`
}

// Reference is the reference solution at T (= TEnd of its Problem).
type Reference struct {
	T               float64
	Q, V, A, Lambda []float64 // nil where not known
	// SCDIndices are the components of Q over which scd is taken (the test-set convention
	// of choosing the physically important components).
	SCDIndices []int
	Source     string // how the reference was obtained and how accurate it is
}

// scdAbsBelow is the size of a reference component below which SCD measures the absolute
// instead of the relative error: the test-set drivers use the absolute error where the
// true value is 0; 1e-10 also covers reference components that are zero up to the
// rounding of the code that computed them.
const scdAbsBelow = 1e-10

// SCD returns the number of significant correct digits of q against r.Q (test-set
// convention):
//
//	scd = −log10 max_{i ∈ SCDIndices} |q_i − ref_i| / |ref_i|,
//
// with the absolute error |q_i − ref_i| for components where |ref_i| < 1e-10. It returns
// +Inf when q agrees exactly and NaN when a compared q_i is NaN. It panics when r has no Q
// or q is too short (misuse).
func (r Reference) SCD(q []float64) float64 {
	if r.Q == nil {
		panic("problems: Reference.SCD: reference has no Q")
	}
	var worst float64
	for _, i := range r.SCDIndices {
		if i >= len(q) {
			panic(fmt.Sprintf("problems: Reference.SCD: len(q) = %d, index %d compared", len(q), i))
		}
		e := math.Abs(q[i] - r.Q[i])
		if math.IsNaN(e) {
			return math.NaN()
		}
		if ref := math.Abs(r.Q[i]); ref >= scdAbsBelow {
			e /= ref
		}
		worst = math.Max(worst, e)
	}
	if worst == 0 {
		return math.Inf(1)
	}
	return -math.Log10(worst)
}

// DefaultChainN is the number of point masses of the problem "chain".
const DefaultChainN = 10

// maxChainN bounds N in "chainN": the reference costs O(N³) per Runge-Kutta stage, 2 s
// at N = 50.
const maxChainN = 50

// names lists the registry in the order of List.
var names = [...]string{"pendulum", "chain", "andrews", "crank", "pipendulum", "heavytop", "heavytop-fast", "stiffchain"}

// List returns all problems with default parameters, in a stable order: pendulum, chain,
// andrews, crank, pipendulum, heavytop, heavytop-fast, stiffchain.
func List() []Problem {
	out := make([]Problem, 0, len(names))
	for _, n := range names {
		p, err := Get(n)
		if err != nil {
			panic(err) // the registry names are valid by construction
		}
		out = append(out, p)
	}
	return out
}

// Get returns the problem called name: one of the names of List, "chainN" for the chain
// of N point masses, 2 ≤ N ≤ 50 ("chain" is "chain10"), "chain-bars:N" for the planar
// chain of N pinned bars (1 ≤ N ≤ 10000) or "chain3d:N" for the 3D chain of N rods on
// spherical joints (1 ≤ N ≤ 10000) (chainbars.go). A chain computes its reference when
// built, which takes 50 ms for N = 10 and 2 s for N = 50 point masses; the bar and rod
// chains have a reference for N ≤ 20 only. The error for an unknown name or a bad N lists
// the valid ones.
func Get(name string) (Problem, error) {
	switch name {
	case "pendulum":
		return pendulumProblem(), nil
	case "chain":
		return chainProblem(DefaultChainN)
	case "andrews":
		return andrewsProblem(), nil
	case "crank":
		return crankProblem(), nil
	case "pipendulum":
		return PIPendulumProblem(), nil
	case "heavytop":
		return heavyTopProblem(), nil
	case "heavytop-fast":
		return fastHeavyTopProblem(), nil
	case "stiffchain":
		return stiffChainProblem(), nil
	}
	if p, ok, err := sizedProblem(name); ok {
		return p, err
	}
	if s, ok := strings.CutPrefix(name, "chain"); ok {
		n, err := strconv.Atoi(s)
		if err != nil || n < 2 || n > maxChainN {
			return Problem{}, fmt.Errorf("problems: %q: chain size must be an integer in [2, %d], as in \"chain10\"", name, maxChainN)
		}
		return chainProblem(n)
	}
	return Problem{}, fmt.Errorf("problems: unknown problem %q; valid names: %s, chainN (2 ≤ N ≤ %d), chain-bars:N (1 ≤ N ≤ %d), chain3d:N (1 ≤ N ≤ %d)",
		name, strings.Join(names[:], ", "), maxChainN, maxChainBarsN, maxChain3DN)
}

// mustParse converts the decimal strings of published data; they are fixed in the source,
// so a failure is a programming error.
func mustParse(s []string) []float64 {
	out := make([]float64, len(s))
	for i, x := range s {
		v, err := strconv.ParseFloat(x, 64)
		if err != nil {
			panic(fmt.Sprintf("problems: bad constant %q: %v", x, err))
		}
		out[i] = v
	}
	return out
}

// seq returns 0, 1, …, n−1.
func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
