package modelfile

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"linkage/dae"
	"linkage/integrate"
	"linkage/output"
)

// RunOptions override the simulation section of a model file; zero values keep the file's
// settings (or their defaults). A Method other than the file's also drops the file's
// formulation, which was chosen for the file's method; give Formulation to pick one.
type RunOptions struct {
	Method, Formulation string
	Tol, H, TEnd        float64
	// MethodOptions set the method's parameters (integrate.Param), over the file's
	// simulation.method_options, which are dropped when Method is not the file's method.
	MethodOptions map[string]float64
	MaxSteps      int // attempted steps before the run stops (0: simulation.max_steps, else integrate's default)
	// Progress, when set, is called after every accepted step (see integrate.SolveOptions).
	Progress func(*integrate.State) error
	// Rows, when set, receives every output row as it is made: the values of
	// Result.Channels at one output time (read only; reused for the next row). A non-nil
	// return stops the run. With Rows set, the Result keeps in memory only the channels
	// named in Keep (and t, when any is kept) and no Invariant, so that memory does not
	// grow with the number of rows; without it every channel is kept.
	Rows func(row []float64) error
	// Keep names channels kept in memory (Result.Channel) when Rows is set; channels of
	// the model that are not among the outputs (the viewer's Document.PoseChannels) are
	// recorded for it too.
	Keep []string
}

// MaxOutputRows bounds the number of output rows of a run, (t_end − t0)/output_step + 1,
// checked before the first step: more is almost always a mistyped output_step, and a
// CSV of 1e7 rows of 15 channels already takes about 3 GB. Raise output_step (or shorten
// t_end) to stay below it.
const MaxOutputRows = 10_000_000

// Thresholds beyond which Summarize flags a fixed-step run (Summary.Warnings). Without error
// control nothing else tells that h was beyond the method's stability or accuracy limit.
// Error-controlled runs of the examples at their tolerances drift by at most 7.1e-4 of the
// energy exchanged (examples_test.go) and keep |g| below 1e-8 with index-3 methods; a
// drift of 5 % or |g| of 1 mm (1e-3 of mechanisms 0.1 to 2 m long) means the numbers are
// not to be trusted.
const (
	FixedStepMaxDrift    = 0.05 // EnergyDrift / EnergyScale
	FixedStepMaxResidual = 1e-3 // max |g| over the run, m or rad
)

// Result is one simulation of a model file: the settings used, the channels recorded at
// the output times and the work and residuals of the run.
type Result struct {
	Method      string
	Formulation integrate.Formulation
	Options     map[string]float64 // the method's parameters that were set (integrate.Param)
	Tol, H      float64
	T0, TEnd    float64
	OutputStep  float64
	MaxSteps    int // the step cap in force (integrate.DefaultMaxSteps when none was given)

	// Solution holds the samples of the integrated system at the output times (nil when
	// rows are streamed to RunOptions.Rows), the final state, the work (Stats) and the
	// constraint residuals (MaxResidual).
	Solution *integrate.Solution
	// MaxResidualAll is the constraint residuals of every row of the model, over the
	// accepted steps, when the run leaves redundant rows out (dae.Reduce); nil otherwise.
	MaxResidualAll *dae.ConstraintResiduals
	Channels       []string    // "t" first, then simulation.outputs resolved (Built.OutputChannels)
	Data           [][]float64 // Data[c][k]: channel c at sample k; nil for channels not kept (RunOptions.Keep)
	Samples        int         // output rows made (sent to RunOptions.Rows or kept in Data)
	plot           []string    // the channels Plot draws (Built.PlotChannels)
	extra          map[string][]float64

	// Invariant is the energy invariant Π = T + V − W_nc − W_driving of seed 001, eq. 12, at
	// each sample (nil when rows are streamed to RunOptions.Rows); the two works are
	// integrated by assembly.WorkMeter (Simpson's rule over every accepted step with the
	// method's dense output, far below the integration error).
	Invariant []float64
	// EnergyDrift is max_k |Π_k − Π_0|; EnergyScale is max_k (T_k + |V_k − V_0|), the
	// energy exchanged, against which the drift is judged.
	EnergyDrift, EnergyScale float64
	// IndexReport is what a method that switches formulations did in each (the multi-index
	// method of seed 001); nil for the others.
	IndexReport *integrate.IndexReport
	// ControlWarnings are the method's doubts about its own error control after the run
	// (integrate.ControlWarner: multi-index when its energy scale is far above the energy
	// the motion exchanged; hht, genalpha, bdf and radau5 when one component's accepted
	// error estimate passed at more than 10 × tol); Summarize adds them to Summary.Warnings.
	ControlWarnings []string
	// Passages are the singular positions (or redundancies appearing in the motion) that
	// the method passed (integrate.SingularPassage).
	Passages []integrate.SingularPassage
}

