package modelfile

import (
	"math"
	"slices"

	"linkage/assembly"
	"linkage/dae"
	"linkage/integrate"
	"linkage/law"
	"linkage/planar"
)

// OutputChannels returns the channels a run of b records, "t" first, then
// simulation.outputs resolved: the columns of the CSV file and of Result.Data.
func (b *Built) OutputChannels() []string {
	if b.Doc.Spatial != nil {
		return append([]string{"t"}, b.Doc.Spatial.OutputChannels()...)
	}
	return append([]string{"t"}, b.Doc.Model.OutputChannels()...)
}

// PlotChannels returns simulation.plot resolved: the channels Result.Plot draws. Those
// missing from the outputs are recorded for the plot as well (not written to the CSV).
func (b *Built) PlotChannels() []string {
	if b.Doc.Spatial != nil {
		return b.Doc.Spatial.PlotChannels()
	}
	return b.Doc.Model.PlotChannels()
}

// plotChannelsOf is PlotChannels with the output channels out (OutputChannels without "t")
// already resolved: simulation.plot resolved, or when it is empty the first (up to 6) of
// out, without resolving the outputs a second time.
func (b *Built) plotChannelsOf(out []string) []string {
	plot := b.Doc.Model.Simulation.Plot
	if b.Doc.Spatial != nil {
		plot = b.Doc.Spatial.Simulation.Plot
	}
	if len(plot) == 0 {
		return slices.Clone(out[:min(len(out), 6)]) // its own array, as PlotChannels's
	}
	return b.PlotChannels()
}

// validChannels are the names of every channel b's model can record.
func (b *Built) validChannels() map[string]bool {
	var names []string
	if b.Doc.Spatial != nil {
		names = channelNames3(b.Doc.Spatial)
	} else {
		names = channelNames(&b.Doc.Model)
	}
	valid := make(map[string]bool, len(names))
	for _, n := range names {
		valid[n] = true
	}
	return valid
}

// sample is what the channels of one output time are computed from.
type sample struct {
	s        *integrate.State // of the integrated system
	full     []float64        // λ of the full system (zero on redundant rows)
	kin, pot float64          // T and V
	work     assembly.Work    // W_nc and W_driving from t0
	inv      float64          // Π = T + V − W_nc − W_driving (seed 001, eq. 12)
	resid    dae.ConstraintResiduals
	seq      int // numbers the samples of a recorder (readers keep work per sample)
}

// channelFunc reads one channel of a sample.
type channelFunc func(*sample) float64

// recorder turns the samples of a run into output rows as they are made, and follows the
// energy drift; it keeps no sample.
type recorder struct {
	b      *Built
	r      *Result       // receives EnergyDrift, EnergyScale, Samples
	names  []string      // "t", the outputs, then plot channels not among them
	nOut   int           // len("t" + outputs): the row handed to RunOptions.Rows
	values []channelFunc // one per name
	energy func(t float64, q, v []float64) (kin, pot float64)
	meter  *dae.ResidualMeter
	cur    sample
	row    []float64
	pot0   float64 // V and Π at the first sample, against which scale and drift are taken
	inv0   float64
}

