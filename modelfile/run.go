package modelfile

import (
	"fmt"
	"io"
	"math"
	"time"

	"linkage/dae"
	"linkage/integrate"
	"linkage/output"
	"linkage/planar"
)

// RunOptions override the simulation section of a model file; zero values keep the file's
// settings (or their defaults). A Method other than the file's also drops the file's
// formulation, which was chosen for the file's method; give Formulation to pick one.
type RunOptions struct {
	Method, Formulation string
	Tol, H, TEnd        float64
	// Progress, when set, is called after every accepted step (see integrate.SolveOptions).
	Progress func(*integrate.State) error
}

// Result is one simulation of a model file: the settings used, the solution at the output
// times and the channels recorded from it.
type Result struct {
	Method      string
	Formulation integrate.Formulation
	Tol, H      float64
	T0, TEnd    float64
	OutputStep  float64

	Solution *integrate.Solution // samples at the output times; Lambda of the integrated system
	Channels []string            // "t" first, then simulation.outputs resolved
	Data     [][]float64         // Data[c][k]: channel c at sample k
	plot     []string            // the channels Plot draws, for 3D models (planar: simulation.plot resolved by Plot)

	// Invariant is the energy invariant Π = T + V − W_nc − W_driving of seed 001, eq. 12,
	// at each sample; Work holds the two integrals (planar.WorkMeter: Simpson's rule over
	// every accepted step with the method's dense output, far below the integration error).
	Invariant []float64
	Work      []planar.Work
	// EnergyDrift is max_k |Π_k − Π_0|; EnergyScale is max_k (T_k + |V_k − V_0|), the
	// energy exchanged, against which the drift is judged.
	EnergyDrift, EnergyScale float64
}