// Run simulates b from its consistent start to t_end with integrate.Solve and records the
// requested channels at the output step by dense output, as the samples are made: each
// row goes to opt.Rows, or into Result.Data. Settings out of range (tolerance outside
// [MinTol, MaxTol], more than MaxOutputRows rows, a negative step cap) are refused before
// the first step. On a failed step it returns the partial Result (rows up to the failure)
// with the error.
func Run(b *Built, opt RunOptions) (*Result, error) {
	m := &b.Doc.Model
	s := m.Simulation
	r := &Result{Method: pick(opt.Method, s.Method, DefaultMethodOf(m)), Tol: pickF(opt.Tol, s.Tol, DefaultTol), H: pickF(opt.H, s.H, 0),
		T0: b.Start.T, TEnd: pickF(opt.TEnd, s.TEnd, 0)}
	if !(r.TEnd > r.T0) || math.IsInf(r.TEnd, 0) {
		return nil, fmt.Errorf("%s: simulation.t_end = %g; want a finite end time after initial.time = %g (set it in the file or with --t-end)", b.Doc.File, r.TEnd, r.T0)
	}
	if err := r.checkSettings(b.Doc, opt); err != nil {
		return nil, err
	}
	entry, err := integrate.Lookup(r.Method)
	if err != nil {
		return nil, err
	}
	fileForm, fileOpts := s.Formulation, s.MethodOptions
	if opt.Method != "" && opt.Method != s.Method {
		fileForm, fileOpts = "", nil // the file's formulation and options were chosen for the file's method
	}
	r.Formulation = integrate.Formulation(pick(opt.Formulation, fileForm, string(entry.Formulations[0])))
	r.Options = mergeOptions(fileOpts, opt.MethodOptions)
	meth, err := entry.NewMethodWith(r.Formulation, r.Options)
	if err != nil {
		return nil, err
	}
	if b.Doc.Model.Rotations == RotationsLieGroup {
		if meth, err = b.onGroup(entry, meth, r.Formulation); err != nil {
			return nil, err
		}
	}
	if r.H == 0 && !entry.Adaptive {
		return nil, fmt.Errorf("method %s has no error control: give a fixed step (simulation.h or --h)", r.Method)
	}

	work := b.workMeter(meth)
	observer := work.Observe
	if opt.Progress != nil {
		observer = func(st *integrate.State) error {
			if err := work.Observe(st); err != nil {
				return err
			}
			return opt.Progress(st)
		}
	}
	b.restoreKept()
	full := b.fullResiduals()
	if full != nil {
		inner := observer
		observer = func(st *integrate.State) error {
			full.observe(st)
			return inner(st)
		}
	}
	rec := newRecorder(b, r, opt.Keep)
	keep := r.keeper(rec, opt)
	var kept integrate.Solution // the samples, kept as Solve would when no row sink is given
	sample := func(st *integrate.State) error {
		row := rec.measure(st, work.At(st.T))
		keep(row)
		if opt.Rows != nil {
			return opt.Rows(row[:rec.nOut])
		}
		c := st.Clone()
		kept.T, kept.Q, kept.V = append(kept.T, c.T), append(kept.Q, c.Q), append(kept.V, c.V)
		kept.A, kept.Lambda = append(kept.A, c.A), append(kept.Lambda, c.Lambda)
		return nil
	}
	atolQ, err := coordinateATol(b)
	if err != nil {
		return nil, err
	}
	ctl := integrate.StepControl{RTol: r.Tol, ATol: r.Tol, ATolQ: atolQ, FixedH: r.H, MaxSteps: r.MaxSteps}
	// Streamed rows whose channels read positions and velocities alone spare the method
	// a and λ at the samples (dopri5's eq. 17); kept samples hold them for the caller.
	kinematic := opt.Rows != nil && rec.kinematic()
	sol, runErr := integrate.Solve(meth, r.Method, b.Integrated, b.Start.Clone(), r.TEnd,
		integrate.SolveOptions{Control: ctl, OutputStep: r.OutputStep, Sample: sample, Observer: observer, KinematicSamples: kinematic})
	if sol == nil {
		return nil, runErr
	}
	sol.T, sol.Q, sol.V, sol.A, sol.Lambda = kept.T, kept.Q, kept.V, kept.A, kept.Lambda
	if full != nil {
		r.MaxResidualAll = &full.max
	}
	r.Solution = sol
	if ir, ok := meth.(integrate.IndexReporter); ok {
		rep := ir.Report()
		r.IndexReport = &rep
	}
	if cw, ok := meth.(integrate.ControlWarner); ok {
		r.ControlWarnings = cw.ControlWarnings()
	}
	if sr, ok := meth.(integrate.SingularReporter); ok {
		r.Passages = sr.SingularPassages()
	}
	if errors.Is(runErr, integrate.ErrMaxSteps) {
		runErr = fmt.Errorf("%w; stopped at the step limit max_steps = %d; raise it with --max-steps or simulation.max_steps", runErr, r.MaxSteps)
	}
	if runErr != nil && b.Joint3 != nil {
		runErr = b.Joint3.cardanError(b.Doc.File, meth.Current(), runErr)
	}
	return r, runErr
}

