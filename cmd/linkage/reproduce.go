package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"linkage/iftomm"
	"linkage/output"
	"linkage/reproduce"
)

// experiment is one reproducible experiment of a seed paper.
type experiment struct {
	summary string
	run     func(outDir string, stdout io.Writer) error
}

func experiments() map[string]experiment {
	return map[string]experiment{
		"yen1998-flex":      {"seed 003 section 4.3 alone: flexible slider-crank (Figs. 7-12, Table 2 largest steps, CM vs index 2)", runYen1998Flex},
		"arnold-ex8":        {"seed 002 Example 8: λ error of generalized-α, index 3 vs stabilized index 2 (Figs. 10, 16)", runArnoldEx8},
		"arnold-driftoff":   {"seed 002 Fig. 14: drift of |g| for index 2 (linear) and index 1 (quadratic) without projection", runArnoldDriftOff},
		"arnold-ex9":        {"seed 002 Example 9: backward Euler's λ does not converge as h_n → 0 with h_{n-1} fixed", runArnoldEx9},
		"arnold-radau":      {"seed 002 Figs. 12-13: radau5 on index 3 vs index 2, error vs Newton tolerance (Andrews)", runArnoldRadau},
		"cardenal1997":      {"seed 001 Table 1 (ali1 vs ali3 energy error and CPU, double pendulum), energy history (Fig. 2), multi-index step history (Fig. 5), suspension comparison (Figs. 8-10)", runCardenal1997},
		"haug1997":          {"seed 000 section 4: GCP implicit vs FV vs ABM: errors, largest steps (Table 5), Newton iterations (Figs. 9-11)", runHaug1997},
		"haug1997-scan":     {"seed 000 section 4.1: largest steps of IMPL, FV, ABM on the double pendulum over a grid of RSDA (k, c)", runHaugScan},
		"lie-workprecision": {"seed 002 Example 6 and chain3d:N: heavy tops and 3D chains on the Lie group (lie-genalpha) vs Euler parameters (genalpha, hht, radau5) at tol 1e-4 to 1e-8: error, |p| − 1, work, time", runLieWorkPrecision},
		"iftomm":            {"IFToMM benchmarks A01, A02 (N = 40), A04 (examples/iftomm) with hht, genalpha, bdf, radau5, dopri5 at tol 1e-6, 1e-8: error against the reference, energy drift, time, steps, pass/fail at 1e-3 m", func(_ string, stdout io.Writer) error { return runIFToMM(false, iftomm.MaxSteps, stdout) }},
		"iftomm-radau5-eps": {"IFToMM A02 (N = 40, 20 s) with radau5 (ggl) at tol 1e-6 to 1e-9 over the regularization ε of its singular mode, 1e-16 to 1e-8 (method parameter reg_eps): which runs pass the singular positions", runIFToMMRadau5Eps},
		"iftomm-rounding":   {"IFToMM A02 (N = 40, 20 s) with radau5 (ggl) at tol 1e-6 to 1e-9 from 10 starts that differ by rounding (crank0's angle × (1 + k·1e-15)): how many pass the library's 1e-3 m", runIFToMMRadau5Rounding},
		"yen1998":           {"seed 003 section 4: DAE α-method, stiff spring pendulum energy and trajectory (Figs. 2-3), bushing CM vs index 2 (Table 1), flexible slider-crank (Figs. 7-12, Table 2)", runYen1998},
	}
}

// runLieWorkPrecision prints the work-precision table of reproduce.LieWorkPrecision.
func runLieWorkPrecision(_ string, stdout io.Writer) error {
	res, err := reproduce.LieWorkPrecision([]float64{1e-4, 1e-5, 1e-6, 1e-7, 1e-8}, []int{5, 10, 20})
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, res.Table())
	return nil
}