// Run simulates b from its consistent start to t_end with integrate.Solve and records the
// requested channels at the output step by dense output. On a failed step it returns the
// partial Result (samples up to the failure) with the error.
func Run(b *Built, opt RunOptions) (*Result, error) {
	m := &b.Doc.Model
	s := m.Simulation
	r := &Result{Method: pick(opt.Method, s.Method, DefaultMethod), Tol: pickF(opt.Tol, s.Tol, DefaultTol), H: pickF(opt.H, s.H, 0),
		T0: b.Start.T, TEnd: pickF(opt.TEnd, s.TEnd, 0)}
	if !(r.TEnd > r.T0) || math.IsInf(r.TEnd, 0) {
		return nil, fmt.Errorf("%s: simulation.t_end = %g; want a finite end time after initial.time = %g (set it in the file or with --t-end)", b.Doc.File, r.TEnd, r.T0)
	}
	entry, err := integrate.Lookup(r.Method)
	if err != nil {
		return nil, err
	}
	fileForm := s.Formulation
	if opt.Method != "" && opt.Method != s.Method {
		fileForm = "" // the file's formulation was chosen for the file's method
	}
	r.Formulation = integrate.Formulation(pick(opt.Formulation, fileForm, string(entry.Formulations[0])))
	meth, err := entry.NewMethod(r.Formulation)
	if err != nil {
		return nil, err
	}
	if r.H == 0 && !entry.Adaptive {
		return nil, fmt.Errorf("method %s has no error control: give a fixed step (simulation.h or --h)", r.Method)
	}
	r.OutputStep = s.OutputStep
	if r.OutputStep == 0 {
		r.OutputStep = (r.TEnd - r.T0) / defaultSamples
	}
	grid := outputGrid(r.T0, r.TEnd, r.OutputStep)

	work := b.workMeter(meth, grid)
	observer := work.Observe
	if opt.Progress != nil {
		observer = func(st *integrate.State) error {
			if err := work.Observe(st); err != nil {
				return err
			}
			return opt.Progress(st)
		}
	}
	ctl := integrate.StepControl{RTol: r.Tol, ATol: r.Tol, FixedH: r.H}
	sol, runErr := integrate.Solve(meth, r.Method, b.Integrated, b.Start.Clone(), r.TEnd, integrate.SolveOptions{Control: ctl, Output: grid, Observer: observer})
	if sol == nil {
		return nil, runErr
	}
	r.Solution = sol
	r.Work = work.Samples()[:len(sol.T)]
	if b.Spatial != nil {
		r.record3(b)
	} else {
		r.record(b)
	}
	return r, runErr
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

// outputGrid returns t0, t0 + step, … and tEnd (the last interval may be shorter). The
// times are computed as t0 + k·step, not by accumulation, so they do not drift.
func outputGrid(t0, tEnd, step float64) []float64 {
	n := int(math.Ceil((tEnd-t0)/step - 1e-9))
	grid := make([]float64, 0, n+1)
	for k := range n {
		grid = append(grid, t0+float64(k)*step)
	}
	return append(grid, tEnd)
}

// record fills the channels from the samples and r.Work.
func (r *Result) record(b *Built) {
	sol := r.Solution
	sys := b.System
	n := len(sol.T)
	nq, nc := sys.Size()
	full := make([][]float64, n) // λ of the full system
	energies := make([]planar.Energies, n)
	resid := make([]dae.ConstraintResiduals, n)
	meter := dae.NewResidualMeter(sys)
	r.Invariant = make([]float64, n)
	for k := range n {
		full[k] = make([]float64, nc)
		b.FullLambda(full[k], sol.Lambda[k])
		energies[k] = sys.Energies(sol.T[k], sol.Q[k], sol.V[k])
		resid[k] = meter.Measure(sol.T[k], sol.Q[k], sol.V[k], sol.A[k])
		r.Invariant[k] = energies[k].Kinetic + energies[k].Potential() - r.Work[k].NonConservative - r.Work[k].Driving
		r.EnergyDrift = math.Max(r.EnergyDrift, math.Abs(r.Invariant[k]-r.Invariant[0]))
		r.EnergyScale = math.Max(r.EnergyScale, energies[k].Kinetic+math.Abs(energies[k].Potential()-energies[0].Potential()))
	}
	coord := map[string]int{}
	for i := range nq {
		coord[sys.CoordinateName(i)] = i
	}
	rows := map[string][]int{}
	for _, e := range sys.Joints() {
		rows[e.Name] = e.Rows
	}
	series := func(f func(k int) float64) []float64 {
		x := make([]float64, n)
		for k := range x {
			x[k] = f(k)
		}
		return x
	}
	r.Channels = append([]string{"t"}, b.Doc.Model.OutputChannels()...)
	r.Data = make([][]float64, len(r.Channels))
	r.Data[0] = append([]float64(nil), sol.T...)
	for c, name := range r.Channels[1:] {
		elem, suffix := splitChannel(name)
		var f func(k int) float64
		switch elem {
		case "energy":
			f = func(k int) float64 {
				e := energies[k]
				switch suffix {
				case "kinetic":
					return e.Kinetic
				case "potential":
					return e.Potential()
				case "work_nc":
					return r.Work[k].NonConservative
				case "work_driving":
					return r.Work[k].Driving
				}
				return r.Invariant[k]
			}
		case "residual":
			f = func(k int) float64 {
				switch suffix {
				case "position":
					return resid[k].Pos
				case "velocity":
					return resid[k].Vel
				}
				return resid[k].Acc
			}
		default:
			if _, ok := b.Bodies[elem]; ok {
				f = bodyChannel(coord[elem+".x"], suffix, sol)
				break
			}
			j := b.Joints[elem]
			if suffix == "lambda" {
				row := rows[elem][0]
				f = func(k int) float64 { return full[k][row] }
				break
			}
			f = func(k int) float64 {
				re := sys.Reaction(j, sol.Q[k], full[k])
				switch suffix {
				case "fx":
					return re.OnJ.Force[0]
				case "fy":
					return re.OnJ.Force[1]
				case "torque":
					return re.OnJ.Torque
				case "fx_local":
					return re.OnJLocal.Force[0]
				}
				return re.OnJLocal.Force[1]
			}
		}
		r.Data[c+1] = series(f)
	}
}

func splitChannel(name string) (elem, suffix string) {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '.' {
			return name[:i], name[i+1:]
		}
	}
	return name, ""
}

// bodyChannel reads a body's coordinate, velocity or acceleration; col is its x column.
func bodyChannel(col int, suffix string, sol *integrate.Solution) func(k int) float64 {
	src, off := sol.Q, 0
	switch suffix {
	case "y":
		off = 1
	case "theta":
		off = 2
	case "vx", "vy", "omega":
		src = sol.V
	case "ax", "ay", "alpha":
		src = sol.A
	}
	switch suffix {
	case "vy", "ay":
		off = 1
	case "omega", "alpha":
		off = 2
	}
	return func(k int) float64 { return src[k][col+off] }
}

// Channel returns the samples of the named channel (nil if it was not recorded).
func (r *Result) Channel(name string) []float64 {
	for c, n := range r.Channels {
		if n == name {
			return r.Data[c]
		}
	}
	return nil
}

// WriteCSV writes the recorded channels with a header of their names (output.WriteCSV).
func (r *Result) WriteCSV(w io.Writer) error {
	ch := make([]output.Channel, len(r.Channels))
	for c, name := range r.Channels {
		d := r.Data[c]
		ch[c] = output.Channel{Name: name, Value: func(k int) float64 { return d[k] }}
	}
	return output.WriteCSV(w, len(r.Data[0]), ch)
}

