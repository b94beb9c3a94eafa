package modelfile

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"linkage/integrate"
	"linkage/problems"
)

// onGroup returns the example file name (under examples/) with rotations: lie-group and
// method lie-genalpha, parsed and built; or as written when lie is false.
func loadRoute(t *testing.T, name string, lie bool, edit func(string) string) *Built {
	t.Helper()
	path := filepath.Join("..", "examples", name+".yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	if edit != nil {
		src = edit(src)
	}
	if lie {
		src = regexp.MustCompile(`(?m)^dimension: *(\d)`).ReplaceAllString(src, "dimension: $1\nrotations: lie-group")
		src = regexp.MustCompile(`(?m)^  method: .*$`).ReplaceAllString(src, "  method: lie-genalpha")
	}
	return buildText(t, path, src)
}

// TestLieGroupRouteExamples runs every 3D example (the chain with N = 4 rods) on both
// routes to t = 1 against a radau5 reference at tol 1e-10 on the Euler-parameter route:
// the Lie-group route's position error at t = 1 is within twice genalpha's at the same
// tolerance (measured 0.11-0.94 of it at 1e-7) and falls by more than 8× from tol 1e-5 to
// 1e-7 (measured 15-27×, order 2 of both methods), so both routes follow the same motion
// to the integration tolerance. Its quaternions stay unit to rounding on every sample.
func TestLieGroupRouteExamples(t *testing.T) {
	small := func(s string) string { return strings.Replace(s, "N: 20", "N: 4", 1) }
	for _, name := range []string{"spatial-double-pendulum", "spatial-fourbar", "iftomm/a04-bricard", "chain3d"} {
		t.Run(name, func(t *testing.T) {
			ref := runExample(t, loadRoute(t, name, false, small), RunOptions{Method: "radau5", Tol: 1e-10, TEnd: 1}).Solution.Final.Q
			var prev float64
			for _, tol := range []float64{1e-5, 1e-7} {
				ep := runExample(t, loadRoute(t, name, false, small), RunOptions{Method: "genalpha", Tol: tol, TEnd: 1})
				b := loadRoute(t, name, true, small)
				lg := runExample(t, b, RunOptions{Tol: tol, TEnd: 1})
				if lg.Method != DefaultLieMethod {
					t.Fatalf("method %s, want %s", lg.Method, DefaultLieMethod)
				}
				eEP, eLie := qErr(ep.Solution.Final.Q, ref), qErr(lg.Solution.Final.Q, ref)
				t.Logf("tol %g: genalpha error %.3g (%d steps), lie-genalpha %.3g (%d steps)", tol, eEP, ep.Solution.Stats.Steps, eLie, lg.Solution.Stats.Steps)
				if eLie > 2*eEP {
					t.Errorf("tol %g: Lie-group route error %.3g at t = 1, more than twice genalpha's %.3g", tol, eLie, eEP)
				}
				if tol == 1e-7 && !(eLie < prev/8) {
					t.Errorf("Lie-group route error %.3g at tol 1e-7, not 8× below %.3g at 1e-5", eLie, prev)
				}
				prev = eLie
				if d := maxNormError(lg); d > 4e-16 {
					t.Errorf("tol %g: max ||p| − 1| = %.3g over the samples, want rounding", tol, d)
				}
			}
		})
	}
}

// maxNormError returns the largest ||p| − 1| of the bodies' quaternions over r's samples.
func maxNormError(r *Result) float64 {
	var worst float64
	for _, q := range append(r.Solution.Q, r.Solution.Final.Q) {
		for c := 0; c < len(q); c += 7 {
			n := math.Sqrt(q[c+3]*q[c+3] + q[c+4]*q[c+4] + q[c+5]*q[c+5] + q[c+6]*q[c+6])
			worst = math.Max(worst, math.Abs(n-1))
		}
	}
	return worst
}