// runArnoldEx8 prints the table of maximal λ errors and writes the error histories as CSV
// and as plots like Figs. 10 (index 3) and 16 (stabilized index 2).
func runArnoldEx8(outDir string, stdout io.Writer) error {
	res, err := reproduce.ArnoldEx8(0)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, res.Table())
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	byVariant := map[reproduce.Ex8Variant][]output.Series{}
	for _, r := range res.Runs {
		name := fmt.Sprintf("%s x0=%g h=%g", r.Variant, r.X0, r.H)
		abs := make([]float64, len(r.LambdaErr))
		for i, e := range r.LambdaErr {
			abs[i] = math.Abs(e)
		}
		// Sample 0 is the exact start (error at rounding level): left out of the log plot.
		byVariant[r.Variant] = append(byVariant[r.Variant], output.Series{Name: name, X: r.T[1:], Y: abs[1:]})
		csvPath := filepath.Join(outDir, fmt.Sprintf("arnold-ex8_%s_x0=%g_h=%g.csv", r.Variant, r.X0, r.H))
		f, err := output.Create(csvPath)
		if err != nil {
			return err
		}
		err = output.WriteCSV(f, len(r.T), []output.Channel{
			{Name: "t", Value: func(k int) float64 { return r.T[k] }},
			{Name: "lambda_error", Value: func(k int) float64 { return r.LambdaErr[k] }},
		})
		if err != nil {
			f.Abort()
			return err
		}
		if err := f.Commit(); err != nil {
			return err
		}
	}
	var variants []string
	for v := range byVariant {
		variants = append(variants, string(v))
	}
	sort.Strings(variants)
	for _, v := range variants {
		path := filepath.Join(outDir, "arnold-ex8_"+v+".png")
		spec := output.PlotSpec{Title: "seed 002 Example 8: " + v, XLabel: "t [s]", YLabel: "|λ(t_n) − λ_n|", LogY: true}
		if err := output.Plot(path, spec, byVariant[reproduce.Ex8Variant(v)]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "plot: %s\n", path)
	}
	fmt.Fprintf(stdout, "CSV: %s\n", filepath.Join(outDir, "arnold-ex8_*.csv"))
	return nil
}

func runReproduce(args []string, stdout, stderr io.Writer) error {
	exps := experiments()
	var names []string
	for n := range exps {
		names = append(names, n)
	}
	sort.Strings(names)
	var list strings.Builder
	for _, n := range names {
		fmt.Fprintf(&list, "\n  %-16s %s", n, exps[n].summary)
	}
	fs := newFlagSet("reproduce", "reproduce EXPERIMENT [--out DIR] [--long] [--robust] [--max-steps N]\n\nexperiments:"+list.String(), stderr)
	outDir := fs.String("out", ".", "directory for plots and CSV files (created if missing; each file is replaced only when written in full)")
	long := fs.Bool("long", false, "iftomm only: run A01 to the library's 2000 s instead of 10 s, adding the settings that meet 1e-3 m there (iftomm.A01LongSettings)")
	robust := fs.Bool("robust", false, "iftomm only: the robustness probe of A02's singular passages instead: genalpha and hht at tols 1e-6 to 1e-10, from the file's start and with crank0's angle raised by 1e-13 rad (iftomm.Robust)")
	maxSteps := fs.Int("max-steps", iftomm.MaxSteps, "iftomm only: stop each run after this many attempted steps (hht takes 7.9e6 on A01 over 2000 s at tol 1e-10)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one EXPERIMENT; valid: %s", strings.Join(names, ", "))
	}
	e, ok := exps[pos[0]]
	if !ok {
		return usagef("unknown experiment %q; valid: %s", pos[0], strings.Join(names, ", "))
	}
	if pos[0] == "iftomm" {
		if *maxSteps <= 0 {
			return usagef("--max-steps = %d; want a positive number of steps", *maxSteps)
		}
		if *robust {
			if *long {
				return usagef("--robust and --long: the probe runs A02 only")
			}
			return runIFToMMRobust(stdout)
		}
		if *long || *maxSteps != iftomm.MaxSteps {
			return runIFToMM(*long, *maxSteps, stdout)
		}
	}
	if *robust {
		return usagef("--robust applies to the iftomm experiment only")
	}
	if *long {
		return usagef("--long applies to the iftomm experiment only")
	}
	if *maxSteps != iftomm.MaxSteps {
		return usagef("--max-steps applies to the iftomm experiment only")
	}
	if err := checkOutDir("--out", *outDir); err != nil {
		return err
	}
	return e.run(*outDir, stdout)
}

