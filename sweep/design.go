package sweep

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
)

// MaxLatinRuns bounds a Latin hypercube, whose permutations (one int per run and
// parameter) are held in memory.
const MaxLatinRuns = 1_000_000

// points returns the values of parameter p on a grid or list axis: its values, or count
// points evenly spread over its range (in log10 for a log scale), both ends included.
func (p *Parameter) points() []Value {
	if len(p.Values) > 0 {
		out := make([]Value, len(p.Values))
		for i, v := range p.Values {
			out[i] = valueOf(v)
		}
		return out
	}
	out := make([]Value, p.Count)
	for i := range out {
		u := 0.0
		if p.Count > 1 {
			u = float64(i) / float64(p.Count-1)
		}
		out[i] = Value{Num: p.at(u)}
	}
	return out
}

// at maps u in [0, 1] onto the range of p (log10-evenly for a log scale); the ends are
// returned exactly.
func (p *Parameter) at(u float64) float64 {
	lo, hi := p.Range[0], p.Range[1]
	switch {
	case u == 0:
		return lo
	case u == 1:
		return hi
	case p.Scale == "log":
		return math.Pow(10, math.Log10(lo)+u*(math.Log10(hi)-math.Log10(lo)))
	}
	return lo + u*(hi-lo)
}

// NumRuns returns the number of runs of the design, or an error naming the parameter or
// key that makes it zero or more than MaxRuns.
func (s *Spec) NumRuns() (int, error) {
	switch s.Design {
	case "latin-hypercube", "monte-carlo":
		limit := MaxRuns
		if s.Design == "latin-hypercube" {
			limit = MaxLatinRuns
		}
		if s.Runs < 1 || s.Runs > limit {
			return 0, s.errorf("runs", "runs = %d; a %s design wants 1 to %d runs", s.Runs, s.Design, limit)
		}
		return s.Runs, nil
	case "list":
		if s.Runs != 0 {
			return 0, s.errorf("runs", "runs is for random designs; a list has as many runs as each parameter has values")
		}
		n := len(s.Parameters[0].points())
		for i, p := range s.Parameters {
			if k := len(p.points()); k != n {
				return 0, s.errorf(fmt.Sprintf("parameters[%d]", i), "%s has %d values but %s has %d; a list design pairs the i-th values of every parameter",
					p.Path, k, s.Parameters[0].Path, n)
			}
		}
		return n, nil
	}
	if s.Runs != 0 {
		return 0, s.errorf("runs", "runs is for random designs; a grid has the product of its parameters' counts")
	}
	n := 1
	for i, p := range s.Parameters {
		k := len(p.points())
		if k == 0 {
			return 0, s.errorf(fmt.Sprintf("parameters[%d]", i), "%s has no values: the grid has zero runs", p.Path)
		}
		if n > MaxRuns/k {
			return 0, s.errorf(fmt.Sprintf("parameters[%d]", i), "the grid reaches more than %d runs at %s; sample it (latin-hypercube) or shorten the axes", MaxRuns, p.Path)
		}
		n *= k
	}
	return n, nil
}

// design is an expanded design: the values of run i, the same on every machine.
type design struct {
	spec  *Spec
	n     int
	axes  [][]Value // grid and list: the points of each parameter
	perms [][]int32 // latin-hypercube: the stratum of run i in parameter k is perms[k][i]
}

func (s *Spec) design() (*design, error) {
	n, err := s.NumRuns()
	if err != nil {
		return nil, err
	}
	d := &design{spec: s, n: n}
	switch s.Design {
	case "grid", "list":
		for i := range s.Parameters {
			d.axes = append(d.axes, s.Parameters[i].points())
		}
	case "latin-hypercube":
		for k := range s.Parameters {
			d.perms = append(d.perms, permutation(n, newRand(s.Seed, 1<<32+uint64(k))))
		}
	}
	return d, nil
}

// values returns the values of run i (0 <= i < n), one per parameter. A grid runs its
// last parameter fastest; random designs draw from PCG streams keyed by the seed and the
// run (Monte Carlo) or the parameter (the Latin hypercube's permutations), so a shard
// computes its runs without the others.
func (d *design) values(i int) []Value {
	s := d.spec
	out := make([]Value, len(s.Parameters))
	switch s.Design {
	case "grid":
		rest := i
		for k := len(d.axes) - 1; k >= 0; k-- {
			out[k] = d.axes[k][rest%len(d.axes[k])]
			rest /= len(d.axes[k])
		}
	case "list":
		for k := range d.axes {
			out[k] = d.axes[k][i]
		}
	case "monte-carlo":
		r := newRand(s.Seed, uint64(i))
		for k := range out {
			out[k] = Value{Num: s.Parameters[k].at(uniform(r))}
		}
	case "latin-hypercube":
		r := newRand(s.Seed, uint64(i))
		for k := range out {
			u := (float64(d.perms[k][i]) + uniform(r)) / float64(d.n)
			out[k] = Value{Num: s.Parameters[k].at(min(u, math.Nextafter(1, 0)))}
		}
	}
	return out
}

// newRand is the PCG-DXSM stream (seed, stream): a specified generator, so the draws are
// the same on every machine and Go release.
func newRand(seed, stream uint64) *rand.PCG { return rand.NewPCG(seed, stream) }

// uniform draws from [0, 1) with the top 53 bits of one PCG output.
func uniform(r *rand.PCG) float64 { return float64(r.Uint64()>>11) * 0x1p-53 }

// permutation is a Fisher-Yates shuffle of 0..n-1 drawn from r (indices by a 128-bit
// multiply, whose bias below 2^-40 for n <= MaxLatinRuns does not matter here), written
// out so that it does not depend on math/rand's algorithms.
func permutation(n int, r *rand.PCG) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	for i := n - 1; i > 0; i-- {
		j, _ := bits.Mul64(r.Uint64(), uint64(i+1))
		p[i], p[j] = p[j], p[i]
	}
	return p
}