// newRecorder prepares the channels of r (r.Channels), of its plot (r.plot) and the
// channels of keep that are neither (the viewer's body poses) for b.
func newRecorder(b *Built, r *Result, keep []string) *recorder {
	rc := &recorder{b: b, r: r}
	r.Channels = b.OutputChannels()
	r.plot = b.plotChannelsOf(r.Channels[1:])
	rc.names = append([]string(nil), r.Channels...)
	rc.nOut = len(rc.names)
	has := make(map[string]bool, len(rc.names)+len(r.plot))
	for _, n := range rc.names {
		has[n] = true
	}
	add := func(name string) {
		if !has[name] {
			rc.names = append(rc.names, name)
			has[name] = true
		}
	}
	for _, p := range r.plot {
		add(p)
	}
	var valid map[string]bool // every channel name, made only when keep names others
	for _, p := range keep {
		if has[p] {
			continue
		}
		if valid == nil {
			valid = b.validChannels()
		}
		if valid[p] {
			add(p)
		}
	}
	full := b.Full()
	_, nc := full.Size()
	rc.cur.full = make([]float64, nc)
	rc.row = make([]float64, len(rc.names))
	if slices.ContainsFunc(rc.names, residualChannel) {
		// A v + b and A a − γ_A join the velocity and acceleration levels. Only for a
		// residual channel: at a sample the meter costs g, G and γ, on a 1000-bar chain
		// about as much as two Newton iterations of hht.
		rc.meter = dae.NewResidualMeter(dae.WithPfaffianRows(full))
	}
	var channel func(name string) channelFunc
	switch {
	case b.Spatial != nil:
		rc.energy = b.Spatial.System.Energy
		channel = spatialChannels(b)
	case b.Natural != nil:
		rc.energy = b.Natural.System.Energy
		channel = naturalChannels(b)
	case b.Joint != nil:
		rc.energy = b.Joint.System.Energy
		channel = jointChannels(b)
	case b.Joint3 != nil:
		rc.energy = b.Joint3.System.Energy
		channel = joint3Channels(b)
	default:
		sys := b.System
		rc.energy = func(t float64, q, v []float64) (float64, float64) {
			e := sys.Energies(t, q, v)
			return e.Kinetic, e.Potential()
		}
		channel = planarChannels(b)
	}
	for _, name := range rc.names {
		rc.values = append(rc.values, sharedChannel(name, channel))
	}
	return rc
}

// kinematic reports whether every channel of rc reads the samples' t, q and v alone
// (integrate.SolveOptions.KinematicSamples), by kinematicChannel.
func (rc *recorder) kinematic() bool {
	bodies, markers := rc.b.poseElements()
	for _, name := range rc.names {
		if !kinematicChannel(name, bodies, markers) {
			return false
		}
	}
	return true
}

// kinematicChannel reports whether the channel name reads a sample's t, q and v alone:
// the time; the energies (T and V at (q, v); their work terms come from the WorkMeter,
// which interpolates the method's full dense output itself); the position and velocity
// residuals; a body's or marker's position, orientation and velocity. Any other channel
// (accelerations, multipliers, reactions, the acceleration residual, force readings,
// elastic coordinates) counts as reading a or λ: a new channel is slow, never wrong.
func kinematicChannel(name string, bodies, markers map[string]bool) bool {
	elem, suffix := splitChannel(name)
	switch {
	case name == "t" || elem == "energy":
		return true
	case elem == "residual":
		return suffix == "position" || suffix == "velocity"
	case bodies[elem]:
		return slices.Contains([]string{"x", "y", "z", "theta", "p0", "p1", "p2", "p3", "vx", "vy", "vz", "omega", "wx", "wy", "wz"}, suffix)
	case markers[elem]:
		return slices.Contains([]string{"x", "y", "z", "vx", "vy", "vz"}, suffix)
	}
	return false
}