// runIFToMM prints the library's report of every IFToMM problem with every core method,
// each run capped at maxSteps attempted steps; failed runs are part of the report, not an
// error of the command.
func runIFToMM(long bool, maxSteps int, stdout io.Writer) error {
	tA01 := 10.0
	if long {
		tA01 = iftomm.LongA01
	}
	var runs []iftomm.Run
	for _, p := range iftomm.Problems(tA01) {
		configs := append(iftomm.CoreConfigs(), p.Extra...)
		for k := range configs {
			configs[k].MaxSteps = maxSteps
		}
		r, err := iftomm.RunProblem(p, configs)
		if err != nil {
			return err
		}
		runs = append(runs, r...)
	}
	fmt.Fprintf(stdout, "IFToMM benchmarks (A01 to %g s, A02 N=40 to 20 s, A04 to 10 s; at most %d attempted steps a run); max error: largest coordinate error of the compared point (A01 P1, A02 B0, A04 P3) at the reference times, against the library's data (A01, A02) or a self-reference (A04: %s); pass: the run ends and the error is at most %g m; max |g|: over the accepted steps, every constraint row (A04's redundant one included); dense |g|: the same over the output samples (dense output between the steps); A02 also with radau5 index2 at tol 1e-8, the run issue 17 found on another branch (WRONG BRANCH: within %g m at one reference time, above %g m at the next), and with %s, the setting at which hht meets %g m (its default alpha -0.3 does not at that tol, and does at tol 1e-10: reproduce iftomm --robust); A04 also with the tolerance at which each method holds every row below %g m at steps and samples (iftomm.A04Settings; radau5's samples do not at any)",
		tA01, maxSteps, iftomm.SelfReference, iftomm.Tolerance, iftomm.Tolerance, iftomm.BranchJump, iftomm.HHTPassing(), iftomm.Tolerance, iftomm.A04MaxResidual)
	if long {
		fmt.Fprintf(stdout, "; A01 to %g s also with the tolerances at which dopri5, bdf, radau5 and hht meet %g m there (iftomm.A01LongSettings)", tA01, iftomm.Tolerance)
	}
	fmt.Fprintln(stdout)
	fmt.Fprint(stdout, iftomm.Table(runs))
	return nil
}

// runIFToMMRadau5Eps prints the library's report of A02 (N = 40, 20 s) with radau5 over
// the grid iftomm.Radau5EpsConfigs(Radau5EpsTols, Radau5EpsValues).
func runIFToMMRadau5Eps(_ string, stdout io.Writer) error {
	runs, err := iftomm.RunProblem(iftomm.A02(40, 20), iftomm.Radau5EpsConfigs(iftomm.Radau5EpsTols, iftomm.Radau5EpsValues))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "IFToMM A02 (N = 40, 20 s), radau5 ggl at tol %v over its singular mode's regularization reg_eps = %v; columns as in reproduce iftomm\n", iftomm.Radau5EpsTols, iftomm.Radau5EpsValues)
	fmt.Fprint(stdout, iftomm.Table(runs))
	return nil
}

// runIFToMMRadau5Rounding prints A02 (N = 40, 20 s) with radau5 at the tolerances of
// iftomm.Radau5EpsTols from iftomm.RoundingStarts(10), and the pass counts per tolerance.
func runIFToMMRadau5Rounding(_ string, stdout io.Writer) error {
	runs, err := iftomm.Robust(iftomm.RoundingStarts(10), []string{"radau5"}, iftomm.Radau5EpsTols, 20)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "IFToMM A02 (N = 40, 20 s), radau5 ggl (default reg_eps) at tol %v from 10 starts: crank0's initial angle times 1 + k·1e-15, k = 0 … 9 (k·7 ulps); columns as in reproduce iftomm --robust\n", iftomm.Radau5EpsTols)
	fmt.Fprint(stdout, iftomm.RobustTable(runs))
	fmt.Fprint(stdout, iftomm.RobustCounts(runs))
	return nil
}