// coordinateATol maps simulation.atol onto the coordinates of the integrated system
// (integrate.StepControl.ATolQ; nil without the section), refusing a name that is not a
// coordinate at its line.
func coordinateATol(b *Built) ([]float64, error) {
	atol := b.Doc.Model.Simulation.ATol
	if len(atol) == 0 {
		return nil, nil
	}
	nq, _ := b.Integrated.Size()
	names := make([]string, nq)
	for i := range nq {
		names[i] = dae.CoordinateName(b.Integrated, i)
	}
	q := make([]float64, nq)
	for _, name := range slices.Sorted(maps.Keys(atol)) {
		i := slices.Index(names, name)
		if i < 0 {
			path := "simulation.atol." + name
			l, c := b.Doc.Line(path)
			return nil, &Error{File: b.Doc.File, Line: l, Column: c, Path: path,
				Msg: fmt.Sprintf("unknown coordinate %q; want one of %s", name, strings.Join(names, ", "))}
		}
		q[i] = atol[name]
	}
	return q, nil
}

// checkSettings resolves the output step and the step cap of r and refuses, before the
// run, a tolerance outside [MinTol, MaxTol], a negative step cap and a grid of more than
// MaxOutputRows rows. Values from the file are reported at their line.
func (r *Result) checkSettings(doc *Document, opt RunOptions) error {
	s := doc.Model.Simulation
	fileErr := func(key, format string, args ...any) error {
		return doc.errorAt("simulation."+key, fmt.Sprintf(format, args...))
	}
	if why := TolProblem(r.Tol); why != "" {
		if opt.Tol != 0 {
			return fmt.Errorf("modelfile: RunOptions.Tol = %g %s", r.Tol, why)
		}
		return fileErr("tol", "tol = %g %s", r.Tol, why)
	}
	switch {
	case opt.MaxSteps < 0:
		return fmt.Errorf("modelfile: RunOptions.MaxSteps = %d; want >= 0 (0: the file's or the default)", opt.MaxSteps)
	case opt.MaxSteps > 0:
		r.MaxSteps = opt.MaxSteps
	case s.MaxSteps < 0:
		return fileErr("max_steps", "max_steps = %d; want a positive number of steps", s.MaxSteps)
	case s.MaxSteps > 0:
		r.MaxSteps = s.MaxSteps
	default:
		r.MaxSteps = integrate.DefaultMaxSteps
	}
	r.OutputStep = s.OutputStep
	if r.OutputStep == 0 {
		r.OutputStep = (r.TEnd - r.T0) / defaultSamples
	}
	if n := integrate.OutputSamples(r.T0, r.TEnd, r.OutputStep); !(n <= MaxOutputRows) {
		return fileErr("output_step", "output_step = %g s over [%g, %g] would make %.3g rows, above the limit of %d (modelfile.MaxOutputRows); "+
			"want output_step >= %.2g s, or a shorter span", r.OutputStep, r.T0, r.TEnd, n, MaxOutputRows, roundUp2((r.TEnd-r.T0)/(MaxOutputRows-1)))
	}
	return nil
}