// Plot draws the channels of simulation.plot against time into path (.png, .svg or .pdf).
func (r *Result) Plot(path string, m *Model) error {
	var series []output.Series
	names := r.plot
	if names == nil {
		names = m.PlotChannels()
	}
	for _, name := range names {
		if d := r.Channel(name); d != nil {
			series = append(series, output.Series{Name: name, X: r.Data[0], Y: d})
		}
	}
	title := m.Name
	if title == "" {
		title = "linkage run"
	}
	return output.Plot(path, output.PlotSpec{Title: title, XLabel: "t [s]", YLabel: "SI units (m, rad, N, J)"}, series)
}

// Summary is the digest of a run printed by linkage run.
type Summary struct {
	Model          string  `json:"model"`
	Method         string  `json:"method"`
	Formulation    string  `json:"formulation"`
	Tol            float64 `json:"tol"`
	H              float64 `json:"h,omitempty"`
	TEnd           float64 `json:"t_end"`
	Samples        int     `json:"samples"`
	Steps          int     `json:"steps"`
	Rejected       int     `json:"rejected"`
	NewtonIters    int     `json:"newton_iters"`
	Jacobians      int     `json:"jacobians"`
	Factorizations int     `json:"factorizations"`
	WallS          float64 `json:"wall_s"`
	MaxResidualPos float64 `json:"max_residual_pos"`
	MaxResidualVel float64 `json:"max_residual_vel"`
	MaxResidualAcc float64 `json:"max_residual_acc"`
	EnergyDrift    float64 `json:"energy_drift"`
	EnergyScale    float64 `json:"energy_scale"`
	Error          string  `json:"error,omitempty"`
	// TolControls says what tol bounds (TolControls; for fixed steps, that nothing does).
	TolControls string `json:"tol_controls"`
	// ErrorEstimate is EstimateError's result, set by a caller that asked for it.
	ErrorEstimate *ErrorEstimate `json:"error_estimate,omitempty"`
}

// Summarize returns the digest of r; err is the run's error, if any.
func (r *Result) Summarize(m *Model, err error) Summary {
	s := Summary{Model: m.Name, Method: r.Method, Formulation: string(r.Formulation), Tol: r.Tol, H: r.H, TEnd: r.TEnd,
		EnergyDrift: r.EnergyDrift, EnergyScale: r.EnergyScale, TolControls: r.tolControls()}
	if sol := r.Solution; sol != nil {
		st := sol.Stats
		s.Samples = len(sol.T)
		s.Steps, s.Rejected, s.NewtonIters, s.Jacobians, s.Factorizations = st.Steps, st.Rejected, st.NewtonIters, st.Jacobians, st.Factorizations
		s.WallS = sol.Wall.Seconds()
		s.MaxResidualPos, s.MaxResidualVel, s.MaxResidualAcc = sol.MaxResidual.Pos, sol.MaxResidual.Vel, sol.MaxResidual.Acc
	}
	if err != nil {
		s.Error = err.Error()
	}
	return s
}

// WriteText prints s as the aligned text summary of linkage run.
func (s Summary) WriteText(w io.Writer) {
	fmt.Fprintf(w, "model    %s\n", s.Model)
	mode := fmt.Sprintf("tol %g", s.Tol)
	if s.H > 0 {
		mode = fmt.Sprintf("fixed h %g", s.H)
	}
	fmt.Fprintf(w, "method   %s (%s), %s, t_end %g, %d samples\n", s.Method, s.Formulation, mode, s.TEnd, s.Samples)
	fmt.Fprintf(w, "accuracy %s\n", s.TolControls)
	fmt.Fprintf(w, "work     %d steps, %d rejected, %d Newton iterations, %d Jacobians, %d factorizations\n",
		s.Steps, s.Rejected, s.NewtonIters, s.Jacobians, s.Factorizations)
	fmt.Fprintf(w, "time     %s\n", time.Duration(s.WallS*float64(time.Second)).Round(time.Microsecond))
	fmt.Fprintf(w, "residual max |g| = %.2e, max |G v + g_t| = %.2e, max |G a − γ| = %.2e\n", s.MaxResidualPos, s.MaxResidualVel, s.MaxResidualAcc)
	rel := 0.0
	if s.EnergyScale > 0 {
		rel = s.EnergyDrift / s.EnergyScale
	}
	fmt.Fprintf(w, "energy   drift of T + V − W_nc − W_driving: %.3e J (%.2e of the energy exchanged, %.3g J)\n", s.EnergyDrift, rel, s.EnergyScale)
	if s.ErrorEstimate != nil {
		s.ErrorEstimate.WriteText(w)
	}
	if s.Error != "" {
		fmt.Fprintf(w, "FAILED   %s\n", s.Error)
	}
}