// runIFToMMRobust prints the robustness probe of A02's singular passages (iftomm.Robust).
func runIFToMMRobust(stdout io.Writer) error {
	runs, err := iftomm.Robust(iftomm.RobustStarts(), iftomm.RobustMethods, iftomm.RobustTols, 20)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Robustness of A02's (N = 40, 20 s) singular passages: each method at each tol from the file's start and with crank0's initial angle raised by %g rad; reached: last output time; max error: largest coordinate error of B0 against the library's data over the run made; rej: error-test rejections; newtf: Newton failures; reg: entries into the singular mode; pass: singular positions reported passed; STOP: the run did not reach 20 s (note)\n",
		iftomm.PerturbAngle)
	fmt.Fprint(stdout, iftomm.RobustTable(runs))
	fmt.Fprint(stdout, iftomm.RobustSummary(runs))
	return nil
}

// runArnoldDriftOff prints the growth exponents of max |g| and plots the envelopes.
func runArnoldDriftOff(outDir string, stdout io.Writer) error {
	res, err := reproduce.ArnoldDriftOff(100, 1e-6)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, res.Table())
	var series []output.Series
	for _, r := range res.Runs {
		series = append(series, output.Series{Name: r.Method + " " + string(r.Formulation), X: r.T, Y: r.MaxG})
	}
	return writePlot(stdout, outDir, "arnold-driftoff.png", output.PlotSpec{
		Title: "seed 002 Fig. 14: drift-off (pendulum, tol 1e-6)", XLabel: "t [s]", YLabel: "max |g(q)| over [0, t]",
		LogX: true, LogY: true, Points: true}, series)
}

// runArnoldEx9 prints the λ error table of backward Euler after a step-size change.
func runArnoldEx9(outDir string, stdout io.Writer) error {
	res, err := reproduce.ArnoldEx9(0.01)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, res.Table())
	var series []output.Series
	for _, c := range res.Cases {
		s := output.Series{Name: c.Name}
		for _, r := range c.Rows {
			s.X = append(s.X, r.Ratio)
			s.Y = append(s.Y, r.Err)
		}
		series = append(series, s)
	}
	return writePlot(stdout, outDir, "arnold-ex9.png", output.PlotSpec{
		Title: "seed 002 Example 9: backward Euler, h_{n-1} = 0.01", XLabel: "h_n / h_{n-1}", YLabel: "|λ_{n+1} − λ(t_{n+1})|",
		LogX: true, LogY: true, Points: true}, series)
}

// writePlot creates outDir, draws the plot there and says where it is.
func writePlot(stdout io.Writer, outDir, name string, spec output.PlotSpec, series []output.Series) error {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(outDir, name)
	if err := output.Plot(path, spec, series); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "plot: %s\n", path)
	return nil
}

// runArnoldRadau prints radau5's error at t_end against TOL for both forms and Newton
// tolerances, and plots it like Figs. 12-13.
func runArnoldRadau(outDir string, stdout io.Writer) error {
	res, err := reproduce.RadauSens("andrews", nil, nil)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, res.Table())
	byCurve := map[string]*output.Series{}
	var order []string
	for _, r := range res.Runs {
		kappa := "default κ"
		if r.Kappa > 0 {
			kappa = fmt.Sprintf("κ = %g", r.Kappa)
		}
		name := string(r.Form) + ", " + kappa
		s, ok := byCurve[name]
		if !ok {
			s = &output.Series{Name: name}
			byCurve[name] = s
			order = append(order, name)
		}
		s.X = append(s.X, r.Tol)
		s.Y = append(s.Y, r.Err)
	}
	var series []output.Series
	for _, n := range order {
		series = append(series, *byCurve[n])
	}
	return writePlot(stdout, outDir, "arnold-radau.png", output.PlotSpec{
		Title: "seed 002 Figs. 12-13: radau5 on Andrews", XLabel: "TOL", YLabel: "max relative error of q at t_end",
		LogX: true, LogY: true, Points: true}, series)
}