// roundUp2 rounds x > 0 up to two significant digits, so that a bound printed with %.2g
// still satisfies it.
func roundUp2(x float64) float64 {
	e := math.Pow(10, math.Floor(math.Log10(x))-1)
	return math.Ceil(x/e) * e
}

// TolProblem says why tol is not a usable tolerance ("is above 0.1: …"), or returns ""
// when it lies in [MinTol, MaxTol].
func TolProblem(tol float64) string {
	switch {
	case math.IsNaN(tol) || tol <= 0:
		return "is not a positive number; want a tolerance in [1e-14, 0.1]"
	case tol > MaxTol:
		return fmt.Sprintf("is above %g: the tolerance is a relative error per step, and above %g the error control accepts steps that are wrong by more than that; want one in [%g, %g]",
			MaxTol, MaxTol, MinTol, MaxTol)
	case tol < MinTol:
		return fmt.Sprintf("is below %g, below what double precision can resolve (rounding alone is 1.1e-16 per operation and the error estimates are differences rounded at about %g); want one in [%g, %g]",
			MinTol, MinTol, MinTol, MaxTol)
	}
	return ""
}

// keeper returns the function that keeps a row's values in r: every channel when no row
// sink is given, else those named in opt.Keep.
func (r *Result) keeper(rc *recorder, opt RunOptions) func(row []float64) {
	keepAll := opt.Rows == nil
	var cols []int
	for i, name := range rc.names {
		if keepAll || contains(opt.Keep, name) {
			cols = append(cols, i)
		}
	}
	if len(cols) > 0 && cols[0] != 0 {
		cols = append([]int{0}, cols...) // t, the abscissa of every kept channel
	}
	r.Data = make([][]float64, rc.nOut)
	r.extra = map[string][]float64{}
	return func(row []float64) {
		for _, i := range cols {
			if i < rc.nOut {
				r.Data[i] = append(r.Data[i], row[i])
			} else {
				r.extra[rc.names[i]] = append(r.extra[rc.names[i]], row[i])
			}
		}
		if keepAll {
			r.Invariant = append(r.Invariant, rc.cur.inv)
		}
	}
}

func pick(a, b, def string) string {
	if a != "" {
		return a
	}
	if b != "" {
		return b
	}
	return def
}

func pickF(a, b, def float64) float64 {
	if a != 0 {
		return a
	}
	if b != 0 {
		return b
	}
	return def
}

func splitChannel(name string) (elem, suffix string) {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '.' {
			return name[:i], name[i+1:]
		}
	}
	return name, ""
}

// Channel returns the samples of the named channel: one of Channels, or a plot channel
// recorded for the plot only (nil if it was not recorded or not kept).
func (r *Result) Channel(name string) []float64 {
	for c, n := range r.Channels {
		if n == name {
			return r.Data[c]
		}
	}
	return r.extra[name]
}

// WriteCSV writes the recorded channels with a header of their names (output.WriteCSV);
// every channel must have been kept.
func (r *Result) WriteCSV(w io.Writer) error {
	ch := make([]output.Channel, len(r.Channels))
	for c, name := range r.Channels {
		d := r.Data[c]
		if d == nil && r.Samples > 0 {
			return fmt.Errorf("modelfile: WriteCSV: channel %q was not kept in memory (RunOptions.Keep)", name)
		}
		ch[c] = output.Channel{Name: name, Value: func(k int) float64 { return d[k] }}
	}
	return output.WriteCSV(w, len(r.Data[0]), ch)
}

