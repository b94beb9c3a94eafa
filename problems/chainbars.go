package problems

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"linkage/dae"
	"linkage/integrate"
	"linkage/linalg"
	"linkage/planar"
	"linkage/spatial"
)

// The chains of issue 15, parameterized by their number of bodies N:
//
//   - "chain-bars:N": N uniform bars (length chainBarL, mass chainBarM, centroidal inertia
//     m L²/12) pinned end to end in the plane, the first to the ground at the origin,
//     released horizontal along +x at rest under gravity 9.81 m/s² along −y; built with
//     package planar (3N coordinates, 2N constraints); examples/chain-bars.yaml is the same
//     model as a file.
//   - "chain3d:N": the same chain in space: N rods (a slender cylinder of radius
//     chainRodR: inertia m r²/2 about the axis, m L²/12 across) on spherical joints, along
//     +x at rest, gravity along −z; built with package spatial (7N coordinates with Euler
//     parameters, 4N constraints: 3 per joint and the normalization of each body).
//
// By symmetry the rods of chain3d stay in the x-z plane without spinning about their axes,
// and then move exactly as the bars of chain-bars (with y of the plane along z), so one
// reference serves both: the chain in absolute bar angles α (an ODE from the Lagrangian,
// independent of the DAE), integrated by RK4 with Richardson extrapolation as for "chain".
// With c_k the centre of bar k, c_k = Σ_{s<k} L u(α_s) + (L/2) u(α_k), u(α) = (cos α, sin α),
//
//	T = (m L²/2) Σ_ij a_ij cos(α_i − α_j) α̇_i α̇_j,   U = m g L Σ_i (N − i − 1/2) sin α_i,
//	a_ij = N − max(i, j) − 1/2 (i ≠ j),   a_ii = N − i − 3/4 + 1/12   (0-based i),
//
// and the Lagrange equations are (as in chainref.go, for any constant symmetric a)
//
//	Σ_j a_ij cos(α_i − α_j) α̈_j = −Σ_j a_ij sin(α_i − α_j) α̇_j² − (g/L)(N − i − 1/2) cos α_i.
//
// The reference costs O(N³) per stage; it is computed when the problem is built for
// N ≤ maxChainRefN and left out above, where `linkage solve` reports the residuals and the
// energy balance only.

// Parameters of the chains (those of examples/chain-bars.yaml and chain3d.yaml).
const (
	chainBarL    = 0.5  // m
	chainBarM    = 1.0  // kg
	chainRodR    = 0.01 // m, the rods' radius in chain3d
	chainBarTEnd = 1.0  // s: the bars fall from horizontal and the chain swings through the vertical
	// chainBarRefSteps is the coarsest RK4 step count of the reference (then 2× and 4×).
	chainBarRefSteps = 4000
)

// Bounds on N. The references cost O(N³) per RK4 stage: 20 ms at N = 3, 0.16 s at N = 10,
// 0.63 s at N = 20 (measured). The chains themselves are set up (assembly, dae.Initialize)
// and stepped with no nq×nq storage (issue 15), so the upper bounds are where a run is
// still practical: `linkage solve chain-bars:10000 --method hht --t-end 0.02` takes 0.6 s
// and 180 MB of memory, chain3d:2000 0.5 s and 160 MB (problems' TestLargeChainMemoryGuard
// keeps the 10 000-bar chain within its memory budget).
const (
	maxChainRefN  = 20
	maxChainBarsN = 10000
	maxChain3DN   = 10000
)

// Sized describes the problems whose name carries their size, which List leaves out, one
// line each: the name pattern, the range of N and what they are.
func Sized() []string {
	return []string{
		fmt.Sprintf("chainN        2 ≤ N ≤ %d: the chain of N point masses (\"chain\" is chain10)", maxChainN),
		fmt.Sprintf("chain-bars:N  1 ≤ N ≤ %d: planar chain of N pinned bars falling from horizontal; reference for N ≤ %d", maxChainBarsN, maxChainRefN),
		fmt.Sprintf("chain3d:N     1 ≤ N ≤ %d: 3D chain of N rods on spherical joints falling from horizontal; reference for N ≤ %d", maxChain3DN, maxChainRefN),
	}
}