// runHaug1997 prints the error tables, largest steps and Table 5 of seed 000 and plots, per
// model, the Newton iterations per step of IMPL and FV (Figs. 9-11) and the sup-norm error
// against h of the three methods.
func runHaug1997(outDir string, stdout io.Writer) error {
	res, err := reproduce.Haug1997(nil)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, res.Table())
	for _, m := range res.Models {
		iters := []output.Series{
			{Name: "IMPL " + res.Impl, X: m.FigT[:len(m.FigImpl)], Y: m.FigImpl},
			{Name: "FV " + res.FV, X: m.FigT[:len(m.FigFV)], Y: m.FigFV},
		}
		if err := writePlot(stdout, outDir, "haug1997-"+m.Name+"-iterations.png", output.PlotSpec{
			Title:  fmt.Sprintf("seed 000 Figs. 9-11: %s, h = %g", m.Name, m.FigH),
			XLabel: "t [s]", YLabel: "Newton iterations per step", Points: true}, iters); err != nil {
			return err
		}
		byRole := map[string]int{} // index into errs
		var errs []output.Series
		for _, r := range m.Runs {
			if r.Fail != "" {
				continue
			}
			k, ok := byRole[r.Role]
			if !ok {
				k = len(errs)
				byRole[r.Role] = k
				errs = append(errs, output.Series{Name: r.Role + " " + r.Method})
			}
			errs[k].X = append(errs[k].X, r.H)
			errs[k].Y = append(errs[k].Y, r.Sup)
		}
		if err := writePlot(stdout, outDir, "haug1997-"+m.Name+"-error.png", output.PlotSpec{
			Title:  fmt.Sprintf("seed 000: %s, sup-norm error in %s", m.Name, m.Var),
			XLabel: "h [s]", YLabel: "sup-norm error", LogX: true, LogY: true, Points: true}, errs); err != nil {
			return err
		}
	}
	return nil
}

// runHaugScan prints the largest converging steps on the stiff double pendulum over
// reproduce.HaugScanGrid (the paper omits k and c; this shows how its Table 5 order
// depends on them).
func runHaugScan(outDir string, stdout io.Writer) error {
	res, err := reproduce.HaugPendulumScan(nil, nil)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, res.Table())
	return writeHaugScan(outDir, stdout, res)
}

// writeHaugScan writes the scan as haug1997-scan.csv (k, c and each method's largest step)
// and plots the largest steps against k, one point per damping c.
func writeHaugScan(outDir string, stdout io.Writer, res *reproduce.HaugScanResult) error {
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	series := []output.Series{{Name: "IMPL " + res.Impl}, {Name: "FV " + res.FV}, {Name: "EXPL " + res.Expl}}
	k := func(k int) float64 { return res.Rows[k].K }
	channels := []output.Channel{{Name: "k", Value: k}, {Name: "c", Value: func(k int) float64 { return res.Rows[k].C }}}
	for i, pick := range []func(reproduce.HaugScanRow) float64{
		func(r reproduce.HaugScanRow) float64 { return r.Impl.H },
		func(r reproduce.HaugScanRow) float64 { return r.FV.H },
		func(r reproduce.HaugScanRow) float64 { return r.Expl.H },
	} {
		for _, r := range res.Rows {
			series[i].X = append(series[i].X, r.K)
			series[i].Y = append(series[i].Y, pick(r))
		}
		channels = append(channels, output.Channel{Name: "h_" + strings.ToLower(strings.Fields(series[i].Name)[0]), Value: func(k int) float64 { return pick(res.Rows[k]) }})
	}
	path := filepath.Join(outDir, "haug1997-scan.csv")
	f, err := output.Create(path)
	if err != nil {
		return err
	}
	if err := output.WriteCSV(f, len(res.Rows), channels); err != nil {
		f.Abort()
		return err
	}
	if err := f.Commit(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "table: %s\n", path)
	return writePlot(stdout, outDir, "haug1997-scan.png", output.PlotSpec{
		Title:  "seed 000 section 4.1: largest stable step vs RSDA stiffness k (one point per damping c)",
		XLabel: "k [N·m/rad]", YLabel: "largest step h [s]", LogX: true, LogY: true, Points: true}, series)
}