// Plot draws the channels of simulation.plot against time into path (a format of
// output.PlotFormat), written atomically (output.Create); see DrawPlot.
func (r *Result) Plot(path string, doc *Document) error {
	format, err := output.PlotFormat(path)
	if err != nil {
		return err
	}
	f, err := output.Create(path)
	if err != nil {
		return err
	}
	if err := r.DrawPlot(f, format, doc); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// DrawPlot draws the channels of simulation.plot against time in format (png, svg, pdf,
// …) to w: one panel per unit (Document.ChannelUnit), stacked over a shared time axis.
func (r *Result) DrawPlot(w io.Writer, format string, doc *Document) error {
	t := r.Channel("t")
	for _, name := range r.plot {
		if r.Channel(name) == nil && r.Samples > 0 {
			return fmt.Errorf("modelfile: plot channel %q was not kept in memory (RunOptions.Keep)", name)
		}
	}
	title := doc.Model.Name
	if title == "" {
		title = "linkage run"
	}
	return output.WritePanels(w, format, output.PanelPlotSpec{Title: title, XLabel: "t [s]"}, panels(r.plot, t, r.Channel, doc.ChannelUnit))
}

// Summary is the digest of a run printed by linkage run.
type Summary struct {
	Model       string `json:"model"`
	Method      string `json:"method"`
	Formulation string `json:"formulation"`
	// MethodOptions are the method's parameters set by the file or the flags.
	MethodOptions  map[string]float64 `json:"method_options,omitempty"`
	Tol            float64            `json:"tol"`
	H              float64            `json:"h,omitempty"`
	TEnd           float64            `json:"t_end"`
	Samples        int                `json:"samples"`
	Steps          int                `json:"steps"`
	Rejected       int                `json:"rejected"`
	NewtonFailures int                `json:"newton_failures"`
	Singular       int                `json:"singular"`
	NonFinite      int                `json:"non_finite"`
	NewtonIters    int                `json:"newton_iters"`
	Jacobians      int                `json:"jacobians"`
	Factorizations int                `json:"factorizations"`
	WallS          float64            `json:"wall_s"` // the integration: the method's Init and every step
	// Setup is the wall-clock time before the first step, in seconds: BuildS (loading the
	// file, assembling the model and its consistent start: 0 unless the caller timed them
	// and set it) plus InitS (the method's Init, part of WallS). StepS = WallS − InitS.
	SetupS float64 `json:"setup_s"`
	BuildS float64 `json:"build_s"`
	InitS  float64 `json:"init_s"`
	StepS  float64 `json:"step_s"`
	// CPUS is the CPU time (user + system, every thread, the GC's included) of the
	// integration, in seconds, where the caller measured it (linkage run on Unix): the
	// method's Init, the steps, the residual measure after each step and the output
	// samples with their rows. On a machine shared with other jobs it is the steadier
	// measure of cost.
	CPUS float64 `json:"cpu_s,omitempty"`
	// SetupCPUS is the CPU time of the process before the first step (its start, BuildS's
	// work and the method's Init), in seconds, where the caller measured it.
	SetupCPUS float64 `json:"setup_cpu_s,omitempty"`
	// MaxResidualPos, MaxResidualVel and MaxResidualAcc are the largest ‖g‖∞,
	// ‖G v + g_t‖∞ and ‖G a − γ‖∞ over the accepted steps, of the rows integrated.
	MaxResidualPos float64 `json:"max_residual_pos"`
	MaxResidualVel float64 `json:"max_residual_vel"`
	MaxResidualAcc float64 `json:"max_residual_acc"`
	// MaxResidualAllPos is the largest ‖g‖∞ over the accepted steps of every row of the
	// model, the redundant ones the run leaves out included (Result.MaxResidualAll); 0
	// when no row is left out (then it is MaxResidualPos).
	MaxResidualAllPos float64 `json:"max_residual_all_pos,omitempty"`
	EnergyDrift       float64 `json:"energy_drift"`
	EnergyScale       float64 `json:"energy_scale"`
	// Warnings flag a fixed-step run whose energy drift or constraint residual passed
	// FixedStepMaxDrift or FixedStepMaxResidual (linkage run then exits with status 1),
	// and carry the method's doubts about its error control (Result.ControlWarnings,
	// printed, the exit status unchanged).
	Warnings []string `json:"warnings,omitempty"`
	Error    string   `json:"error,omitempty"`
	// TolControls says what tol bounds (TolControls; for fixed steps, that nothing does).
	TolControls string `json:"tol_controls"`
	// SingularPassages: where the method went on past a rank drop of G (Result.Passages).
	SingularPassages []integrate.SingularPassage `json:"singular_passages,omitempty"`
	// ErrorEstimate is EstimateError's result, set by a caller that asked for it.
	ErrorEstimate *ErrorEstimate `json:"error_estimate,omitempty"`
	// IndexReport: switches, steps and time per index of the multi-index method (seed 001).
	IndexReport *integrate.IndexReport `json:"index_report,omitempty"`
}

// Summarize returns the digest of r; err is the run's error, if any.
func (r *Result) Summarize(m *Model, err error) Summary {
	s := Summary{Model: m.Name, Method: r.Method, Formulation: string(r.Formulation), MethodOptions: r.Options, Tol: r.Tol, H: r.H, TEnd: r.TEnd,
		Samples: r.Samples, EnergyDrift: r.EnergyDrift, EnergyScale: r.EnergyScale, TolControls: r.tolControls(),
		IndexReport: r.IndexReport, SingularPassages: r.Passages}
	if sol := r.Solution; sol != nil {
		st := sol.Stats
		s.Steps, s.Rejected, s.NewtonIters, s.Jacobians, s.Factorizations = st.Steps, st.Rejected, st.NewtonIters, st.Jacobians, st.Factorizations
		s.NewtonFailures, s.Singular, s.NonFinite = st.NewtonFailures, st.Singular, st.NonFinite
		s.WallS, s.InitS = sol.Wall.Seconds(), sol.Setup.Seconds()
		s.StepS, s.SetupS = s.WallS-s.InitS, s.InitS
		s.MaxResidualPos, s.MaxResidualVel, s.MaxResidualAcc = sol.MaxResidual.Pos, sol.MaxResidual.Vel, sol.MaxResidual.Acc
	}
	if r.MaxResidualAll != nil {
		s.MaxResidualAllPos = r.MaxResidualAll.Pos
	}
	if r.H > 0 {
		s.Warnings = fixedStepWarnings(s)
	}
	s.Warnings = append(s.Warnings, r.ControlWarnings...)
	if err != nil {
		s.Error = err.Error()
	}
	return s
}

// SetBuild records the time spent loading and building the model before Run (Build's
// consistent start included) as part of the setup.
func (s *Summary) SetBuild(d time.Duration) {
	s.BuildS = d.Seconds()
	s.SetupS = s.BuildS + s.InitS
}

// timeLines are the time lines of the text summary: the integration's wall-clock time
// (the method's Init and the steps, per accepted step), then the setup before the first
// step when the caller timed the build.
func (s Summary) timeLines(w io.Writer) {
	sec := func(x float64) time.Duration { return time.Duration(x * float64(time.Second)).Round(time.Microsecond) }
	perStep := ""
	if s.Steps > 0 {
		perStep = fmt.Sprintf(": %.4g ms per step", 1e3*s.StepS/float64(s.Steps))
	}
	cpu := ""
	if s.CPUS > 0 {
		cpu = fmt.Sprintf("; CPU %s", sec(s.CPUS))
	}
	fmt.Fprintf(w, "time     %s (method init %s, steps %s%s%s)\n", sec(s.WallS), sec(s.InitS), sec(s.StepS), perStep, cpu)
	if s.BuildS > 0 {
		cpu := ""
		if s.SetupCPUS > 0 {
			cpu = fmt.Sprintf("; CPU %s", sec(s.SetupCPUS))
		}
		fmt.Fprintf(w, "setup    %s before the first step (load, build and consistent start %s, method init %s%s)\n", sec(s.SetupS), sec(s.BuildS), sec(s.InitS), cpu)
	}
}

// fixedStepWarnings judges a fixed-step run by its energy invariant and position residual.
func fixedStepWarnings(s Summary) []string {
	var w []string
	if s.EnergyScale > 0 && !(s.EnergyDrift <= FixedStepMaxDrift*s.EnergyScale) {
		w = append(w, fmt.Sprintf("fixed step: energy drift %.3g of the energy exchanged, above %g (modelfile.FixedStepMaxDrift): "+
			"h = %g is likely beyond the method's stability or accuracy limit; try a smaller h or error control", s.EnergyDrift/s.EnergyScale, FixedStepMaxDrift, s.H))
	}
	if !(s.MaxResidualPos <= FixedStepMaxResidual) {
		w = append(w, fmt.Sprintf("fixed step: max |g| = %.3g, above %g (modelfile.FixedStepMaxResidual): the constraints are not held; "+
			"try a smaller h, error control or a projected formulation", s.MaxResidualPos, FixedStepMaxResidual))
	}
	return w
}

// WriteText prints s as the aligned text summary of linkage run.
func (s Summary) WriteText(w io.Writer) {
	fmt.Fprintf(w, "model    %s\n", s.Model)
	mode := fmt.Sprintf("tol %g", s.Tol)
	if s.H > 0 {
		mode = fmt.Sprintf("fixed h %g", s.H)
	}
	fmt.Fprintf(w, "method   %s (%s%s), %s, t_end %g, %d samples\n", s.Method, s.Formulation, OptionsText(s.MethodOptions), mode, s.TEnd, s.Samples)
	fmt.Fprintf(w, "accuracy %s\n", s.TolControls)
	fmt.Fprintf(w, "work     %d steps, %d rejected, %d Newton iterations, %d Jacobians, %d factorizations\n",
		s.Steps, s.Rejected, s.NewtonIters, s.Jacobians, s.Factorizations)
	st := integrate.Stats{NewtonFailures: s.NewtonFailures, Singular: s.Singular, NonFinite: s.NonFinite}
	if f := st.FailureSummary(); f != "" {
		fmt.Fprintf(w, "failed   %s (attempts retried with a fresh Jacobian or a smaller step)\n", f)
	}
	if s.IndexReport != nil {
		fmt.Fprintf(w, "index    %s\n", s.IndexReport)
	}
	for _, p := range s.SingularPassages {
		fmt.Fprintf(w, "singular passed %s\n", p)
	}
	s.timeLines(w)
	fmt.Fprintf(w, "residual max |g| = %.2e, max |G v + g_t| = %.2e, max |G a − γ| = %.2e\n", s.MaxResidualPos, s.MaxResidualVel, s.MaxResidualAcc)
	if s.MaxResidualAllPos > 0 {
		fmt.Fprintf(w, "         max |g| of all rows, the redundant ones left out of the run included = %.2e\n", s.MaxResidualAllPos)
	}
	rel := 0.0
	if s.EnergyScale > 0 {
		rel = s.EnergyDrift / s.EnergyScale
	}
	fmt.Fprintf(w, "energy   drift of T + V − W_nc − W_driving: %.3e J (%.2e of the energy exchanged, %.3g J)\n", s.EnergyDrift, rel, s.EnergyScale)
	if s.ErrorEstimate != nil {
		s.ErrorEstimate.WriteText(w)
	}
	for _, x := range s.Warnings {
		fmt.Fprintf(w, "WARNING  %s\n", x)
	}
	if s.Error != "" {
		fmt.Fprintf(w, "FAILED   %s\n", s.Error)
	}
}

// mergeOptions returns file's method options overridden key by key by flags; nil when
// neither sets any.
func mergeOptions(file, flags map[string]float64) map[string]float64 {
	if len(file)+len(flags) == 0 {
		return nil
	}
	out := maps.Clone(file)
	if out == nil {
		out = map[string]float64{}
	}
	maps.Copy(out, flags)
	return out
}

// OptionsText lists method options as ", alpha -0.05, ..." sorted by name, "" for none.
func OptionsText(opts map[string]float64) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		fmt.Fprintf(&b, ", %s %g", k, opts[k])
	}
	return b.String()
}

