package problems

import (
	"fmt"
	"math"

	"linkage/planar"
)

// StiffChainParams are the parameters of the stiff chain: N uniform bars of length L and
// mass M (centroidal inertia M L²/12), the first pinned to the ground at the origin and each
// further one pinned to the end of the previous, every revolute carrying a rotational
// spring-damper (RSDA) of stiffness K and damping C on the relative angle, free angle 0.
// The bars start horizontal along +x at rest and fall under gravity 9.81 m/s² in −y.
//
// It is the kind of model seed 004 (Negrut et al., section "comparison with BDF") says
// HHT was built for: stiff, lightly damped mechanical components whose eigenvalues lie
// near the imaginary axis and keep a BDF code at low order, in a model large enough that
// the iteration matrix dominates the cost. With the defaults the fastest joint mode is
// about √(K/I) ≈ 2200 rad/s with damping ratio ≈ 0.1, while the chain's slow sag under
// gravity takes about 0.1 s.
type StiffChainParams struct {
	N    int     // number of bars [20]
	L, M float64 // bar length and mass [0.5 m, 1 kg]
	K, C float64 // RSDA stiffness and damping [1e5 N·m/rad, 10 N·m·s/rad]
}

// DefaultStiffChain returns the parameters documented on StiffChainParams.
func DefaultStiffChain() StiffChainParams {
	return StiffChainParams{N: 20, L: 0.5, M: 1, K: 1e5, C: 10}
}

// StiffChainTEnd is the end of the stiff chain's time span, 1 s.
const StiffChainTEnd = 1.0

// StiffChain returns the stiff chain with parameters p (3N coordinates, 2N constraints, N
// degrees of freedom), started consistently from the horizontal pose at rest, without a
// reference (see the registered "stiffchain" for the default parameters' reference). Bad
// parameters give an error naming them.
func StiffChain(p StiffChainParams) (Problem, error) {
	if p.N < 1 {
		return Problem{}, fmt.Errorf("problems: stiffchain: N = %d, want ≥ 1", p.N)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"L", p.L}, {"M", p.M}} {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return Problem{}, fmt.Errorf("problems: stiffchain: %s = %g, want a finite value > 0", f.name, f.v)
		}
	}
	if !(p.K >= 0 && p.C >= 0) || math.IsInf(p.K+p.C, 0) {
		return Problem{}, fmt.Errorf("problems: stiffchain: K = %g, C = %g, want finite values ≥ 0", p.K, p.C)
	}
	m := planar.NewModel()
	m.SetGravity(planar.Vec{0, -9.81})
	prev := m.AddMarker(planar.Marker{Name: "O", Body: planar.Ground})
	for i := range p.N {
		b := m.AddBody(planar.Body{Name: fmt.Sprintf("bar%d", i+1), Mass: p.M, Inertia: p.M * p.L * p.L / 12,
			Pos: planar.Vec{p.L * (float64(i) + 0.5), 0}})
		a := m.AddMarker(planar.Marker{Name: fmt.Sprintf("bar%d.A", i+1), Body: b, Point: planar.Vec{-p.L / 2, 0}})
		j := m.AddRevolute(fmt.Sprintf("pin%d", i+1), prev, a)
		m.AddRSDA(planar.RSDA{Name: fmt.Sprintf("spring%d", i+1), Joint: j, K: p.K, C: p.C})
		prev = m.AddMarker(planar.Marker{Name: fmt.Sprintf("bar%d.B", i+1), Body: b, Point: planar.Vec{p.L / 2, 0}})
	}
	src := fmt.Sprintf("chain of %d bars L = %g m, m = %g kg with RSDAs k = %g N·m/rad, c = %g N·m·s/rad at every pin, "+
		"released horizontal at rest under gravity 9.81 (our model for seed 004's stiff-component regime)", p.N, p.L, p.M, p.K, p.C)
	return haugProblem(m, "stiffchain", "chain of bars with stiff, lightly damped joint springs, falling from horizontal", src,
		StiffChainTEnd, []int{2})
}

// stiffChainRefQ is q at t = 1 of the registered stiff chain (default parameters): radau5
// on the GGL form at RTol = ATol = 1e-11 (1671 steps), which agrees with bdf (GGL) at the
// same tolerance (7524 steps) to 2.6e-12 in every coordinate. Recompute with
//
//	go run ./cmd/linkage solve stiffchain --method radau5 --tol 1e-11 --out ref.csv
//
// (the last row of ref.csv).
var stiffChainRefQ = [...]string{
	"2.4999690688281578e-01", "-1.2436032424899691e-03", "-4.9744334853177238e-03",
	"7.4998296417944355e-01", "-4.8162997378373099e-03", "-9.3165077854916751e-03",
	"1.2499507486220558e+00", "-1.0413806840746701e-02", "-1.3074027854733689e-02",
	"1.7498962006271095e+00", "-1.7755292114975355e-02", "-1.6293006549658821e-02",
	"2.2498178108667619e+00", "-2.6582501164557057e-02", "-1.9017696844813289e-02",
	"2.7497159415046482e+00", "-3.6659006892252544e-02", "-2.1291080949808014e-02",
	"3.2495922602969785e+00", "-4.7769751230953672e-02", "-2.3155574151830817e-02",
	"3.7494492690751833e+00", "-5.9720922947436715e-02", "-2.4653679278136779e-02",
	"4.2492899140269866e+00", "-7.2340091363286396e-02", "-2.5828363349596220e-02",
	"4.7491172710034544e+00", "-8.5476422398407331e-02", "-2.6723012854199858e-02",
	"5.2489343027913300e+00", "-9.9000759013951389e-02", "-2.7380935255674584e-02",
	"5.7487436860538272e+00", "-1.1280535871840511e-01", "-2.7844482655374508e-02",
	"6.2485477038285273e+00", "-1.2680313820471892e-01", "-2.8153952393270579e-02",
	"6.7483481962996690e+00", "-1.4092636055632687e-01", "-2.8346452224955253e-02",
	"7.2481465595062851e+00", "-1.5512479007890356e-01", "-2.8454901621553487e-02",
	"7.7479437798676365e+00", "-1.6936341176641254e-01", "-2.8507285864259133e-02",
	"8.2477404924292301e+00", "-1.8361985207434700e-01", "-2.8526205040220118e-02",
	"8.7475370524267611e+00", "-1.9788164068059746e-01", "-2.8528687759753021e-02",
	"9.2473336125443097e+00", "-2.1214342508068781e-01", "-2.8526188208732005e-02",
	"9.7471302013376473e+00", "-2.2640420452636201e-01", "-2.8524666305927315e-02",
}

// stiffChainProblem is the registered "stiffchain": the default parameters with the stored
// reference, scd over all 60 coordinates.
func stiffChainProblem() Problem {
	p, err := StiffChain(DefaultStiffChain())
	if err != nil {
		panic(err) // the defaults are valid by construction
	}
	p.Ref = Reference{
		T: StiffChainTEnd, Q: mustParse(stiffChainRefQ[:]), SCDIndices: seq(len(stiffChainRefQ)),
		Source: "radau5 (GGL) at tol 1e-11, agreeing with bdf (GGL) at 1e-11 to 2.6e-12",
	}
	return p
}