// runCardenal1997 prints Table 1 and the suspension comparison of seed 001 beside the
// paper's numbers and plots the energy history of ali3 at Δt = 1e-3 (Fig. 2) with the
// change of Π per step (the local error estimate, beside Fig. 3), the step-size history of
// the multi-index runs (Figs. 5 and 8) and the suspension's energy (Figs. 9-10).
func runCardenal1997(outDir string, stdout io.Writer) error {
	res, err := reproduce.Cardenal1997(reproduce.Cardenal1997Options{})
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, res.Table())
	if err := writePlot(stdout, outDir, "cardenal1997-energy.png", output.PlotSpec{
		Title: "seed 001 Fig. 2: double pendulum, ali3, Δt = 1e-3", XLabel: "t [s]", YLabel: "Π = T + V [J]"},
		[]output.Series{{Name: "ali3", X: res.EnergyT, Y: res.Energy}}); err != nil {
		return err
	}
	if err := writePlot(stdout, outDir, "cardenal1997-local-error.png", output.PlotSpec{
		Title: "seed 001 Fig. 3: change of Π per step (local error estimate)", XLabel: "t [s]", YLabel: "|ΔΠ| [J]", LogY: true},
		[]output.Series{{Name: "ali3 Δt = 1e-3", X: res.EnergyT[1:], Y: res.DPi[1:]}}); err != nil {
		return err
	}
	if err := writePlot(stdout, outDir, "cardenal1997-steps.png", output.PlotSpec{
		Title: "seed 001 Fig. 5: multi-index step size, double pendulum", XLabel: "t [s]", YLabel: "Δt [s]", LogY: true, Points: true},
		[]output.Series{{Name: "multi-index", X: res.MultiT, Y: res.MultiH}}); err != nil {
		return err
	}
	s := res.Suspension
	if err := writePlot(stdout, outDir, "cardenal1997-suspension-steps.png", output.PlotSpec{
		Title: "seed 001 Fig. 8: multi-index step size, quarter car", XLabel: "t [s]", YLabel: "Δt [s]", LogY: true, Points: true},
		[]output.Series{{Name: "multi-index", X: s.Multi.T[1:], Y: s.Multi.H[1:]}}); err != nil {
		return err
	}
	return writePlot(stdout, outDir, "cardenal1997-suspension-energy.png", output.PlotSpec{
		Title: "seed 001 Figs. 9-10: energy invariant, quarter car", XLabel: "t [s]", YLabel: "Π [J]"},
		[]output.Series{{Name: s.Fixed.Name, X: s.Fixed.T, Y: s.Fixed.Pi}, {Name: s.Multi.Name, X: s.Multi.T, Y: s.Multi.Pi}})
}

// runYen1998 prints Table 1 of seed 003 and the spring pendulum's figures, plots the
// energy curves (Fig. 2) and trajectories (Fig. 3), then runs the flexible slider-crank of
// section 4.3 (Table 2, Figs. 7-12; runYen1998Flex).
func runYen1998(outDir string, stdout io.Writer) error {
	res, err := reproduce.Yen1998()
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, res.Table())
	var energy, traj []output.Series
	for _, s := range res.Spring.Energy {
		energy = append(energy, output.Series{Name: fmt.Sprintf("ρ = %g", s.Rho), X: s.T, Y: s.E})
	}
	for _, s := range res.Spring.Trajectory {
		traj = append(traj, output.Series{Name: fmt.Sprintf("h = %g", s.H), X: s.X, Y: s.Y})
	}
	if err := writePlot(stdout, outDir, "yen1998-fig2-energy.png", output.PlotSpec{
		Title:  fmt.Sprintf("seed 003 Fig. 2: stiff spring pendulum, ε² = %g, h = %g", reproduce.Yen1998SpringEps2, reproduce.Yen1998SpringH),
		XLabel: "t [s]", YLabel: "total energy"}, energy); err != nil {
		return err
	}
	if err := writePlot(stdout, outDir, "yen1998-fig3-trajectory.png", output.PlotSpec{
		Title:  fmt.Sprintf("seed 003 Fig. 3: stiff spring pendulum, ε² = %g, ρ = %g", reproduce.Yen1998SpringEps2, reproduce.Yen1998SpringRho),
		XLabel: "x", YLabel: "y"}, traj); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	return runYen1998Flex(outDir, stdout)
}
