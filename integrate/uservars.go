package integrate

import (
	"fmt"

	"linkage/dae"
)

// UserVariableSeries evaluates the user variables of sys (dae.UserVariables, seed 004
// eq. 8b) at every sample of sol: V[i] = v(T[i], Q[i], V[i], X[i]). They are computed
// channels, exact at each sampled state, so they need no integration (see
// dae.UserVariables). It returns the names and the series, or an error when sys has no user
// variables or sol kept no samples (a run with SolveOptions.Sample).
func UserVariableSeries(sys dae.System, sol *Solution) (names []string, series [][]float64, err error) {
	uv, ok := sys.(dae.UserVariables)
	if !ok {
		return nil, nil, fmt.Errorf("integrate: the system (%T) has no user variables (dae.UserVariables)", sys)
	}
	if len(sol.T) == 0 || sol.Q == nil {
		return nil, nil, fmt.Errorf("integrate: solution %q kept no samples to evaluate user variables at", sol.Method)
	}
	names = uv.UserVariableNames()
	series = make([][]float64, len(sol.T))
	for i, t := range sol.T {
		var x []float64
		if sol.X != nil {
			x = sol.X[i]
		}
		series[i] = make([]float64, len(names))
		uv.UserVariables(series[i], t, sol.Q[i], sol.V[i], x)
	}
	return names, series, nil
}