func qErr(a, b []float64) float64 {
	var d float64
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// TestLieGroupView: the Euler-parameter view of the Lie-group start (lieRoute) is the
// consistent start Build found on the Euler-parameter route: q, q̇ = E w, q̈ = E ẇ + Ė w
// from the group's KKT solution, and λ with the normalization multipliers recovered from
// the p rows. Accelerations and multipliers come from two different saddle-point systems,
// so they agree to rounding of their condition, not bit for bit. Bricard's mechanism has
// redundant rows (dropped by Build on both routes).
func TestLieGroupView(t *testing.T) {
	reactions := func(s string) string { // the fourbar's outputs with joint reactions
		return strings.Replace(s, "outputs: [crank, rocker, drive,", "outputs: [crank, rocker, drive, crankpin, A, rockerpin,", 1)
	}
	for _, name := range []string{"spatial-fourbar", "iftomm/a04-bricard"} {
		ep := loadRoute(t, name, false, reactions)
		b := loadRoute(t, name, true, reactions)
		cur, want := startRoute(t, b, 1e-8).Current(), ep.Start
		for _, c := range []struct {
			what      string
			got, want []float64
			tol       float64
		}{
			{"q", cur.Q, want.Q, 1e-15},
			{"q'", cur.V, want.V, 1e-14},
			{"q''", cur.A, want.A, 1e-9},
			{"lambda", cur.Lambda, want.Lambda, 1e-9},
		} {
			if d := maxGapRel(c.got, c.want); d > c.tol {
				t.Errorf("%s: %s of the view differs from the Euler-parameter start by %.3g (relative to its largest entry), want ≤ %g", name, c.what, d, c.tol)
			}
		}
		// Every output channel (positions, markers, reactions, multipliers, energies,
		// residuals) reads the view as it reads the Euler-parameter state.
		re, rl := runExample(t, ep, RunOptions{TEnd: 0.01}), runExample(t, b, RunOptions{TEnd: 0.01})
		for c, ch := range re.Channels {
			x, y := re.Data[c][0], rl.Data[c][0]
			if math.Abs(x-y) > 1e-9*math.Max(1, math.Abs(x)) {
				t.Errorf("%s: channel %s at t0: %.12g on the Lie-group route, %.12g on Euler parameters", name, ch, y, x)
			}
		}
		if len(re.Channels) < 10 {
			t.Errorf("%s: %d channels, want the file's outputs", name, len(re.Channels))
		}
		if name == "iftomm/a04-bricard" && len(b.Consistent.Redundant) == 0 {
			t.Errorf("%s: no redundant rows; the test wants a model with some", name)
		}
	}
}

func maxGapRel(a, b []float64) float64 {
	var s float64
	for _, x := range b {
		s = math.Max(s, math.Abs(x))
	}
	return qErr(a, b) / math.Max(s, 1e-300)
}

// TestLieGroupRefusals: bad rotations input is named by file:line, and a method without
// the registry's Lie column is refused by name, in the file and on the command line.
func TestLieGroupRefusals(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("..", "examples", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	pendulum := read("spatial-double-pendulum")
	cases := []struct {
		name, src string
		want      []string
	}{
		{"unknown value", strings.Replace(pendulum, "dimension: 3", "dimension: 3\nrotations: quaternions", 1),
			[]string{":9:", "rotations", `"quaternions"`, `"euler-parameters"`, `"lie-group"`}},
		{"3D joint", strings.Replace(read("spatial-fourbar-joint"), "dimension: 3", "dimension: 3\nrotations: lie-group", 1),
			[]string{"rotations", "coordinates: body", "coordinates: joint"}},
		{"2D natural", strings.Replace(read("four-bar-natural"), "coordinates: natural", "coordinates: natural\nrotations: lie-group", 1),
			[]string{"rotations", "coordinates: body", "coordinates: natural"}},
		{"method", strings.Replace(pendulum, "dimension: 3", "dimension: 3\nrotations: lie-group", 1),
			[]string{":27:", "simulation.method", "radau5", "lie-genalpha"}},
		{"atol", strings.Replace(strings.Replace(pendulum, "dimension: 3", "dimension: 3\nrotations: lie-group", 1), "  method: radau5", "  method: lie-genalpha\n  atol: {rod1.x: 1e-6}", 1),
			[]string{"simulation.atol", "lie-group"}},
		{"friction", strings.Replace(strings.Replace(pendulum, "dimension: 3", "dimension: 3\nrotations: lie-group", 1), "type: spherical, i: O, j: rod1.top}",
			"type: revolute, i: O, j: rod1.top, friction: {mu: 0.1, v_reg: 0.01, pin_radius: 0.01}}", 1),
			[]string{"joints[0].friction", "lie-group"}},
	}
	for _, c := range cases {
		_, err := Parse("model.yaml", []byte(c.src))
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not name %q", c.name, err, w)
			}
		}
	}
	b := loadRoute(t, "spatial-double-pendulum", true, nil)
	_, err := Run(b, RunOptions{Method: "hht", TEnd: 0.1})
	if err == nil || !strings.Contains(err.Error(), "hht") || !strings.Contains(err.Error(), "lie-genalpha") || !strings.Contains(err.Error(), "rotations: lie-group") {
		t.Errorf("--method hht on a Lie-group model: error %v, want a refusal naming hht, the Lie methods and the route", err)
	}
}