// fullResiduals measures the constraint residuals of every row of the model after each
// accepted step of a run that integrates it without its redundant rows (dae.Reduce):
// integrate.Solve measures the rows it integrates (Solution.MaxResidual), and a dropped
// row holds only as well as the kept ones imply it through the geometry (the parallelogram
// example's to √ε where the kept rows hold to ε; and the redundancy may change during
// the motion, as Bricard's mechanism's does). nil when no row is dropped.
type fullResiduals struct {
	meter *dae.ResidualMeter
	max   dae.ConstraintResiduals
}

func (b *Built) fullResiduals() *fullResiduals {
	if len(b.Consistent.Redundant) == 0 {
		return nil
	}
	return &fullResiduals{meter: dae.NewResidualMeter(dae.WithPfaffianRows(b.Full())), max: dae.ConstraintResiduals{WorstPos: -1}}
}

func (f *fullResiduals) observe(st *integrate.State) {
	f.max = f.max.Max(f.meter.Measure(st.T, st.Q, st.V, st.A))
}

// restoreKept makes a run start from the constraint rows kept at t₀: a Reduce whose rows
// a previous run of b chose anew (dae.Rekeeper, A04) would otherwise start the next run
// (iftomm's runs of one Built, EstimateError's reference run) from where that one ended.
func (b *Built) restoreKept() {
	rk, ok := b.Integrated.(dae.Rekeeper)
	if keep := b.Consistent.KeptRows(); ok && !slices.Equal(rk.Kept(), keep) {
		b.Integrated = dae.Reduce(rk.Inner(), keep)
	}
}