// sizedProblem returns the problem "NAME:N" of a parameterized family, or ok = false when
// name is not of that form.
func sizedProblem(name string) (p Problem, ok bool, err error) {
	family, size, found := strings.Cut(name, ":")
	if !found {
		return Problem{}, false, nil
	}
	var maxN int
	var build func(int) (Problem, error)
	switch family {
	case "chain-bars":
		maxN, build = maxChainBarsN, chainBarsProblem
	case "chain3d":
		maxN, build = maxChain3DN, chain3DProblem
	default:
		return Problem{}, true, fmt.Errorf("problems: unknown problem family %q in %q; the sized problems are chain-bars:N (1 ≤ N ≤ %d) and chain3d:N (1 ≤ N ≤ %d)",
			family, name, maxChainBarsN, maxChain3DN)
	}
	n, err := strconv.Atoi(size)
	if err != nil || n < 1 || n > maxN {
		return Problem{}, true, fmt.Errorf("problems: %q: N = %q; want a whole number of bodies in [1, %d], as in \"%s:10\"", name, size, maxN, family)
	}
	p, err = build(n)
	return p, true, err
}

// chainBarsProblem builds "chain-bars:N".
func chainBarsProblem(n int) (Problem, error) {
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	prev := m.AddMarker(planar.Marker{Name: "O", Body: planar.Ground})
	for i := range n {
		b := m.AddBody(planar.Body{Name: fmt.Sprintf("bar%d", i+1), Mass: chainBarM, Inertia: chainBarM * chainBarL * chainBarL / 12,
			Pos: planar.Vec{chainBarL * (float64(i) + 0.5), 0}})
		a := m.AddMarker(planar.Marker{Name: fmt.Sprintf("bar%d.A", i+1), Body: b, Point: planar.Vec{-chainBarL / 2, 0}})
		m.AddRevolute(fmt.Sprintf("pin%d", i+1), prev, a)
		prev = m.AddMarker(planar.Marker{Name: fmt.Sprintf("bar%d.B", i+1), Body: b, Point: planar.Vec{chainBarL / 2, 0}})
	}
	sys, err := m.Assemble()
	if err != nil {
		return Problem{}, fmt.Errorf("problems: chain-bars:%d: %w", n, err)
	}
	name := fmt.Sprintf("chain-bars:%d", n)
	p, err := startAssembled(sys, name)
	if err != nil {
		return Problem{}, err
	}
	p.Title = fmt.Sprintf("planar chain of %d pinned bars falling from horizontal", n)
	p.Source = fmt.Sprintf("issue 15's bar chain (examples/chain-bars.yaml): %d bars L = %g m, m = %g kg, J = m L²/12, pinned end to end, "+
		"the first to the ground, released horizontal at rest under gravity 9.81", n, chainBarL, chainBarM)
	p.Ref = chainBarsReference(n, func(x, y, alpha float64) []float64 { return []float64{x, y, alpha} })
	return p, nil
}

// chain3DProblem builds "chain3d:N".
func chain3DProblem(n int) (Problem, error) {
	m := spatial.NewModel()
	m.SetGravity(spatial.Vec3{0, 0, -9.81})
	prev := m.AddMarker(spatial.Marker{Name: "O", Body: spatial.Ground})
	across := chainBarM * chainBarL * chainBarL / 12
	for i := range n {
		b := m.AddBody(spatial.Body{Name: fmt.Sprintf("rod%d", i+1), Mass: chainBarM,
			Inertia: spatial.Diag(chainBarM*chainRodR*chainRodR/2, across, across),
			Pos:     spatial.Vec3{chainBarL * (float64(i) + 0.5), 0, 0}, Orient: spatial.Identity()})
		a := m.AddMarker(spatial.Marker{Name: fmt.Sprintf("rod%d.A", i+1), Body: b, Point: spatial.Vec3{-chainBarL / 2, 0, 0}})
		m.AddSpherical(fmt.Sprintf("ball%d", i+1), prev, a)
		prev = m.AddMarker(spatial.Marker{Name: fmt.Sprintf("rod%d.B", i+1), Body: b, Point: spatial.Vec3{chainBarL / 2, 0, 0}})
	}
	sys, err := m.Assemble()
	if err != nil {
		return Problem{}, fmt.Errorf("problems: chain3d:%d: %w", n, err)
	}
	name := fmt.Sprintf("chain3d:%d", n)
	p, err := startAssembled(sys, name)
	if err != nil {
		return Problem{}, err
	}
	p.Title = fmt.Sprintf("3D chain of %d rods on spherical joints falling from horizontal", n)
	p.Source = fmt.Sprintf("issue 15's 3D chain (examples/chain3d.yaml at rest), as Exudyn's chain benchmark: %d rods L = %g m, m = %g kg, "+
		"radius %g m, on spherical joints, the first to the ground, released along +x at rest under gravity 9.81 along −z", n, chainBarL, chainBarM, chainRodR)
	// The plane's angle α about −y turns x toward z: p = (cos(α/2), 0, −sin(α/2), 0).
	p.Ref = chainBarsReference(n, func(x, z, alpha float64) []float64 {
		s, c := math.Sincos(alpha / 2)
		return []float64{x, 0, z, c, 0, -s, 0}
	})
	if p.Ref.Q != nil {
		p.Ref.Source = "the planar bar chain's reference in the x-z plane (the rods stay in it by symmetry): " + p.Ref.Source
	}
	return p, nil
}