// TestLieGroupPlanar: rotations: lie-group on a planar model runs lie-genalpha on the body
// coordinates as the additive group (SO(2) commutes), genalpha's scheme with its own
// starting values and Jacobian policy: on the double pendulum its error at t = 1 against a
// radau5 reference at tol 1e-10 is within twice genalpha's (measured at the file's tol
// 1e-7: 7.2e-5 and 6.7e-5, 539 steps each).
func TestLieGroupPlanar(t *testing.T) {
	ref := runExample(t, loadRoute(t, "double-pendulum", false, nil), RunOptions{Method: "radau5", Tol: 1e-10, TEnd: 1}).Solution.Final.Q
	plain := runExample(t, loadRoute(t, "double-pendulum", false, nil), RunOptions{Method: "genalpha", TEnd: 1})
	edit := func(s string) string {
		return "rotations: lie-group\n" + regexp.MustCompile(`(?m)^  method: .*$`).ReplaceAllString(s, "")
	}
	lie := runExample(t, loadRoute(t, "double-pendulum", false, edit), RunOptions{TEnd: 1})
	if lie.Method != DefaultLieMethod {
		t.Fatalf("method %s, want %s", lie.Method, DefaultLieMethod)
	}
	eP, eL := qErr(plain.Solution.Final.Q, ref), qErr(lie.Solution.Final.Q, ref)
	t.Logf("error at t = 1: genalpha %.3g (%d steps), lie-genalpha %.3g (%d steps)", eP, plain.Solution.Stats.Steps, eL, lie.Solution.Stats.Steps)
	if eL > 2*eP {
		t.Errorf("lie-genalpha error %.3g, more than twice genalpha's %.3g", eL, eP)
	}
}

