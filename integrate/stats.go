package integrate

// Stats counts the work of a run, in the units of the IVP test-set reports.
type Stats struct {
	Steps          int `json:"steps"`           // accepted steps
	Rejected       int `json:"rejected"`        // attempts rejected by the error test
	NewtonFailures int `json:"newton_failures"` // attempts abandoned because Newton did not converge
	NewtonIters    int `json:"newton_iters"`    // all Newton iterations, rejected attempts included
	FuncEvals      int `json:"f_evals"`         // right-side evaluations (one: M, f, G, γ at one point), not counting FD Jacobians
	FDEvals        int `json:"fd_evals"`        // System evaluations spent on finite-difference Jacobians
	Jacobians      int `json:"jacobians"`       // iteration-matrix assemblies, analytic or FD
	Factorizations int `json:"factorizations"`  // LU factorizations (iteration and KKT matrices)
	Solves         int `json:"solves"`          // forward/back substitutions
	Projections    int `json:"projections"`     // position/velocity projections onto the constraint manifold
	Repartitions   int `json:"repartitions"`    // changes of the dependent/independent partition (seed 000, eqs. 7-8; coordinate-partitioning methods)
}

// Add returns the sum of s and o.
func (s Stats) Add(o Stats) Stats {
	return Stats{
		Steps: s.Steps + o.Steps, Rejected: s.Rejected + o.Rejected,
		NewtonFailures: s.NewtonFailures + o.NewtonFailures, NewtonIters: s.NewtonIters + o.NewtonIters,
		FuncEvals: s.FuncEvals + o.FuncEvals, FDEvals: s.FDEvals + o.FDEvals,
		Jacobians: s.Jacobians + o.Jacobians, Factorizations: s.Factorizations + o.Factorizations,
		Solves: s.Solves + o.Solves, Projections: s.Projections + o.Projections,
		Repartitions: s.Repartitions + o.Repartitions,
	}
}