// startAssembled returns the problem of an assembled chain whose guess is exactly assembled
// and at rest: dae.Initialize keeps it (the first body's first coordinate is kept, so that
// nothing is solved for) and adds a and λ.
func startAssembled(sys interface {
	dae.System
	InitialGuess() (q0, v0 []float64)
}, name string) (Problem, error) {
	q0, v0 := sys.InitialGuess()
	c, err := dae.Initialize(sys, 0, q0, v0, nil)
	if err != nil {
		return Problem{}, fmt.Errorf("problems: %s: %w", name, err)
	}
	return Problem{
		Name: name, System: sys, T0: 0, TEnd: chainBarTEnd,
		Start: integrate.State{T: 0, Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda},
		Tol:   1e-6,
	}, nil
}

// chainBarsReference is the reference at chainBarTEnd for n ≤ maxChainRefN (else a
// Reference without Q that says why): each bar's (x, y, α) of the plane, mapped to the
// body's coordinates by coords. SCD is taken over every coordinate.
func chainBarsReference(n int, coords func(x, y, alpha float64) []float64) Reference {
	if n > maxChainRefN {
		return Reference{T: chainBarTEnd, Source: fmt.Sprintf("none: the reference ODE costs O(N³) per stage and is computed for N ≤ %d only; "+
			"judge a run by its constraint residuals and energy balance", maxChainRefN)}
	}
	rate := func(dst, y []float64) {
		copy(dst[:n], y[n:])
		barChainAccel(dst[n:], y[:n], y[n:])
	}
	y0 := make([]float64, 2*n) // horizontal at rest: α = 0, α̇ = 0
	y1 := rk4(rate, y0, chainBarTEnd, chainBarRefSteps)
	y2 := rk4(rate, y0, chainBarTEnd, 2*chainBarRefSteps)
	y4 := rk4(rate, y0, chainBarTEnd, 4*chainBarRefSteps)
	coarse, fine := barChainQ(richardson(y1, y2)[:n], coords), barChainQ(richardson(y2, y4)[:n], coords)
	var est float64
	for i := range fine {
		est = math.Max(est, math.Abs(fine[i]-coarse[i]))
	}
	return Reference{
		T: chainBarTEnd, Q: fine, SCDIndices: seq(len(fine)),
		Source: fmt.Sprintf("bar chain in absolute angles (ODE from the Lagrangian), classical RK4 with %d and %d steps and Richardson extrapolation; "+
			"estimated error in q %.1e (difference to the extrapolation from %d and %d steps)", 2*chainBarRefSteps, 4*chainBarRefSteps, est,
			chainBarRefSteps, 2*chainBarRefSteps),
	}
}

// barChainQ returns the coordinates of the bars at angles alpha.
func barChainQ(alpha []float64, coords func(x, y, alpha float64) []float64) []float64 {
	var q []float64
	var jx, jy float64 // the joint at the start of bar k
	for _, a := range alpha {
		s, c := math.Sincos(a)
		q = append(q, coords(jx+chainBarL/2*c, jy+chainBarL/2*s, a)...)
		jx += chainBarL * c
		jy += chainBarL * s
	}
	return q
}

// barChainAccel writes α̈ of the bar chain at (α, α̇) (the equations above, divided by
// m L²). It allocates its N×N matrix: the reference is computed once.
func barChainAccel(dd, alpha, dalpha []float64) {
	n := len(alpha)
	const g = 9.81
	a := make([]float64, n*n)
	for i := range n {
		var ci float64
		for j := range n {
			aij := float64(n-max(i, j)) - 0.5
			if i == j {
				aij = float64(n-i) - 0.75 + 1.0/12
			}
			s, c := math.Sincos(alpha[i] - alpha[j])
			a[i*n+j] = aij * c
			ci += aij * s * dalpha[j] * dalpha[j]
		}
		dd[i] = -ci - g/chainBarL*(float64(n-i)-0.5)*math.Cos(alpha[i])
	}
	choleskySolve(a, n, dd)
}

// choleskySolve overwrites b with A⁻¹ b for the symmetric positive definite n×n A
// (row-major), factorizing A = L Lᵀ in place; b becomes NaN when A is not positive definite.
func choleskySolve(a []float64, n int, b []float64) {
	if err := linalg.Cholesky(a, n); err != nil {
		for i := range b {
			b[i] = math.NaN()
		}
		return
	}
	linalg.CholeskySolve(a, n, b)
}