// TestLieRouteNoAllocations: a step of the Lie-group route and its Euler-parameter view
// (the state, the dense output) allocate nothing after warm-up.
func TestLieRouteNoAllocations(t *testing.T) {
	route := startRoute(t, loadRoute(t, "spatial-fourbar", true, nil), 1e-6)
	for range 5 {
		if err := route.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
	}
	dst := route.Current().Clone()
	n := testing.AllocsPerRun(20, func() {
		if err := route.Step(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
		p, c := route.Previous(), route.Current()
		route.Interpolate(&dst, (p.T+c.T)/2)
	})
	if n != 0 {
		t.Errorf("a step with dense output allocates %v times, want 0", n)
	}
}

// startRoute starts lie-genalpha on b's Lie-group route (lieRoute) at tolerance tol.
func startRoute(t *testing.T, b *Built, tol float64) integrate.Method {
	t.Helper()
	e, _ := integrate.Lookup(DefaultLieMethod)
	m, _ := e.NewMethod("")
	route, err := b.onGroup(e, m, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := route.Init(b.Integrated, b.Start.Clone(), integrate.StepControl{RTol: tol, ATol: tol}); err != nil {
		t.Fatal(err)
	}
	return route
}

// TestHeavyTopFastExample: examples/heavy-top-fast.yaml, the fast top of Brüls & Cardona
// (2010) as a model file on the Lie group, against the published reference at t = 1
// (problems.FastTopReference1) and against problems.LieHeavyTop, the same equations written
// on the group by hand, run by the same method and settings: measured at tol 1e-8 5.56e-5
// and 5.52e-5 from the reference (15464 and 15435 steps), 4.2e-7 apart.
func TestHeavyTopFastExample(t *testing.T) {
	const tol = 1e-8
	b := loadExample(t, "heavy-top-fast")
	r := runExample(t, b, RunOptions{Tol: tol, TEnd: 1})
	hand := problems.FastHeavyTop().Lie()
	start, err := hand.Start()
	if err != nil {
		t.Fatal(err)
	}
	m := integrate.DefaultLieGenAlpha()
	if err := m.InitLie(hand, start, integrate.StepControl{RTol: tol, ATol: tol}); err != nil {
		t.Fatal(err)
	}
	for m.Current().T < 1 {
		if err := m.Step(1); err != nil {
			t.Fatal(err)
		}
	}
	ref := problems.FastTopReference1[:]
	eFile, eHand := qErr(r.Solution.Final.Q, ref), qErr(m.Current().Q, ref)
	apart := qErr(r.Solution.Final.Q, m.Current().Q)
	t.Logf("error at t = 1: model file %.3g (%d steps), hand-written %.3g (%d steps), apart %.3g", eFile, r.Solution.Stats.Steps, eHand, m.Stats().Steps, apart)
	if eFile > 1e-4 || apart > 0.05*eHand {
		t.Errorf("model file: error %.3g at t = 1 (want ≤ 1e-4), %.3g from the hand-written top (want ≤ 5 %% of its error %.3g)", eFile, apart, eHand)
	}
	if d := maxNormError(r); d > 4e-16 {
		t.Errorf("max ||p| − 1| = %.3g, want rounding", d)
	}
}

// TestLieGroupGGL: the stabilized index-2 form of lie-genalpha (formulation: ggl, whose
// Newton matrix takes d(B w) along the group from spatial.LieSystem) on the spatial
// four-bar: its error at t = 1 against radau5 at tol 1e-10 is below 10·tol and within 3×
// that of genalpha-si2 on Euler parameters at the same tol (measured 1.6e-7 and 7.6e-8 in
// 228 and 235 steps; the index-3 forms: 1.7e-7 lie-genalpha, 1.5e-6 genalpha), and its
// velocity residual |B v| stays at the Newton tolerance (1.1e-11; index 3 leaves 1e-5).
func TestLieGroupGGL(t *testing.T) {
	const tol = 1e-7
	ref := runExample(t, loadRoute(t, "spatial-fourbar", false, nil), RunOptions{Method: "radau5", Tol: 1e-10, TEnd: 1}).Solution.Final.Q
	ep := runExample(t, loadRoute(t, "spatial-fourbar", false, nil), RunOptions{Method: "genalpha-si2", Tol: tol, TEnd: 1})
	lg := runExample(t, loadRoute(t, "spatial-fourbar", true, nil), RunOptions{Formulation: "ggl", Tol: tol, TEnd: 1})
	eEP, eLie := qErr(ep.Solution.Final.Q, ref), qErr(lg.Solution.Final.Q, ref)
	t.Logf("genalpha-si2 %.3g (%d steps), lie-genalpha ggl %.3g (%d steps), max |G v| %.3g", eEP, ep.Solution.Stats.Steps, eLie, lg.Solution.Stats.Steps, lg.Solution.MaxResidual.Vel)
	if lg.Formulation != integrate.StabilizedIndex2 || eLie > 10*tol || eLie > 3*eEP || lg.Solution.MaxResidual.Vel > 1e-9 {
		t.Errorf("%s: error %.3g (genalpha-si2 %.3g), max |G v| %.3g", lg.Formulation, eLie, eEP, lg.Solution.MaxResidual.Vel)
	}
}

// TestLieGroupRollingDisk: examples/rolling-disk.yaml on the Lie group (the contact row a
// row of Φ, the two rolling rows Pfaffian rows of lie-genalpha in the body-frame twist)
// follows the Euler-parameter route's motion: at t = 1 its position error against a dopri5
// reference at tol 1e-11 is within twice genalpha's at the same tolerance, falls by more
// than 8× from tol 1e-5 to 1e-7 (order 2), the centre stays at the height r cos θ of the
// steady circle, the stabilized index-2 form holds G v and A v to Newton's tolerance and
// the quaternion stays unit to rounding;
// the Euler-parameter view reads the contact row's multiplier (roll.lambda) as dopri5 does.
func TestLieGroupRollingDisk(t *testing.T) {
	ref := runExample(t, loadRoute(t, "rolling-disk", false, nil), RunOptions{Method: "dopri5", Tol: 1e-11, TEnd: 1})
	var prev float64
	for _, tol := range []float64{1e-5, 1e-7} {
		ep := runExample(t, loadRoute(t, "rolling-disk", false, nil), RunOptions{Method: "genalpha", Tol: tol, TEnd: 1})
		lg := runExample(t, loadRoute(t, "rolling-disk", true, nil), RunOptions{Tol: tol, TEnd: 1})
		if lg.Method != DefaultLieMethod {
			t.Fatalf("method %s, want %s", lg.Method, DefaultLieMethod)
		}
		eEP, eLie := qErr(ep.Solution.Final.Q, ref.Solution.Final.Q), qErr(lg.Solution.Final.Q, ref.Solution.Final.Q)
		var dz float64
		for _, z := range lg.Channel("disk.z") {
			dz = math.Max(dz, math.Abs(z-0.3*math.Cos(0.3)))
		}
		dl := channelGap(lg.Data[slices.Index(lg.Channels, "roll.lambda")], ref.Data[slices.Index(ref.Channels, "roll.lambda")], false)
		t.Logf("tol %g: genalpha error %.3g (%d steps), lie-genalpha %.3g (%d steps), |Δz| %.2g, roll.lambda gap %.2g, max |G v|, |A v| %.2g",
			tol, eEP, ep.Solution.Stats.Steps, eLie, lg.Solution.Stats.Steps, dz, dl, lg.Solution.MaxResidual.Vel)
		if eLie > 2*eEP {
			t.Errorf("tol %g: Lie-group route error %.3g at t = 1, more than twice genalpha's %.3g", tol, eLie, eEP)
		}
		if tol == 1e-7 && !(eLie < prev/8) {
			t.Errorf("Lie-group route error %.3g at tol 1e-7, not 8× below %.3g at 1e-5", eLie, prev)
		}
		prev = eLie
		// Index 3 holds the contact row at the position level only, as genalpha does, so
		// its velocity residual is the integration error's (genalpha's: logged); the
		// stabilized index-2 form holds it and A v + b at Newton's tolerance.
		si2 := runExample(t, loadRoute(t, "rolling-disk", true, nil), RunOptions{Formulation: "ggl", Tol: tol, TEnd: 1})
		t.Logf("tol %g: genalpha max velocity residual %.2g; lie-genalpha ggl %.2g, error %.3g", tol, ep.Solution.MaxResidual.Vel, si2.Solution.MaxResidual.Vel, qErr(si2.Solution.Final.Q, ref.Solution.Final.Q))
		if dz > 100*tol || si2.Solution.MaxResidual.Vel > 1e-10 || dl > 300*tol {
			t.Errorf("tol %g: centre height off r cos θ by %.2g, ggl's max velocity residual %.2g, roll.lambda off by %.2g of its size; want ≤ %g, 1e-10, %g",
				tol, dz, si2.Solution.MaxResidual.Vel, dl, 100*tol, 300*tol)
		}
		if d := maxNormError(lg); d > 4e-16 {
			t.Errorf("tol %g: max ||p| − 1| = %.3g over the samples, want rounding", tol, d)
		}
	}
}

// TestLieGroupPlanarFriction: a planar model with joint friction on the Lie group (the body
// coordinates as ℝⁿ, where lie-genalpha takes λ-dependent forces) follows the same motion
// as genalpha in body coordinates, both against a tight radau5 run.
func TestLieGroupPlanarFriction(t *testing.T) {
	ref := runExample(t, loadRoute(t, "joint-friction", false, nil), RunOptions{Method: "radau5", Formulation: "index2", Tol: 1e-10, TEnd: 1}).Solution.Final.Q
	plain := runExample(t, loadRoute(t, "joint-friction", false, nil), RunOptions{Method: "genalpha", Tol: 1e-6, TEnd: 1})
	edit := func(s string) string {
		return "rotations: lie-group\n" + regexp.MustCompile(`(?m)^  method: .*$`).ReplaceAllString(s, "")
	}
	lie := runExample(t, loadRoute(t, "joint-friction", false, edit), RunOptions{Tol: 1e-6, TEnd: 1})
	eP, eL := qErr(plain.Solution.Final.Q, ref), qErr(lie.Solution.Final.Q, ref)
	t.Logf("error at t = 1: genalpha %.3g (%d steps), lie-genalpha %.3g (%d steps)", eP, plain.Solution.Stats.Steps, eL, lie.Solution.Stats.Steps)
	if lie.Method != DefaultLieMethod || eL > 1e-4 || eL > 3*eP {
		t.Errorf("%s: error %.3g (genalpha %.3g)", lie.Method, eL, eP)
	}
}

// TestLieGroupKnifeEdge: examples/chaplygin-sleigh.yaml with rotations: lie-group (the
// body coordinates on ℝ³, the knife edge a Pfaffian row of lie-genalpha's iteration) in
// both formulations against the closed form at t_end = 8 s, with the bounds of the body
// route's hht (TestKnifeEdgeExample); A v + b = 0 holds at every step to Newton's
// tolerance, as on the body route.
func TestLieGroupKnifeEdge(t *testing.T) {
	b := loadRoute(t, "chaplygin-sleigh", false, func(s string) string {
		return "rotations: lie-group\n" + regexp.MustCompile(`(?m)^  method: .*$`).ReplaceAllString(s, "")
	})
	for _, form := range []string{"", "ggl"} {
		r := runExample(t, b, RunOptions{Formulation: form})
		eu, ew := sleighGap(r)
		if eu > 3e-5 || ew > 3e-5 || r.EnergyDrift > 3e-5 || r.Solution.MaxResidual.Vel > 1e-8 {
			t.Errorf("%s %s: |Δu| = %.3g, |Δω| = %.3g, energy drift %.3g J, max |A v| %.3g; want ≤ 3e-5 and |A v| ≤ 1e-8",
				r.Method, form, eu, ew, r.EnergyDrift, r.Solution.MaxResidual.Vel)
		}
		t.Logf("%s %s: |Δu| = %.3g, |Δω| = %.3g, energy drift %.3g J, max |A v| %.2g, %d steps", r.Method, form, eu, ew, r.EnergyDrift, r.Solution.MaxResidual.Vel, r.Solution.Stats.Steps)
	}
}