// poseElements returns the names of b's bodies and of its markers.
func (b *Built) poseElements() (bodies, markers map[string]bool) {
	bodies, markers = map[string]bool{}, map[string]bool{}
	if sm := b.Doc.Spatial; sm != nil {
		for _, x := range sm.Bodies {
			bodies[x.Name] = true
		}
		for _, x := range sm.Markers {
			markers[x.Name] = true
		}
		return bodies, markers
	}
	for _, x := range b.Doc.Model.Bodies {
		bodies[x.Name] = true
	}
	for _, x := range b.Doc.Model.Markers {
		markers[x.Name] = true
	}
	return bodies, markers
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// measure computes the row of the sample st, whose work from t0 is work, and updates the
// energy drift. The row is reused by the next call.
func (rc *recorder) measure(st *integrate.State, work assembly.Work) []float64 {
	c := &rc.cur
	c.s = st
	c.seq++
	rc.b.FullLambda(c.full, st.Lambda)
	c.kin, c.pot = rc.energy(st.T, st.Q, st.V)
	c.work = work
	c.inv = c.kin + c.pot - work.NonConservative - work.Driving // seed 001, eq. 12
	if rc.meter != nil {
		c.resid = rc.meter.Measure(st.T, st.Q, st.V, st.A)
	}
	r := rc.r
	if r.Samples == 0 {
		rc.pot0, rc.inv0 = c.pot, c.inv
	}
	r.Samples++
	r.EnergyDrift = math.Max(r.EnergyDrift, math.Abs(c.inv-rc.inv0))
	r.EnergyScale = math.Max(r.EnergyScale, c.kin+math.Abs(c.pot-rc.pot0))
	for i, f := range rc.values {
		rc.row[i] = f(c)
	}
	return rc.row
}

// residualChannel reports whether the channel name reads the sample's constraint
// residuals (sharedChannel's "residual" element).
func residualChannel(name string) bool {
	elem, _ := splitChannel(name)
	return elem == "residual"
}

// sharedChannel reads the channels every model has (time, energies, residuals) and hands
// the others to channel.
func sharedChannel(name string, channel func(string) channelFunc) channelFunc {
	elem, suffix := splitChannel(name)
	switch elem {
	case "t":
		return func(c *sample) float64 { return c.s.T }
	case "energy":
		switch suffix {
		case "kinetic":
			return func(c *sample) float64 { return c.kin }
		case "potential":
			return func(c *sample) float64 { return c.pot }
		case "work_nc":
			return func(c *sample) float64 { return c.work.NonConservative }
		case "work_driving":
			return func(c *sample) float64 { return c.work.Driving }
		case "total":
			return func(c *sample) float64 { return c.kin + c.pot }
		}
		return func(c *sample) float64 { return c.inv }
	case "residual":
		switch suffix {
		case "position":
			return func(c *sample) float64 { return c.resid.Pos }
		case "velocity":
			return func(c *sample) float64 { return c.resid.Vel }
		}
		return func(c *sample) float64 { return c.resid.Acc }
	}
	return channel(name)
}

// planarChannels returns the reader of body, joint and motion channels of a planar model.
func planarChannels(b *Built) func(string) channelFunc {
	sys := b.System
	nq, _ := sys.Size()
	coord := map[string]int{}
	for i := range nq {
		coord[sys.CoordinateName(i)] = i
	}
	rows := map[string][]int{}
	for _, e := range sys.Joints() {
		rows[e.Name] = e.Rows
	}
	frame := func(body string) planarFrame {
		if body == groundName {
			return nil
		}
		i := coord[body+".x"]
		return func(c *sample) ([2]float64, float64, [2]float64, float64) {
			q, v := c.s.Q, c.s.V
			return [2]float64{q[i], q[i+1]}, q[i+2], [2]float64{v[i], v[i+1]}, v[i+2]
		}
	}
	return func(name string) channelFunc {
		elem, suffix := splitChannel(name)
		if id, ok := b.Bodies[elem]; ok {
			if suffix == "strain_energy" {
				return func(c *sample) float64 { return sys.StrainEnergy(id, c.s.Q) }
			}
			if i, elastic := coord[name]; elastic && !contains(bodySuffixes(), suffix) {
				return func(c *sample) float64 { return c.s.Q[i] }
			}
			return bodyChannel(coord[elem+".x"], suffix)
		}
		if f, ok := b.forceChannel(sys.SpringDamperReadings, elem, suffix, 2); ok {
			return f
		}
		if _, joint := b.Joints[elem]; joint && suffix == "u" {
			i := coord[name] // a cam joint's contact parameter
			return func(c *sample) float64 { return c.s.Q[i] }
		}
		if f, ok := planarMarkerChannel(&b.Doc.Model, frame, elem, suffix); ok {
			return f
		}
		if suffix == "lambda" {
			row := rows[elem][0]
			return func(c *sample) float64 { return c.full[row] }
		}
		j := b.Joints[elem]
		return func(c *sample) float64 { return planarReaction(sys.Reaction(j, c.s.Q, c.full), suffix) }
	}
}

// planarReaction reads one reaction channel (jointSuffixes) of the load on body J.
func planarReaction(re planar.Reaction, suffix string) float64 {
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

// bodyChannel reads a body's coordinate, velocity or acceleration; col is its x column.
func bodyChannel(col int, suffix string) channelFunc {
	off := 0
	switch suffix {
	case "y", "vy", "ay":
		off = 1
	case "theta", "omega", "alpha":
		off = 2
	}
	i := col + off
	switch suffix {
	case "vx", "vy", "omega":
		return func(c *sample) float64 { return c.s.V[i] }
	case "ax", "ay", "alpha":
		return func(c *sample) float64 { return c.s.A[i] }
	}
	return func(c *sample) float64 { return c.s.Q[i] }
}

// spatialChannels returns the reader of body, joint and motion channels of a 3D model:
// body coordinates, velocities, body-frame angular velocities, accelerations (body3Value),
// reactions (reaction3Value) and multipliers.
func spatialChannels(b *Built) func(string) channelFunc {
	sys := b.Spatial.System
	nq, _ := sys.Size()
	col := map[string]int{}
	for i := range nq {
		col[sys.CoordinateName(i)] = i
	}
	rows := map[string][]int{}
	for _, e := range sys.Joints() {
		rows[e.Name] = e.Rows
	}
	return func(name string) channelFunc {
		elem, suffix := splitChannel(name)
		if f, ok := b.forceChannel(sys.SpringDamperReadings, elem, suffix, 3); ok {
			return f
		}
		if _, body := b.Spatial.Bodies[elem]; !body {
			if f, ok := spatialMarkerChannel(b.Doc.Spatial, col, elem, suffix); ok {
				return f
			}
		}
		if suffix == "lambda" {
			row := rows[elem][0]
			return func(c *sample) float64 { return c.full[row] }
		}
		if j, ok := sys.JointByName(elem); ok {
			return func(c *sample) float64 { return reaction3Value(sys.Reaction(j, c.s.Q, c.full), suffix) }
		}
		x := col[elem+".x"]
		return func(c *sample) float64 { return body3Value(x, suffix, c.s.Q, c.s.V, c.s.A) }
	}
}

// springDamperReader is a route's SpringDamperReadings.
type springDamperReader func(dst []law.SDReading, name string, t float64, q, v []float64) ([]law.SDReading, bool)

// forceChannel returns the reader of channel suffix (forceSuffixes) of spring-damper
// element name, whose bushing axes are dim translations, then rotations; ok is false when
// name is no spring-damper element.
func (b *Built) forceChannel(read springDamperReader, name, suffix string, dim int) (channelFunc, bool) {
	if b.Doc.forceChannelUnit(name, suffix) == "" {
		return nil, false
	}
	var buf []law.SDReading
	return func(c *sample) float64 {
		buf, _ = read(buf, name, c.s.T, c.s.Q, c.s.V)
		return sdChannel(buf, suffix, dim)
	}, true
}

// sdChannel reads one channel from the readings of an element's axes: one axis for a
// TSDA or RSDA, dim translations and their rotations for a bushing.
func sdChannel(r []law.SDReading, suffix string, dim int) float64 {
	if len(r) == 1 {
		x := r[0]
		switch suffix {
		case "length":
			return x.Value
		case "deflection":
			return x.Deflection
		case "velocity":
			return x.Rate
		case "force":
			return x.Force
		}
		return x.Power
	}
	norm := func(from, to int, f func(law.SDReading) float64) float64 {
		s := 0.0
		for _, x := range r[from:to] {
			s += f(x) * f(x)
		}
		return math.Sqrt(s)
	}
	switch suffix {
	case "length":
		return norm(0, dim, func(x law.SDReading) float64 { return x.Value })
	case "force":
		return norm(0, dim, func(x law.SDReading) float64 { return x.Force })
	case "torque":
		if dim == 2 { // the one rotation, signed
			return r[2].Force
		}
		return norm(dim, len(r), func(x law.SDReading) float64 { return x.Force })
	}
	p := 0.0
	for _, x := range r {
		p += x.Power
	}
	return p
}
